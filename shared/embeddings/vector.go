package embeddings

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// MaxDimensions is the longest vector Encode stores (the length is a
// 16-bit field).
const MaxDimensions = math.MaxUint16

// MaxNameLen is the longest embedder name Encode stores.
const MaxNameLen = math.MaxUint8

// formatInt8 is the only encoding so far: int8 components with one float32
// scale.
const formatInt8 = 1

// Encode stores vec compactly for a memory item's embedding attribute,
// tagged with the embedder's name so that vectors of another model are
// ignored ([DecodeFor]). Each component is quantised to an int8 with one
// scale per vector (the largest magnitude maps to 127), about a byte a
// dimension: 1,024 dimensions take 1,024 + 8 + len(name) bytes instead of
// 4,096. The rounding error of a component is at most scale/2 (0.4% of the
// largest magnitude), which moves cosine similarities by about 0.001.
//
// Layout: format byte (1), name length (1 byte), name, dimensions
// (uint16, big-endian), scale (float32 bits, big-endian), one int8 per
// dimension.
func Encode(name string, vec []float32) ([]byte, error) {
	switch {
	case name == "" || len(name) > MaxNameLen:
		return nil, fmt.Errorf("encode vector: embedder name must be 1 to %d bytes, got %d", MaxNameLen, len(name))
	case len(vec) == 0 || len(vec) > MaxDimensions:
		return nil, fmt.Errorf("encode vector: %d dimensions; want 1 to %d", len(vec), MaxDimensions)
	}
	var maxAbs float64
	for i, x := range vec {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("encode vector: component %d is %v", i, x)
		}
		maxAbs = math.Max(maxAbs, math.Abs(f))
	}
	scale := float32(maxAbs / 127)
	if float64(scale)*127 < maxAbs {
		// Rounding the scale down could map the largest component to 128.
		scale = math.Nextafter32(scale, float32(math.Inf(1)))
	}
	head := 2 + len(name) + 2 + 4
	b := make([]byte, head+len(vec))
	b[0] = formatInt8
	b[1] = byte(len(name))
	copy(b[2:], name)
	binary.BigEndian.PutUint16(b[2+len(name):], uint16(len(vec)))
	binary.BigEndian.PutUint32(b[4+len(name):], math.Float32bits(scale))
	if scale > 0 {
		for i, x := range vec {
			q := math.Round(float64(x) / float64(scale))
			b[head+i] = byte(int8(math.Max(-127, math.Min(127, q))))
		}
	}
	return b, nil
}

// ErrMalformedVector reports bytes Encode did not make (DecodeFor reads
// them as no vector).
var ErrMalformedVector = errors.New("malformed vector encoding")

// DecodeFor returns the vector stored in b if it was computed by the
// embedder called name, else nil: an empty or malformed attribute, or one
// of another model, counts as no vector. It does not allocate for vectors
// it ignores.
func DecodeFor(b []byte, name string) []float32 {
	got, scale, body, err := parse(b)
	if err != nil || string(got) != name {
		return nil
	}
	return expand(body, scale)
}

// parse checks the layout and returns its parts, aliasing b: the name, the
// scale and one quantised byte per dimension.
func parse(b []byte) (name []byte, scale float32, body []byte, err error) {
	if len(b) < 2 || b[0] != formatInt8 {
		return nil, 0, nil, ErrMalformedVector
	}
	n := int(b[1])
	head := 2 + n + 2 + 4
	if n == 0 || len(b) < head {
		return nil, 0, nil, ErrMalformedVector
	}
	dims := int(binary.BigEndian.Uint16(b[2+n:]))
	scale = math.Float32frombits(binary.BigEndian.Uint32(b[4+n:]))
	if dims == 0 || len(b) != head+dims || !(scale >= 0) || math.IsInf(float64(scale), 0) {
		return nil, 0, nil, ErrMalformedVector
	}
	return b[2 : 2+n], scale, b[head:], nil
}

// expand turns quantised bytes back into floats. A scale at the very top
// of float32's range may put a component just beyond it: such products are
// clamped to the largest float32 rather than becoming infinite.
func expand(q []byte, scale float32) []float32 {
	vec := make([]float32, len(q))
	huge := float64(scale)*128 > math.MaxFloat32 // int8 reaches -128
	for i, x := range q {
		if huge {
			vec[i] = float32(math.Max(-math.MaxFloat32, math.Min(math.MaxFloat32, float64(int8(x))*float64(scale))))
			continue
		}
		vec[i] = float32(int8(x)) * scale
	}
	return vec
}
