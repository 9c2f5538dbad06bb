package support

import "slices"

// The number checks: every number of a claim is in a cited source, with a
// compatible unit and its own words around it, and no superlative is new.

// numberResult is one claim number's verdict: its class and detail when
// it fails.
type numberResult struct {
	n      numOcc
	class  Class
	detail string
}

// sentNumbers are the numbers of one sentence.
func sentNumbers(ns []numOcc, sent int) []numOcc {
	var out []numOcc
	for _, n := range ns {
		if n.sent == sent {
			out = append(out, n)
		}
	}
	return out
}

// superlativeWords make a claim a cap or a ranking ("the newest
// supported version"), a fact of its own that a source must state.
var superlativeWords = words("newest latest oldest earliest highest lowest maximum minimum fastest slowest largest smallest biggest best worst")

// superlatives checks that a superlative of the claim is in a cited source.
func (k *checker) superlatives() {
	for _, t := range k.cd.toks {
		if t.kind != tkWord || !superlativeWords[t.lower] {
			continue
		}
		found := false
		for _, s := range k.srcs {
			for _, st := range s.d.toks {
				found = found || st.lower == t.lower
			}
		}
		if !found {
			k.fail(LowOverlap, "says %q, which no cited source says", t.raw)
		}
	}
}

// movedFrom reports whether every term of terms follows "from" in the
// unit's sentences ("moved the job from cron to a queue worker"): the
// side a change left, which a claim may name as the one rejected.
func movedFrom(u *unit, terms map[string]bool) bool {
	if len(terms) == 0 {
		return false
	}
	left := map[string]bool{}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			addAll(left, minus(c.fromSide, c.toSide)) // "swapped X for Y", "replaced X with Y"
		}
		toks := st.d.toks
		for i := st.from; i < st.to; i++ {
			if !toks[i].isWord("from") {
				continue
			}
			for j := i + 1; j < st.to && j <= i+3 && !toks[j].isWord("to"); j++ {
				if toks[j].term != "" {
					left[toks[j].term] = true
				}
			}
		}
	}
	for t := range terms {
		if !left[t] {
			return false
		}
	}
	return true
}

// comparesKept reports whether the claim has another number, of another
// value, that passed its checks.
func comparesKept(n numOcc, kept map[string]bool) bool {
	for v := range kept {
		if v != n.value {
			return true
		}
	}
	return false
}

// unit is a candidate support for a clause: one sentence, or two of one
// source.
type unit struct {
	src   *source
	sents []*sent
	terms map[string]bool
	score float64
}

// numberElsewhere fails a clause whose words are those of one sentence,
// which has a value of its own of the same kind, while its number is only
// in another sentence, which names something the clause does not ("`scan_parquet` reads the sample in 31 s" where "`scan_parquet`
// takes 4 s; `read_parquet` took 31 s"): the number belongs to the other
// sentence's subject.
func (k *checker) numberElsewhere(a *conj, need []cterm, u *unit, phrase string) {
	toks := k.cd.toks
	if !a.hasNumber() {
		return
	}
	inUnit := map[*sent]bool{}
	for _, st := range u.sents {
		inUnit[st] = true
	}
	// of two sentences, the one that has all of the clause's words but
	// its numbers is the one it restates
	core := u.terms
	var pronounFor map[string]bool // what a pronoun of the restated sentence stands for
	if len(u.sents) > 1 {
		for _, st := range u.sents {
			// its words, with the subject a pronoun stands for ("it started")
			inh := map[string]bool{}
			for _, c := range st.conjs {
				addAll(inh, setOf(c.inherited))
			}
			all := true
			for _, x := range need {
				if !x.number && !x.generic && !x.inSent(st) && !x.in(inh) {
					all = false
				}
			}
			if all {
				inUnit = map[*sent]bool{st: true}
				core = union(st.terms, inh)
				pronounFor = distinctiveSet(inh)
				break
			}
		}
	}
	for _, i := range a.toks {
		t := toks[i]
		if t.kind != tkNumber {
			continue
		}
		var others []*sent
		inSubject := map[*sent]bool{} // the number stands before its clause's verb
		found := false
		for _, s := range k.srcs {
			for _, o := range s.nums {
				if !sameValue(o.value, t.value) {
					continue
				}
				st := s.d.sents[o.sent]
				if inUnit[st] {
					found = true
				}
				others = append(others, st)
				for _, c := range st.conjs {
					if c.verb >= 0 && o.pos < c.verb && slices.Contains(c.toks, o.pos) {
						inSubject[st] = true
					}
				}
			}
		}
		if found || len(others) == 0 {
			continue
		}
		// the sentence the clause restates has its own value of that kind
		var cn numOcc
		for _, n := range k.cnums {
			if n.value == t.value {
				cn = n
			}
		}
		if oldness(cn, cn.value, k.srcs) > 0 && (cn.old || !earlierOnly(cn, k.cd, len(k.cnums), k.srcs)) {
			continue // the earlier value, which the claim also gives as earlier
		}
		rival := false
		for _, o := range u.src.nums {
			if inUnit[u.src.d.sents[o.sent]] && !sameValue(o.value, t.value) && sameKind(cn, o) {
				rival = true
			}
		}
		if !rival {
			continue
		}
		belongs := true
		for _, st := range others {
			own, only := false, false
			for _, x := range need {
				if x.number || x.generic {
					continue
				}
				in2 := x.inSent(st)
				if in2 && !x.in(core) {
					own = true // the clause has a word of the number's sentence
				}
				if !in2 && x.in(core) && x.distinctive() {
					only = true
				}
			}
			foreign := false
			for w := range st.plain {
				if !k.claimTerms[w] && !genericLemmas[w] && !verbLemmas[w] && len(w) > 2 {
					foreign = true
				}
			}
			// "Scrolling 10,000 notes drops to 30 fps; a stable key brought
			// it back to 60 fps": the number is in what the pronoun stands for
			if own || !only || !foreign || inSubject[st] && overlapCount(pronounFor, st.terms) > 0 {
				belongs = false
			}
		}
		if belongs {
			k.fail(NumberContext, "%q takes %s from a sentence about something else", phrase, t.raw)
			return
		}
	}
}

// bestConj is the conjunct of u that holds most of the clause.
func bestConj(u *unit, need []cterm, inherited, subject map[string]bool, negated bool) *conj {
	var best *conj
	bestScore := -1.0
	for _, st := range u.sents {
		for _, c := range st.conjs {
			eff := c.effTerms()
			s := 0.0
			for _, t := range need {
				switch {
				case t.number:
					// the clause's number tells apart conjuncts of the same
					// words ("the emails queue has 3 workers and the orders
					// queue 10")
					if c.hasValue(t.key) {
						s += 1
					}
				case t.in(eff):
					s += t.weight()
				}
			}
			for t := range inherited {
				if eff[t] {
					s += 0.01
				}
			}
			// a tie goes to the conjunct with the clause's subject ("the
			// survival servers keep 2" of "the lobby server keeps 4; the
			// survival servers keep 2")
			for _, t := range c.left {
				if subject[t] && !genericLemmas[t] {
					s += 0.02
				}
			}
			if c.negated == negated {
				s += 0.001
			}
			if s > bestScore {
				best, bestScore = c, s
			}
		}
	}
	return best
}
