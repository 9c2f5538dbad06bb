package search

import "math"

// Semantic ranks docs by the cosine similarity of their vectors to
// queryVec. Docs without a vector, or whose vector has another number of
// dimensions (computed by another model), are skipped, as are those with a
// similarity of zero or less. Highest similarity first, equal scores by ID.
// Vectors need not be normalised.
func Semantic(queryVec []float32, docs []Doc) []Hit {
	qdot, _ := dotNorm(queryVec, queryVec)
	if qdot == 0 || math.IsNaN(qdot) || math.IsInf(qdot, 0) {
		return nil
	}
	qnorm := math.Sqrt(qdot)
	var hits []Hit
	for _, d := range docs {
		if len(d.Vector) != len(queryVec) {
			continue
		}
		dot, dd := dotNorm(queryVec, d.Vector)
		if dd == 0 {
			continue
		}
		if cos := dot / (qnorm * math.Sqrt(dd)); cos > 0 {
			hits = append(hits, Hit{ID: d.ID, Score: cos})
		}
	}
	sortHits(hits)
	return hits
}

// Cosine returns the cosine similarity of a and b, or 0 when they differ in
// length or either is all zeros.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	dot, bb := dotNorm(a, b)
	aa, _ := dotNorm(a, a)
	if aa == 0 || bb == 0 {
		return 0
	}
	return dot / math.Sqrt(aa*bb)
}

// dotNorm returns a·b and b·b in one pass over equally long vectors, with
// four independent accumulators so the loop pipelines.
func dotNorm(a, b []float32) (dot, bb float64) {
	b = b[:len(a)]
	var d0, d1, d2, d3, n0, n1, n2, n3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		a0, a1, a2, a3 := a[i], a[i+1], a[i+2], a[i+3]
		b0, b1, b2, b3 := b[i], b[i+1], b[i+2], b[i+3]
		d0 += a0 * b0
		d1 += a1 * b1
		d2 += a2 * b2
		d3 += a3 * b3
		n0 += b0 * b0
		n1 += b1 * b1
		n2 += b2 * b2
		n3 += b3 * b3
	}
	for ; i < len(a); i++ {
		d0 += a[i] * b[i]
		n0 += b[i] * b[i]
	}
	return float64(d0) + float64(d1) + float64(d2) + float64(d3),
		float64(n0) + float64(n1) + float64(n2) + float64(n3)
}
