package embeddings_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/search"
)

func randomVector(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func TestEncodeRoundTrip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		vec  []float32
	}{
		{"titan 1024", randomVector(r, 1024)},
		{"small 3", []float32{0.5, -0.25, 1}},
		{"one", []float32{-3}},
		{"zeros", make([]float32, 8)},
		{"tiny values", []float32{1e-30, -2e-30, 3e-30}},
		{"huge values", []float32{3e38, -3e38, 1}},
		{"max dims", randomVector(r, embeddings.MaxDimensions)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := embeddings.Encode("bedrock:amazon.titan-embed-text-v2:0", tt.vec)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(b), len(tt.vec)+8+len("bedrock:amazon.titan-embed-text-v2:0"); got != want {
				t.Errorf("encoded size: got %d bytes, want %d", got, want)
			}
			name, got, err := embeddings.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if name != "bedrock:amazon.titan-embed-text-v2:0" || len(got) != len(tt.vec) {
				t.Fatalf("got name %q and %d dims", name, len(got))
			}
			var maxAbs float64
			for _, x := range tt.vec {
				maxAbs = math.Max(maxAbs, math.Abs(float64(x)))
			}
			tol := maxAbs/127/2*1.0001 + 1e-45
			for i := range got {
				if d := math.Abs(float64(got[i]) - float64(tt.vec[i])); d > tol {
					t.Fatalf("component %d: got %g, want %g ± %g", i, got[i], tt.vec[i], tol)
				}
			}
			// Cosine sums float32 products: only meaningful for
			// magnitudes that neither underflow nor overflow.
			if len(tt.vec) > 100 {
				if c := search.Cosine(got, tt.vec); c < 0.9999 {
					t.Errorf("cosine(decoded, original) = %.6f, want ≈ 1", c)
				}
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	t.Parallel()
	long := string(bytes.Repeat([]byte("n"), 256))
	tests := []struct {
		name, embedder string
		vec            []float32
	}{
		{"no name", "", []float32{1}},
		{"name too long", long, []float32{1}},
		{"empty vector", "m", nil},
		{"too many dims", "m", make([]float32, embeddings.MaxDimensions+1)},
		{"NaN", "m", []float32{1, float32(math.NaN())}},
		{"Inf", "m", []float32{float32(math.Inf(-1))}},
	}
	for _, tt := range tests {
		if b, err := embeddings.Encode(tt.embedder, tt.vec); err == nil {
			t.Errorf("%s: got %d bytes, want an error", tt.name, len(b))
		}
	}
}

func TestDecodeForIgnoresOtherModelsAndGarbage(t *testing.T) {
	t.Parallel()
	b, err := embeddings.Encode("openai:nomic-embed-text", []float32{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if v := embeddings.DecodeFor(b, "openai:nomic-embed-text"); len(v) != 3 {
		t.Errorf("same model: got %v, want 3 dims", v)
	}
	for _, tt := range []struct {
		name string
		b    []byte
		as   string
	}{
		{"other model", b, "bedrock:amazon.titan-embed-text-v2:0"},
		{"prefix of the name", b, "openai:nomic"},
		{"empty", nil, "openai:nomic-embed-text"},
		{"truncated", b[:len(b)-1], "openai:nomic-embed-text"},
		{"trailing byte", append(append([]byte{}, b...), 0), "openai:nomic-embed-text"},
		{"unknown format", append([]byte{9}, b[1:]...), "openai:nomic-embed-text"},
	} {
		if v := embeddings.DecodeFor(tt.b, tt.as); v != nil {
			t.Errorf("%s: got %v, want nil", tt.name, v)
		}
	}
	negScale := append([]byte{}, b...)
	binary.BigEndian.PutUint32(negScale[2+len("openai:nomic-embed-text")+2:], math.Float32bits(-1))
	if _, _, err := embeddings.Decode(negScale); err == nil {
		t.Error("negative scale: got no error")
	}
}

// FuzzDecode feeds arbitrary bytes to Decode: it must never panic, and what
// it accepts must re-encode to a vector of the same name and length.
func FuzzDecode(f *testing.F) {
	good, _ := embeddings.Encode("hashing-v1-8", []float32{0.1, -0.2, 0.3, 0, 0, 1, -1, 0.5})
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte{1, 1, 'm', 0, 1, 0, 0, 0, 0, 5})
	f.Add([]byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		name, vec, err := embeddings.Decode(b)
		if err != nil {
			if embeddings.DecodeFor(b, name) != nil {
				t.Fatal("DecodeFor accepted what Decode refused")
			}
			return
		}
		again, err := embeddings.Encode(name, vec)
		if err != nil {
			t.Fatalf("re-encode %q (%d dims): %v", name, len(vec), err)
		}
		if n2, v2, err := embeddings.Decode(again); err != nil || n2 != name || len(v2) != len(vec) {
			t.Fatalf("re-decode: %q %d %v", n2, len(v2), err)
		}
	})
}

// FuzzEncodeRoundTrip encodes vectors made of arbitrary float32 bits: each
// finite one round-trips within half a quantisation step.
func FuzzEncodeRoundTrip(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63, 0, 0, 0, 191})
	f.Add([]byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, raw []byte) {
		vec := make([]float32, len(raw)/4)
		for i := range vec {
			vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		b, err := embeddings.Encode("m", vec)
		finite := len(vec) > 0
		var maxAbs float64
		for _, x := range vec {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				finite = false
			}
			maxAbs = math.Max(maxAbs, math.Abs(float64(x)))
		}
		if (err == nil) != finite {
			t.Fatalf("Encode(%v): err %v, finite %v", vec, err, finite)
		}
		if err != nil {
			return
		}
		got := embeddings.DecodeFor(b, "m")
		if len(got) != len(vec) {
			t.Fatalf("got %d dims, want %d", len(got), len(vec))
		}
		tol := maxAbs / 127 / 2 * 1.001
		for i := range vec {
			if d := math.Abs(float64(got[i]) - float64(vec[i])); d > tol && d > 1e-44 {
				t.Fatalf("component %d: got %g, want %g ± %g", i, got[i], vec[i], tol)
			}
		}
	})
}
