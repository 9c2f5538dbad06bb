package search

import "math"

// Semantic ranks docs by the cosine similarity of their vectors to
// queryVec. Docs without a vector, or whose vector has another number of
// dimensions (computed by another model), are skipped, as are those with a
// similarity of zero or less. Highest similarity first, equal scores by ID.
// Vectors need not be normalised.
func Semantic(queryVec []float32, docs []Doc) []Hit {
	return semantic(queryVec, docs, 0)
}

// semantic returns the top k hits by cosine similarity (all when k <= 0).
func semantic(queryVec []float32, docs []Doc, k int) []Hit {
	qn := math.Sqrt(dot(queryVec, queryVec))
	if qn == 0 || math.IsNaN(qn) || math.IsInf(qn, 0) {
		return nil
	}
	c := newCollector(k)
	for _, d := range docs {
		if len(d.Vector) != len(queryVec) {
			continue
		}
		dp, dd := dotNorm(queryVec, d.Vector)
		if dd == 0 {
			continue
		}
		if cos := dp / (qn * math.Sqrt(dd)); cos > 0 {
			c.add(Hit{ID: d.ID, Score: cos})
		}
	}
	return c.result()
}

// Cosine returns the cosine similarity of a and b, or 0 when they differ in
// length or either is all zeros.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	ab, bb := dotNorm(a, b)
	aa := dot(a, a)
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// dot returns a·b for equally long vectors, with four independent
// accumulators so the loop pipelines; the loop shape lets the compiler drop
// bounds checks.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var d0, d1, d2, d3 float32
	for len(a) >= 4 && len(b) >= 4 {
		d0 += a[0] * b[0]
		d1 += a[1] * b[1]
		d2 += a[2] * b[2]
		d3 += a[3] * b[3]
		a, b = a[4:], b[4:]
	}
	for i := range a {
		d0 += a[i] * b[i]
	}
	return float64(d0) + float64(d1) + float64(d2) + float64(d3)
}

// dotNorm returns a·b and b·b in one pass over equally long vectors.
func dotNorm(a, b []float32) (ab, bb float64) {
	b = b[:len(a)]
	var d0, d1, d2, d3, n0, n1, n2, n3 float32
	for len(a) >= 4 && len(b) >= 4 {
		b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
		d0 += a[0] * b0
		d1 += a[1] * b1
		d2 += a[2] * b2
		d3 += a[3] * b3
		n0 += b0 * b0
		n1 += b1 * b1
		n2 += b2 * b2
		n3 += b3 * b3
		a, b = a[4:], b[4:]
	}
	for i := range a {
		d0 += a[i] * b[i]
		n0 += b[i] * b[i]
	}
	return float64(d0) + float64(d1) + float64(d2) + float64(d3),
		float64(n0) + float64(n1) + float64(n2) + float64(n3)
}
