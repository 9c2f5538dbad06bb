package search

import (
	"math"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// DefaultMinConfidence is the confidence a pattern must exceed to be
// suggested unless configured otherwise (seed 003: "high-confidence
// patterns (>0.7) are suggested").
const DefaultMinConfidence = 0.7

// MaxConfidence caps what [RaiseConfidence] returns: repetition alone never
// makes a pattern certain.
const MaxConfidence = 0.99

// PatternText is the text a pattern is matched on: its trigger (twice, as
// the trigger says when the pattern applies, which is what a task
// description is about), context, solution and content.
func PatternText(m agentmem.Memory) string {
	return strings.Join([]string{m.Trigger, m.Trigger, m.Context, m.Solution, m.Content}, "\n")
}

// SuggestPatterns returns the patterns relevant to a task description, at
// most limit of them (all when limit <= 0).
//
// Only memories of type pattern whose confidence is strictly above
// minConfidence are suggested. Relevance is BM25 of the task over
// [PatternText], with corpus statistics taken from every pattern given;
// patterns sharing no term with the task are left out. Each hit's score is
//
//	score = relevance / best relevance among the suggested × confidence
//
// so a pattern that matches the task as well as the best one but with a
// higher confidence comes first, and a confident pattern that matches
// poorly does not outrank a good match. Ties are ordered by ID. When the
// task has no terms, every pattern above the threshold is returned with its
// confidence as score.
func SuggestPatterns(task string, patterns []agentmem.Memory, minConfidence float64, limit int) []Hit {
	var pats []agentmem.Memory
	for _, p := range patterns {
		if p.Type == agentmem.TypePattern {
			pats = append(pats, p)
		}
	}
	eligible := func(p agentmem.Memory) bool {
		return p.Confidence != nil && *p.Confidence > minConfidence
	}
	var hits []Hit
	terms := queryTerms(task)
	if len(terms) == 0 {
		for _, p := range pats {
			if eligible(p) {
				hits = append(hits, Hit{ID: p.ID, Score: *p.Confidence})
			}
		}
	} else {
		rel := bm25(terms, len(pats), func(i int) string { return PatternText(pats[i]) })
		best := 0.0
		for i, p := range pats {
			if rel[i] > 0 && eligible(p) {
				best = math.Max(best, rel[i])
			}
		}
		for i, p := range pats {
			if rel[i] > 0 && eligible(p) {
				hits = append(hits, Hit{ID: p.ID, Score: rel[i] / best * *p.Confidence})
			}
		}
	}
	sortHits(hits)
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit:limit]
	}
	return hits
}

// RaiseConfidence returns the confidence of a pattern seen once more:
// old + (1 − old) × 0.3, so each sighting closes 30% of the distance to
// certainty (0.5 → 0.65 → 0.755 → …), capped at [MaxConfidence]. A value
// outside 0..1 (or NaN) is first clamped into it (NaN counts as 0); a
// confidence already above the cap, set by hand, is never lowered.
func RaiseConfidence(old float64) float64 {
	switch {
	case math.IsNaN(old) || old < 0:
		old = 0
	case old > 1:
		old = 1
	}
	if old >= MaxConfidence {
		return old
	}
	return math.Min(old+(1-old)*0.3, MaxConfidence)
}
