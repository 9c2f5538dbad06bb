package embeddings_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestConfigFromEnv(t *testing.T) {
	cfg, err := embeddings.ConfigFromEnv(env(map[string]string{
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
	if cfg, _ := embeddings.ConfigFromEnv(env(nil)); cfg.Provider != embeddings.ProviderNone {
		t.Errorf("unset: got provider %q, want none", cfg.Provider)
	}
	for _, bad := range []map[string]string{
		{"AGENTMEM_EMBEDDINGS_DIMENSIONS": "-1"},
		{"AGENTMEM_EMBEDDINGS_DIMENSIONS": "lots"},
		{"AGENTMEM_EMBEDDINGS_DIMENSIONS": "70000"},
		{"AGENTMEM_EMBEDDINGS_TIMEOUT": "3"},
		{"AGENTMEM_EMBEDDINGS_TIMEOUT": "-2s"},
	} {
		if _, err := embeddings.ConfigFromEnv(env(bad)); err == nil {
			t.Errorf("%v: got no error", bad)
		}
	}
}

func TestNewPicksTheProvider(t *testing.T) {
	ctx := context.Background()
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
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
		e, err := embeddings.New(ctx, tt.cfg)
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

// TestErrorsNameTheEmbeddingsService: embedders share llm's error type,
// but their failures say they are embeddings failures.
func TestErrorsNameTheEmbeddingsService(t *testing.T) {
	_, err := embeddings.NewOpenAI(embeddings.Config{Model: "m", Endpoint: "ftp://nowhere"})
	if err == nil || !strings.HasPrefix(err.Error(), "openai embeddings:") {
		t.Errorf("bad endpoint: got %v", err)
	}
	c, err := embeddings.NewOpenAI(embeddings.Config{Model: "m", Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Embed(context.Background(), []string{"text"})
	if embeddings.KindOf(err) != embeddings.KindServer || !strings.HasPrefix(err.Error(), "embeddings openai: server") {
		t.Errorf("unreachable endpoint: got %v (kind %q)", err, embeddings.KindOf(err))
	}
}
