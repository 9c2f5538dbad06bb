package support

import (
	"slices"
	"strings"
)

// Splitting a sentence into clauses and reading each clause: its subject,
// verb, negation, hedge and the role a connective gives it.

// split cuts the sentence into conjuncts at connectives.
func (s *sent) split() {
	toks := s.d.toks
	var stack []*conj
	cur := &conj{s: s}
	s.conjs = append(s.conjs, cur)
	newConj := func(marker string, r role) {
		var carried []int
		// "perhaps since X": the hedge is the new conjunct's
		for len(cur.toks) > 0 && hedgeWords[toks[cur.toks[len(cur.toks)-1]].lower] && !strings.HasSuffix(toks[cur.toks[len(cur.toks)-1]].lower, "ed") {
			carried = append([]int{cur.toks[len(cur.toks)-1]}, carried...)
			cur.toks = cur.toks[:len(cur.toks)-1]
		}
		// "(why: X and Y)": every clause of a rationale is the reason
		why := false
		if len(stack) > 0 && cur.role == roleCause && (cur.marker == "(" || cur.why) && r == rolePlain {
			r, why = roleCause, true
		}
		cur = &conj{s: s, marker: marker, role: r, toks: carried, why: why}
		s.conjs = append(s.conjs, cur)
	}
	// the label of the sentence ("Root cause:") is read, then skipped
	label, from := s.label()
	cur.label = label
	switch label {
	case "root cause", "cause":
		s.rootCause = true
	case "why", "reason":
		cur.role = roleCause
	}
	for k := from; k < s.to; k++ {
		t := &toks[k]
		if t.kind == tkPunct {
			switch t.raw {
			case "(", "[":
				stack = append(stack, cur)
				newConj("(", roleParen)
				if l, next := s.labelAt(k + 1); l != "" {
					cur.label = l
					if l == "why" || l == "reason" {
						cur.role = roleCause
					}
					k = next - 1
				}
			case ":":
				// "Fixed the missing X: the handler ran first": what follows
				// the colon is a clause of its own, outside the label's
				// negation
				if len(stack) == 0 && k > from && k+2 < s.to && cur.verb0() && hasVerbAhead(toks, k+1, min(s.to, nextComma(toks, k+1, s.to))) {
					newConj(":", rolePlain)
					continue
				}
				cur.toks = append(cur.toks, k)
			case ")", "]":
				if len(stack) > 0 {
					cur = stack[len(stack)-1]
					stack = stack[:len(stack)-1]
				}
			case ",":
				if k+1 < s.to && toks[k+1].kind == tkWord && commaMarkers[toks[k+1].lower] && !s.isPhraseMarkerAt(k+1) {
					w := toks[k+1].lower
					if w == "since" && !causalSince(toks, k+2, s.to) {
						continue
					}
					if w == "not" && k+2 < s.to && toks[k+2].isWord("even") && cur.negatedWord() {
						// "did not fit, not even at batch size 1": the
						// negation goes on, no alternative is rejected
						newConj(w, rolePlain)
						continue
					}
					newConj(w, markerRole(w))
					continue
				}
				// "X is cached for 30 days, the cache holds Y": a new clause
				if k+2 < s.to && toks[k+1].kind == tkWord && (determiners[toks[k+1].lower] && toks[k+1].lower != "to" || pronouns[toks[k+1].lower] && toks[k+1].lower != "which" || clausePrepositions[toks[k+1].lower]) &&
					cur.verb0() && hasVerbAhead(toks, k+2, min(s.to, nextComma(toks, k+1, s.to))) {
					newConj(",", rolePlain)
					continue
				}
				// "X, which does Y, now does Z": the main clause resumes
				if (cur.marker == "which" || cur.marker == "who") && k+1 < s.to && hasVerbAhead(toks, k+1, min(s.to, k+4)) &&
					!determiners[toks[k+1].lower] && !pronouns[toks[k+1].lower] {
					newConj("resume", rolePlain)
					continue
				}
				// "71% with X, 64% without it": a list of numbers
				if k+1 < s.to && toks[k+1].kind == tkNumber && cur.hasNumber() {
					newConj(",", rolePlain)
					continue
				}
				// "Because X, Y": the comma ends the cause.
				if cur.role == roleCause && s.onlyConj(cur) && len(cur.toks) > 1 {
					newConj(",", roleEffect)
					continue
				}
				cur.toks = append(cur.toks, k) // a comma inside the conjunct
			}
			continue
		}
		if r, n := s.phraseMarker(k); n > 0 {
			newConj(strings.Join(lowerWords(toks[k:k+n]), " "), r)
			k += n - 1
			continue
		}
		w := t.lower
		switch {
		case bareMarkers[w] && len(cur.toks) > 0:
			newConj(w, markerRole(w))
			continue
		case w == "since" && causalSince(toks, k+1, s.to):
			newConj(w, roleCause)
			continue
		case w == "and" && cur.verb0() && !betweenNumbers(toks, k, s.from) && !nounPair(toks, k, s.from, s.to):
			newConj(w, rolePlain)
			continue
		case w == "or" && cur.verb0() && k+1 < s.to && (pronouns[toks[k+1].lower] || determiners[toks[k+1].lower]):
			newConj(w, rolePlain) // "needs X or it scans Y"
			continue
		}
		cur.toks = append(cur.toks, k)
	}
	// drop empty conjuncts; "instead of X" ends where a verb starts
	// the main clause again ("A instead of B did not improve C")
	var kept []*conj
	for _, c := range s.conjs {
		if len(c.toks) == 0 {
			continue
		}
		kept = append(kept, c)
		if c.role == roleRejected {
			// "replaced, not updated in place, when the AMI type changes":
			// the condition after the comma is the whole sentence's; so is
			// a participle ("not COND_None, cutting bandwidth by 18%"),
			// and the main clause after "Instead of webpack," at the start
			first := len(kept) == 1
			for j := 2; j < len(c.toks); j++ {
				w := toks[c.toks[j]].lower
				if toks[c.toks[j-1]].raw == "," && (conditionWords[w] || w == "with" || len(w) > 5 && strings.HasSuffix(w, "ing") || first) {
					rest := &conj{s: s, marker: "", role: rolePlain, toks: c.toks[j:]}
					c.toks = c.toks[:j-1]
					kept = append(kept, rest)
					break
				}
			}
		}
		if c.role != roleRejected || !choiceMarkers[c.marker] {
			continue
		}
		for j := 1; j < len(c.toks); j++ {
			t := toks[c.toks[j]]
			byNext := j+1 < len(c.toks) && toks[c.toks[j+1]].isWord("by")
			past := verbLemmas[t.term] && (strings.HasSuffix(t.lower, "ed") || irregular[t.lower] != "") &&
				!passiveLeads[toks[c.toks[j-1]].lower] && // "instead of being dropped"
				!slices.ContainsFunc(c.toks[:j], func(i int) bool { return causativeWords[toks[i].lower] }) // "rather than having X injected"
			// "MLD instead of CH for the truck profile": a phrase that
			// starts with a preposition and a determiner speaks of the
			// whole sentence, not of the rejected alternative
			scoped := j+1 < len(c.toks) && sentencePrepositions[t.lower] && determiners[toks[c.toks[j+1]].lower]
			// "instead of 1.9 s after adding an index": a subordinate
			// clause of the whole sentence; "instead of cron and alerts
			// after 3 missed runs": a second verb of the subject
			subordinate := j+1 < len(c.toks) && rejectedEnds[t.lower] && strings.HasSuffix(toks[c.toks[j+1]].lower, "ing")
			secondVerb := false
			if t.isWord("and") && j+2 < len(c.toks) {
				v, after := toks[c.toks[j+1]], toks[c.toks[j+2]]
				secondVerb = verbLemmas[v.term] && (strings.HasSuffix(v.lower, "s") || strings.HasSuffix(v.lower, "ed")) &&
					(after.kind == tkNumber || sentencePrepositions[after.lower] || rejectedEnds[after.lower] || determiners[after.lower] || after.isWord("up"))
			}
			// "rather than Redis, whose pub/sub cost 40 ms": a relative
			// clause states a fact of the alternative, it rejects nothing
			relative := words("whose which who where")[t.lower] && toks[c.toks[j-1]].raw == ","
			// "instead of being buffered in memory, keeping each worker
			// under 200 MB": a participle after a comma speaks of the whole
			participle := toks[c.toks[j-1]].raw == "," && len(t.lower) > 5 && strings.HasSuffix(t.lower, "ing")
			if t.kind == tkWord && (auxiliaries[t.lower] || past && !byNext || scoped || subordinate || secondVerb || relative || participle) {
				rest := &conj{s: s, marker: "", role: rolePlain, toks: c.toks[j:]}
				c.toks = c.toks[:j]
				kept = append(kept, rest)
				break
			}
		}
	}
	s.conjs = kept
}

// modalWords before "come from" make it a requirement, not a cause.
var modalWords = words("must should shall can cannot cant could may might will would need needs")

// causativeWords make the participle after their object part of the
// alternative ("rather than having `AppDbContext` injected directly").
var causativeWords = words("having getting keeping leaving")

// rejectedEnds are the words that, before a verb in -ing, start a clause
// of the whole sentence after a rejected alternative.
var rejectedEnds = words("after before when while since until once by without")

// choiceMarkers name the alternative a choice turned down ("instead of
// X", "chosen over X").
var choiceMarkers = map[string]bool{"instead of": true, "rather than": true, "chosen over": true, "preferred over": true,
	"picked over": true, "selected over": true, "favored over": true, "favoured over": true}

// conditionWords open, after a comma, a condition of the whole sentence.
var conditionWords = words("when whenever if unless once after before while")

func lowerWords(ts []token) []string {
	out := make([]string, len(ts))
	for i := range ts {
		out[i] = ts[i].lower
	}
	return out
}

// nextComma is the index of the next comma after k (or to).
func nextComma(toks []token, k, to int) int {
	for i := k + 1; i < to; i++ {
		if toks[i].raw == "," {
			return i
		}
	}
	return to
}

// onlyConj reports whether c is the first conjunct with words.
func (s *sent) onlyConj(c *conj) bool {
	for _, o := range s.conjs {
		if o == c {
			return true
		}
		if len(o.toks) > 0 {
			return false
		}
	}
	return false
}

// phraseMarker reports the multi-word connective starting at k, if any,
// and how many tokens it takes.
func (s *sent) phraseMarker(k int) (role, int) {
	toks := s.d.toks
	for _, m := range phraseMarkers {
		if k+len(m.words) > s.to {
			continue
		}
		ok := true
		for i, w := range m.words {
			if !toks[k+i].isWord(w) {
				ok = false
				break
			}
		}
		if ok && len(m.words) == 2 && m.words[0] == "so" && m.words[1] == "that" && thatDeterminer(toks, k+2, s.to) {
			return 0, 0 // "so that code moved to _ready": "so", then "that code"
		}
		if ok {
			return m.role, len(m.words)
		}
	}
	return 0, 0
}

// thatDeterminer reports whether the "that" before k points at a noun
// whose verb is in the past ("so that code moved"), not a purpose ("so
// that the job can retry").
func thatDeterminer(toks []token, k, to int) bool {
	if k+1 >= to || toks[k].kind != tkWord || toks[k].term == "" {
		return false
	}
	v := toks[k+1]
	return v.kind == tkWord && (strings.HasSuffix(v.lower, "ed") || pastVerbs[v.lower])
}

func (s *sent) isPhraseMarkerAt(k int) bool { _, n := s.phraseMarker(k); return n > 0 }

// causalSince tells "since" as "because" (a clause follows) from "since"
// as a point in time (a date, a version, "then").
func causalSince(toks []token, from, to int) bool {
	if from >= to {
		return false
	}
	if t := toks[from]; t.kind == tkNumber || sinceTimes[t.lower] && !(t.lower == "the" && hasVerbAhead(toks, from, to)) {
		return false
	}
	if from+1 < to && toks[from].kind == tkWord && toks[from+1].kind == tkNumber && strings.Contains(toks[from+1].value, ".") {
		return false // "since Ray 2.31.0": a release, a point in time
	}
	// "Since X was moved to 05:30, the job has not queued": a time, the
	// main clause after the comma in the perfect ("has", "have", "there
	// were")
	for k := from; k < to; k++ {
		if toks[k].raw != "," {
			continue
		}
		for j := k + 1; j < to && j <= k+6; j++ {
			if w := toks[j].lower; w == "has" || w == "have" || w == "hasnt" || w == "havent" || (w == "were" || w == "was") && j > 0 && toks[j-1].isWord("there") {
				return false
			}
		}
		break
	}
	return hasVerbAhead(toks, from, to)
}

func hasVerbAhead(toks []token, from, to int) bool {
	for k := from; k < to && k < from+8; k++ {
		t := toks[k]
		if t.kind != tkWord {
			continue
		}
		if auxiliaries[t.lower] || (verbLemmas[t.term] && (strings.HasSuffix(t.lower, "s") || strings.HasSuffix(t.lower, "ed"))) || irregular[t.lower] != "" {
			return true
		}
		// "since it wipes the SoftDevice": a verb the lexicon lacks, after
		// a subject pronoun
		if k == from && subjectPronouns[t.lower] && k+1 < to && toks[k+1].kind == tkWord && !toks[k+1].code &&
			(strings.HasSuffix(toks[k+1].lower, "s") && !strings.HasSuffix(toks[k+1].lower, "ss") || strings.HasSuffix(toks[k+1].lower, "ed")) {
			return true
		}
	}
	return false
}

// subjectPronouns stand as a clause's subject.
var subjectPronouns = words("it they he she we this")

// nounPair reports whether the "and" at k joins two nouns under one
// determiner ("on the account and card screens"): not two clauses.
func nounPair(toks []token, k, from, to int) bool {
	if k-2 < from || k+2 >= to || toks[k-1].kind != tkWord || toks[k-1].code || !articles[toks[k-2].lower] || toks[k+2].kind != tkWord {
		return false
	}
	next := toks[k+1]
	if next.kind != tkWord || determiners[next.lower] || pronouns[next.lower] {
		return false
	}
	return !hasVerbAhead(toks, k+1, min(to, nextComma(toks, k, to), k+4))
}

// articles open a noun phrase.
var articles = words("the a an its our their both each")

// betweenNumbers reports whether the "and" at k joins the two ends of a
// range ("between 3 and 12").
func betweenNumbers(toks []token, k, from int) bool {
	return k-2 >= from && toks[k-1].kind == tkNumber && toks[k-2].isWord("between") ||
		k-3 >= from && toks[k-2].kind == tkNumber && toks[k-3].isWord("between")
}

// verb0 reports whether the conjunct so far has a verb.
func (c *conj) verb0() bool {
	toks := c.s.d.toks
	for i, k := range c.toks {
		t := &toks[k]
		if t.kind != tkWord {
			continue
		}
		if auxiliaries[t.lower] || isVerbAt(toks, c.toks, i) {
			return true
		}
	}
	return false
}

// label reads "Label:" at the sentence's start (at most three words).
func (s *sent) label() (string, int) {
	l, next := s.labelAt(s.from)
	if l == "" {
		return "", s.from
	}
	return l, next
}

func (s *sent) labelAt(from int) (string, int) {
	toks := s.d.toks
	for k := from; k < s.to && k < from+4; k++ {
		t := toks[k]
		if t.kind == tkNumber {
			return "", from // "GUT 9.2: 212 tests pass": a name and version, not a label
		}
		if t.kind == tkPunct {
			if t.raw == ":" && k > from {
				return strings.Join(lowerWords(toks[from:k]), " "), k + 1
			}
			return "", from
		}
	}
	return "", from
}

// read finds the conjunct's terms, verb, subject, negations and hedges.
func (c *conj) read(i int) {
	toks := c.s.d.toks
	c.ownSet = map[string]bool{}
	c.neg, c.pos = map[string]bool{}, map[string]bool{}
	c.verb = -1
	for _, k := range c.toks {
		if t := toks[k]; t.term != "" {
			c.own = append(c.own, t.term)
			c.ownSet[t.term] = true
		}
	}
	c.findVerb()
	// negation scope: from the first negation to the end of the conjunct
	lower := make([]string, len(c.toks))
	for j, k := range c.toks {
		lower[j] = toks[k].lower
	}
	masked := strings.Fields(blankNeutral(" " + strings.Join(lower, " ") + " "))
	negFrom := -1
	negTo := -1 // the verb after "impossible to": what the negation is about
	if len(masked) == len(lower) {
		for j, w := range masked {
			if j > 0 && masked[j-1] == "to" && (w == "none" || w == "nothing") {
				continue // "from 12 a day to none": a value
			}
			if toks[c.toks[j]].code {
				continue // an error message quoted in code: "`does not match any of the checksums`"
			}
			if negationWords[w] {
				negFrom = j
				break
			}
			// "drop support for X" says X is no longer supported
			if (w == "drop" || w == "drops" || w == "dropped" || w == "dropping" || w == "remove" || w == "removed" || w == "removes") && j+1 < len(masked) && (masked[j+1] == "support" || masked[j+1] == "supporting") {
				negFrom = j
				break
			}
			// "impossible to audit", "unable to connect", "fails to
			// sign": the verb after is negated too
			if _, neg := negatedLemmas[w]; (neg || failWords[w]) && j+1 < len(masked) && masked[j+1] == "to" && j+2 < len(masked) {
				negFrom, negTo = j, j+2
				break
			}
			// "to keep a stuck slot from filling the disk": what follows
			// "from" does not happen
			if w == "from" && j+1 < len(masked) && strings.HasSuffix(masked[j+1], "ing") && keptFrom(masked[:j]) {
				negFrom = j
				break
			}
			// "stopped using X" says X is no longer used
			// ("stop being processed" is "stop", said of the object)
			if (w == "stop" || w == "stops" || w == "stopped") && j+1 < len(masked) && strings.HasSuffix(masked[j+1], "ing") && masked[j+1] != "being" {
				negFrom = j
				break
			}
			// "chunking stopped the OOMs" says what "the OOMs stopped" says
			if (w == "stopped" || w == "stops") && j > 0 && j+2 < len(masked) && articles[masked[j+1]] && !slices.Contains(masked[j+2:min(j+6, len(masked))], "from") {
				negFrom = j
				break
			}
			// "DAGs stop being scheduled" says they are no longer scheduled
			if (w == "stop" || w == "stops" || w == "stopped") && j+2 < len(masked) && masked[j+1] == "being" {
				negFrom = j + 1
				break
			}
		}
	}
	// "this might be avoided with a `moved` block": a passive of avoiding
	// negates its subject, not the means after it
	avoidedAt := -1
	if negFrom >= 1 && len(masked) == len(lower) && masked[negFrom] == "avoided" && passiveBe[masked[negFrom-1]] {
		avoidedAt, negFrom = negFrom-1, -1
	}
	if negFrom >= 0 && lackWords[masked[negFrom]] {
		c.lacks = true
	}
	// "trading is stopped by the kill switch" says what "stops trading"
	// says: a verb of stopping in the passive negates its subject
	passiveStop := avoidedAt
	if negFrom < 0 && passiveStop < 0 && len(masked) == len(lower) {
		for j := 1; j < len(masked); j++ {
			if stoppedWords[masked[j]] && passiveAux[masked[j-1]] && j >= 2 {
				passiveStop = j - 1
				break
			}
			// "advertising stops after some hours": a subject that stops
			// is what no longer happens
			if intransitiveStops[masked[j]] && (j+1 == len(masked) || timePrepositions[masked[j+1]]) && toks[c.toks[j-1]].term != "" {
				passiveStop = j
				break
			}
		}
	}
	// "unique constraints are not allowed" says what "allows no unique
	// constraints" says: a negated passive that ends its clause negates
	// its subject too
	if negFrom >= 2 && len(masked) == len(lower) && (masked[negFrom] == "not" || masked[negFrom] == "never") && passiveBe[masked[negFrom-1]] &&
		negFrom+2 == len(masked) &&
		!slices.ContainsFunc(masked[:negFrom-1], func(w string) bool { return w == "that" || w == "which" || w == "who" || w == "where" }) &&
		(strings.HasSuffix(masked[negFrom+1], "ed") || irregular[masked[negFrom+1]] != "") {
		passiveStop = negFrom - 1
	}
	// "without it the posts query did a scan": the negation is about the
	// pronoun only, what follows happens
	withoutPronoun := negFrom >= 0 && negFrom+1 < len(masked) && masked[negFrom] == "without" &&
		pronounWords[masked[negFrom+1]] && negFrom+2 < len(masked)
	// "no worker picks them up after Redis restarts": the condition after
	// the negated verb phrase is not negated
	negEnd := len(c.toks)
	if negFrom >= 0 && len(masked) == len(c.toks) {
		for j := negFrom + 2; j < len(masked); j++ {
			if conditionWords[masked[j]] && masked[j] != "if" || clauseAfter(masked, j) {
				negEnd = j
				break
			}
		}
	}
	failNeg := negFrom >= 0 && failWords[masked[negFrom]]
	if c.role == roleRejected {
		negFrom = 0
	}
	for j, k := range c.toks {
		t := toks[k]
		if t.term == "" {
			continue
		}
		if (negFrom >= 0 && j > negFrom && j < negEnd && !withoutPronoun) || (c.role == roleRejected) || t.negLex || j < passiveStop {
			c.neg[t.term] = true
			if c.negHead == "" {
				c.negHead = t.term
			}
			if failNeg {
				// "X fails to sync" negates the syncing, and "sync of X
				// fails" says it too: the words may stand either way (the
				// verb's failure is checked by failedVerb)
				c.pos[t.term] = true
				if c.failHead == "" && j == negFrom+2 {
					c.failHead = t.term
				}
			}
		} else {
			c.pos[t.term] = true
		}
	}
	if negTo >= 0 && negTo < len(c.toks) {
		if t := toks[c.toks[negTo]]; t.term != "" {
			c.negHead = t.term
		}
	}
	// "nothing from X is sent": the negation is about the verb
	if negFrom >= 0 && negFrom < len(masked) && nothingWords[masked[negFrom]] && c.verbTerm != "" && c.verb >= 0 {
		for j, k := range c.toks {
			if k == c.verb && j > negFrom {
				c.negHead = c.verbTerm
			}
		}
	}
	// "unit tests run without it": the negation is about what the
	// pronoun stands for (resolved by the doc, which knows the clause
	// before)
	if withoutPronoun && len(c.neg) == 0 && c.role != roleRejected {
		c.negPronoun = true
	} else if negFrom >= 0 && negFrom+1 < len(masked) && len(c.neg) == 0 && c.role != roleRejected {
		only := true
		for _, w := range masked[negFrom+1:] {
			if !pronounWords[w] {
				only = false
			}
		}
		c.negPronoun = only
	}
	// "the new cookie changed nothing": a verb whose object is "nothing"
	// is what is negated, not the words before it
	if last := len(masked) - 1; negFrom == last && last > 0 && len(masked) == len(c.toks) && (masked[last] == "nothing" || masked[last] == "none") && c.role != roleRejected {
		if t := toks[c.toks[last-1]]; t.term != "" && (strings.HasSuffix(t.lower, "ed") || irregular[t.lower] != "") {
			delete(c.pos, t.term)
			c.neg[t.term] = true
			c.negHead = t.term
		}
	}
	// "automation does not": the ellipsis negates what stands before
	if negFrom >= 0 && len(c.neg) == 0 && c.role != roleRejected && !c.negPronoun {
		for t := range c.pos {
			c.neg[t] = true
		}
		c.pos = map[string]bool{}
		// "the liveness probe does not": what it says is about its subject
		for _, t := range c.own {
			if !genericLemmas[t] {
				c.negHead = t
				break
			}
		}
	}
	c.negated = negFrom >= 0 || passiveStop >= 0 || len(c.neg) > 0
	c.hedged = c.s.hedgeAll || hasHedge(" "+strings.Join(lower, " ")+" ")
	_ = i
}

// placePrepositions start a phrase of place or setting ("on the CI
// runners", "in production"), not a condition.
var placePrepositions = words("in on at for with within inside across under over during")

// abbreviationEnd reports whether the period at k ends an abbreviation
// of prose ("e.g.", "i.e.", "etc.", "vs.") rather than a sentence.
func abbreviationEnd(toks []token, k int) bool {
	if k < 1 || toks[k-1].kind != tkWord {
		return false
	}
	switch w := toks[k-1].lower; {
	case w == "etc":
		// "etc." at the very end of a sentence still ends it when a
		// capital follows
		return k+1 >= len(toks) || !isCapitalised(toks[k+1].raw)
	case abbreviations[w] || abbreviations[w+"."]:
		return true
	case w == "g" || w == "e":
		return k >= 3 && toks[k-2].raw == "." && (toks[k-3].lower == "e" || toks[k-3].lower == "i")
	}
	return false
}

// clauseAfter reports whether a new clause with its own subject starts
// after the comma or colon at j ("never commit notebooks with outputs,
// `nbstripout` is installed as a git filter"; "never run it: it wipes
// the cache"), which a negation before it does not reach.
func clauseAfter(masked []string, j int) bool {
	if w := masked[j]; w != "," && w != ":" || j+2 >= len(masked) {
		return false
	}
	switch next := masked[j+1]; {
	case pronouns[next] && next != "that" && next != "which" && next != "who":
		return true
	case next == "and" || next == "or":
		return false
	case masked[j] == "," && imperativeVerbs[next] && (determiners[masked[j+2]] || articles[masked[j+2]]):
		return true // "never edit an applied migration, add a new one"
	}
	for m := j + 2; m <= j+4 && m < len(masked); m++ {
		if w := masked[m]; w == "," || w == ":" {
			return false
		}
		if auxiliaries[masked[m]] && !determiners[masked[m-1]] && !negationWords[masked[m-1]] {
			return true
		}
	}
	return false
}

// failWords negate the verb after their "to" ("fails to resolve",
// "refused to start").
var failWords = words("fail fails failed failing refuse refuses refused refusing")

// monthLeads come before the name of a month ("in May").
var monthLeads = words("in of since until by early late mid last next this from to during through")

// causeHedges are the adverbs that, right before "because", hedge the
// cause only ("fails, probably because Y").
var causeHedges = words("probably possibly likely maybe perhaps presumably apparently")

// hedgedOnlyAtEnd reports whether the conjunct's only hedge is an adverb
// at its end (before a cause that follows).
func (c *conj) hedgedOnlyAtEnd() bool {
	toks := c.s.d.toks
	end := len(c.toks)
	for end > 0 && (toks[c.toks[end-1]].kind == tkPunct || causeHedges[toks[c.toks[end-1]].lower]) {
		end--
	}
	if end == len(c.toks) || !causeHedges[toks[c.toks[end]].lower] && !causeHedges[toks[c.toks[len(c.toks)-1]].lower] {
		return false
	}
	lower := make([]string, end)
	for j, k := range c.toks[:end] {
		lower[j] = toks[k].lower
	}
	return !hasHedge(" " + strings.Join(lower, " ") + " ")
}
