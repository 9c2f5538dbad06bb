package support

// The opposites check: a claim uses the opposite of the source's word
// ("before" for "after", "read" for "write").

// converse reports whether a relation word at i of the claim ("A started
// before B finished") is the source's opposite word with its two sides
// exchanged ("B finished after A started"): the same order, said from the
// other end.
func converse(toks []token, i int, w string, u *unit, o string) bool {
	if !relationWords[w] {
		return false
	}
	near := func(toks []token, i, step int) string {
		for j := i + step; j >= 0 && j < len(toks) && toks[j].kind != tkPunct; j += step {
			if t := toks[j]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
				return t.term
			}
		}
		return ""
	}
	l, r := near(toks, i, -1), near(toks, i, 1)
	if l == "" || r == "" {
		return false
	}
	for _, st := range u.sents {
		for j := st.from; j < st.to; j++ {
			if st.d.toks[j].lower == o && near(st.d.toks, j, -1) == r && near(st.d.toks, j, 1) == l {
				return true
			}
		}
	}
	return false
}

// causes checks every cause the claim states.
func (k *checker) causes() {
	for _, l := range docLinks(k.cd) {
		cause, effect := distinctiveSet(l.cause), distinctiveSet(l.effect)
		if len(cause) == 0 {
			continue
		}
		if !k.causeStated(cause, effect) && !(l.so && k.purposeStated(cause, effect)) && !(l.hedged && k.causeSupposed(cause, effect, distinctiveSet(l.scope))) {
			k.fail(Causal, "no cited source gives %s as the cause", quoteList(sortedKeys(cause)))
		}
	}
}

// returnWords before an opposite say a return to a state ("back online").
var returnWords = words("back again")

// relationWords relate two things in an order, which a converse states from the other end.
var relationWords = words("before after above below over under older newer earlier later")
