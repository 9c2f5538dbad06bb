package embeddings_test

import (
	"math/rand/v2"
	"testing"

	"github.com/agentmem/agentmem/shared/embeddings"
)

// BenchmarkDecodeFor1024 decodes one stored 1,024-dimension vector, as a
// search that is not served from the cache does for every memory.
func BenchmarkDecodeFor1024(b *testing.B) {
	const name = "bedrock:amazon.titan-embed-text-v2:0"
	enc, err := embeddings.Encode(name, randomVector(rand.New(rand.NewPCG(3, 4)), 1024))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if len(embeddings.DecodeFor(enc, name)) != 1024 {
			b.Fatal("not decoded")
		}
	}
}

// BenchmarkEncode1024 encodes one 1,024-dimension vector, as every memory
// write with an embedder does.
func BenchmarkEncode1024(b *testing.B) {
	vec := randomVector(rand.New(rand.NewPCG(3, 4)), 1024)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := embeddings.Encode("m", vec); err != nil {
			b.Fatal(err)
		}
	}
}
