package support

import (
	"strings"
	"unicode"

	"github.com/agentmem/agentmem/shared/search"
)

// lemma is the term of one plain lower-case word: irregular forms to their
// base, search's light stemmer, then a few derivational endings
// (validation, validate -> valid; deployment -> deploy; monthly -> month;
// readable -> read; idempotency -> idempotent) and the synonyms of a light
// paraphrase, so that the forms a rewrite uses meet their source.
func lemma(w string) string {
	if base, ok := irregular[w]; ok {
		w = base
	}
	s := derive(w)
	if c, ok := synonyms[s]; ok {
		return c
	}
	return s
}

// derive applies the stemmer and the derivational endings.
func derive(w string) string {
	british := (strings.HasSuffix(w, "ise") || strings.HasSuffix(w, "ised") || strings.HasSuffix(w, "ises") ||
		strings.HasSuffix(w, "ising") || strings.HasSuffix(w, "isation") || strings.HasSuffix(w, "isations")) && !notBritish(w)
	s := search.Stem(w)
	if !isASCIILetters(s) {
		return s
	}
	if british && strings.Contains(s, "is") {
		i := strings.LastIndex(s, "is")
		s = s[:i] + "iz" + s[i+2:]
	}
	switch {
	case strings.HasSuffix(s, "ation") && len(s) > 6:
		s = s[:len(s)-5] + "at"
	case strings.HasSuffix(s, "ssion"):
		s = s[:len(s)-3]
	case strings.HasSuffix(s, "tion") && len(s) >= 8 && !strings.ContainsRune("aeiou", rune(s[len(s)-5])):
		s = s[:len(s)-3] // ingestion -> ingest, injection -> inject
	case strings.HasSuffix(s, "ment") && len(s) >= 8:
		s = search.Stem(s[:len(s)-4])
	case strings.HasSuffix(s, "iness") && len(s) >= 8:
		s = s[:len(s)-5] + "y" // flakiness -> flaky, readiness -> ready
	case strings.HasSuffix(s, "ness") && len(s) >= 8:
		s = search.Stem(s[:len(s)-4])
	case strings.HasSuffix(s, "ably") && len(s) >= 8, strings.HasSuffix(s, "ibly") && len(s) >= 8:
		s = search.Stem(s[:len(s)-4])
	case strings.HasSuffix(s, "ly") && len(s) >= 6:
		s = search.Stem(s[:len(s)-2])
	case (strings.HasSuffix(s, "abl") || strings.HasSuffix(s, "ibl")) && len(s) >= 7:
		s = search.Stem(s[:len(s)-3])
	case strings.HasSuffix(s, "ency") && len(s) >= 7:
		s = s[:len(s)-4] + "ent"
	}
	if strings.HasSuffix(s, "at") && len(s) >= 6 {
		s = s[:len(s)-2]
	}
	return s
}

// notBritish lists words ending in -ise that are no British -ize.
func notBritish(w string) bool {
	for _, x := range []string{"otherwise", "likewise", "expertise", "exercis", "enterpris", "promis", "premis",
		"compromis", "surpris", "concise", "precise", "advertis", "supervis", "improvis", "revis", "devis", "advis",
		"franchis", "merchandis", "noise", "raise", "raising", "raised", "arise", "arising", "praise", "cruise",
		"bruise", "chinese", "clockwise", "wise", "rise", "rising", "risen", "paradise", "disguise", "despise"} {
		if strings.HasPrefix(w, x) || w == x {
			return true
		}
	}
	return len(w) < 6
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// synonyms maps a lemma onto the first lemma of its group.
var synonyms = func() map[string]string {
	m := map[string]string{}
	for _, g := range synonymGroups {
		ws := strings.Fields(g)
		canon := derive(compact(ws[0]))
		for _, w := range ws[1:] {
			if w = derive(compact(w)); w != canon {
				m[w] = canon
			}
		}
	}
	return m
}()

// lemmaSet is the set of the lemmas of the words in s.
func lemmaSet(s string) wordSet {
	set := wordSet{}
	for _, w := range strings.Fields(s) {
		set[lemma(w)] = true
	}
	return set
}

var genericLemmas = func() wordSet {
	set := wordSet{}
	for w := range genericTerms {
		set[lemma(w)] = true
	}
	return set
}()

// compact lower-cases s and keeps only its letters and digits: the key of
// an identifier or a compound word ("ledger-api", "pgx.ErrNoRows").
func compact(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
