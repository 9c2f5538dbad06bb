package embeddings

import "time"

// Providers (Config.Provider).
const (
	ProviderNone    = "none"
	ProviderBedrock = "bedrock"
	ProviderOpenAI  = "openai"
	// ProviderHashing is the deterministic feature-hashing embedder: no
	// model, no network; for tests and for trying hybrid search locally.
	ProviderHashing = "hashing"
)

// DefaultTimeout bounds one Embed call. Vectors are computed on the write
// path and on every semantic search, so it is short: a slow provider
// leaves a memory searchable lexically rather than holding up the write.
const DefaultTimeout = 3 * time.Second

// Config selects and configures an embeddings provider
// (embedders.ConfigFromEnv reads it from AGENTMEM_EMBEDDINGS*).
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
	// Region is the AWS region for Bedrock (default: the AWS
	// configuration's).
	Region string
	// Dimensions is the vector length to ask for: 256, 512 or 1024 for
	// Titan V2 (default 1024); for OpenAI-compatible models it is sent as
	// "dimensions" only when set; for hashing it defaults to 1024.
	Dimensions int
	// Timeout bounds one Embed call, retries included (default
	// DefaultTimeout).
	Timeout time.Duration
}

// TimeoutOrDefault is the bound on one Embed call.
func (c Config) TimeoutOrDefault() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}
