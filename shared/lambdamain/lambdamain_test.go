package lambdamain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings/embedders"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/providers"
)

var withEmbedder = lambdamain.WithEmbedder(embedders.FromEnv)

func TestDepsFromEnvWiresEmbedderAndLimit(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", "AWS_REGION": "eu-west-1",
		"AGENTMEM_EMBEDDINGS": "hashing", "AGENTMEM_EMBEDDINGS_DIMENSIONS": "256", "AGENTMEM_MEMORY_LIMIT": "42",
	}
	getenv := func(k string) string { return env[k] }
	deps, err := lambdamain.DepsFromEnv(context.Background(), getenv, nil, nil, withEmbedder)
	if err != nil {
		t.Fatal(err)
	}
	if deps.Embedder == nil || deps.Embedder.Name() != "hashing-v1-256" || deps.Store.Embedder != deps.Embedder {
		t.Errorf("embedder: deps %v, store %v; want hashing-v1-256 on both", deps.Embedder, deps.Store.Embedder)
	}
	if got := deps.Store.ScopeLimit(); got != 42 {
		t.Errorf("memory limit: got %d, want 42", got)
	}

	env["AGENTMEM_EMBEDDINGS"], env["AGENTMEM_MEMORY_LIMIT"] = "none", ""
	deps, err = lambdamain.DepsFromEnv(context.Background(), getenv, nil, nil, withEmbedder)
	if err != nil || deps.Embedder != nil || deps.Store.Embedder != nil || deps.Store.ScopeLimit() != agentmem.DefaultMemoryLimit {
		t.Errorf("defaults: embedder %v, limit %d, %v; want none and %d", deps.Embedder, deps.Store.ScopeLimit(), err, agentmem.DefaultMemoryLimit)
	}

	for k, v := range map[string]string{"AGENTMEM_MEMORY_LIMIT": "0", "AGENTMEM_EMBEDDINGS": "word2vec", "AGENTMEM_EMBEDDINGS_TIMEOUT": "soon"} {
		bad := map[string]string{"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", k: v}
		_, err := lambdamain.DepsFromEnv(context.Background(), func(k string) string { return bad[k] }, nil, nil, withEmbedder)
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: got %v, want an error naming it", k, v, err)
		}
	}
}

// TestDepsFromEnvBuildsOnlyWhatIsAskedFor: without options there is no
// model and no embedder, whatever the environment says, so a function
// that did not ask for them cannot use them by accident.
func TestDepsFromEnvBuildsOnlyWhatIsAskedFor(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", "AWS_REGION": "eu-west-1",
		"AGENTMEM_EMBEDDINGS": "hashing", "AGENTMEM_LLM": "openai", "AGENTMEM_LLM_MODEL": "m"}
	deps, err := lambdamain.DepsFromEnv(context.Background(), func(k string) string { return env[k] }, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if deps.Embedder != nil || deps.Store.Embedder != nil {
		t.Errorf("embedder: got %v, want none", deps.Embedder)
	}
	if _, ok := deps.LLM.(llm.Disabled); !ok {
		t.Errorf("LLM: got %v, want llm.Disabled", deps.LLM)
	}
	withLLM := lambdamain.WithLLM(providers.FromEnv)
	if deps, err = lambdamain.DepsFromEnv(context.Background(), func(k string) string { return env[k] }, nil, nil, withLLM); err != nil || deps.LLM.Name() != "openai:m" {
		t.Errorf("WithLLM: got %v, %v; want openai:m", deps.LLM, err)
	}
	env["AGENTMEM_LLM"] = "gpt"
	if _, err := lambdamain.DepsFromEnv(context.Background(), func(k string) string { return env[k] }, nil, nil, withLLM); err == nil || !strings.Contains(err.Error(), "AGENTMEM_LLM") {
		t.Errorf("bad AGENTMEM_LLM: got %v, want an error naming it", err)
	}
}
