package lambdamain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/lambdamain"
)

func TestDepsFromEnvWiresEmbedderAndLimit(t *testing.T) {
	env := map[string]string{
		"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", "AWS_REGION": "eu-west-1",
		"AGENTMEM_EMBEDDINGS": "hashing", "AGENTMEM_EMBEDDINGS_DIMENSIONS": "256", "AGENTMEM_MEMORY_LIMIT": "42",
	}
	getenv := func(k string) string { return env[k] }
	deps, err := lambdamain.DepsFromEnv(context.Background(), getenv, nil, nil)
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
	deps, err = lambdamain.DepsFromEnv(context.Background(), getenv, nil, nil)
	if err != nil || deps.Embedder != nil || deps.Store.Embedder != nil || deps.Store.ScopeLimit() != agentmem.DefaultMemoryLimit {
		t.Errorf("defaults: embedder %v, limit %d, %v; want none and %d", deps.Embedder, deps.Store.ScopeLimit(), err, agentmem.DefaultMemoryLimit)
	}

	for k, v := range map[string]string{"AGENTMEM_MEMORY_LIMIT": "0", "AGENTMEM_EMBEDDINGS": "word2vec", "AGENTMEM_EMBEDDINGS_TIMEOUT": "soon"} {
		bad := map[string]string{"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", k: v}
		_, err := lambdamain.DepsFromEnv(context.Background(), func(k string) string { return bad[k] }, nil, nil)
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: got %v, want an error naming it", k, v, err)
		}
	}
}
