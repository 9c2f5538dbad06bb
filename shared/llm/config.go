package llm

import (
	"fmt"
	"strconv"
	"time"

	"github.com/agentmem/agentmem/shared/settings"
)

// Providers.
const (
	ProviderNone      = "none"
	ProviderOpenAI    = "openai"
	ProviderBedrock   = "bedrock"
	ProviderAnthropic = "anthropic"
	ProviderClaude    = "claude"
)

// Defaults.
const (
	DefaultTimeout   = 60 * time.Second
	DefaultMaxTokens = 1024
)

// Config selects and configures a provider.
type Config struct {
	// Provider is one of the Provider constants; "" means none.
	Provider string
	// Model is the provider's model id (Bedrock model or inference
	// profile id, Anthropic model, OpenAI-compatible model name).
	Model string
	// Endpoint overrides the provider's base URL (OpenAI-compatible:
	// e.g. http://localhost:11434/v1 for Ollama; Anthropic: the API base).
	Endpoint string
	// APIKey authenticates to OpenAI-compatible and Anthropic endpoints.
	APIKey string
	// Region is the AWS region for Bedrock (default: the SDK's chain);
	// Bedrock may be called in another region than the function's.
	Region string
	// Command is the claude CLI to run (default "claude").
	Command string
	// Timeout bounds one completion (default DefaultTimeout).
	Timeout time.Duration
	// MaxTokens is the default answer cap (default DefaultMaxTokens).
	MaxTokens int
}

// ConfigFromEnv reads the LLM settings through getenv: AGENTMEM_LLM
// (default none), AGENTMEM_LLM_MODEL, AGENTMEM_LLM_ENDPOINT,
// AGENTMEM_LLM_API_KEY (else OPENAI_API_KEY or ANTHROPIC_API_KEY),
// AGENTMEM_LLM_REGION (else AWS_REGION), AGENTMEM_LLM_TIMEOUT (a Go
// duration), AGENTMEM_LLM_MAX_TOKENS and AGENTMEM_CLAUDE_COMMAND;
// shared/settings documents each.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		Provider: settings.LLM.Or(getenv, ProviderNone),
		Model:    settings.LLMModel.Get(getenv),
		Endpoint: settings.LLMEndpoint.Get(getenv),
		APIKey:   settings.LLMAPIKey.Get(getenv),
		Region:   settings.LLMRegion.Or(getenv, settings.AWSRegion.Get(getenv)),
		Command:  settings.ClaudeCommand.Get(getenv),
	}
	if cfg.APIKey == "" {
		switch cfg.Provider {
		case ProviderOpenAI:
			cfg.APIKey = settings.OpenAIAPIKey.Get(getenv)
		case ProviderAnthropic:
			cfg.APIKey = settings.AnthropicAPIKey.Get(getenv)
		}
	}
	if v := settings.LLMTimeout.Get(getenv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("%s=%q: want a positive Go duration such as 20s", settings.LLMTimeout, v)
		}
		cfg.Timeout = d
	}
	if v := settings.LLMMaxTokens.Get(getenv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return cfg, fmt.Errorf("%s=%q: want a positive integer", settings.LLMMaxTokens, v)
		}
		cfg.MaxTokens = n
	}
	return cfg, nil
}

// TimeoutOrDefault is the bound on one completion.
func (c Config) TimeoutOrDefault() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// MaxTokensFor is the answer cap for req: its own, else the configured
// default, else DefaultMaxTokens.
func (c Config) MaxTokensFor(req Request) int {
	switch {
	case req.MaxTokens > 0:
		return req.MaxTokens
	case c.MaxTokens > 0:
		return c.MaxTokens
	}
	return DefaultMaxTokens
}
