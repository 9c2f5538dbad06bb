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

// Rank ranks docs for a query and returns at most limit hits (all of them
// when limit <= 0). It uses what is available:
//
//   - lexical ([Lexical]) when the query has at least one term;
//   - semantic ([Semantic]) when queryVec is non-empty and at least one doc
//     has a vector of the same length;
//   - hybrid, both fused with [Fuse] and [DefaultK], when both are
//     available. Hybrid scores are fused reciprocal ranks.
func Rank(query string, queryVec []float32, docs []Doc, limit int) []Hit {
	hits, _ := RankMode(query, queryVec, docs, limit)
	return hits
}

// RankMode is [Rank] that also reports the method it used.
func RankMode(query string, queryVec []float32, docs []Doc, limit int) ([]Hit, Mode) {
	terms := queryTerms(query)
	lexical := len(terms) > 0
	semantic := false
	if len(queryVec) > 0 {
		for _, d := range docs {
			if len(d.Vector) == len(queryVec) {
				semantic = true
				break
			}
		}
	}
	var hits []Hit
	mode := ModeNone
	switch {
	case lexical && semantic:
		hits, mode = Fuse(DefaultK, lexicalTerms(terms, docs), Semantic(queryVec, docs)), ModeHybrid
	case lexical:
		hits, mode = lexicalTerms(terms, docs), ModeLexical
	case semantic:
		hits, mode = Semantic(queryVec, docs), ModeSemantic
	}
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit:limit]
	}
	return hits, mode
}
