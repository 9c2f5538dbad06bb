package support

import "strings"

// The modality check: a hedge in the source stays a hedge in the claim.

// restatesCertain reports whether a clause that is no cause restates the
// certain part of a sentence whose hedged part is only its cause: "X
// fails 1 run in 5" from "X fails 1 run in 5, probably because Y", where
// every term the clause shares with the hedged cause is in the certain
// part too.
func restatesCertain(a, hedged *conj, need []cterm, st *sent) bool {
	if a.role == roleCause || hedged.role != roleCause {
		return false
	}
	certain := map[string]bool{}
	for _, c := range st.conjs {
		if !c.hedged {
			addAll(certain, c.effTerms())
		}
	}
	if len(certain) == 0 {
		return false
	}
	eff := hedged.effTerms()
	for _, t := range need {
		if !t.generic && t.in(eff) && !t.in(certain) {
			return false
		}
	}
	return true
}

// opposites fails a clause that uses the opposite of its source's word.
func (k *checker) opposites(a *conj, u *unit, phrase string) {
	claimWords := map[string]bool{}
	for _, s := range k.cd.sents {
		for i := s.from; i < s.to; i++ {
			claimWords[k.cd.toks[i].lower] = true
		}
	}
	srcWords := map[string]bool{}
	for _, st := range u.sents {
		for i := st.from; i < st.to; i++ {
			srcWords[st.d.toks[i].lower] = true
		}
	}
	// and a word of state of its source after it: the state a record ends
	// with ("was still enabled. Disabled it")
	for _, st := range u.after() {
		for i := st.from; i < st.to; i++ {
			if st.d.toks[i].negLex {
				srcWords[st.d.toks[i].lower] = true
			}
		}
	}
	// a hyphenated word is rare enough to be looked for in the whole
	// source ("single-use" in the sentence after the one the clause
	// rests on)
	for _, t := range u.src.d.toks {
		if t.kind == tkWord && strings.Contains(t.lower, "-") {
			srcWords[t.lower] = true
		}
	}
	for j, i := range a.toks {
		w := k.cd.toks[i].lower
		ops, ok := opposites[w]
		if !ok || srcWords[w] {
			continue
		}
		if j > 0 && returnWords[k.cd.toks[a.toks[j-1]].lower] {
			continue // "back online" after being offline
		}
		for _, o := range ops {
			if srcWords[o] && !claimWords[o] && !converse(k.cd.toks, i, w, u, o) {
				k.fail(Opposite, "%q says %q where the source says %q", phrase, w, o)
				return
			}
		}
	}
}
