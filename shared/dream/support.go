package dream

import (
	"strings"
	"unicode"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
)

// DefaultMinSupport is the share of a bullet's content words that must be
// found in the sources for the bullet to be kept.
const DefaultMinSupport = 0.75

// sources is the vocabulary of what a dream was given: the stemmed terms
// (search.Tokenize) of the memories and daily records in its prompt.
type sources map[string]struct{}

func newSources() sources { return sources{} }

func (s sources) add(text string) {
	for _, t := range search.Tokenize(text) {
		s[t] = struct{}{}
	}
}

// verdict is the outcome of the support test for one bullet.
type verdict struct {
	support float64
	// missing lists the bullet's words (as written) with a term the
	// sources lack.
	missing []string
	// numberMissing is set when a term with a digit is not in the sources:
	// invented numbers (versions, counts, ports) fail whatever the share.
	numberMissing bool
	terms         int
}

// check runs the deterministic support test on text: the share of its
// distinct content terms found in the sources.
func (s sources) check(text string) verdict {
	var v verdict
	seen := map[string]bool{}
	found := 0
	for _, word := range strings.Fields(text) {
		wordMissing := false
		for _, t := range search.Tokenize(word) {
			if seen[t] {
				continue
			}
			seen[t] = true
			v.terms++
			if _, ok := s[t]; ok {
				found++
				continue
			}
			wordMissing = true
			if strings.ContainsFunc(t, unicode.IsDigit) {
				v.numberMissing = true
			}
		}
		if wordMissing {
			v.missing = append(v.missing, strings.TrimFunc(word, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		}
	}
	if v.terms > 0 {
		v.support = float64(found) / float64(v.terms)
	}
	return v
}

// supported applies the threshold; reason says why a bullet fails.
func (v verdict) supported(min float64) (ok bool, reason string) {
	switch {
	case v.terms == 0:
		return false, "no content words"
	case v.support < min:
		return false, "not supported by the sources"
	case v.numberMissing:
		return false, "a number not in the sources"
	}
	return true, ""
}

// claimText is what a memory asserts: its content and typed fields, the
// text the support test checks and the sources are made of.
func claimText(m agentmem.Memory) string {
	parts := []string{m.Content}
	for _, f := range []string{m.Rationale, m.Trigger, m.Context, m.Solution} {
		if f != "" {
			parts = append(parts, f)
		}
	}
	return strings.Join(parts, "\n")
}
