package search

// DefaultK is the reciprocal rank fusion constant of Cormack, Clarke and
// Büttcher (2009), used when [Fuse] is given k <= 0.
const DefaultK = 60

// Fuse combines rankings by reciprocal rank fusion: a document's fused
// score is the sum, over the rankings it appears in, of 1/(k + rank), rank
// counting from 1. A large k flattens the difference between the top ranks;
// k <= 0 means [DefaultK]. Fusion uses ranks only, so rankings with
// incomparable scores (BM25 and cosine) combine without calibration. The
// result holds every document of every ranking, highest fused score first,
// equal scores by ID. Each ranking should list a document at most once;
// later repeats are ignored.
func Fuse(k int, rankings ...[]Hit) []Hit {
	if k <= 0 {
		k = DefaultK
	}
	n := 0
	for _, r := range rankings {
		n += len(r)
	}
	if n == 0 {
		return nil
	}
	index := make(map[string]int, n)
	hits := make([]Hit, 0, n)
	for _, r := range rankings {
		seen := make(map[string]bool, len(r))
		for rank, h := range r {
			if seen[h.ID] {
				continue
			}
			seen[h.ID] = true
			s := 1 / float64(k+rank+1)
			if i, ok := index[h.ID]; ok {
				hits[i].Score += s
				continue
			}
			index[h.ID] = len(hits)
			hits = append(hits, Hit{ID: h.ID, Score: s})
		}
	}
	sortHits(hits)
	return hits
}
