// Package providers builds the llm.Client that configuration selects. It
// imports every provider (and so their SDKs); only the functions that
// need a model (extraction, dream) and the dev server import it, so that
// the other Lambda binaries stay small.
package providers

import (
	"fmt"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/anthropic"
	"github.com/agentmem/agentmem/shared/llm/bedrock"
	"github.com/agentmem/agentmem/shared/llm/claude"
	"github.com/agentmem/agentmem/shared/llm/openai"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/aws/aws-sdk-go-v2/aws"
)

// New returns the client cfg selects, wrapped in the default Retry policy
// (none is not wrapped). Bedrock uses awsCfg, the process's AWS
// configuration (awsconfig.Load). Missing required settings (a model, an
// API key, a region, the claude CLI) are reported here, at start-up, not
// on the first call.
func New(cfg llm.Config, awsCfg aws.Config) (llm.Client, error) {
	var (
		c   llm.Client
		err error
	)
	switch cfg.Provider {
	case "", llm.ProviderNone:
		return llm.Disabled{}, nil
	case llm.ProviderOpenAI:
		c, err = nonNil(openai.New(cfg))
	case llm.ProviderBedrock:
		c, err = nonNil(bedrock.New(awsCfg, cfg))
	case llm.ProviderAnthropic:
		c, err = nonNil(anthropic.New(cfg))
	case llm.ProviderClaude:
		c, err = nonNil(claude.New(cfg))
	default:
		return nil, fmt.Errorf("%s=%q: want one of bedrock, anthropic, openai, claude, none", settings.LLM, cfg.Provider)
	}
	if err != nil {
		return nil, err
	}
	return llm.WithRetry(c), nil
}

// FromEnv is New with the configuration llm.ConfigFromEnv reads; its
// signature is lambdamain.WithLLM's.
func FromEnv(getenv func(string) string, awsCfg aws.Config) (llm.Client, error) {
	cfg, err := llm.ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	c, err := New(cfg, awsCfg)
	if err != nil {
		return nil, fmt.Errorf("configure LLM: %w", err)
	}
	return c, nil
}

// nonNil turns a constructor's (typed nil, error) into (nil Client, error),
// so that a failed constructor never yields a non-nil interface.
func nonNil[T llm.Client](c T, err error) (llm.Client, error) {
	if err != nil {
		return nil, err
	}
	return c, nil
}
