package llm

import (
	"fmt"
	"strconv"
	"time"
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

// ConfigFromEnv reads the LLM settings:
//
//	AGENTMEM_LLM            bedrock | anthropic | openai | claude | none (default none)
//	AGENTMEM_LLM_MODEL      model id
//	AGENTMEM_LLM_ENDPOINT   base URL override
//	AGENTMEM_LLM_API_KEY    API key (else OPENAI_API_KEY or ANTHROPIC_API_KEY)
//	AGENTMEM_LLM_REGION     AWS region for Bedrock (else AWS_REGION)
//	AGENTMEM_LLM_TIMEOUT    Go duration, e.g. 20s
//	AGENTMEM_LLM_MAX_TOKENS answer cap
//	AGENTMEM_CLAUDE_COMMAND the claude CLI (default claude)
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		Provider: getenv("AGENTMEM_LLM"),
		Model:    getenv("AGENTMEM_LLM_MODEL"),
		Endpoint: getenv("AGENTMEM_LLM_ENDPOINT"),
		APIKey:   getenv("AGENTMEM_LLM_API_KEY"),
		Region:   getenv("AGENTMEM_LLM_REGION"),
		Command:  getenv("AGENTMEM_CLAUDE_COMMAND"),
	}
	if cfg.Provider == "" {
		cfg.Provider = ProviderNone
	}
	if cfg.Region == "" {
		cfg.Region = getenv("AWS_REGION")
	}
	if cfg.APIKey == "" {
		switch cfg.Provider {
		case ProviderOpenAI:
			cfg.APIKey = getenv("OPENAI_API_KEY")
		case ProviderAnthropic:
			cfg.APIKey = getenv("ANTHROPIC_API_KEY")
		}
	}
	if v := getenv("AGENTMEM_LLM_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("AGENTMEM_LLM_TIMEOUT=%q: want a positive Go duration such as 20s", v)
		}
		cfg.Timeout = d
	}
	if v := getenv("AGENTMEM_LLM_MAX_TOKENS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return cfg, fmt.Errorf("AGENTMEM_LLM_MAX_TOKENS=%q: want a positive integer", v)
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
