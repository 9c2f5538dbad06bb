package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/search"
)

// TestIndexAgrees checks that an Index ranks exactly as the package
// functions do, on every query of the retrieval set, and that the top-k
// shortcuts of Rank return a prefix of the full ranking.
func TestIndexAgrees(t *testing.T) {
	t.Parallel()
	set := loadRetrievalSet(t)
	emb := hashing.New(256)
	docs := make([]search.Doc, len(set.Memories))
	for i, m := range set.Memories {
		docs[i] = search.MemoryDoc(m, emb.Vector(search.MemoryText(m)))
	}
	docs[3].Vector = nil // one memory without an embedding
	ix := search.NewIndex(docs)
	if got := ix.Len(); got != len(docs) {
		t.Fatalf("Len() = %d, want %d", got, len(docs))
	}
	for _, q := range set.Queries {
		vecs, err := emb.Embed(context.Background(), []string{q.Query})
		if err != nil {
			t.Fatalf("embed: %v", err)
		}
		vec := vecs[0]
		if got, want := ix.Lexical(q.Query), search.Lexical(q.Query, docs); !slices.Equal(got, want) {
			t.Errorf("%s: Index.Lexical = %v, want %v", q.ID, got, want)
		}
		full := search.Semantic(vec, docs)
		if got := ix.Semantic(vec); !slices.Equal(got, full) {
			t.Errorf("%s: Index.Semantic = %v, want %v", q.ID, got, full)
		}
		// Semantic ranking is the full ranking cut at SemanticCutoff of
		// the best similarity.
		var kept []search.Hit
		for _, h := range full[:7] {
			if h.Score >= search.SemanticCutoff*full[0].Score {
				kept = append(kept, h)
			}
		}
		if got := search.Rank("", vec, docs, 7); !slices.Equal(got, kept) {
			t.Errorf("%s: Rank(semantic, 7) = %v, want %v", q.ID, got, kept)
		}
		hybrid := search.Rank(q.Query, vec, docs, 10)
		if got := ix.Rank(q.Query, vec, 10); !slices.Equal(got, hybrid) {
			t.Errorf("%s: Index.Rank = %v, want %v", q.ID, got, hybrid)
		}
		// The fusion window leaves the head of the ranking alone.
		if got, want := hybrid[:3], search.Rank(q.Query, vec, docs, 0)[:3]; !slices.Equal(ids(got), ids(want)) {
			t.Errorf("%s: Rank(limit 10) starts %v, want the top 3 of the full fusion %v", q.ID, ids(got), ids(want))
		}
	}
	if got := search.NewIndex(nil).Rank("webhook", []float32{1}, 5); got != nil {
		t.Errorf("empty index: Rank = %v, want nil", got)
	}
}

func ids(hits []search.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
