package support

// Two words of a source's sentence exchanged and nothing else changed:
// "Extract the inventory module first, then billing" for "Extract the
// billing module first, then inventory". A restatement that only puts
// two words of a list in another order ("billing and inventory") keeps
// them side by side across "and", "or" or a comma, which is no exchange.

// sentenceWords are the words of a sentence as compared: lower-case
// words and numbers.
func sentenceWords(st *sent) []string {
	var out []string
	for i := st.from; i < st.to; i++ {
		switch t := st.d.toks[i]; t.kind {
		case tkWord:
			out = append(out, t.lower)
		case tkNumber:
			out = append(out, "#"+t.value)
		}
	}
	return out
}

// transposed fails a claim with a sentence that a cited source's sentence
// (or a stretch of one) states with two of its words exchanged.
func (k *checker) transposed() {
	k.transposedIn(1)
	if len(k.problems) == 0 {
		// two facts of one sentence split by a semicolon, exchanged
		// between its halves ("--ttl 48h" given to the other schedule)
		k.transposedIn(2)
	}
}

// transposedIn runs transposed over runs of n sentences taken together,
// in the claim and in the sources.
func (k *checker) transposedIn(n int) {
	for _, cs := range sentenceRuns(k.cd.sents, n) {
		cw := cs.words
		if len(cw) < 4 {
			continue
		}
		// the sources that have the claim sentence's rarest word
		rare := ""
		for t := range cs.terms {
			if rare == "" || len(k.corpus.postings[t]) < len(k.corpus.postings[rare]) {
				rare = t
			}
		}
		for _, s := range k.corpus.postings[rare] {
			if k.cited != nil && !k.cited[s] || share(cs.terms, s.all) < 1 {
				continue
			}
			for _, ss := range s.runs[n-1] {
				if share(cs.terms, ss.terms) < 1 {
					continue // a sentence without every word of the claim's
				}
				sw := ss.words
				for off := 0; off+len(cw) <= len(sw); off++ {
					if a, b, ok := exchange(cw, sw[off:off+len(cw)]); ok {
						k.fail(RoleSwap, "%q and %q are exchanged: a cited source says it the other way round", cw[a], cw[b])
						return
					}
				}
			}
		}
	}
}

// exchange reports whether c is s with exactly two words exchanged, and
// which; words joined only by "and", "or", "," are a list, not exchanged.
func exchange(c, s []string) (int, int, bool) {
	var diff []int
	for i := range c {
		if c[i] != s[i] {
			diff = append(diff, i)
			if len(diff) > 2 {
				return 0, 0, false
			}
		}
	}
	if len(diff) != 2 {
		return 0, 0, false
	}
	a, b := diff[0], diff[1]
	if c[a] != s[b] || c[b] != s[a] || isStop(c[a]) || isStop(c[b]) {
		return 0, 0, false
	}
	list := true
	for _, w := range c[a+1 : b] {
		if w != "and" && w != "or" && w != "nor" && w != "as" && w != "well" {
			list = false
		}
	}
	return a, b, !list
}

// sentenceRun is a run of sentences taken together: their words, in
// order, and their terms.
type sentenceRun struct {
	words []string
	terms map[string]bool
}

// sentenceRuns are the runs of n consecutive sentences.
func sentenceRuns(sents []*sent, n int) []sentenceRun {
	var out []sentenceRun
	for i := 0; i+n <= len(sents); i++ {
		r := sentenceRun{terms: sents[i].terms}
		if n > 1 {
			r.terms = map[string]bool{}
			for _, st := range sents[i : i+n] {
				addAll(r.terms, st.terms)
			}
		}
		for _, st := range sents[i : i+n] {
			r.words = append(r.words, sentenceWords(st)...)
		}
		out = append(out, r)
	}
	return out
}
