package search_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/search"
)

// benchQuery is a typical search: a few words, one of them rare.
const benchQuery = "stripe webhook retries with exponential backoff"

var (
	benchOnce sync.Once
	benchDocs []search.Doc
	benchVec  []float32
)

// benchCorpus returns 10,000 documents with 1,024-dimension vectors, made
// by pairing memories of the retrieval set (each document is one memory's
// full text plus another's content, about 400 bytes), and the query
// vector.
func benchCorpus(b *testing.B) ([]search.Doc, []float32) {
	b.Helper()
	benchOnce.Do(func() {
		set := loadRetrievalSet(b)
		ms := set.Memories
		texts := make([]string, 10_000)
		for i := range texts {
			texts[i] = search.MemoryText(ms[i%len(ms)]) + "\n" + ms[(i*7+3)%len(ms)].Content
		}
		emb := hashing.New(1024)
		vecs, err := emb.Embed(context.Background(), append(texts, benchQuery))
		if err != nil {
			b.Fatalf("embed: %v", err)
		}
		benchDocs = make([]search.Doc, len(texts))
		for i, t := range texts {
			benchDocs[i] = search.Doc{ID: fmt.Sprintf("m%05d", i), Text: t, Vector: vecs[i]}
		}
		benchVec = vecs[len(texts)]
	})
	return benchDocs, benchVec
}

func reportMS(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
}

// BenchmarkLexical10k is BM25 over 10,000 memories, tokenizing every one:
// the whole cost of a lexical search once the memories are loaded.
func BenchmarkLexical10k(b *testing.B) {
	docs, _ := benchCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(search.Lexical(benchQuery, docs)) == 0 {
			b.Fatal("no hits")
		}
	}
	reportMS(b)
}

// BenchmarkSemantic10k is cosine similarity against 10,000 vectors of
// 1,024 dimensions.
func BenchmarkSemantic10k(b *testing.B) {
	docs, vec := benchCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(search.Semantic(vec, docs)) == 0 {
			b.Fatal("no hits")
		}
	}
	reportMS(b)
}

// BenchmarkHybrid10k is Rank with a query and a vector: BM25, cosine and
// reciprocal rank fusion over 10,000 memories, top 10.
func BenchmarkHybrid10k(b *testing.B) {
	docs, vec := benchCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(search.Rank(benchQuery, vec, docs, 10)) != 10 {
			b.Fatal("want 10 hits")
		}
	}
	reportMS(b)
}

var (
	benchIndexOnce sync.Once
	benchIndex     *search.Index
)

func benchIx(b *testing.B) (*search.Index, []float32) {
	docs, vec := benchCorpus(b)
	benchIndexOnce.Do(func() { benchIndex = search.NewIndex(docs) })
	return benchIndex, vec
}

// BenchmarkNewIndex10k builds the index of 10,000 memories: tokenizing
// them and computing their vector norms.
func BenchmarkNewIndex10k(b *testing.B) {
	docs, _ := benchCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		search.NewIndex(docs)
	}
	reportMS(b)
}

// BenchmarkIndexLexical10k is BM25 scoring alone over 10,000 indexed
// memories.
func BenchmarkIndexLexical10k(b *testing.B) {
	ix, _ := benchIx(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(ix.Lexical(benchQuery)) == 0 {
			b.Fatal("no hits")
		}
	}
	reportMS(b)
}

// BenchmarkIndexSemantic10k is cosine scoring alone over 10,000 indexed
// memories with 1,024-dimension vectors, all hits sorted.
func BenchmarkIndexSemantic10k(b *testing.B) {
	ix, vec := benchIx(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(ix.Semantic(vec)) == 0 {
			b.Fatal("no hits")
		}
	}
	reportMS(b)
}

// BenchmarkIndexHybrid10k is hybrid scoring alone over 10,000 indexed
// memories: BM25, cosine over 1,024 dimensions, fusion, top 10.
func BenchmarkIndexHybrid10k(b *testing.B) {
	ix, vec := benchIx(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(ix.Rank(benchQuery, vec, 10)) != 10 {
			b.Fatal("want 10 hits")
		}
	}
	reportMS(b)
}

// BenchmarkIndexHybridFull10k is BenchmarkIndexHybrid10k fusing the full
// rankings (limit 0) instead of their top FuseWindow.
func BenchmarkIndexHybridFull10k(b *testing.B) {
	ix, vec := benchIx(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(ix.Rank(benchQuery, vec, 0)) == 0 {
			b.Fatal("no hits")
		}
	}
	reportMS(b)
}

// BenchmarkTokenize tokenizes one memory of about 400 bytes.
func BenchmarkTokenize(b *testing.B) {
	docs, _ := benchCorpus(b)
	text := docs[0].Text
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		search.Tokenize(text)
	}
}

// BenchmarkDedupFind1000 is the duplicate check of one incoming memory
// against a scope of 1,000 (the default memory limit), its prints already
// computed (NewDedup), as a create pays it.
func BenchmarkDedupFind1000(b *testing.B) {
	ms := make([]agentmem.Memory, 1000)
	for i := range ms {
		ms[i] = agentmem.Memory{ID: fmt.Sprint(i), Type: agentmem.Types[i%5], Content: fmt.Sprintf("Finding %d: the payments service retries webhooks %d times with exponential backoff in `svc-%d`", i, i%7, i)}
	}
	d := search.NewDedup(ms)
	in := agentmem.Memory{Type: agentmem.TypeFinding, Content: "The checkout service calls the payments API with an idempotency key on every POST"}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := d.Find(in); ok {
			b.Fatal("found a repeat")
		}
	}
}

// BenchmarkNewDedup1000 is the cost of preparing 1,000 memories for
// duplicate checks (what a create pays on a cache miss).
func BenchmarkNewDedup1000(b *testing.B) {
	ms := make([]agentmem.Memory, 1000)
	for i := range ms {
		ms[i] = agentmem.Memory{ID: fmt.Sprint(i), Type: agentmem.Types[i%5], Content: fmt.Sprintf("Finding %d: the payments service retries webhooks %d times with exponential backoff in `svc-%d`", i, i%7, i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		search.NewDedup(ms)
	}
}
