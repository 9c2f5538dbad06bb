package support

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"unicode"
)

// Thresholds of the clause checks.
const (
	// minClause is the share of a clause's terms its best source sentence
	// (or pair of sentences) must hold.
	minClause = 0.5
	// verbWeight is what a verb counts for in a clause's coverage: a
	// paraphrase swaps verbs more freely than nouns.
	verbWeight = 0.5
)

// cterm is one term of a claim clause.
type cterm struct {
	number  bool // a number ("#value"), which only helps choose a unit
	key     string
	parts   []string
	raw     string
	verb    bool
	generic bool
	code    bool
	// noun is set for a verb's word where only a noun can stand ("per
	// query", "the build").
	noun bool
}

func (t cterm) weight() float64 {
	switch {
	case t.number:
		return 1.5
	case t.verb:
		return verbWeight
	}
	return 1
}

// in reports whether a term set holds the term (a compound also by all of
// its parts).
func (t cterm) in(set map[string]bool) bool {
	if set[t.key] {
		return true
	}
	if len(t.parts) > 1 {
		for _, p := range t.parts {
			if !set[p] {
				return false
			}
		}
		return true
	}
	return false
}

// inSent reports whether a sentence holds the term: a compound by its key
// or by its parts as words of their own ("user agent"), not as parts of a
// longer name ("gpt-4o" is not in "gpt-4o-mini").
func (t cterm) inSent(st *sent) bool {
	if len(t.parts) > 1 && !st.plain[t.key] {
		for _, p := range t.parts {
			if !st.plain[p] {
				return false
			}
		}
		return true
	}
	return t.in(st.terms)
}

// checker holds one check's state.
type checker struct {
	claim    Claim
	cd       *doc
	cnums    []numOcc // the claim's numbers, read once
	srcs     []*source
	problems []Problem
	used     map[*source]bool
	// claimTerms is every term of the claim (compound parts included).
	claimTerms map[string]bool
	corpus     *Corpus
	cited      map[*source]bool // nil: every source of the corpus
	// trace, when set, records for each problem the check that found it
	// (its function), for the ablation the labelled-set test reports.
	trace  bool
	checks []string
}

// candidates are the cited sources that have one of the terms, in corpus
// order.
func (k *checker) candidates(need []cterm) []*source {
	seen := map[*source]bool{}
	add := func(t string) {
		for _, s := range k.corpus.postings[t] {
			if k.cited == nil || k.cited[s] {
				seen[s] = true
			}
		}
	}
	for _, t := range need {
		add(t.key)
		for _, p := range t.parts {
			add(p)
		}
	}
	out := make([]*source, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}

func (k *checker) fail(c Class, format string, args ...any) {
	k.problems = append(k.problems, Problem{Class: c, Detail: fmt.Sprintf(format, args...)})
	if k.trace {
		name := "?"
		if pc, _, _, ok := runtime.Caller(1); ok {
			name = runtime.FuncForPC(pc).Name()
			name = name[strings.LastIndex(name, ".")+1:]
		}
		k.checks = append(k.checks, name+"/"+string(c))
	}
}

// checkTraced runs every check of claim against srcs; with trace set it
// also returns the check ("function/class") behind each problem found,
// repeats included.
func checkTraced(claim Claim, srcs []*source, minOverlap float64, corpus *Corpus, trace bool) (Verdict, []string) {
	text := claimText(claim)
	k := &checker{claim: claim, cd: analyse(text), srcs: srcs, used: map[*source]bool{}, claimTerms: map[string]bool{}, corpus: corpus, trace: trace}
	if len(srcs) < len(corpus.sources) {
		k.cited = map[*source]bool{}
		for _, s := range srcs {
			k.cited[s] = true
		}
	}
	for _, s := range k.cd.sents {
		addAll(k.claimTerms, s.terms)
	}
	v := Verdict{}
	overlap, missing, total := k.overlap()
	v.Overlap, v.Missing = round2(overlap), missing
	k.cnums = k.cd.numbers()
	if total == 0 && len(k.cnums) == 0 {
		k.fail(Empty, "no content words")
	}
	k.identifiers(text)
	k.numbers(&v)
	k.exchangedNumbers()
	k.orderSwap()
	k.status()
	k.checklist()
	for _, s := range k.cd.sents {
		for _, c := range s.conjs {
			k.clause(c)
		}
	}
	if len(k.problems) == 0 {
		k.triedFix()
	}
	if len(k.problems) == 0 {
		k.didNotHelp()
	}
	if len(k.problems) == 0 {
		k.beyondOnly()
	}
	if len(k.problems) == 0 {
		k.transposed()
	}
	k.causes()
	k.superlatives()
	if total > 0 && overlap < minOverlap {
		k.fail(LowOverlap, "not supported by the sources: %.0f%% of its words are in them, %.0f%% needed", overlap*100, minOverlap*100)
	}
	k.confidence()
	v.Problems = orderProblems(k.problems)
	if len(v.Problems) == 0 {
		v.Supported = true
	} else {
		v.Class, v.Detail = v.Problems[0].Class, v.Problems[0].Detail
	}
	for _, s := range srcs {
		if k.used[s] && s.ID != "" {
			v.SupportedBy = append(v.SupportedBy, s.ID)
		}
	}
	return v, k.checks
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// orderProblems sorts problems by the order of Classes (stable) and drops
// repeats of a class with the same detail.
func orderProblems(ps []Problem) []Problem {
	rank := map[Class]int{}
	for i, c := range Classes {
		rank[c] = i
	}
	sort.SliceStable(ps, func(i, j int) bool { return rank[ps[i].Class] < rank[ps[j].Class] })
	out := ps[:0]
	seen := map[Problem]bool{}
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// terms returns a clause's terms.
func (k *checker) terms(c *conj) []cterm {
	toks := k.cd.toks
	var out []cterm
	for j, i := range c.toks {
		t := toks[i]
		if t.term == "" {
			continue
		}
		out = append(out, termAt(toks, c.toks, j))
	}
	return out
}

// termAt is the term of the word at position j of a conjunct; it is a
// verb only where a verb can stand ("per query" is a noun).
func termAt(toks []token, idx []int, j int) cterm {
	t := toks[idx[j]]
	noun := false
	if j > 0 {
		prev := toks[idx[j-1]]
		noun = prev.kind == tkNumber || prev.kind == tkWord && (determiners[prev.lower] || strings.HasSuffix(prev.raw, "'s"))
		// "the season reset": a noun before it, a determiner before that
		if !noun && j > 1 && prev.term != "" && !verbLemmas[prev.term] {
			pp := toks[idx[j-2]]
			noun = pp.kind == tkWord && determiners[pp.lower]
		}
	}
	return cterm{key: t.term, parts: t.parts, raw: t.raw, code: t.code, noun: noun,
		verb:    !t.compound && !t.code && verbLemmas[t.term] && (isVerbAt(toks, idx, j) || idx[j] == firstWord(toks, idx)),
		generic: !t.compound && !t.code && genericLemmas[t.term]}
}

// firstWord is the index of the first word of a conjunct.
func firstWord(toks []token, idx []int) int {
	for _, i := range idx {
		if toks[i].kind == tkWord {
			return i
		}
	}
	return -1
}

// overlap is the weighted share of the claim's terms found in the cited
// sources, the words not found, and how many terms there are. Generic
// terms do not count; names (capitalised, identifiers, code) weigh 1,
// other nouns nameWeight... see termWeight: a paraphrase changes common
// words, an invention brings names.
func (k *checker) overlap() (float64, []string, int) {
	inAny := func(t cterm) bool {
		for _, s := range k.srcs {
			if t.in(s.all) {
				return true
			}
		}
		return false
	}
	var missing []string
	seen := map[string]bool{}
	foundW, total := 0.0, 0.0
	n := 0
	for _, s := range k.cd.sents {
		for _, c := range s.conjs {
			for _, i := range c.toks {
				tok := k.cd.toks[i]
				if tok.term == "" {
					continue
				}
				t := cterm{key: tok.term, parts: tok.parts, raw: tok.raw, code: tok.code,
					verb:    !tok.compound && !tok.code && verbLemmas[tok.term],
					generic: !tok.compound && !tok.code && genericLemmas[tok.term]}
				if t.generic || seen[t.key] {
					continue
				}
				seen[t.key] = true
				n++
				w := termWeight(tok, i == s.from)
				found := inAny(t)
				switch {
				case found:
				case w < 1:
					w *= missingCommonWeight // a common word a paraphrase brings
					if i > 0 && k.cd.toks[i-1].kind == tkNumber && k.cd.toks[i-1].unit != "" {
						w = 0.25 // "a 30-day lifetime": the noun a measure describes
					} else if c.verb >= 0 && i < c.verb {
						w /= 2 // "The model trains on...": a subject added to an order
					}
				case i > 0 && k.cd.toks[i-1].kind == tkNumber && k.cd.toks[i-1].unit != "":
					w = 0.25 // "a 30-day lifetime": the noun a measure describes
				case c.verb >= 0 && i < c.verb && !tok.compound && !tok.code && !isCapitalWord(tok.raw):
					w /= 2 // "The model trains on...": a subject added to an order
				}
				total += w
				if found {
					foundW += w
				} else {
					missing = append(missing, strings.Trim(t.raw, "'’"))
				}
			}
		}
	}
	if total == 0 {
		return 0, missing, 0
	}
	return foundW / total, missing, n
}

// missingCommonWeight scales a common word (not a name, an identifier or
// code) that no source has: phrasing more often than a fact.
const missingCommonWeight = 0.67

// termWeight is what a claim's word counts for in its overlap: a name
// (capitalised inside a sentence, an identifier, code) 1, a verb 0.5,
// another word 0.75.
func termWeight(t token, first bool) float64 {
	switch {
	case t.compound || t.code || (!first && t.raw != "" && unicode.IsUpper([]rune(t.raw)[0])):
		return 1
	case verbLemmas[t.term]:
		return verbWeight
	}
	return 0.75
}

// identifiers checks that the claim's identifiers are in a cited source.
//
// A plain hyphenated word ("read-only") counts as a name only when the
// sources have all its parts: then it is a name built from their words.
func (k *checker) identifiers(text string) {
	for _, id := range identifiers(text) {
		found := false
		for _, s := range k.srcs {
			if id.found(s.text, s.lower, s.d) {
				found = true
				k.used[s] = true
				break
			}
		}
		if !found && (id.soft && !k.allParts(id.text) || plainHyphenated(id.text) && (k.asPhrase(id.text) || k.sameHyphenated(id.text) || k.partOfHyphenated(id.text)) ||
			hyphenatedWords(id.text) && !strings.Contains(text, "`"+id.text+"`") && (k.asPhrase(id.text) || k.affixed(id.text)) || // "ARM64-only" for "ARM64 only"
			!strings.Contains(text, "`"+id.text+"`") && k.namePair(id.text)) {
			continue
		}
		if !found {
			k.fail(IdentifierMissing, "%q is in no cited source", id.text)
		}
	}
}

// asPhrase reports whether a cited source has a hyphenated word's parts
// as one phrase, in order ("push notifications" for "Push-notification"):
// the source's words hyphenated, not a name built from them.
func (k *checker) asPhrase(w string) bool {
	phrase := strings.ReplaceAll(strings.ToLower(w), "-", " ")
	for _, s := range k.srcs {
		if i := strings.Index(s.lower, phrase); i >= 0 && (i == 0 || !isWordByte(s.lower[i-1])) {
			return true
		}
	}
	return false
}

// partOfHyphenated reports whether a cited source has a hyphenated word
// as the whole-word end or start of a longer one ("in-progress" of
// `cancel-in-progress`).
func (k *checker) partOfHyphenated(w string) bool {
	w = strings.ToLower(w)
	for _, s := range k.srcs {
		if someOccurrence(s.lower, w, func(i, end int) bool {
			before := i > 0 && s.lower[i-1] == '-'
			after := end < len(s.lower) && s.lower[end] == '-'
			startOK := i == 0 || !isWordByte(s.lower[i-1]) || before
			endOK := end == len(s.lower) || !isWordByte(s.lower[end]) || after
			return (before || after) && startOK && endOK
		}) {
			return true
		}
	}
	return false
}

// sameHyphenated reports whether a cited source has a hyphenated word
// made of the same words in another form ("eager-loading" for
// "Eager-loaded", "dead-lettered" for "dead-letter"): each part has the
// lemma of the source's part, or starts with it.
func (k *checker) sameHyphenated(w string) bool {
	parts := strings.Split(strings.ToLower(w), "-")
	for _, s := range k.srcs {
		for _, t := range s.d.toks {
			// "exactly-once" for `EXACTLY_ONCE`, "read-committed" for
			// `read_committed`
			if t.kind != tkWord || !strings.ContainsAny(t.raw, "-_") {
				continue
			}
			// the whole word, or the end of a qualified name in code
			// (`DeliveryGuarantee.EXACTLY_ONCE`)
			sp := strings.FieldsFunc(t.lower, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
			switch {
			case len(sp) == len(parts):
			case t.code && len(sp) > len(parts):
				sp = sp[len(sp)-len(parts):]
			default:
				continue
			}
			same := true
			for i := range sp {
				a, b := lemma(parts[i]), lemma(sp[i])
				if a != b && strings.TrimSuffix(parts[i], "s") != strings.TrimSuffix(sp[i], "s") && !(len(b) >= 4 && strings.HasPrefix(parts[i], sp[i])) && !(len(a) >= 4 && strings.HasPrefix(sp[i], parts[i])) {
					same = false
					break
				}
			}
			if same {
				return true
			}
		}
	}
	return false
}

// affixed reports whether a hyphenated word is a word of a cited source
// with a prefix or suffix of English prose ("per-chat", "multi-MB",
// "Packer-built"), not a name built from two of its words.
func (k *checker) affixed(w string) bool {
	parts := strings.Split(strings.ToLower(w), "-")
	if len(parts) != 2 {
		return false
	}
	var word string
	switch {
	case affixPrefixes[parts[0]]:
		word = parts[1]
	case affixSuffixes[parts[1]]:
		word = parts[0]
	default:
		return false
	}
	return k.citedWord(word, true)
}

// citedWord reports whether a cited source has w as a whole word, in
// its own case or (fold) in lower case.
func (k *checker) citedWord(w string, fold bool) bool {
	for _, s := range k.srcs {
		if fold && containsWord(s.lower, w) || !fold && containsWord(s.text, w) {
			return true
		}
	}
	return false
}

// affixPrefixes and affixSuffixes make prose compounds of a word.
var (
	affixPrefixes = words("per multi non pre post re self semi anti sub co cross inter intra")
	affixSuffixes = words("based built only wide specific level side style like free aware driven friendly safe ready heavy bound related facing")
)

// namePair reports whether w is two or three capitalised words joined by
// "/" ("EU/US", "Android/iOS"), each of them in a cited source: a pair of
// names, not a path.
func (k *checker) namePair(w string) bool {
	parts := strings.Split(w, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || !isLetters(p) || !unicode.IsUpper([]rune(p)[0]) && !(len(p) > 1 && unicode.IsUpper([]rune(p)[1])) || !k.citedWord(p, false) {
			return false
		}
	}
	return true
}

// hyphenatedWords reports whether w is words and numbers joined by
// hyphens ("ARM64-only"), not a flag.
func hyphenatedWords(w string) bool {
	if !strings.Contains(w, "-") || strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") {
		return false
	}
	for _, r := range w {
		if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// plainHyphenated reports whether w is words joined by hyphens, letters
// only ("Push-notification", not "itest-postgres2" or "v1-api.go").
func plainHyphenated(w string) bool {
	return hyphenatedWords(w) && !strings.ContainsFunc(w, unicode.IsDigit)
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' || b == '/'
}

// allParts reports whether one cited source has every part of a
// hyphenated word.
func (k *checker) allParts(w string) bool {
	for _, s := range k.srcs {
		all := true
		for _, p := range strings.Split(strings.ToLower(w), "-") {
			if p == "" || isStop(p) {
				continue
			}
			if !k.inSource(cterm{key: lemma(p)}, s) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// numbers checks each number of the claim.
//
// A number of a rejected alternative ("300 ms now instead of 6 s") is a
// role swap only where the claim chooses it; a claim that also has a
// number that keeps its side in the sources compares the two ("from 6 s
// down to 300 ms", "stay on 3.3; 3.4 broke the tests"), unless it makes
// the rejected value the "to" of "from X to Y".
func (k *checker) numbers(v *Verdict) {
	var rs []numberResult
	kept := map[string]bool{} // values whose number passed
	claimNums := k.cnums
	for _, n := range claimNums {
		if n.multiplier {
			continue // "doubling the shards to 12": a verb more than a number
		}
		class, detail := checkNumber(n, sentNumbers(claimNums, n.sent), k.srcs)
		if class == "" && earlierOnly(n, k.cd, len(k.cnums), k.srcs) {
			class, detail = NumberContext, fmt.Sprintf("%s is the earlier value in the sources, not the current one", n.raw)
		}
		if class == "" && earlierSwapped(n, claimNums, k.srcs) {
			class, detail = RoleSwap, fmt.Sprintf("the sources go from %s to %s, not the other way", n.raw, n.pairFrom)
		}
		if class == "" {
			kept[n.value] = true
		}
		rs = append(rs, numberResult{n, class, detail})
	}
	for _, r := range rs {
		n, class, detail := r.n, r.class, r.detail
		if class == "" {
			continue
		}
		if class == RoleSwap && !n.rejected && n.pairFrom == "" && comparesKept(n, kept) {
			continue
		}
		if class == NumberMissing {
			v.Missing = append(v.Missing, n.raw)
		}
		k.fail(class, "%s", detail)
	}
}

// clause checks one clause of the claim: that one sentence (or two of one
// source, about the same subject) states it, without a term moved from
// elsewhere, with the same negations, hedges and opposites.
func (k *checker) clause(a *conj) {
	ts := k.terms(a)
	var need []cterm
	total := 0.0
	for _, t := range ts {
		if !t.generic {
			need = append(need, t)
			total += t.weight()
		}
	}
	if total == 0 {
		return
	}
	// the clause's numbers help choose the sentence that states it
	var withNumbers []cterm
	for _, i := range a.toks {
		if t := k.cd.toks[i]; t.kind == tkNumber {
			withNumbers = append(withNumbers, cterm{key: "#" + t.value, raw: t.raw, number: true, code: true})
		}
	}
	withNumbers = append(withNumbers, need...)
	inherited := setOf(a.inherited)
	best := k.bestUnit(withNumbers, inherited, setOf(a.left), a.effTerms(), a.s.terms)
	if best == nil {
		// nothing of it is in the sources: an invented clause when it
		// names something no cited source has
		if t, ok := k.unsupportedSalient(need); ok {
			k.fail(LowOverlap, "%q is not stated by the sources (%s is in none)", clauseText(k.cd, a), t)
		}
		return
	}
	k.used[best.src] = true
	cov := 0.0
	for _, t := range need {
		if t.in(best.terms) {
			cov += t.weight()
		}
	}
	cov /= total
	phrase := clauseText(k.cd, a)
	if cov < minClause {
		// a clause spread over the sentences of one source (a record
		// that tells one story) rests on that source as a whole
		if u := k.wholeSource(need, total); u != nil {
			best, cov = u, minClause
			k.used[best.src] = true
		}
	}
	if cov < minClause {
		// the opposite of a source's word is what it lacks ("multi-use"
		// for "single-use")
		n := len(k.problems)
		if k.opposites(a, best, phrase); len(k.problems) > n {
			return
		}
		anywhere := 0.0
		for _, t := range need {
			for _, s := range k.srcs {
				if k.inSource(t, s) {
					anywhere += t.weight()
					break
				}
			}
		}
		if anywhere/total >= minClause+0.2 {
			k.fail(UnsupportedCombination, "no single source states %q; its parts come from different sources", phrase)
		} else if t, ok := k.unsupportedSalient(need); ok {
			// new wording alone is no evidence; a name no source has is
			k.fail(LowOverlap, "%q is not stated by the sources (%s is in none)", phrase, t)
		}
		return
	}
	k.clauseNumbers(a, best, phrase)
	k.numberElsewhere(a, need, best, phrase)
	v := bestConj(best, withNumbers, inherited, setOf(a.left), a.negated)
	if v == nil {
		return
	}
	k.substitution(a, need, best, v, phrase)
	if !k.remedy(a) {
		// "X was fixed by configuring Y": X is the problem, not who acts
		k.subjectSwap(a, need, best, v, phrase)
		k.demotedSubject(a, best, phrase)
	}
	k.pivotSwap(a, v, phrase)
	k.fromToSwap(a, best, phrase)
	k.polarity(a, need, best, phrase)
	k.failedVerb(a, best, phrase)
	k.stillTrue(a, need, best, phrase)
	k.usesRemoved(a, need, best, phrase)
	k.hedges(a, withNumbers, best, phrase)
	k.opposites(a, best, phrase)
	k.recommendsFailure(a, best, phrase)
	k.restriction(a, need, best, phrase)
	k.negatedName(a, best, phrase)
	k.relationSwap(a, best, phrase)
	k.rejectedKept(a, best, phrase)
}

func (k *checker) inSource(t cterm, s *source) bool { return t.in(s.all) }

// wholeSource is the cited source whose sentences together hold at least
// minClause of the clause's terms (by weight), as one unit.
func (k *checker) wholeSource(need []cterm, total float64) *unit {
	var best *unit
	for _, s := range k.srcs {
		cov := 0.0
		for _, t := range need {
			if k.inSource(t, s) {
				cov += t.weight()
			}
		}
		if cov/total >= minClause && (best == nil || cov > best.score) {
			best = &unit{src: s, sents: s.d.sents, terms: s.all, score: cov}
		}
	}
	return best
}

// unsupportedSalient is a salient term of the clause (code, a compound
// name, a capitalised name) that no cited source has.
func (k *checker) unsupportedSalient(need []cterm) (string, bool) {
	for _, t := range need {
		if !(t.code || len(t.parts) > 1 || isCapitalWord(t.raw)) {
			continue
		}
		found := false
		for _, s := range k.srcs {
			if k.inSource(t, s) {
				found = true
				break
			}
		}
		if !found {
			return t.raw, true
		}
	}
	return "", false
}

// bestUnit finds the sentence, or pair of sentences of one source, that
// holds most of the clause's terms.
func (k *checker) bestUnit(need []cterm, inherited, subject, clauseTerms, sentTerms map[string]bool) *unit {
	var best *unit
	better := func(u *unit) bool {
		if best == nil || u.score > best.score+1e-9 {
			return true
		}
		return u.score > best.score-1e-9 && len(u.sents) < len(best.sents)
	}
	full := 0.0
	for _, t := range need {
		full += t.weight()
	}
	sentScore := func(st *sent) float64 {
		s := 0.0
		for _, t := range need {
			if t.inSent(st) {
				s += t.weight()
			}
		}
		for t := range inherited {
			if st.terms[t] {
				s += 0.01
			}
		}
		return s
	}
	cands := k.candidates(need)
	for _, s := range cands {
		for _, st := range s.d.sents {
			sc := sentScore(st)
			if sc <= 0 || best != nil && sc <= best.score+1e-9 {
				continue
			}
			best = &unit{src: s, sents: []*sent{st}, terms: st.terms, score: sc}
		}
	}
	if best != nil && best.score >= full-1e-9 {
		return best
	}
	// two sentences of one source, each about the clause's subject
	for _, s := range cands {
		ss := s.d.sents
		for i := range ss {
			for j := i + 1; j < len(ss) && j <= i+3; j++ {
				pair, si, sj := 0.0, 0.0, 0.0
				for _, t := range need {
					a, b := t.in(ss[i].terms), t.in(ss[j].terms)
					if a || b {
						pair += t.weight()
					}
					if a {
						si += t.weight()
					}
					if b {
						sj += t.weight()
					}
				}
				for t := range inherited {
					if ss[i].terms[t] || ss[j].terms[t] {
						pair += 0.01
					}
				}
				if pair <= si+1e-9 || pair <= sj+1e-9 || (best != nil && pair < best.score-1e-9) {
					continue
				}
				u := &unit{src: s, sents: []*sent{ss[i], ss[j]}, score: pair}
				if better(u) && k.pairable(ss[i], ss[j], need, union(inherited, sentTerms), subject, clauseTerms) && k.pairable(ss[j], ss[i], need, union(inherited, sentTerms), subject, clauseTerms) {
					u.terms = union(ss[i].terms, ss[j].terms)
					best = u
				}
			}
		}
	}
	return best
}

// pairable reports whether sentence st may lend terms to a clause along
// with other: its explicit subject, if any, is one the clause names, or
// what it alone lends only describes the clause's subject ("the S3
// Docker layer cache" from a sentence about CI builds).
func (k *checker) pairable(st, other *sent, need []cterm, inherited, subject, clauseTerms map[string]bool) bool {
	if len(st.conjs) == 0 {
		return false
	}
	c := st.conjs[0]
	subj := nonGeneric(c.subject)
	if len(subj) == 0 {
		return true
	}
	// what st alone lends
	var lent []cterm
	for _, n := range need {
		if n.in(st.terms) && !n.in(other.terms) {
			lent = append(lent, n)
		}
	}
	onlySubject := len(lent) > 0
	for _, n := range lent {
		if !containsTerm(subj, n.key) || subject[n.key] {
			onlySubject = false
		}
	}
	if onlySubject && dropsDistinctive(other, clauseTerms) {
		return false // "Slack" taken from "Slack only gets warnings"
	}
	for _, t := range subj {
		if inherited[t] {
			return true
		}
		for _, n := range need {
			if n.key == t || containsTerm(n.parts, t) {
				return true
			}
		}
	}
	lends := false
	for _, n := range need {
		if n.in(st.terms) && !n.in(other.terms) {
			lends = true
			if !subject[n.key] {
				return false
			}
		}
	}
	return lends
}

// dropsDistinctive reports whether sentence st has a distinctive term the
// clause does not use.
func dropsDistinctive(st *sent, clauseTerms map[string]bool) bool {
	for _, c := range st.conjs {
		for j := range c.toks {
			if c.toks[j] == firstWord(st.d.toks, c.toks) {
				continue // "Bought ...", "Tried ...": a log's verb
			}
			t := termAt(st.d.toks, c.toks, j)
			if t.key != "" && t.distinctive() && !t.in(clauseTerms) && !clauseTerms[t.key] {
				return true
			}
		}
	}
	return false
}

func nonGeneric(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !genericLemmas[t] {
			out = append(out, t)
		}
	}
	return out
}

// laterInUnit reports whether the number after "to" that pairs with the
// "from" number at i is stated by the unit's source.
func (k *checker) laterInUnit(a *conj, i int, u *unit) bool {
	toks := k.cd.toks
	for j := i + 1; j < len(toks) && j <= i+4; j++ {
		if toks[j].kind == tkNumber {
			for _, o := range u.src.nums {
				if sameValue(o.value, toks[j].value) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// clauseNumbers fails a clause whose number is in a cited source, but
// not in the source that states the rest of the clause: a number moved
// from one fact to another.
func (k *checker) clauseNumbers(a *conj, u *unit, phrase string) {
	toks := k.cd.toks
	for _, i := range a.toks {
		t := toks[i]
		if t.kind != tkNumber {
			continue
		}
		inUnit, elsewhere := false, false
		for _, o := range u.src.nums {
			if sameValue(o.value, t.value) {
				inUnit = true
			}
		}
		if inUnit {
			continue
		}
		// the earlier value of a change ("from v0.15.0 to v0.16.1") may
		// come from the source that states the earlier state, when the
		// one the clause rests on gives the later value
		from := afterFrom(toks, i)
		for _, s := range k.srcs {
			for _, o := range s.nums {
				if sameValue(o.value, t.value) && !k.sameSubject(a, u.src, s, 5) {
					elsewhere = true
				}
			}
		}
		if elsewhere && !(from && k.laterInUnit(a, i, u)) {
			k.fail(UnsupportedCombination, "%q takes %s from another source than the rest of it", phrase, t.raw)
		}
	}
}

// effTerms is a conjunct's terms with compound parts and inherited terms.
func (c *conj) effTerms() map[string]bool {
	if c.eff != nil {
		return c.eff
	}
	m := map[string]bool{}
	for _, i := range c.toks {
		t := c.s.d.toks[i]
		if t.term != "" {
			m[t.term] = true
			for _, p := range t.parts {
				m[p] = true
			}
		}
	}
	for _, t := range c.inherited {
		m[t] = true
	}
	c.eff = m
	return m
}

// distinctive reports whether a term can tell one fact from another: not
// generic, not a verb a paraphrase may swap.
func (t cterm) distinctive() bool {
	return !t.generic && (t.code || t.noun || !verbLemmas[t.key])
}

// substitution finds a term of the clause that its best conjunct lacks
// but another source sentence (or a parallel conjunct of the same
// sentence) has, while the best conjunct has a term of its own the claim
// dropped: one thing put in another's place.
func (k *checker) substitution(a *conj, need []cterm, u *unit, v *conj, phrase string) {
	veff := v.effTerms()
	aTerms := a.effTerms()
	// a parenthesis of the clause's sentence is part of it: "X (page
	// size 1,000) 14 min" keeps the page size
	for _, w := range a.s.conjs {
		if w.role == roleParen && w != a {
			aTerms = union(aTerms, w.ownSet)
		}
	}
	// what the best conjunct says that the clause dropped
	var dropped []string
	var droppedTerms []cterm
	for j, i := range v.toks {
		t := v.s.d.toks[i]
		if t.term == "" || t.unitWord {
			continue
		}
		ct := termAt(v.s.d.toks, v.toks, j)
		if strings.HasSuffix(strings.ToLower(t.raw), "ly") {
			continue // an adverb ("slightly") is no entity
		}
		if !ct.distinctive() || ct.in(aTerms) || aTerms[t.term] {
			continue
		}
		dropped = append(dropped, t.raw)
		droppedTerms = append(droppedTerms, ct)
	}
	if len(dropped) == 0 {
		return
	}
	vSubject := len(nonGeneric(v.subject)) > 0 || v.speaker
	var added []string
	addedKeys := map[string]bool{}
	var foreign []cterm
	sibling, sameSource := false, false
	for _, t := range need {
		if !t.distinctive() || t.in(veff) {
			continue
		}
		// a subject given to an imperative ("Retrain weekly" -> "The
		// model is retrained") is not a substitution
		if !vSubject && containsTerm(a.left, t.key) {
			continue
		}
		inUnit := false
		for _, st := range u.sents {
			for _, w := range st.conjs {
				if w == v || !t.in(w.effTerms()) {
					continue
				}
				inUnit = true
				if parallel(v, w) || k.exchanged(a, droppedTerms, u.src, t) {
					added, addedKeys[t.key] = append(added, t.raw), true
					sibling = true
				}
			}
		}
		if inUnit {
			continue
		}
		if k.inSource(t, u.src) {
			// another sentence of the same source: a swap between
			// parallel statements, or an exchange within the claim
			for _, st := range u.src.d.sents {
				for _, w := range st.conjs {
					if t.in(w.effTerms()) && (parallel(v, w) || k.exchanged(a, droppedTerms, u.src, t)) {
						added, addedKeys[t.key] = append(added, t.raw), true
						sameSource = true
					}
				}
			}
			continue
		}
		for _, s := range k.srcs {
			if k.inSource(t, s) {
				foreign = append(foreign, t)
				break
			}
		}
	}
	// a word from another source counts when it is a name, when several
	// come together, or when that source's statement is about the same
	// thing as the clause; a single common word is a paraphrase
	if len(foreign) > 1 {
		for _, t := range foreign {
			added, addedKeys[t.key] = append(added, t.raw), true
		}
	} else if len(foreign) == 1 {
		t := foreign[0]
		if t.code || len(t.parts) > 1 || isCapitalWord(t.raw) || isAcronym(t.raw) || k.pivot(a, need, t) {
			added, addedKeys[t.key] = append(added, t.raw), true
		}
	}
	if len(added) == 0 {
		k.nameVariant(need, droppedTerms, phrase)
		return
	}
	if !sibling && !sameSource {
		// a detail from a source about the same thing: a merge
		related := true
		for _, t := range foreign {
			for _, s := range k.srcs {
				if k.inSource(t, s) && !k.sameSubject(a, u.src, s, 4) {
					related = false
				}
			}
		}
		if related && len(foreign) > 0 {
			return
		}
	}
	if sibling || sameSource {
		if !swapShaped(droppedTerms, added) {
			return // a paraphrase that says it in other words, not one thing put for another
		}
		if k.mergedWith(a, v, added) {
			return // two statements said in one clause, each in its own order
		}
		if listItem(a, v, droppedTerms, addedKeys) {
			return // "3 servers and 24 clients" said in another order
		}
		k.fail(RoleSwap, "%q puts %s where the source has %s", phrase, quoteList(added), quoteList(dropped))
		return
	}
	k.fail(UnsupportedCombination, "%q joins %s from another source to a fact about %s", phrase, quoteList(added), quoteList(dropped))
}

func minus(a, b map[string]bool) map[string]bool {
	m := map[string]bool{}
	for t := range a {
		if !b[t] {
			m[t] = true
		}
	}
	return m
}

func union(a, b map[string]bool) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	addAll(m, a)
	addAll(m, b)
	return m
}

func distinctiveSet(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for t := range m {
		if !genericLemmas[t] {
			out[t] = true
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for t := range m {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// shareEither is the part of want found in a or b.
func shareEither(want, a, b map[string]bool) float64 {
	if len(want) == 0 {
		return 1
	}
	n := 0
	for t := range want {
		if a[t] || b[t] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// share is the part of want found in have.
func share(want, have map[string]bool) float64 {
	if len(want) == 0 {
		return 1
	}
	n := 0
	for t := range want {
		if have[t] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func overlapCount(a, b map[string]bool) int {
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return n
}

// clauseText is a clause as written, for details.
func clauseText(d *doc, c *conj) string {
	if len(c.toks) == 0 {
		return ""
	}
	from, to := d.toks[c.toks[0]].start, d.toks[c.toks[len(c.toks)-1]].end
	s := strings.Join(strings.Fields(d.raw[from:to]), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// sameSubject reports whether two cited sources speak of what the clause
// speaks of: at least min of its distinctive terms are in both (the
// ETA truncation of a blocker and of the record that fixed it), so that a
// clause may take a detail from each.
func (k *checker) sameSubject(a *conj, x, y *source, min int) bool {
	if x == y {
		return true
	}
	n := 0
	for _, t := range k.terms(a) {
		if t.distinctive() && k.inSource(t, x) && k.inSource(t, y) {
			n++
		}
	}
	return n >= min
}
