package hashing

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/search"
)

// embedder is the interface of package embeddings, restated so this test
// checks that Embedder satisfies it.
type embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dimensions() int
	Name() string
}

var _ embedder = (*Embedder)(nil)

func TestNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dims     int
		wantDims int
		wantName string
	}{
		{0, 1024, "hashing-v1-1024"},
		{-3, 1024, "hashing-v1-1024"},
		{256, 256, "hashing-v1-256"},
	}
	for _, tt := range tests {
		e := New(tt.dims)
		if got := e.Dimensions(); got != tt.wantDims {
			t.Errorf("New(%d).Dimensions() = %d, want %d", tt.dims, got, tt.wantDims)
		}
		if got := e.Name(); got != tt.wantName {
			t.Errorf("New(%d).Name() = %q, want %q", tt.dims, got, tt.wantName)
		}
	}
}

func TestEmbed(t *testing.T) {
	t.Parallel()
	e := New(1024)
	texts := []string{
		"The payments service retries webhooks with exponential backoff",
		"payment service retrying webhook with backoff",
		"Terraform state lives in an S3 bucket with a lock table",
		"",
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("Embed returned %d vectors, want %d", len(vecs), len(texts))
	}
	for i, v := range vecs[:3] {
		if len(v) != 1024 {
			t.Fatalf("vector %d has %d dimensions, want 1024", i, len(v))
		}
		var sum float64
		for _, x := range v {
			sum += float64(x) * float64(x)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("vector %d has squared norm %v, want 1", i, sum)
		}
	}
	if slices.ContainsFunc(vecs[3], func(x float32) bool { return x != 0 }) {
		t.Errorf("empty text: got a non-zero vector, want zeros")
	}
	near, far := search.Cosine(vecs[0], vecs[1]), search.Cosine(vecs[0], vecs[2])
	if near < 0.5 || far > 0.2 || near <= far {
		t.Errorf("cosine(paraphrase) = %.3f, cosine(unrelated) = %.3f; want > 0.5 and < 0.2", near, far)
	}
	again, err := New(1024).Embed(context.Background(), texts[:1])
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if !slices.Equal(again[0], vecs[0]) {
		t.Errorf("Embed is not deterministic: two calls gave different vectors")
	}
}

func TestEmbedCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(8).Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Embed(cancelled) error = %v, want context.Canceled", err)
	}
}
