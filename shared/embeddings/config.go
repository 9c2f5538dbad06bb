package embeddings

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Providers.
const (
	ProviderNone    = "none"
	ProviderBedrock = "bedrock"
	ProviderOpenAI  = "openai"
	// ProviderHashing is the deterministic feature-hashing embedder: no
	// model, no network; for tests and for trying hybrid search locally.
	ProviderHashing = "hashing"
)

// Defaults.
const (
	// DefaultTimeout bounds one Embed call. Vectors are computed on the
	// write path and on every semantic search, so it is short: a slow
	// provider leaves a memory searchable lexically rather than holding
	// up the write.
	DefaultTimeout = 3 * time.Second
	// DefaultBedrockModel is Amazon Titan Text Embeddings V2.
	DefaultBedrockModel = "amazon.titan-embed-text-v2:0"
	// DefaultBedrockDimensions is Titan V2's default vector length.
	DefaultBedrockDimensions = 1024
)

// Config selects and configures an embeddings provider.
type Config struct {
	// Provider is one of the Provider constants; "" means none.
	Provider string
	// Model is the Bedrock model id (or inference profile) or the
	// OpenAI-compatible model name (e.g. nomic-embed-text for Ollama).
	Model string
	// Endpoint overrides the provider's URL: the OpenAI-compatible API
	// base (http://localhost:11434/v1 for Ollama) or the Bedrock runtime
	// endpoint.
	Endpoint string
	// APIKey authenticates to OpenAI-compatible endpoints.
	APIKey string
	// Region is the AWS region for Bedrock (default: the SDK's chain).
	Region string
	// Dimensions is the vector length to ask for: 256, 512 or 1024 for
	// Titan V2 (default 1024); for OpenAI-compatible models it is sent as
	// "dimensions" only when set; for hashing it defaults to 1024.
	Dimensions int
	// Timeout bounds one Embed call (default DefaultTimeout).
	Timeout time.Duration
}

func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// ConfigFromEnv reads the embeddings settings:
//
//	AGENTMEM_EMBEDDINGS            bedrock | openai | hashing | none (default none)
//	AGENTMEM_EMBEDDINGS_MODEL      model id (bedrock default amazon.titan-embed-text-v2:0)
//	AGENTMEM_EMBEDDINGS_ENDPOINT   base URL override
//	AGENTMEM_EMBEDDINGS_DIMENSIONS vector length
//	AGENTMEM_EMBEDDINGS_API_KEY    API key (else OPENAI_API_KEY for openai)
//	AGENTMEM_EMBEDDINGS_TIMEOUT    Go duration per call, e.g. 2s (default 3s)
//	AWS_REGION                     Bedrock region
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		Provider: getenv("AGENTMEM_EMBEDDINGS"),
		Model:    getenv("AGENTMEM_EMBEDDINGS_MODEL"),
		Endpoint: getenv("AGENTMEM_EMBEDDINGS_ENDPOINT"),
		APIKey:   getenv("AGENTMEM_EMBEDDINGS_API_KEY"),
		Region:   getenv("AWS_REGION"),
	}
	if cfg.Provider == "" {
		cfg.Provider = ProviderNone
	}
	if cfg.APIKey == "" && cfg.Provider == ProviderOpenAI {
		cfg.APIKey = getenv("OPENAI_API_KEY")
	}
	if v := getenv("AGENTMEM_EMBEDDINGS_DIMENSIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || n > MaxDimensions {
			return cfg, fmt.Errorf("AGENTMEM_EMBEDDINGS_DIMENSIONS=%q: want a positive integer up to %d", v, MaxDimensions)
		}
		cfg.Dimensions = n
	}
	if v := getenv("AGENTMEM_EMBEDDINGS_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("AGENTMEM_EMBEDDINGS_TIMEOUT=%q: want a positive Go duration such as 2s", v)
		}
		cfg.Timeout = d
	}
	return cfg, nil
}

// New returns the embedder cfg selects, or nil for none: callers treat a
// nil Embedder as "lexical search only". Missing or invalid settings are
// reported here, at start-up, not on the first write.
func New(ctx context.Context, cfg Config) (Embedder, error) {
	switch cfg.Provider {
	case "", ProviderNone:
		return nil, nil
	case ProviderHashing:
		return hashing.New(cfg.Dimensions), nil
	case ProviderOpenAI:
		return NewOpenAI(cfg)
	case ProviderBedrock:
		var opts []func(*config.LoadOptions) error
		if cfg.Region != "" {
			opts = append(opts, config.WithRegion(cfg.Region))
		}
		awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("bedrock embeddings: load AWS config: %w", err)
		}
		return NewBedrock(awsCfg, cfg)
	}
	return nil, fmt.Errorf("AGENTMEM_EMBEDDINGS=%q: want one of bedrock, openai, hashing, none", cfg.Provider)
}

// FromEnv is New with the configuration ConfigFromEnv reads.
func FromEnv(ctx context.Context, getenv func(string) string) (Embedder, error) {
	cfg, err := ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	e, err := New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("configure embeddings: %w", err)
	}
	return e, nil
}

var _ Embedder = (*hashing.Embedder)(nil)
