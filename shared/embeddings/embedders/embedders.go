// Package embedders builds the embeddings.Embedder that configuration
// selects (AGENTMEM_EMBEDDINGS). It imports every provider; only the
// binaries that write or search memories (the memories, extraction and
// dream functions, the dev server) import it, so that the others link
// none.
package embedders

import (
	"fmt"
	"strconv"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/bedrock"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/embeddings/openai"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/aws/aws-sdk-go-v2/aws"
)

var _ embeddings.Embedder = (*hashing.Embedder)(nil)

// ConfigFromEnv reads the embeddings settings through getenv:
// AGENTMEM_EMBEDDINGS (default none), AGENTMEM_EMBEDDINGS_MODEL,
// AGENTMEM_EMBEDDINGS_ENDPOINT, AGENTMEM_EMBEDDINGS_DIMENSIONS,
// AGENTMEM_EMBEDDINGS_API_KEY (else OPENAI_API_KEY for openai),
// AGENTMEM_EMBEDDINGS_TIMEOUT (a Go duration) and AWS_REGION; shared/settings
// documents each.
func ConfigFromEnv(getenv func(string) string) (embeddings.Config, error) {
	cfg := embeddings.Config{
		Provider: settings.Embeddings.Or(getenv, embeddings.ProviderNone),
		Model:    settings.EmbeddingsModel.Get(getenv),
		Endpoint: settings.EmbeddingsEndpoint.Get(getenv),
		APIKey:   settings.EmbeddingsAPIKey.Get(getenv),
		Region:   settings.AWSRegion.Get(getenv),
	}
	if cfg.APIKey == "" && cfg.Provider == embeddings.ProviderOpenAI {
		cfg.APIKey = settings.OpenAIAPIKey.Get(getenv)
	}
	if v := settings.EmbeddingsDimensions.Get(getenv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || n > embeddings.MaxDimensions {
			return cfg, fmt.Errorf("%s=%q: want a positive integer up to %d", settings.EmbeddingsDimensions, v, embeddings.MaxDimensions)
		}
		cfg.Dimensions = n
	}
	if v := settings.EmbeddingsTimeout.Get(getenv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("%s=%q: want a positive Go duration such as 2s", settings.EmbeddingsTimeout, v)
		}
		cfg.Timeout = d
	}
	return cfg, nil
}

// New returns the embedder cfg selects, or nil for none: callers treat a
// nil Embedder as "lexical search only". Bedrock uses awsCfg, the
// process's AWS configuration (awsconfig.Load). Missing or invalid
// settings are reported here, at start-up, not on the first write.
func New(cfg embeddings.Config, awsCfg aws.Config) (embeddings.Embedder, error) {
	switch cfg.Provider {
	case "", embeddings.ProviderNone:
		return nil, nil
	case embeddings.ProviderHashing:
		return hashing.New(cfg.Dimensions), nil
	case embeddings.ProviderOpenAI:
		return nonNil(openai.New(cfg))
	case embeddings.ProviderBedrock:
		return nonNil(bedrock.New(awsCfg, cfg))
	}
	return nil, fmt.Errorf("%s=%q: want one of bedrock, openai, hashing, none", settings.Embeddings, cfg.Provider)
}

// FromEnv is New with the configuration ConfigFromEnv reads; its
// signature is lambdamain.WithEmbedder's.
func FromEnv(getenv func(string) string, awsCfg aws.Config) (embeddings.Embedder, error) {
	cfg, err := ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	e, err := New(cfg, awsCfg)
	if err != nil {
		return nil, fmt.Errorf("configure embeddings: %w", err)
	}
	return e, nil
}

// nonNil turns a constructor's (typed nil, error) into (nil Embedder,
// error), so that a failed constructor never yields a non-nil interface.
func nonNil[T embeddings.Embedder](e T, err error) (embeddings.Embedder, error) {
	if err != nil {
		return nil, err
	}
	return e, nil
}
