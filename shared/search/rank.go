package search

// Mode is the ranking method [Rank] used.
type Mode string

// Ranking methods.
const (
	ModeNone     Mode = "none"     // nothing to rank with: no query terms and no usable vector
	ModeLexical  Mode = "lexical"  // BM25 only
	ModeSemantic Mode = "semantic" // cosine similarity only
	ModeHybrid   Mode = "hybrid"   // both, fused by reciprocal rank
)

// FuseWindow is how deep into each ranking hybrid [Rank] looks when it has
// a limit: the top max(limit, FuseWindow) of the lexical and of the semantic
// ranking are fused (everything when limit <= 0), as Elasticsearch's
// rank_window_size does. A document cut from one ranking loses at most
// 1/(DefaultK+FuseWindow+1) of fused score, so the head of the result,
// made of documents ranked high by both methods, is the same as with full
// fusion, while the order of its tail, hits that only one method ranks
// high, can differ. Fusing 10,000-document rankings in full costs more than
// twice as much as the scoring itself (see docs/BENCHMARKS.md, "## Search").
const FuseWindow = 100

// Rank ranks docs for a query and returns at most limit hits (all of them
// when limit <= 0). It uses what is available:
//
//   - lexical ([Lexical]) when the query has at least one term;
//   - semantic ([Semantic]) when queryVec is non-empty and at least one doc
//     has a vector of the same length, keeping the hits whose similarity is
//     at least [SemanticCutoff] of the best;
//   - hybrid, both fused with [Fuse] and [DefaultK] over their top
//     [FuseWindow], when both are available. Hybrid scores are fused
//     reciprocal ranks.
func Rank(query string, queryVec []float32, docs []Doc, limit int) []Hit {
	hits, _ := RankMode(query, queryVec, docs, limit)
	return hits
}

// RankMode is [Rank] that also reports the method it used.
func RankMode(query string, queryVec []float32, docs []Doc, limit int) ([]Hit, Mode) {
	terms := queryTerms(query)
	return rank(len(terms) > 0, hasVector(queryVec, docs), limit,
		func() []Hit { return lexicalTerms(terms, docs) },
		func(k int) []Hit { return semantic(queryVec, docs, k) })
}

// hasVector reports whether queryVec is non-empty and some doc has a
// vector of its length.
func hasVector(queryVec []float32, docs []Doc) bool {
	if len(queryVec) == 0 {
		return false
	}
	for _, d := range docs {
		if len(d.Vector) == len(queryVec) {
			return true
		}
	}
	return false
}

// rank chooses the method and applies the limit; semantic(k) returns the
// top k semantic hits (all when k <= 0).
// SemanticCutoff is the share of the best cosine similarity below which
// [Rank] drops a semantic hit. Nearly every pair of texts has a positive
// similarity, so without a cutoff semantic and hybrid ranking would fill
// every result list with unrelated memories. Relative rather than absolute,
// because each model has its own scale of similarities. On the labelled
// set, 0.4 changes neither recall@5 nor MRR; 0.5 starts to cost recall.
const SemanticCutoff = 0.4

// cutSemantic drops the tail of a semantic ranking below SemanticCutoff of
// its best score.
func cutSemantic(hits []Hit) []Hit {
	if len(hits) == 0 {
		return hits
	}
	floor := SemanticCutoff * hits[0].Score
	for i, h := range hits {
		if h.Score < floor {
			return hits[:i]
		}
	}
	return hits
}

func rank(lexical, semantic bool, limit int, lex func() []Hit, semAll func(k int) []Hit) ([]Hit, Mode) {
	sem := func(k int) []Hit { return cutSemantic(semAll(k)) }
	var hits []Hit
	mode := ModeNone
	switch {
	case lexical && semantic:
		window := 0
		if limit > 0 {
			window = max(limit, FuseWindow)
		}
		l := lex()
		if window > 0 && len(l) > window {
			l = l[:window]
		}
		hits, mode = Fuse(DefaultK, l, sem(window)), ModeHybrid
	case lexical:
		hits, mode = lex(), ModeLexical
	case semantic:
		hits, mode = sem(limit), ModeSemantic
	}
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit:limit]
	}
	return hits, mode
}
