package support

import (
	"strings"
	"unicode"
)

// Finding a clause's verb.

// findVerb finds the conjunct's verb and, from it, the subject and the
// two sides.
func (c *conj) findVerb() {
	toks := c.s.d.toks
	first := -1
	for j, k := range c.toks {
		if toks[k].kind == tkWord {
			first = j
			break
		}
	}
	if first < 0 {
		return
	}
	if w := toks[c.toks[first]].lower; pronouns[w] {
		if w == "we" || w == "i" || w == "you" {
			c.speaker = true
		} else {
			c.anaphoric = true
		}
	}
	verbAt := -1
	imperative := false
	for j := first; j < len(c.toks); j++ {
		t := toks[c.toks[j]]
		if t.kind != tkWord {
			continue
		}
		if auxiliaries[t.lower] {
			verbAt = j
			break
		}
		if !isVerbAt(toks, c.toks, j) {
			continue
		}
		if j == first {
			// imperative or elided subject, unless a clear verb follows
			imperative = true
			if later := c.clearVerbAfter(j + 1); later >= 0 {
				verbAt = later
				imperative = false
				break
			}
			verbAt = j
			break
		}
		// "Grafana alerts page the on-call": a plural noun, then the verb
		if j+2 < len(c.toks) {
			next, after := toks[c.toks[j+1]], toks[c.toks[j+2]]
			if next.kind == tkWord && verbLemmas[next.term] && !strings.HasSuffix(next.lower, "s") && (determiners[after.lower] || after.kind == tkNumber || pronouns[after.lower]) {
				j++
			}
		}
		verbAt = j
		break
	}
	if verbAt < 0 {
		return
	}
	c.verb = c.toks[verbAt]
	vt := toks[c.verb]
	c.verbTerm = vt.term
	if auxiliaries[vt.lower] {
		// the verb after the auxiliary, if any ("is filtered", "must be wrapped")
		for j := verbAt + 1; j < len(c.toks) && j <= verbAt+3; j++ {
			t := toks[c.toks[j]]
			if t.kind != tkWord {
				break
			}
			if auxiliaries[t.lower] || negationWords[t.lower] || hedgeWords[t.lower] || isStop(t.lower) && !determiners[t.lower] {
				continue
			}
			if verbLemmas[t.term] || strings.HasSuffix(t.lower, "ed") || irregularForm(t.lower) {
				c.verbTerm = t.term
				if beForms[vt.lower] || beForms[toks[c.toks[j-1]].lower] {
					c.passive = strings.HasSuffix(t.lower, "ed") || irregularForm(t.lower) || strings.HasSuffix(t.lower, "en")
				}
			}
			break
		}
	}
	// "the agents, a DaemonSet, stay on 0.98.0": an aside between two
	// commas before the verb is no part of the subject
	aside := map[int]bool{}
	if commas := commasBefore(toks, c.toks, verbAt); len(commas) >= 2 {
		for j := commas[0] + 1; j < commas[1]; j++ {
			aside[j] = true
		}
	}
	var subject []string
	for j, k := range c.toks {
		t := toks[k]
		if t.term == "" || k == c.verb {
			continue
		}
		if j < verbAt {
			c.left = append(c.left, t.term)
			if !aside[j] {
				subject = append(subject, t.term)
			}
		} else if j > verbAt {
			c.right = append(c.right, t.term)
		}
	}
	if !imperative && !c.anaphoric {
		c.subject = subject
		if len(c.subject) > 5 {
			c.subject = c.subject[len(c.subject)-5:]
		}
	}
	// a leading preposition makes the words before the verb an adverbial
	if leadingPrepositions[toks[c.toks[first]].lower] {
		c.subject = nil
	}
}

var beForms = words("is are was were be been being am")

// commasBefore are the positions (in idx) of the commas before position
// end.
func commasBefore(toks []token, idx []int, end int) []int {
	var out []int
	for j := 0; j < end && j < len(idx); j++ {
		if toks[idx[j]].raw == "," {
			out = append(out, j)
		}
	}
	return out
}

// irregularForm reports whether w is an irregular past or participle
// ("sent", "built"), not a base form that is its own past ("hit", "set").
func irregularForm(w string) bool {
	base := irregular[w]
	return base != "" && base != w && base != "data"
}

// isAcronym reports whether w is written in capitals ("API", "GETs").
func isAcronym(w string) bool {
	w = strings.TrimSuffix(w, "s")
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// clearVerbAfter returns the position of a clear verb (an auxiliary or an
// inflected verb after a noun) after j in the conjunct, or -1.
func (c *conj) clearVerbAfter(j int) int {
	toks := c.s.d.toks
	for ; j < len(c.toks); j++ {
		t := toks[c.toks[j]]
		if t.kind != tkWord {
			continue
		}
		if auxiliaries[t.lower] {
			return j
		}
		if verbLemmas[t.term] && strings.HasSuffix(t.lower, "s") && !strings.HasSuffix(t.lower, "ss") && !strings.HasSuffix(t.lower, "ings") && isVerbAt(toks, c.toks, j) {
			return j
		}
	}
	return -1
}

// isVerbAt reports whether the word at position j of idx may be a verb
// there: a verb lemma not right after a determiner, inflected, or after a
// pronoun, a plural noun, a number or "to".
func isVerbAt(toks []token, idx []int, j int) bool {
	t := toks[idx[j]]
	if t.kind != tkWord || t.compound || !(verbLemmas[t.term] || irregular[t.lower] != "" && irregular[t.lower] != "data") || strings.HasSuffix(t.lower, "ings") {
		return false
	}
	if isAcronym(t.raw) {
		return false // "API GETs"
	}
	if j == 0 {
		return true
	}
	prev := toks[idx[j-1]]
	if prev.kind == tkWord && determiners[prev.lower] && prev.lower != "to" {
		return false
	}
	if prev.code && !t.code {
		return true // "`fieldnotes://note/<id>` show"
	}
	// "normalization cut false alarms" (but not "cache hit ratio is")
	if irregular[t.lower] == t.lower && prev.kind == tkWord && !determiners[prev.lower] && prev.term != "" {
		for _, k := range idx[j+1:] {
			if n := toks[k]; n.kind == tkWord && (auxiliaries[n.lower] || verbLemmas[n.term] && strings.HasSuffix(n.lower, "s") && !strings.HasSuffix(n.lower, "ss")) {
				return false
			}
		}
		return true
	}
	if prev.kind == tkNumber {
		// "Android 14 kills" (a name and its version), not "24 partitions"
		if j < 2 {
			return false
		}
		name := toks[idx[j-2]]
		return name.kind == tkWord && !determiners[name.lower] && !leadingPrepositions[name.lower] && unicode.IsUpper([]rune(name.raw)[0])
	}
	inflected := (strings.HasSuffix(t.lower, "s") && !strings.HasSuffix(t.lower, "ss")) || strings.HasSuffix(t.lower, "ed") || irregularForm(t.lower)
	if inflected {
		return true
	}
	// "they now go", "we still run": an adverb between subject and verb
	if j >= 2 && prev.kind == tkWord && verbAdverbs[prev.lower] {
		if pp := toks[idx[j-2]]; pp.kind == tkWord && pronouns[pp.lower] && pp.lower != "it" && pp.lower != "which" {
			return true
		}
	}

	return prev.kind == tkWord && (pronouns[prev.lower] || auxiliaries[prev.lower] || prev.lower == "to" ||
		(strings.HasSuffix(prev.lower, "s") && !strings.HasSuffix(prev.lower, "ss")) || negationWords[prev.lower] || hedgeWords[prev.lower])
}

// verbAdverbs are the adverbs that stand between a subject and its verb
// ("they now go", "we still run").
var verbAdverbs = words("now still also always never often usually sometimes only just then already")
