package support

import "strings"

// The polarity checks: a claim negates what its source affirms, or affirms
// what its source negates.

// formerName reports whether a clause names with "formerly" or
// "previously" what its source says was renamed or changed from
// ("formerly `X`" for "X was renamed to Y").
func formerName(a *conj, head string, u *unit) bool {
	if head == "" || !a.has("formerly") && !a.has("previously") {
		return false
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.fromSide[head] {
				return true
			}
		}
	}
	return false
}

// bareNegation reports whether a clause that is no more than a negated
// verb ("but is not deployed yet") negates what a cited sentence negates
// too: with one word, the best unit is a guess, so any cited sentence
// that shares the claim's other words may speak for it.
func (k *checker) bareNegation(a *conj, head string) bool {
	if head == "" || len(distinctiveSet(union(a.neg, a.pos))) > 1 {
		return false
	}
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			for _, c := range st.conjs {
				if c.neg[head] && !c.negPronoun && overlapCount(distinctiveSet(s.all), k.claimTerms) >= 2 {
					return true
				}
			}
		}
	}
	return false
}

// negatedAlike reports whether a negated conjunct of the unit has most
// of the clause's distinctive words, whatever their order: "rolled-back
// rows never reach subscribers" for "subscribers never see rolled-back
// rows", where word order puts different words in the negation's scope.
func negatedAlike(a *conj, u *unit) bool {
	want := distinctiveSet(union(a.neg, a.pos))
	if len(want) < 2 {
		return false
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if !c.negated || c.role == roleRejected || c.negPronoun {
				continue
			}
			// the source's negation must be about the clause's words
			// ("needs X to build without OpenSSL" negates OpenSSL only)
			if overlapCount(distinctiveSet(c.neg), want) > 0 && share(want, union(union(c.neg, c.pos), setOf(c.inherited))) >= 0.6 {
				return true
			}
		}
	}
	return false
}

// otherwiseRestated reports whether a negated clause restates, as what
// does not happen, what its source says happens "otherwise" ("so staging
// and production don't share keys" for "unique per environment,
// otherwise staging and production share keys").
func (k *checker) otherwiseRestated(a *conj, u *unit) bool {
	want := distinctiveSet(union(a.neg, a.pos))
	if len(want) < 2 {
		return false
	}
	for _, st := range u.src.d.sents {
		before, after := map[string]bool{}, map[string]bool{}
		in := false
		for i := st.from; i < st.to; i++ {
			t := st.d.toks[i]
			switch {
			case otherwiseWords[t.lower] && !t.code:
				in = true
			case t.term == "":
			case in:
				after[t.term] = true
			default:
				before[t.term] = true
			}
		}
		// the claim states the rule too ("give each environment its own
		// prefix so ..."), not only the negated consequence
		if in && share(want, after) >= 0.6 && overlapCount(distinctiveSet(minus(before, after)), k.claimTerms) > 0 {
			return true
		}
	}
	return false
}

// otherwiseWords open what happens when a condition is not met.
var otherwiseWords = words("otherwise else")

// laterNegated reports whether a sentence of the unit's source after the
// unit negates the clause's head with a word of state: the record's later
// state ("X was still enabled; disabled it").
func laterNegated(head string, u *unit) bool {
	if head == "" {
		return false
	}
	// by a word of state ("disabled it", "unset"), not by a condition
	// ("without it")
	for _, st := range u.after() {
		for _, c := range st.conjs {
			for _, i := range c.toks {
				if t := st.d.toks[i]; t.negLex && t.term == head && c.role != roleRejected {
					return true
				}
			}
		}
	}
	return false
}

// after is the sentences of the unit's source after the unit's last one.
func (u *unit) after() []*sent {
	if len(u.sents) == 0 {
		return nil
	}
	last := u.sents[len(u.sents)-1]
	for i, st := range u.src.d.sents {
		if st == last {
			return u.src.d.sents[i+1:]
		}
	}
	return nil
}

// statesAbsence reports whether the claim says what happens without
// something in a clause of its own ("without it, Y"; "otherwise Y").
func (k *checker) statesAbsence() bool {
	for _, st := range k.cd.sents {
		for _, c := range st.conjs {
			if c.negPronoun && conditionalAbsence(k.cd, c) {
				return true
			}
			for _, i := range c.toks {
				if w := k.cd.toks[i].lower; w == "otherwise" {
					return true
				}
			}
		}
	}
	return false
}

// onlyPhrase is the terms after "only" in the tokens from..to, up to the
// next comma or the end.
func onlyPhrase(toks []token, from, to int) map[string]bool {
	m := map[string]bool{}
	in := false
	for i := from; i < to; i++ {
		t := toks[i]
		switch {
		case t.isWord("only"):
			in = true
		case t.raw == "," || t.raw == ";":
			if in {
				return m
			}
		case in && t.term != "" && !genericLemmas[t.term]:
			m[t.term] = true
		}
	}
	return m
}

// restatesRationale reports whether a clause of a claim's reason says
// most of what a cited source gives as the reason for its decision.
func (k *checker) restatesRationale(a *conj) bool {
	terms := distinctiveSet(a.effTerms())
	if len(terms) == 0 {
		return false
	}
	for _, s := range k.srcs {
		for _, l := range s.links {
			if l.why && share(terms, l.cause) >= 0.5 {
				return true
			}
		}
	}
	return false
}

// onlyRestated reports whether a clause restates a restriction of its
// unit as a negation with an exclusion ("no one outside X may", "not
// unless C"), or the other way round.
func onlyRestated(a *conj, u *unit) bool {
	aExcludes := a.negated && (a.has("outside") || a.has("except") || a.has("besides") || a.has("unless"))
	aOnly := !a.negated && a.has("only") && (a.has("when") || a.has("if") || a.has("for") || a.has("by"))
	if !aExcludes && !aOnly {
		return false
	}
	about := distinctiveSet(a.effTerms())
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if overlapCount(distinctiveSet(c.effTerms()), about) < 2 {
				continue
			}
			if aExcludes && !c.negated && c.has("only") || aOnly && c.negated && (c.has("unless") || c.has("except") || c.has("outside")) {
				return true
			}
		}
	}
	return false
}

// sameOnly reports whether the clause restricts something to what a
// sentence of the unit restricts it to ("only from the deploy
// pipeline"), whatever it negates around it.
func sameOnly(d *doc, a *conj, u *unit) bool {
	from, to := a.toks[0], a.toks[len(a.toks)-1]+1
	want := onlyPhrase(d.toks, from, to)
	first, _ := firstOnly(d.toks, from, to)
	if len(want) == 0 {
		return false
	}
	for _, st := range u.sents {
		have := onlyPhrase(st.d.toks, st.from, st.to)
		srcFirst, _ := firstOnly(st.d.toks, st.from, st.to)
		// the same thing restricted to the same: "only the billing queue"
		// is not "only the default queue", however alike the rest
		if len(have) > 0 && first == srcFirst && share(want, have) >= 0.75 && share(have, want) >= 0.75 {
			return true
		}
	}
	return false
}

// negatedName fails a clause that affirms a name (code) its source only
// ever negates, in a sentence other than the one the clause rests on
// ("Run `prisma migrate dev` against the main branch" where the source
// says "Never run `prisma migrate dev` against the main branch" after a
// sentence about deploy requests).
func (k *checker) negatedName(a *conj, u *unit, phrase string) {
	if a.negated || a.role != rolePlain || k.remedy(a) || k.statesAbsence() || a.has("only") || k.hypothetical(a) {
		return // a remedy, a condition, a restriction: not the fact negated
	}
	for _, i := range a.toks {
		t := k.cd.toks[i]
		if !t.code || t.term == "" || !a.pos[t.term] {
			continue
		}
		neg, pos := false, false
		for _, st := range u.src.d.sents {
			for _, c := range st.conjs {
				if c.neg[t.term] && c.role != roleRejected && !c.startsWith("without") && !c.has("without") && !c.has("only") && !st.resolved {
					neg = true
				}
				if c.pos[t.term] {
					pos = true
				}
			}
		}
		if neg && !pos {
			k.fail(Negation, "%q affirms %s, which the source only names in a negation", phrase, t.raw)
			return
		}
	}
}

// relationVerbs relate two things in an order ("the dbt job waits on
// the Airbyte sync").
var relationVerbs = lemmaSet("wait depend wrap call block feed trigger precede follow own import extend inherit invoke send publish consume produce replace")

// conditionalAbsence reports whether a clause opens with "without X,":
// a condition, not a denial.
func conditionalAbsence(d *doc, a *conj) bool {
	if len(a.toks) < 3 || !d.toks[a.toks[0]].isWord("without") {
		return false
	}
	if a.negPronoun {
		return true // "without it the image is lazy-loaded"
	}
	for _, i := range a.toks[1:] {
		if d.toks[i].raw == "," {
			return true
		}
	}
	return false
}

// unitConditional reports whether a unit states what happens without
// something ("otherwise", "unless", "or else").
func unitConditional(u *unit) bool {
	for _, st := range u.sents {
		for i := st.from; i < st.to; i++ {
			if w := st.d.toks[i].lower; w == "otherwise" || w == "unless" || w == "without" || w == "else" {
				return true
			}
		}
	}
	return false
}

// rejectionWords say that what a clause names was turned down.
var rejectionWords = words(`reject rejected rejects declined abandoned dropped ruled against`)

// unitRejects reports whether a conjunct of the unit with most of terms
// says they were turned down ("adding replicas was rejected").
func unitRejects(u *unit, terms map[string]bool) bool {
	if len(terms) == 0 {
		return false
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			rejects := false
			for _, i := range c.toks {
				if rejectionWords[st.d.toks[i].lower] {
					rejects = true
				}
			}
			if rejects && share(terms, c.effTerms()) >= 0.6 {
				return true
			}
		}
	}
	return false
}

// wholeNegators are the words that negate a whole clause ("nobody has X").
var wholeNegators = words("nobody nothing none neither nor noone")

// zeroCounted are the terms a sentence counts as zero ("showed 0
// replacements"): what "had no replacements" says.
func zeroCounted(st *sent) map[string]bool {
	out := map[string]bool{}
	toks := st.d.toks
	for _, c := range st.conjs {
		for j, i := range c.toks {
			if t := toks[i]; (t.lower == "0" || t.lower == "zero") && j+1 < len(c.toks) {
				if n := toks[c.toks[j+1]]; n.term != "" && n.kind == tkWord {
					out[n.term] = true
				}
			}
		}
	}
	return out
}

// consequenceVerbs say what an action leads to.
var consequenceVerbs = words(`makes make causes cause breaks break loses lose wipes wipe crashes crash fails fail
	triggers trigger leads lead corrupts corrupt deadlocks deadlock hangs hang drops drop raises throws`)

// hypothetical reports whether a clause says what an action leads to,
// with the action as its subject ("Calling .get() inside a task makes
// Celery raise", "Destructuring the store without storeToRefs() loses
// reactivity"): its words and negations are a condition, which a source
// that forbids or requires the action states too.
func (k *checker) hypothetical(a *conj) bool {
	toks := k.cd.toks
	first := a.firstWordPos()
	if first < 0 || a.negated && !a.has("without") {
		return false
	}
	w := toks[a.toks[first]]
	if !strings.HasSuffix(w.lower, "ing") || len(w.lower) < 6 || w.code {
		return false
	}
	for _, i := range a.toks[first+1:] {
		if consequenceVerbs[toks[i].lower] {
			return true
		}
	}
	return false
}

// rejectedShared reports whether the term t, which a source both affirms
// and names in a rejected alternative, is only a word the alternative
// shares with the chosen side: the alternative has other terms and the
// clause affirms none of them.
func rejectedShared(a *conj, t string, rejected map[string]bool) bool {
	others := 0
	for r := range rejected {
		if r == t || genericLemmas[r] {
			continue
		}
		if a.pos[r] {
			return false
		}
		others++
	}
	return others > 0
}
