package search

import (
	"math"
)

// Index is a set of documents with their token statistics and vector norms
// computed once, for ranking many queries against the same documents
// (a scope's memories cached between requests, benchmarks). Its rankings
// are exactly those of the package functions [Lexical], [Semantic] and
// [Rank] over the same documents. An Index is immutable once built and
// safe for concurrent use.
type Index struct {
	docs     []Doc
	lnorm    []float64 // BM25 length normalisation K1·(1 − B + B·|d|/avgdl)
	terms    map[string]int32
	postings [][]posting // per term id: the docs containing it, in doc order
	norms    []float64   // L2 norm of each doc's vector, 0 when it has none
}

// posting is one document containing a term, with the term's frequency.
type posting struct {
	doc int32
	tf  uint32
}

// NewIndex tokenizes docs and builds an inverted index over them. The
// index keeps docs (not a copy): do not modify them afterwards.
func NewIndex(docs []Doc) *Index {
	ix := &Index{
		docs:  docs,
		lnorm: make([]float64, len(docs)),
		terms: make(map[string]int32),
		norms: make([]float64, len(docs)),
	}
	lengths := make([]int32, len(docs))
	var (
		tok   tokenizer
		cur   int32
		count int32
		total int64
	)
	emit := func(b []byte) {
		count++
		id, ok := ix.terms[string(b)]
		if !ok {
			id = int32(len(ix.postings))
			ix.terms[string(b)] = id
			ix.postings = append(ix.postings, nil)
		}
		p := ix.postings[id]
		if n := len(p); n > 0 && p[n-1].doc == cur {
			p[n-1].tf++
			return
		}
		ix.postings[id] = append(p, posting{doc: cur, tf: 1})
	}
	for i, d := range docs {
		cur, count = int32(i), 0
		tok.scan(d.Text, emit)
		lengths[i] = count
		total += int64(count)
		if len(d.Vector) > 0 {
			ix.norms[i] = math.Sqrt(dot(d.Vector, d.Vector))
		}
	}
	if total > 0 {
		avgdl := float64(total) / float64(len(docs))
		for i, l := range lengths {
			ix.lnorm[i] = K1 * (1 - B + B*float64(l)/avgdl)
		}
	}
	return ix
}

// Len returns the number of documents in the index.
func (ix *Index) Len() int { return len(ix.docs) }

// Lexical is [Lexical] over the indexed documents. It only visits the
// documents that contain a query term.
func (ix *Index) Lexical(query string) []Hit {
	return ix.lexicalTerms(queryTerms(query))
}

// lexicalTerms is [Index.Lexical] for the terms of a query: the scores of
// bm25, from the postings of the terms only.
func (ix *Index) lexicalTerms(terms []queryTerm) []Hit {
	n := len(ix.docs)
	if n == 0 {
		return nil
	}
	idf := make([]float64, len(terms))
	ids := make([]int32, len(terms))
	for j, t := range terms {
		df := 0
		ids[j] = -1
		if id, ok := ix.terms[t.text]; ok {
			df = len(ix.postings[id])
			ids[j] = id
		}
		idf[j] = inverseDocFreq(n, df)
	}
	idf = termIDFs(terms, idf)
	// As in bm25: the own terms' sum plus each related group's best term.
	var scores []float64
	var best [][]float64
	var touched []int32
	var seen []bool
	for j, t := range terms {
		if ids[j] < 0 {
			continue
		}
		if scores == nil {
			scores, seen = make([]float64, n), make([]bool, n)
		}
		into := scores
		if t.group >= 0 {
			if best == nil {
				best = make([][]float64, groupCount(terms))
			}
			if best[t.group] == nil {
				best[t.group] = make([]float64, n)
			}
			into = best[t.group]
		}
		for _, p := range ix.postings[ids[j]] {
			f := float64(p.tf)
			v := idf[j] * f * (K1 + 1) / (f + ix.lnorm[p.doc])
			if !seen[p.doc] {
				seen[p.doc] = true
				touched = append(touched, p.doc)
			}
			if t.group >= 0 {
				into[p.doc] = max(into[p.doc], v)
			} else {
				into[p.doc] += v
			}
		}
	}
	for _, g := range best {
		if g == nil {
			continue
		}
		for _, i := range touched {
			scores[i] += g[i]
		}
	}
	hits := make([]Hit, 0, len(touched))
	for _, i := range touched {
		if s := scores[i]; s > 0 {
			hits = append(hits, Hit{ID: ix.docs[i].ID, Score: s})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	sortHits(hits)
	return hits
}

// Semantic is [Semantic] over the indexed documents, using the vector norms
// computed by NewIndex.
func (ix *Index) Semantic(queryVec []float32) []Hit {
	return ix.semantic(queryVec, 0)
}

// semantic returns the top k hits by cosine similarity (all when k <= 0).
func (ix *Index) semantic(queryVec []float32, k int) []Hit {
	qn := math.Sqrt(dot(queryVec, queryVec))
	if qn == 0 || math.IsNaN(qn) || math.IsInf(qn, 0) {
		return nil
	}
	c := newCollector(k)
	for i, d := range ix.docs {
		if len(d.Vector) != len(queryVec) || ix.norms[i] == 0 {
			continue
		}
		if cos := dot(queryVec, d.Vector) / (qn * ix.norms[i]); cos > 0 {
			c.add(Hit{ID: d.ID, Score: cos})
		}
	}
	return c.result()
}

// Rank is [Rank] over the indexed documents.
func (ix *Index) Rank(query string, queryVec []float32, limit int) []Hit {
	hits, _ := ix.RankMode(query, queryVec, limit)
	return hits
}

// RankMode is [RankMode] over the indexed documents.
func (ix *Index) RankMode(query string, queryVec []float32, limit int) ([]Hit, Mode) {
	terms := queryTerms(query)
	return rank(len(terms) > 0, hasVector(queryVec, ix.docs), limit,
		func() []Hit { return ix.lexicalTerms(terms) },
		func(k int) []Hit { return ix.semantic(queryVec, k) })
}
