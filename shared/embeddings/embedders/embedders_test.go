package embedders_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/embedders"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	cfg, err := embedders.ConfigFromEnv(env(map[string]string{
		"AGENTMEM_EMBEDDINGS": "openai", "AGENTMEM_EMBEDDINGS_MODEL": "nomic-embed-text",
		"AGENTMEM_EMBEDDINGS_ENDPOINT": "http://localhost:11434/v1", "AGENTMEM_EMBEDDINGS_DIMENSIONS": "768",
		"AGENTMEM_EMBEDDINGS_TIMEOUT": "1500ms", "OPENAI_API_KEY": "sk-env",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := embeddings.Config{Provider: "openai", Model: "nomic-embed-text", Endpoint: "http://localhost:11434/v1", APIKey: "sk-env", Dimensions: 768, Timeout: 1500 * time.Millisecond}
	if cfg != want {
		t.Errorf("got %+v, want %+v", cfg, want)
	}
	if cfg, _ := embedders.ConfigFromEnv(env(nil)); cfg.Provider != embeddings.ProviderNone {
		t.Errorf("unset: got provider %q, want none", cfg.Provider)
	}
	for _, bad := range []map[string]string{
		{"AGENTMEM_EMBEDDINGS_DIMENSIONS": "-1"},
		{"AGENTMEM_EMBEDDINGS_DIMENSIONS": "lots"},
		{"AGENTMEM_EMBEDDINGS_DIMENSIONS": "70000"},
		{"AGENTMEM_EMBEDDINGS_TIMEOUT": "3"},
		{"AGENTMEM_EMBEDDINGS_TIMEOUT": "-2s"},
	} {
		if _, err := embedders.ConfigFromEnv(env(bad)); err == nil {
			t.Errorf("%v: got no error", bad)
		}
	}
}

func TestNewPicksTheProvider(t *testing.T) {
	t.Parallel()
	// The process's AWS configuration, as awsconfig.Load gives it; the
	// region of Bedrock comes from the embeddings configuration.
	awsCfg := aws.Config{Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")}
	tests := []struct {
		cfg      embeddings.Config
		name     string
		dims     int
		errorHas string
	}{
		{embeddings.Config{Provider: "none"}, "", 0, ""},
		{embeddings.Config{}, "", 0, ""},
		{embeddings.Config{Provider: "hashing", Dimensions: 256}, "hashing-v1-256", 256, ""},
		{embeddings.Config{Provider: "openai", Model: "text-embedding-3-small", Dimensions: 512}, "openai:text-embedding-3-small", 512, ""},
		{embeddings.Config{Provider: "bedrock", Region: "eu-west-1"}, "bedrock:amazon.titan-embed-text-v2:0", 1024, ""},
		{embeddings.Config{Provider: "bedrock", Region: "eu-west-1", Dimensions: 300}, "", 0, "256, 512 or 1024"},
		{embeddings.Config{Provider: "openai"}, "", 0, "AGENTMEM_EMBEDDINGS_MODEL"},
		{embeddings.Config{Provider: "cohere"}, "", 0, "want one of bedrock, openai, hashing, none"},
	}
	for _, tt := range tests {
		e, err := embedders.New(tt.cfg, awsCfg)
		switch {
		case tt.errorHas != "":
			if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
				t.Errorf("%+v: got %v, want an error about %q", tt.cfg, err, tt.errorHas)
			}
		case err != nil:
			t.Errorf("%+v: %v", tt.cfg, err)
		case tt.name == "":
			if e != nil {
				t.Errorf("%+v: got %s, want no embedder", tt.cfg, e.Name())
			}
		case e == nil || e.Name() != tt.name || e.Dimensions() != tt.dims:
			t.Errorf("%+v: got %v, want %s with %d dims", tt.cfg, e, tt.name, tt.dims)
		}
	}
}

// TestBedrockTakesTheAWSConfiguration: without a region in the embeddings
// configuration, Bedrock embeds in the AWS configuration's region, and
// without one anywhere it is refused at start-up.
func TestBedrockTakesTheAWSConfiguration(t *testing.T) {
	t.Parallel()
	creds := credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")
	e, err := embedders.New(embeddings.Config{Provider: "bedrock"}, aws.Config{Region: "ap-south-1", Credentials: creds})
	if err != nil || e.Name() != "bedrock:amazon.titan-embed-text-v2:0" {
		t.Errorf("region from the AWS configuration: got %v, %v", e, err)
	}
	if _, err := embedders.New(embeddings.Config{Provider: "bedrock"}, aws.Config{Credentials: creds}); err == nil || !strings.Contains(err.Error(), "AWS_REGION") {
		t.Errorf("no region: got %v, want an error naming AWS_REGION", err)
	}
	if e, err := embedders.FromEnv(func(k string) string { return map[string]string{"AGENTMEM_EMBEDDINGS": "word2vec"}[k] }, aws.Config{}); err == nil || e != nil || !strings.Contains(err.Error(), "AGENTMEM_EMBEDDINGS") {
		t.Errorf("unknown provider: got %v, %v; want no embedder and an error naming AGENTMEM_EMBEDDINGS", e, err)
	}
}
