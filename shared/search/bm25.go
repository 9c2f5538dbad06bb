package search

import "math"

// BM25 parameters (Okapi BM25, as in Lucene and Elasticsearch). K1 controls
// how quickly repeated occurrences of a term stop adding to the score; B how
// much a long document is penalised relative to the average length.
const (
	K1 = 1.2
	B  = 0.75
)

// Lexical ranks docs against query with Okapi BM25.
//
// The query is tokenized with [Tokenize] and each distinct term counts once.
// For a document d of length |d| tokens (average length avgdl over docs),
//
//	score(d) = Σ_t idf(t) · tf(t,d)·(K1+1) / (tf(t,d) + K1·(1 − B + B·|d|/avgdl))
//	idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
//
// where N is len(docs) and df(t) the number of docs containing t. The query
// is widened with related terms (related.go: "resend" for "retry",
// "deadlock" for "waiting on each other"): each related group the query
// names adds, to that sum, the best of its terms in d, weighted by
// [RelatedWeight] and by no more than the idf of the query's own word that
// named it. Corpus
// statistics come from docs alone: the index is built per query, which is
// what a scope of at most a few thousand memories loaded per request calls
// for. Only documents with a positive score are returned, highest first,
// equal scores by ID.
func Lexical(query string, docs []Doc) []Hit {
	return lexicalTerms(queryTerms(query), docs)
}

// lexicalTerms is [Lexical] for the terms of a query (see queryTerms).
func lexicalTerms(terms []queryTerm, docs []Doc) []Hit {
	scores := bm25(terms, len(docs), func(i int) string { return docs[i].Text })
	var hits []Hit
	for i, s := range scores {
		if s > 0 {
			hits = append(hits, Hit{ID: docs[i].ID, Score: s})
		}
	}
	sortHits(hits)
	return hits
}

// inverseDocFreq is BM25's idf of a term that df of n documents contain.
func inverseDocFreq(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// linearTerms is the number of query terms up to which a token is matched
// by comparing it with each term rather than by a map lookup.
const linearTerms = 12

// bm25 returns the BM25 score of each of the n texts for the distinct
// terms. It tokenizes each text once, counting its length and the
// occurrences of the query terms only; no per-document map is built. It
// returns nil when there are no terms or no texts, else n scores (all 0
// when no text has a token: "x", "-", "?").
func bm25(terms []queryTerm, n int, text func(i int) string) []float64 {
	if len(terms) == 0 || n == 0 {
		return nil
	}
	q := len(terms)
	tf := make([]uint16, n*q)
	lengths := make([]int32, n)
	var index map[string]int
	if q > linearTerms {
		index = make(map[string]int, q)
		for j, t := range terms {
			index[t.text] = j
		}
	}
	var (
		tok   tokenizer
		row   []uint16
		count int32
	)
	emit := func(b []byte) {
		count++
		j := -1
		if index != nil {
			if k, ok := index[string(b)]; ok {
				j = k
			}
		} else {
			for k, t := range terms {
				if len(t.text) == len(b) && t.text == string(b) {
					j = k
					break
				}
			}
		}
		if j >= 0 && row[j] < math.MaxUint16 {
			row[j]++
		}
	}
	var total int64
	for i := range n {
		row = tf[i*q : (i+1)*q]
		count = 0
		tok.scan(text(i), emit)
		lengths[i] = count
		total += int64(count)
	}
	if total == 0 {
		return make([]float64, n)
	}
	avgdl := float64(total) / float64(n)

	idf := make([]float64, q)
	for j := range q {
		df := 0
		for i := range n {
			if tf[i*q+j] > 0 {
				df++
			}
		}
		idf[j] = inverseDocFreq(n, df)
	}
	idf = termIDFs(terms, idf)

	// A document scores the sum over the query's own terms, plus for each
	// related group the best of its terms (a text full of one group's
	// words is not more relevant than one with one of them).
	best := make([]float64, groupCount(terms))
	scores := make([]float64, n)
	for i := range n {
		row := tf[i*q : (i+1)*q]
		norm := K1 * (1 - B + B*float64(lengths[i])/avgdl)
		clear(best)
		var s float64
		for j, f := range row {
			if f > 0 {
				ff := float64(f)
				v := idf[j] * ff * (K1 + 1) / (ff + norm)
				if g := terms[j].group; g >= 0 {
					best[g] = max(best[g], v)
				} else {
					s += v
				}
			}
		}
		for _, v := range best {
			s += v
		}
		scores[i] = s
	}
	return scores
}
