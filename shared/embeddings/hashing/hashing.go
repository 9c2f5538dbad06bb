// Package hashing is a deterministic embedder for tests and benchmarks: it
// needs no model and no network, and the same text always gets the same
// vector.
//
// A text's vector is built by feature hashing. Each token of
// search.Tokenize adds ±1 to one dimension, and each character trigram of
// each token (padded with '^' and '$', so "cache" gives ^ca, cac, ach, che,
// he$) adds ±0.5 to another; FNV-1a chooses the dimension and one bit of the
// same hash the sign, which keeps collisions from piling up in one
// direction. The vector is then L2-normalised. Similar wording gives similar
// vectors; synonyms do not, which is what a real model is for.
package hashing

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"

	"github.com/agentmem/agentmem/shared/search"
)

// DefaultDimensions is the number of dimensions New uses when given 0 or
// less: 1,024, the size of Bedrock Titan Text Embeddings V2 vectors.
const DefaultDimensions = 1024

// Weights of a token and of one of its trigrams.
const (
	tokenWeight   = 1.0
	trigramWeight = 0.5
)

// Embedder computes hashed embeddings. It is safe for concurrent use.
type Embedder struct {
	dims int
}

// New returns an embedder of dims dimensions (DefaultDimensions when
// dims <= 0).
func New(dims int) *Embedder {
	if dims <= 0 {
		dims = DefaultDimensions
	}
	return &Embedder{dims: dims}
}

// Dimensions returns the length of the vectors Embed returns.
func (e *Embedder) Dimensions() int { return e.dims }

// Name identifies the embedder and its size, so that vectors from another
// model or size are not compared with these.
func (e *Embedder) Name() string { return "hashing-v1-" + strconv.Itoa(e.dims) }

// Embed returns one L2-normalised vector per text, in order. A text with no
// tokens gets the zero vector. It fails only when ctx is done.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("hashing embed text %d of %d: %w", i+1, len(texts), err)
		}
		out[i] = e.Vector(t)
	}
	return out, nil
}

// Vector returns the embedding of one text.
func (e *Embedder) Vector(text string) []float32 {
	acc := make([]float64, e.dims)
	add := func(s string, w float64) {
		h := fnv.New64a()
		h.Write([]byte(s))
		v := h.Sum64()
		idx := (v >> 1) % uint64(e.dims)
		if v&1 == 1 {
			w = -w
		}
		acc[idx] += w
	}
	for _, tok := range search.Tokenize(text) {
		add(tok, tokenWeight)
		r := []rune("^" + tok + "$")
		for j := 0; j+3 <= len(r); j++ {
			add("#"+string(r[j:j+3]), trigramWeight)
		}
	}
	var sum float64
	for _, x := range acc {
		sum += x * x
	}
	vec := make([]float32, e.dims)
	if sum == 0 {
		return vec
	}
	norm := math.Sqrt(sum)
	for i, x := range acc {
		vec[i] = float32(x / norm)
	}
	return vec
}
