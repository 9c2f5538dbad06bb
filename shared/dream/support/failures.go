package support

import (
	"slices"
	"strings"
)

// The failure checks: a claim that says a fix worked where the source says
// it failed, recommends what the source says breaks, or uses what the
// source says was removed.

// fixFailed reports whether a clause that says a fix did not work ("did
// not stop the empty searches") rests on a source that says the problem
// persists ("the empty searches still happen").
func fixFailed(a *conj, head string, u *unit) bool {
	if !fixVerbs[head] {
		return false
	}
	// the record as a whole: "Tried X to stop the drift; drift still
	// appeared the next day"
	for _, st := range u.src.d.sents {
		for i := st.from; i < st.to; i++ {
			if w := st.d.toks[i].lower; w == "still" || w == "persists" || w == "persist" || w == "remains" {
				return true
			}
		}
	}
	return false
}

// persistsUnfixed reports whether the clause says a problem persists
// ("remains", "still") where its source says a fix did not fix it: the
// same fact from the other side.
func persistsUnfixed(a *conj, u *unit) bool {
	persists := false
	for _, i := range a.toks {
		if persistWords[a.s.d.toks[i].lower] {
			persists = true
		}
	}
	if !persists {
		return false
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.negated && fixVerbs[c.negHead] {
				return true
			}
			for t := range c.neg {
				if fixVerbs[t] {
					return true
				}
			}
		}
	}
	return false
}

// persistWords say a problem is still there.
var persistWords = words("remains remain remained persists persist persisted still continues continue continued")

// adds reports whether the clause opens with adding something ("Adding
// a composite index ...", "Using X ...").
func (k *checker) adds(a *conj) bool {
	j := a.firstWordPos()
	return j >= 0 && addingWords[k.cd.toks[a.toks[j]].lower]
}

// prohibitsFailure reports whether the clause forbids ("never", "don't",
// "do not") what a clause of its source says fails: "Don't run
// `Bake-GPU` on laptops with 4 GB" for "`Bake-GPU` fails on laptops with
// 4 GB of VRAM"; "never use a plain `r.Update`" for "a plain `r.Update`
// silently drops the status subresource".
func (k *checker) prohibitsFailure(a *conj, u *unit) bool {
	toks := k.cd.toks
	first := a.firstWordPos()
	if first < 0 {
		return false
	}
	w := toks[a.toks[first]].lower
	if !(w == "never" || w == "dont" || w == "do" && first+1 < len(a.toks) && toks[a.toks[first+1]].isWord("not")) {
		return false
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.negated || c.role == roleRejected {
				continue
			}
			fails := false
			for _, i := range c.toks {
				if failureWords[st.d.toks[i].lower] {
					fails = true
				}
			}
			if !fails {
				continue
			}
			eff := c.effTerms()
			for t := range a.neg {
				if eff[t] && !genericLemmas[t] && !failureWords[t] {
					return true
				}
			}
		}
	}
	return false
}

// failureSubject reports whether t is in the clause before a word of
// failure, which the clause says would fail ("enabling it breaks the FCC
// limits"), and the clause opens with a verb in -ing (the action
// supposed, not one done).
func (k *checker) failureSubject(a *conj, t string) bool {
	toks := k.cd.toks
	opens := false
	for j, i := range a.toks {
		w := toks[i]
		if w.kind != tkWord {
			continue
		}
		if !opens {
			if !strings.HasSuffix(w.lower, "ing") || len(w.lower) < 5 {
				return false
			}
			opens = true
		}
		if failureWords[w.lower] {
			for _, i2 := range a.toks[:j] {
				if toks[i2].term == t {
					return true
				}
			}
			return false
		}
	}
	return false
}

// unitFaults reports whether a clause of the unit with most of terms
// gives them as the cause of a problem: a reason in parentheses ("why:
// client-side flag loading caused layout shift") or a clause with a word
// of failure.
func unitFaults(u *unit, terms map[string]bool) bool {
	if len(terms) == 0 {
		return false
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			faults := c.role == roleCause && c.marker == "("
			for _, i := range c.toks {
				if w := st.d.toks[i].lower; failureWords[w] || problemWords[w] {
					faults = true
				}
			}
			if !faults || c.negated {
				continue
			}
			// its own words: what it inherits is not what it blames
			if share(terms, c.ownTerms()) >= 0.6 {
				return true
			}
		}
	}
	return false
}

// comparedWith reports whether every term of terms follows "compared
// with", "compared to", "versus" or "vs" in the unit: the baseline a
// result is measured against, which a claim may name as the alternative
// given up.
func comparedWith(u *unit, terms map[string]bool) bool {
	if len(terms) == 0 {
		return false
	}
	base := map[string]bool{}
	for _, st := range u.sents {
		toks := st.d.toks
		for i := st.from; i < st.to; i++ {
			w := toks[i].lower
			lead := w == "versus" || w == "vs" || w == "vs." || (w == "with" || w == "to") && i > st.from && toks[i-1].isWord("compared")
			if !lead {
				continue
			}
			for j := i + 1; j < st.to && toks[j].kind != tkPunct; j++ {
				if toks[j].term != "" {
					base[toks[j].term] = true
				}
			}
		}
	}
	for t := range terms {
		if !base[t] && !genericLemmas[t] {
			return false
		}
	}
	return true
}

// problemWords say that something caused trouble.
var problemWords = words("caused causes causing slow slower flaky expensive costly brittle bloated")

// recommendVerbs open an imperative that recommends what follows.
var recommendVerbs = words("use run enable call prefer install choose pick keep add deploy upgrade")

// recommendsFailure fails a clause that recommends ("Use `sharp` 0.33 on
// Alpine") what a clause of its source says fails ("`sharp` 0.33 crashes
// on Alpine"), without saying it fails.
func (k *checker) recommendsFailure(a *conj, u *unit, phrase string) {
	toks := k.cd.toks
	first := a.firstWordPos()
	if first < 0 || !recommendVerbs[toks[a.toks[first]].lower] || a.negated || a.role != rolePlain {
		return
	}
	what := map[string]bool{}
	for _, i := range a.toks[first+1:] {
		t := toks[i]
		if failureWords[t.lower] || problemWords[t.lower] {
			return // it says what fails
		}
		if t.term != "" && !genericLemmas[t.term] {
			what[t.term] = true
		}
	}
	if len(what) == 0 {
		return
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.negated || c.role != rolePlain {
				continue
			}
			before := map[string]bool{}
			for _, i := range c.toks {
				t := st.d.toks[i]
				if t.lower == "otherwise" || t.lower == "else" || t.lower == "unless" {
					break // "run X after every upgrade, otherwise the app crashes": what fails without it
				}
				if failureWords[t.lower] {
					if share(what, union(before, c.effTerms())) >= 0.6 && overlapCount(what, before) > 0 {
						k.fail(Negation, "%q recommends what the source says %s", phrase, t.lower)
						return
					}
					break
				}
				if t.term != "" {
					before[t.term] = true
					for _, p := range t.parts {
						before[p] = true
					}
				}
			}
		}
	}
}

// failureWords say that something goes wrong.
var failureWords = words(`fail fails failed failing crash crashes crashed crashing deadlock deadlocks deadlocked
	hang hangs hung break breaks broke corrupt corrupts corrupted leak leaks leaked drop drops dropped
	lose loses lost overwrite overwrites overwrote panic panics panicked throttle throttled`)

// negativeVerb reports whether the clause's verb says a negation in other
// words ("stops after a force-quit" for "does not run after a force-quit").
func (k *checker) negativeVerb(a *conj) bool {
	return negativeVerbs[a.verbTerm] || negativeVerbs[a.headVerb]
}

// negativeVerbs are the lemmas of verbs that say something does not happen.
var negativeVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("stop fail lose prevent block disable skip miss drop ignore refuse reject lack avoid") {
		m[lemma(w)] = true
	}
	return m
}()

// excepts reports whether the claim names an exception ("requests except
// the health checks are logged"): a negation in other words.
func (k *checker) excepts() bool {
	for _, t := range k.cd.toks {
		if t.kind == tkWord && exceptWords[t.lower] {
			return true
		}
	}
	return false
}

// exceptWords carve an exception out of a statement.
var exceptWords = words("except excepting excluding excluded exclude excludes apart besides unlike skip skips skipped skipping exempt")

// remedy reports whether the clause names what fixed a problem ("fixed by
// calling X", "solved by adding Y"): doing what a source says was never
// done.
func (k *checker) remedy(a *conj) bool {
	toks := k.cd.toks
	for j := 1; j < len(a.toks); j++ {
		if toks[a.toks[j]].isWord("by") && fixWords[toks[a.toks[j-1]].lower] {
			return true
		}
	}
	return false
}

// fixWords say a problem was solved.
var fixWords = words("fixed solved resolved cured addressed")

// resolvedNegates reports whether a sentence of the unit that says a
// problem was solved negates t ("the app never called X; added it").
func resolvedNegates(u *unit, t string) bool {
	for _, st := range u.sents {
		if !st.resolved {
			continue
		}
		for _, c := range st.conjs {
			if c.neg[t] {
				return true
			}
		}
	}
	return false
}

// removalWords say a thing was taken away ("The Xcode Cloud workflow was
// removed").
var removalWords = words("removed deleted dropped retired decommissioned deprecated replaced")

// removedIn reports whether the sentence says something was removed with
// a word the claim does not use.
func removedIn(st *sent, claimTerms map[string]bool) bool {
	for i := st.from; i < st.to; i++ {
		t := st.d.toks[i]
		if removalWords[t.lower] && !claimTerms[t.term] {
			return true
		}
	}
	return false
}

// removedAt marks the tokens of the sentence that name what it says was
// removed: the words before a passive removal ("the `USE_L10N` setting
// was removed") and the object of an active one ("replaced KissFFT with
// vDSP" marks KissFFT, not what replaced it), each within its clause. A
// drop in a quantity ("p95 dropped from 2.1 s to 1.9 s") removes nothing.
func removedAt(st *sent) map[int]bool {
	toks := st.d.toks
	var at map[int]bool
	mark := func(i int) {
		if at == nil {
			at = map[int]bool{}
		}
		at[i] = true
	}
	breaks := func(i int) bool {
		t := &toks[i]
		return t.kind == tkPunct && !t.code && t.lower != "-" && t.lower != "/" ||
			t.kind == tkWord && clauseBreakWords[t.lower]
	}
	for i := st.from; i < st.to; i++ {
		if !removalWords[toks[i].lower] || toks[i].code {
			continue
		}
		if toks[i].lower == "dropped" && i+1 < st.to && (toks[i+1].kind == tkNumber || quantityLeads[toks[i+1].lower]) {
			continue
		}
		passive := false
		for j := i - 1; j >= st.from && j >= i-3; j-- {
			if passiveBe[toks[j].lower] || toks[j].isWord("got") || toks[j].isWord("gets") {
				passive = true
				break
			}
			if toks[j].kind != tkWord || !adverbLike(toks[j].lower) {
				break
			}
		}
		if passive {
			for j := i - 1; j >= st.from && !breaks(j); j-- {
				mark(j)
			}
			continue
		}
		for j := i + 1; j < st.to && !breaks(j); j++ {
			if w := toks[j].lower; toks[j].kind == tkWord && !toks[j].code && replacementLeads[w] {
				break
			}
			mark(j)
		}
	}
	return at
}

// removedName reports whether the sentence says the thing named by term
// was removed (see removedAt).
func removedName(st *sent, term string) bool { return removedSome(st, []string{term}) }

// removedSome reports whether the sentence says a thing named by one of
// terms was removed.
func removedSome(st *sent, terms []string) bool {
	for i := range removedAt(st) {
		if t := st.d.toks[i].term; t != "" && slices.Contains(terms, t) {
			return true
		}
	}
	return false
}

// termKeys is the keys of a clause's terms.
func termKeys(need []cterm) []string {
	keys := make([]string, len(need))
	for i, t := range need {
		keys[i] = t.key
	}
	return keys
}

var (
	// clauseBreakWords end the clause a removal word names its object in.
	clauseBreakWords = words("and but then so while after because since which that when")
	// quantityLeads follow "dropped" when it is a quantity that fell.
	quantityLeads = words("from to by below under about around roughly nearly almost sharply")
	// replacementLeads start what replaced the removed thing.
	replacementLeads = words("with by for instead favour favor")
)

// adverbLike reports whether w may stand between an auxiliary and its
// participle ("was quietly removed", "is now deprecated").
func adverbLike(w string) bool {
	return strings.HasSuffix(w, "ly") || w == "now" || w == "since" || w == "already" || w == "also" || w == "then" || w == "not" || w == "just"
}

// insteadAfter reports whether the source has a sentence that ends its
// choice with "instead" ("the importer keyed on the feed URL; keyed on
// GUID instead") with the clause's chosen side (the conjunct before it)
// and without its rejected one.
func insteadAfter(a *conj, src *source) bool {
	var chosen *conj
	for _, c := range a.s.conjs {
		if c == a {
			break
		}
		if c.role != roleParen {
			chosen = c
		}
	}
	if chosen == nil {
		return false
	}
	for _, st := range src.d.sents {
		toks := st.d.toks
		has := false
		for i := st.from; i < st.to; i++ {
			if toks[i].isWord("instead") && (i+1 >= st.to || !toks[i+1].isWord("of")) {
				has = true
			}
		}
		if !has {
			continue
		}
		for t := range a.neg {
			if st.terms[t] && !genericLemmas[t] {
				has = false
			}
		}
		shared := 0
		for _, t := range nonGeneric(chosen.own) {
			if st.terms[t] {
				shared++
			}
		}
		if has && shared > 0 {
			return true
		}
	}
	return false
}

// negatedHere reports whether, of the conjuncts of sents (the clause's
// unit) with the term t, the one sharing most of the clause's other words
// negates t: the term is both affirmed and negated in the unit, and the
// clause is about the negated one.
func negatedHere(a *conj, sents []*sent, t string) bool {
	// whole words only: the parts of a compound would count it twice;
	// what the clause compares with ("throttled like the public API") is
	// not what it speaks of
	want := minus(union(setOf(a.own), setOf(a.inherited)), a.compared())
	score := func(c *conj) int {
		n := 0
		for w := range union(union(setOf(c.own), setOf(c.inherited)), c.neg) {
			if w != t && want[w] && !genericLemmas[w] {
				n++
			}
		}
		return n
	}
	bestNeg, bestPos := -1, -1
	for _, st := range sents {
		for _, c := range st.conjs {
			switch {
			case c.neg[t] && !c.pos[t] && st.resolved:
				// "no longer loses messages": it used to, which a claim
				// may say
			case c.neg[t] && !c.pos[t]:
				bestNeg = max(bestNeg, score(c))
			case c.pos[t]:
				bestPos = max(bestPos, score(c))
			}
		}
	}
	return bestNeg >= 2 && bestNeg > bestPos
}

// failedVerb fails a clause that states as done what its source says
// fails to happen ("the importer reads X" for "the importer fails to read
// X"), unless the clause itself says it fails.
func (k *checker) failedVerb(a *conj, u *unit, phrase string) {
	if a.negated || a.verbTerm == "" {
		return
	}
	for _, i := range a.toks {
		if t := k.cd.toks[i]; failWords[t.lower] || failureWords[t.lower] || t.lower == "failure" || t.lower == "broken" ||
			strings.Contains(t.lower, "error") || strings.Contains(t.lower, "exception") {
			return // "when the service starts with `FlywayValidateException`"
		}
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.failHead == "" || c.failHead != a.verbTerm {
				continue
			}
			shared := 0
			for _, t := range a.own {
				if t != a.verbTerm && !genericLemmas[t] && c.ownSet[t] {
					shared++
				}
			}
			if shared >= 1 {
				k.fail(Negation, "%q says it happens; the source says it fails to %s", phrase, a.verbTerm)
				return
			}
		}
	}
}

// presenceVerbs say that something is there or in use.
var presenceVerbs = lemmaSet("support supports supported use uses read reads need needs require requires accept accepts has have include includes honor honors respect respects")

// usesRemoved fails a clause that says a name a cited sentence says was
// removed is supported or used ("Django 5.0.6 supports the `USE_L10N`
// setting" for "the `USE_L10N` setting was removed").
func (k *checker) usesRemoved(a *conj, need []cterm, best *unit, phrase string) {
	if a.negated || a.has("still") {
		return
	}
	present := false
	for _, i := range a.toks {
		t := k.cd.toks[i]
		if removalWords[t.lower] {
			return
		}
		present = present || presenceVerbs[t.term] && !t.code
	}
	if !present {
		return
	}
	for _, i := range a.toks {
		t := k.cd.toks[i]
		if t.term == "" || !t.code {
			continue
		}
		for _, s := range k.srcs {
			for _, st := range s.d.sents {
				if st.terms[t.term] && removedIn(st, k.claimTerms) && removedName(st, t.term) {
					k.fail(Negation, "%q says %s is in use; a cited source says it was removed", phrase, t.raw)
					return
				}
			}
		}
	}
}

// compared is the terms of the conjunct after "like" or "as with": what
// it compares its subject with.
func (c *conj) compared() map[string]bool {
	toks := c.s.d.toks
	out := map[string]bool{}
	in := false
	for j, k := range c.toks {
		t := toks[k]
		switch {
		case t.isWord("like") || t.isWord("unlike") || t.isWord("with") && j > 0 && toks[c.toks[j-1]].isWord("as"):
			in = true
		case t.kind == tkPunct:
			in = false
		case in && t.term != "":
			out[t.term] = true
		}
	}
	return out
}

// stillTrue fails a clause saying something "still" holds when a cited
// sentence about it says it no longer does (or is solved): a claim of
// persistence needs every source about it to agree.
func (k *checker) stillTrue(a *conj, need []cterm, best *unit, phrase string) {
	if !a.has("still") || a.negated {
		return
	}
	total := 0.0
	for _, t := range need {
		total += t.weight()
	}
	// its subject is what a cited sentence says was removed
	var before []string // the words before "still": what persists
	for _, i := range a.toks {
		t := k.cd.toks[i]
		if t.isWord("still") {
			break
		}
		if t.term != "" {
			before = append(before, t.term)
		}
	}
	// or a name of it (code, a compound) is ("Django still supports the
	// `USE_L10N` setting" for "the `USE_L10N` setting was removed")
	var names []string
	for _, i := range a.toks {
		if t := k.cd.toks[i]; t.term != "" && (t.code || t.compound) {
			names = append(names, t.term)
		}
	}
	for _, name := range names {
		for _, s := range k.srcs {
			for _, st := range s.d.sents {
				if st.terms[name] && removedIn(st, k.claimTerms) && removedName(st, name) {
					k.fail(Negation, "%q says it still holds; a cited source says it was removed", phrase)
					return
				}
			}
		}
	}
	if subj := nonGeneric(before); len(subj) > 0 {
		for _, s := range k.srcs {
			for _, st := range s.d.sents {
				all := true
				for _, w := range subj {
					if !st.terms[w] {
						all = false
					}
				}
				if all && removedIn(st, k.claimTerms) && removedSome(st, subj) {
					k.fail(Negation, "%q says it still holds; a cited source says it was removed", phrase)
					return
				}
			}
		}
	}
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			cov := 0.0
			for _, t := range need {
				if t.in(st.terms) {
					cov += t.weight()
				}
			}
			if total == 0 || cov/total < 0.6 {
				continue
			}
			if removedIn(st, k.claimTerms) && removedSome(st, termKeys(need)) {
				k.fail(Negation, "%q says it still holds; a cited source says it was removed", phrase)
				return
			}
			if st == best.sents[0] {
				continue
			}
			if st.resolved {
				k.fail(Negation, "%q says it still holds; a cited source says it no longer does", phrase)
				return
			}
			for _, c := range st.conjs {
				for t := range a.pos {
					if c.neg[t] && c.negHead == t {
						k.fail(Negation, "%q says it still holds; a cited source says it no longer does", phrase)
						return
					}
				}
			}
		}
	}
}

// hedges fails a certain clause whose source hedges.
func (k *checker) hedges(a *conj, need []cterm, u *unit, phrase string) {
	if a.hedged || a.role == roleRejected {
		return // a rejected alternative asserts nothing to hedge
	}
	if a.role == roleParen {
		// an aside of a hedged sentence is hedged with it: "Burst may make
		// the job 4x faster (seen in the editor only)"
		for _, c := range a.s.conjs {
			if c.hedged && c.role != roleParen {
				return
			}
		}
	}
	// "syncing every 3 hours instead of hourly might keep it under the
	// limit": the hedge after the rejected alternative is the clause's
	for i, c := range a.s.conjs {
		if c != a || i+1 >= len(a.s.conjs) || a.s.conjs[i+1].role != roleRejected {
			continue
		}
		for _, n := range a.s.conjs[i+1 : min(i+3, len(a.s.conjs))] {
			if n.hedged {
				return
			}
		}
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if !c.hedged {
				continue
			}
			eff := c.effTerms()
			n, m := 0, 0
			for _, t := range need {
				if t.generic {
					continue
				}
				m++
				if t.in(eff) || t.number && c.hasValue(t.key) {
					n++
				}
			}
			if (n >= 2 || (n >= 1 && n*2 >= m)) && !restatesCertain(a, c, need, st) {
				k.fail(Modality, "%q is stated as certain; the source only supposes it", phrase)
				return
			}
		}
	}
}

// addingWords open a clause that adds something ("Adding an index ...").
var addingWords = words("adding added add using enabling installing creating")

// uselessWords are what a record says of a measure that changed nothing:
// "adding consumers did not help".
var uselessLemmas = lemmaSet("help improve matter change work fix")

// didNotHelp fails a claim that gives an effect to a measure a cited
// source says did not help ("adding consumers brought the lag down" for
// "adding consumers did not help").
func (k *checker) didNotHelp() {
	for _, s := range k.srcs {
		for _, measure := range s.useless {
			for _, cs := range k.cd.sents {
				for _, a := range cs.conjs {
					if a.negated || a.hedged {
						continue
					}
					// the words before the verb of effect: the measure
					before := map[string]bool{}
					effect := false
					for _, i := range a.toks {
						if t := k.cd.toks[i]; agentVerbs[t.lower] {
							effect = true
							break
						} else if t.term != "" {
							before[t.term] = true
						}
					}
					if effect && share(measure, before) == 1 {
						k.fail(Negation, "a cited source says %s did not help", quoteList(sortedKeys(measure)))
						return
					}
				}
			}
		}
	}
}

// uselessMeasures are the measures a doc says did not help (the
// distinctive terms of the subjects of "did not help", "did not fix"),
// read once per source.
func uselessMeasures(d *doc) []map[string]bool {
	var out []map[string]bool
	for _, st := range d.sents {
		for _, c := range st.conjs {
			if !c.negated || !uselessLemmas[c.negHead] {
				continue
			}
			if measure := distinctiveSet(setOf(c.subject)); len(measure) >= 2 {
				out = append(out, measure)
			}
		}
	}
	return out
}
