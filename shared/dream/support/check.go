package support

import (
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/agentmem/agentmem/shared/agentmem"
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

// mergedWith reports whether a clause says two statements of its cited
// sources one after the other ("switching to direct uploads sends files
// straight to S3" for "Switched to direct uploads, so the file goes
// straight to S3"): its distinctive words are those of v and then those
// of another statement w, w brings at least two of them, every word put
// for one of v's among them. One word of another statement put in v's
// place is a swap, not a merge; w's words before v's, an exchange.
func (k *checker) mergedWith(a, v *conj, added []string) bool {
	veff := v.effTerms()
	var claimTerms []cterm
	for _, ct := range k.terms(a) {
		if ct.distinctive() {
			claimTerms = append(claimTerms, ct)
		}
	}
	addedSet := map[string]bool{}
	for _, w := range added {
		addedSet[w] = true
	}
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			for _, w := range st.conjs {
				if w == v {
					continue
				}
				weff := w.effTerms()
				var seq []byte
				wCount, vCount := 0, 0
				for _, t := range claimTerms {
					inV, inW := t.in(veff), t.in(weff)
					switch {
					case inW && !inV:
						seq = append(seq, 'w')
						wCount++
					case inV && !inW:
						seq = append(seq, 'v')
						vCount++
					case !inV && !inW && addedSet[t.raw]:
						seq = append(seq, 'x') // put in and found in neither
					}
				}
				if wCount < 2 || vCount == 0 || strings.Contains(string(seq), "x") {
					continue
				}
				// v's words first, then w's: the second statement added
				// after the first, as a merge writes it
				if strings.TrimLeft(string(seq), "v") == strings.Repeat("w", wCount) {
					return true
				}
			}
		}
	}
	return false
}

// pivot reports whether a cited sentence with x also has another
// distinctive term of the clause.
func (k *checker) pivot(a *conj, need []cterm, x cterm) bool {
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			if !x.in(st.terms) {
				continue
			}
			for _, t := range need {
				if t.key != x.key && t.distinctive() && t.in(st.terms) {
					return true
				}
			}
		}
	}
	return false
}

// nameVariant fails a clause that puts a name found in no cited source
// where its source has a similar one ("libaddress" for "libpostal", a
// capitalised name for another).
func (k *checker) nameVariant(need []cterm, dropped []cterm, phrase string) {
	for _, t := range need {
		if !t.distinctive() || len(t.key) < 5 {
			continue
		}
		known := false
		for _, s := range k.srcs {
			if k.inSource(t, s) {
				known = true
				break
			}
		}
		if known {
			continue
		}
		for _, y := range dropped {
			if len(y.key) < 5 || y.key == t.key {
				continue
			}
			capital := isCapitalWord(t.raw) && isCapitalWord(y.raw)
			// "libaddress" for "libpostal": the name's start and a source word
			p := commonPrefix(t.key, y.key)
			built := p >= 3 && p < len(t.key)-3 && k.anySource(lemma(t.key[p:]))
			if built || capital {
				k.fail(IdentifierMissing, "%q names %q, which no cited source has (the source says %q)", phrase, t.raw, y.raw)
				return
			}
		}
	}
}

// anySource reports whether a cited source has the term.
func (k *checker) anySource(term string) bool {
	for _, s := range k.srcs {
		if s.all[term] {
			return true
		}
	}
	return false
}

func isCapitalWord(w string) bool {
	rs := []rune(w)
	return len(rs) > 1 && unicode.IsUpper(rs[0]) && !isAcronym(w)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// exchanged reports whether a term the clause dropped from its source went
// to another clause of the claim that rests on another statement of the
// same source: the two statements' terms exchanged ("validates on the
// client; the server only predicts it").
func (k *checker) exchanged(a *conj, dropped []cterm, src *source, x cterm) bool {
	for _, s := range k.cd.sents {
		for _, b := range s.conjs {
			if b == a {
				continue
			}
			// its own words: what it inherits from the clause before
			// ("then X" inherits "deploys run") proves no exchange
			beff := b.ownTerms()
			moved := false
			for _, y := range dropped {
				if y.in(beff) {
					moved = true
				}
			}
			if !moved {
				continue
			}
			// b rests on a statement of src that shares another term with it
			for _, st := range src.d.sents {
				for _, w := range st.conjs {
					weff := w.effTerms()
					if !x.in(weff) {
						continue // the statement x came from
					}
					shared := 0
					for t := range beff {
						if weff[t] && !genericLemmas[t] {
							isDropped := false
							for _, y := range dropped {
								if y.key == t {
									isDropped = true
								}
							}
							if !isDropped {
								shared++
							}
						}
					}
					if shared > 0 {
						return true
					}
				}
			}
		}
	}
	return false
}

// actionWord reports whether a word is a verb or an adjective of
// degree ("probed", "cut", "faster", "passes"): what a statement says of
// its things, not one of them.
func actionWord(raw, term string) bool {
	l := strings.ToLower(raw)
	return verbLemmas[term] || strings.HasSuffix(l, "ed") || strings.HasSuffix(l, "ing") || comparatives[l]
}

// comparatives are adjectives of degree ("faster", "worse").
var comparatives = words("faster slower bigger smaller larger higher lower longer shorter better worse cheaper easier harder newer older greater fewer more less")

// swapShaped reports whether what a clause dropped and what it put in
// its place look like one thing put for another: things on both sides
// (not verbs or adjectives), and few of them dropped (a clause that drops
// four words or more says it in other words).
func swapShaped(dropped []cterm, added []string) bool {
	things := 0
	for _, t := range dropped {
		if !actionWord(t.raw, t.key) {
			things++
		}
	}
	if things == 0 || things >= 4 {
		return false
	}
	for _, a := range added {
		if !actionWord(a, lemma(strings.ToLower(a))) {
			return true
		}
	}
	return false
}

// parallel reports whether two conjuncts say the same kind of thing of
// different objects ("Sign in with Apple on iOS and Google Sign-In on
// Android"): the same verb, or one borrowing the other's.
func parallel(v, w *conj) bool {
	return v.headVerb != "" && v.role == w.role && w.headVerb == v.headVerb
}

func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "“" + w + "”"
	}
	return strings.Join(q, ", ")
}

// subjectSwap finds a clause whose subject is not its source's: the
// source's subject is nowhere in the clause and the clause's subject is
// not in the source.
//
// A subject taken from another source for a fact whose source has a
// subject of its own is an unsupported combination too, unless that
// subject is the system the notes are about (named by many sources).
func (k *checker) subjectSwap(a *conj, need []cterm, u *unit, v *conj, phrase string) {
	sa, sv := nonGeneric(a.subject), nonGeneric(v.subject)
	if len(sa) == 0 || len(sv) == 0 || a.anaphoric || v.anaphoric {
		return
	}
	foreign := k.foreignTerms(sa, u)
	if len(foreign) == 0 {
		return
	}
	aTerms := a.effTerms()
	for _, t := range sv {
		if aTerms[t] {
			k.fail(UnsupportedCombination, "%q makes %s the subject of what the source says of %s", phrase, quoteList(foreign), quoteList(sv))
			return
		}
	}
	k.fail(RoleSwap, "%q gives %s what the source says of %s", phrase, quoteList(foreign), quoteList(sv))
}

// foreignTerms are the subject terms that the unit the clause rests on
// lacks and that one or two other sources have (a term many sources name
// is the system the notes are about, not a borrowed subject).
func (k *checker) foreignTerms(subject []string, u *unit) []string {
	var foreign []string
	for _, t := range subject {
		if u.terms[t] || verbLemmas[t] || plainModifiers[t] {
			continue
		}
		n := 0
		for _, s := range k.srcs {
			if k.inSource(cterm{key: t}, s) {
				n++
			}
		}
		if n > 0 && n < 3 {
			foreign = append(foreign, t)
		}
	}
	return foreign
}

// demotedSubject finds a clause whose subject comes from another source
// while the statement it rests on has a subject of its own, which the
// clause turns into an object ("electron-updater signs the Windows
// installer" from "the Windows installer is now signed").
func (k *checker) demotedSubject(a *conj, u *unit, phrase string) {
	sa := nonGeneric(a.subject)
	if len(sa) == 0 || a.anaphoric {
		return
	}
	foreign := k.foreignTerms(sa, u)
	if len(foreign) == 0 {
		return
	}
	aTerms := a.effTerms()
	for _, st := range u.sents {
		for _, w := range st.conjs {
			sw := nonGeneric(w.subject)
			if len(sw) == 0 || w.anaphoric {
				continue
			}
			for _, t := range sw {
				if aTerms[t] && !containsTerm(sa, t) {
					k.fail(UnsupportedCombination, "%q makes %s the subject of what the source says of %s", phrase, quoteList(foreign), quoteList(sw))
					return
				}
			}
		}
	}
}

// fromToSwap finds "from X to Y" turned into "from Y to X".
func (k *checker) fromToSwap(a *conj, u *unit, phrase string) {
	if a.fromSide == nil {
		return
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.fromSide == nil {
				continue
			}
			af, at := minus(a.fromSide, a.toSide), minus(a.toSide, a.fromSide)
			cf, ct := minus(c.fromSide, c.toSide), minus(c.toSide, c.fromSide)
			if overlapCount(af, ct) > 0 && overlapCount(at, cf) > 0 {
				k.fail(RoleSwap, "%q exchanges where it goes from and to", phrase)
				return
			}
		}
	}
}

// pivotSwap finds the two sides of a relation exchanged around one verb
// ("A calls B" for "B calls A").
func (k *checker) pivotSwap(a, v *conj, phrase string) {
	if a.verbTerm == "" || a.verbTerm != v.verbTerm {
		return
	}
	if a.wordAfterVerb() != v.wordAfterVerb() {
		return // "X misses the cache" and "cache misses on X" are not one relation
	}
	al, ar := nearest(a.left, true), nearest(a.right, false)
	vl, vr := nearest(v.left, true), nearest(v.right, false)
	if ap, vp := a.passiveAny(), v.passiveAny(); ap != vp {
		// only a passive with its agent ("B is called by A") names the
		// relation's two sides
		if ap && !a.hasAgent() || vp && !v.hasAgent() {
			return
		}
		vl, vr = vr, vl
	}
	if al != "" && ar != "" && al == vr && ar == vl && al != ar {
		k.fail(RoleSwap, "%q exchanges the two sides of %q", phrase, a.verbTerm)
	}
}

// verbTok is the index in c.toks of the token of its verb's term (after
// any auxiliary), or -1.
func (c *conj) verbTok() int {
	if c.verb < 0 {
		return -1
	}
	toks := c.s.d.toks
	for j, i := range c.toks {
		if i >= c.verb && toks[i].term == c.verbTerm {
			return j
		}
	}
	return -1
}

// wordAfterVerb is the preposition right after the clause's verb ("waits
// on"), or "" when none follows it.
func (c *conj) wordAfterVerb() string {
	j := c.verbTok()
	if j < 0 || j+1 >= len(c.toks) {
		return ""
	}
	if t := c.s.d.toks[c.toks[j+1]]; t.kind == tkWord && verbPrepositions[t.lower] {
		return t.lower
	}
	return ""
}

// verbPrepositions may join a verb to its object ("depends on", "talks
// to").
var verbPrepositions = words("on at to from for with in into by of about onto over through")

// passiveAny reports whether the clause is in the passive, "gets signed"
// included.
func (c *conj) passiveAny() bool {
	if c.passive {
		return true
	}
	j := c.verbTok()
	if j < 1 {
		return false
	}
	toks := c.s.d.toks
	aux, verb := toks[c.toks[j-1]], toks[c.toks[j]]
	return (aux.isWord("get") || aux.isWord("gets") || aux.isWord("got") || aux.isWord("getting")) &&
		(strings.HasSuffix(verb.lower, "ed") || irregularForm(verb.lower))
}

// hasAgent reports whether "by" follows the clause's verb: a passive
// that names who acts.
func (c *conj) hasAgent() bool {
	j := c.verbTok()
	if j < 0 {
		return false
	}
	for _, i := range c.toks[j+1:] {
		if c.s.d.toks[i].isWord("by") {
			return true
		}
	}
	return false
}

// categoryOnly reports whether every word a rejected alternative negates
// is also on its sentence's chosen side, with a number to tell the two
// apart ("4 cores instead of 2 cores").
func categoryOnly(a *conj) bool {
	chosen := map[string]bool{}
	for _, c := range a.s.conjs {
		if c.role != roleRejected && c.role != roleParen {
			addAll(chosen, c.pos)
		}
	}
	number, words := false, 0
	for _, i := range a.toks {
		if t := a.s.d.toks[i]; t.kind == tkNumber {
			number = true
		}
	}
	for t := range a.neg {
		if genericLemmas[t] {
			continue
		}
		if !chosen[t] {
			return false
		}
		words++
	}
	return number && words > 0
}

// restatesChoice reports whether the clause's sentence turns down what
// the source turns down, and nothing the source keeps: a word it shares
// with the source's rejected phrase is then what both sides are about
// ("the default lowerCamelCase JSON names"), not the alternative.
func restatesChoice(a *conj, rejected, kept map[string]bool) bool {
	shared := false
	for _, c := range a.s.conjs {
		if c.role != roleRejected {
			continue
		}
		for _, t := range c.own {
			if genericLemmas[t] {
				continue
			}
			if kept[t] && !rejected[t] {
				return false
			}
			shared = shared || rejected[t]
		}
	}
	return shared
}

// nearest is the non-generic term of a side closest to the verb.
func nearest(side []string, left bool) string {
	if left {
		for i := len(side) - 1; i >= 0; i-- {
			if !genericLemmas[side[i]] {
				return side[i]
			}
		}
		return ""
	}
	for _, t := range side {
		if !genericLemmas[t] {
			return t
		}
	}
	return ""
}

// polarity compares what the clause negates with what its source negates.
func (k *checker) polarity(a *conj, need []cterm, u *unit, phrase string) {
	if k.hypothetical(a) {
		return // "calling X makes Y raise": what doing X does, not that it is done
	}
	negU, posU, posPlain := map[string]bool{}, map[string]bool{}, map[string]bool{}
	rejected := map[string]bool{}
	heads := map[string]bool{}
	// inheritedNeg: terms negated only as what a rejected alternative
	// inherits ("X on the server, not in the client" negates X only
	// together with "client")
	inheritedNeg := map[string]bool{}
	// withoutNeg: terms negated by "without X" only, a condition ("takes
	// 1.9 s without an index"), which a clause adding X does not deny
	withoutNeg := map[string]bool{}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.has("without") {
				addAll(withoutNeg, c.neg)
			}
			addAll(negU, c.neg)
			addAll(posU, c.pos)
			addAll(posPlain, c.pos)
			if c.startsWith("only") && !c.negated {
				// "never trigger X from Airflow, only from CI": X is
				// triggered from CI
				addAll(posU, setOf(c.inherited))
			}
			// the parts of an affirmed name are affirmed: "pdf" of
			// "print-to-PDF" where "a PDF library" was rejected
			for _, i := range c.toks {
				if t := st.d.toks[i]; len(t.parts) > 1 && c.pos[t.term] {
					for _, p := range t.parts {
						posU[p] = true
					}
				}
			}
			if c.negHead != "" {
				heads[c.negHead] = true
			}
			if c.role == roleRejected {
				addAll(rejected, c.neg)
				// "X only through Y, never from Z": never [X] from Z
				for _, t := range c.inherited {
					if !negU[t] {
						inheritedNeg[t] = true
					}
				}
			}
		}
		addAll(negU, zeroCounted(st))
		for i, t := range st.counterNeg {
			negU[t] = true
			if i == 0 {
				heads[t] = true
			}
		}
		// "removed the disk spills": what a removal takes away is no more
		for _, c := range st.conjs {
			removed := false
			for _, i := range c.toks {
				t := st.d.toks[i]
				if removed && t.term != "" && !c.pos[t.term] {
					continue
				}
				if removed && t.term != "" {
					negU[t.term] = true
				}
				if removalWords[t.lower] || t.lower == "eliminated" || t.lower == "removes" {
					removed = true
				}
			}
		}
	}
	if a.role == roleRejected && movedFrom(u, a.neg) {
		// "Y instead of X" where a source says it "moved from X to Y"
		return
	}
	if a.role == roleRejected && categoryOnly(a) {
		// "4 cores instead of 2 cores": the noun both sides share is
		// what they are about; the number tells them apart
		return
	}
	if a.role == roleRejected && insteadAfter(a, u.src) {
		// "Y instead of X" where a source says "X; Y instead"
		return
	}
	if a.role == roleRejected && comparedWith(u, a.neg) {
		// "instead of one message per reading" where a source says
		// "compared with one message per reading": the baseline
		return
	}
	if a.role == roleRejected && unitFaults(u, a.neg) {
		// "rather than client side" where a source says "client-side
		// flag loading caused layout shift"
		return
	}
	if a.role == roleRejected && unitRejects(u, a.neg) {
		// "Instead of adding read replicas, ..." where a source says
		// "adding read replicas was rejected"
		return
	}
	if onlyRestated(a, u) {
		// "Don't let anyone outside the billing team export data" for
		// "Only the billing team may export data"; "only does something
		// when it returns a Mono" for "does nothing unless it returns one"
		return
	}
	if sameOnly(k.cd, a, u) {
		// "Run X only from B, never from A" for "never run X from A, only
		// from B": the same restriction
		return
	}
	if conditionalAbsence(k.cd, a) && unitConditional(u) {
		// "Without -vn, FFmpeg encodes cover art" for "call FFmpeg with
		// -vn, otherwise cover art is encoded": the same condition
		return
	}
	if a.lacks {
		// "Y lacks X" for "X is missing from Y": the same relation, its
		// sides in either order
		for _, st := range u.sents {
			for _, c := range st.conjs {
				if c.lacks || overlapCount(c.neg, a.neg)+overlapCount(c.neg, a.pos) > 0 {
					// or a plain negation of what it lacks: "lineage was
					// missing from X" for "X had no lineage"
					return
				}
			}
		}
	}
	namesRejected := false
	for t := range a.neg {
		if rejected[t] {
			namesRejected = true
		}
	}
	for t := range a.pos {
		// "Firefox does not reproduce it" for "reproduces in Chrome, not
		// in Firefox": the clause is about the rejected side
		if rejected[t] && !genericLemmas[t] {
			namesRejected = true
		}
	}
	for t := range inheritedNeg {
		if !negU[t] && (namesRejected || len(a.neg) == 0) {
			negU[t] = true
		}
	}
	if len(a.neg) > 0 {
		// the first word negated says what the negation is about
		// ("nobody has X" negates the whole: no head)
		head := ""
		for _, i := range a.toks {
			t := k.cd.toks[i]
			if wholeNegators[t.lower] {
				break
			}
			if t.term != "" && a.neg[t.term] {
				head = t.term
				break
			}
		}
		// a prohibition drawn from a limitation the source states ("never
		// put X in private methods" for "@Transactional does not apply to
		// private methods"): the claim negates a term the source negates
		// and never affirms
		negS, posS := map[string]bool{}, map[string]bool{}
		for _, st := range u.src.d.sents {
			for _, c := range st.conjs {
				addAll(negS, c.neg)
				addAll(posS, c.pos)
			}
		}
		agrees := k.bareNegation(a, head) || formerName(a, head, u) || k.prohibitsFailure(a, u) || fixFailed(a, head, u) || negatedAlike(a, u) || k.otherwiseRestated(a, u) || laterNegated(head, u) ||
			a.role == roleRejected && head != "" && rejected[head]
		for t := range a.neg {
			if t != head && negS[t] && !posS[t] && !genericLemmas[t] {
				agrees = true
			}
		}
		switch {
		case agrees:
		case head != "" && negU[head]:
		case head != "" && posU[head]:
			k.fail(Negation, "%q negates what the source affirms", phrase)
			return
		default:
			hit, contra := negatedAlike(a, u), false
			for t := range a.neg {
				if negU[t] {
					hit = true
				}
				if posU[t] && !negU[t] {
					contra = true
				}
			}
			if !hit && contra {
				k.fail(Negation, "%q negates what the source affirms", phrase)
				return
			}
		}
	}
	if len(a.neg) > 0 {
		return
	}
	if persistsUnfixed(a, u) {
		return // "the CI OOM remains" for "did not fix the CI OOM"
	}
	onlyNeg := 0
	for t := range a.pos {
		if negU[t] && !posPlain[t] && !genericLemmas[t] {
			onlyNeg++
		}
	}
	absence := k.statesAbsence()
	for t := range a.pos {
		if absence && a.role == rolePlain && !a.negated && a.s.idx == 0 {
			// "pass `cacheWidth`; without it full-size photos are decoded":
			// the remedy of an absence the claim states too
			break
		}
		if a.fromSide[t] && !a.toSide[t] {
			continue // "Zustand replaces Redux Toolkit": the side given up
		}
		if k.failureSubject(a, t) {
			continue // "enabling it breaks the FCC limits": what would fail, not what is done
		}
		if withoutNeg[t] && k.adds(a) {
			continue // "adding the index brought it to 140 ms" for "1.9 s without an index; adding it ..."
		}
		if rejected[t] && a.role == roleCause && k.restatesRationale(a) {
			continue // "(why: writing on every event dropped the tick rate)": what the rejected alternative did, as the source's reason says
		}
		if negU[t] && posU[t] && a.role != roleRejected && !k.excepts() && !k.negativeVerb(a) && negatedHere(a, u.sents, t) {
			// "Admin routes are logged" where the source logs requests
			// but says "the admin routes are not logged": the sentence
			// about the claim's subject negates it
			if rejected[t] {
				if rejectedShared(a, t, rejected) {
					continue // "Pulumi state" where the source rejects "Pulumi Cloud" and affirms "acme-pulumi-state"
				}
				k.fail(RoleSwap, "%q affirms what the source names as the rejected alternative", phrase)
			} else {
				k.fail(Negation, "%q affirms what the source negates", phrase)
			}
			return
		}
		if !negU[t] || posU[t] || !heads[t] && onlyNeg < 2 || k.excepts() {
			continue
		}
		if rejected[t] && a.role != roleRejected {
			if restatesChoice(a, rejected, posU) {
				continue // "JSON names follow the proto names rather than the default lowerCamelCase"
			}
			k.fail(RoleSwap, "%q affirms what the source names as the rejected alternative", phrase)
		} else if !(k.remedy(a) && resolvedNegates(u, t)) {
			k.fail(Negation, "%q affirms what the source negates", phrase)
		}
		return
	}
}

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

// relationSwap fails a clause that puts the two sides of a relation the
// other way round than a cited sentence with the same verb, read from
// the nearest distinctive words around it ("caused by the Airbyte sync
// waiting on the dbt Cloud job" for "the dbt Cloud job waiting on the
// Airbyte sync"), participles included, which pivotSwap's clause sides
// miss.
func (k *checker) relationSwap(a *conj, u *unit, phrase string) {
	sides := func(toks []token, idx []int) (verb, left, right string) {
		for j, i := range idx {
			if !relationVerbs[toks[i].term] {
				continue
			}
			for l := j - 1; l >= 0; l-- {
				if t := toks[idx[l]]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
					left = t.term
					break
				}
			}
			for r := j + 1; r < len(idx); r++ {
				if t := toks[idx[r]]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
					right = t.term
					break
				}
			}
			return toks[i].term, left, right
		}
		return "", "", ""
	}
	verb, l, r := sides(k.cd.toks, a.toks)
	if verb == "" || l == "" || r == "" || l == r {
		return
	}
	for _, st := range u.sents {
		var idx []int
		for i := st.from; i < st.to; i++ {
			idx = append(idx, i)
		}
		// each occurrence of the verb in the sentence
		for j, i := range idx {
			if st.d.toks[i].term != verb {
				continue
			}
			v, sl, sr := sides(st.d.toks, idx[j:])
			_ = v
			sl2 := ""
			for b := j - 1; b >= 0; b-- {
				if t := st.d.toks[idx[b]]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
					sl2 = t.term
					break
				}
			}
			if sl == "" {
				sl = sl2
			}
			if sl == r && sr == l {
				k.fail(RoleSwap, "%q puts the two sides of %q the other way round", phrase, verb)
				return
			}
		}
	}
}

// rejectedKept fails a clause that rejects what its source says was kept
// ("Use the Compatibility renderer, not Forward+" for "Kept Forward+ for
// now").
func (k *checker) rejectedKept(a *conj, u *unit, phrase string) {
	if a.role != roleRejected || len(a.neg) == 0 {
		return
	}
	rejected := distinctiveSet(a.neg)
	for _, st := range u.src.d.sents {
		for _, c := range st.conjs {
			// what is kept: the words right after "kept" ("Kept Forward+
			// for now"), or right before "stays" ("BullMQ stays"); not
			// "might keep it under the limit"
			kept := map[string]bool{}
			for j, i := range c.toks {
				w := st.d.toks[i].lower
				var near []int
				switch w {
				case "kept", "keep", "keeps":
					near = c.toks[j+1 : min(len(c.toks), j+4)]
				case "stays", "stayed":
					near = c.toks[max(0, j-3):j]
				}
				for _, n := range near {
					if t := st.d.toks[n].term; t != "" {
						kept[t] = true
					}
				}
			}
			if len(kept) > 0 && !c.negated && share(rejected, kept) >= 0.6 && len(rejected) > 0 {
				k.fail(RoleSwap, "%q rejects what the source says was kept", phrase)
				return
			}
		}
	}
}

// anyWords widen a statement to everyone.
var anyWords = words("any anyone anybody everyone everybody")

// firstOnly is the term right after "only" in toks[from:to] (after a
// determiner), and whether "only" is there.
func firstOnly(toks []token, from, to int) (string, bool) {
	for i := from; i < to; i++ {
		if !toks[i].isWord("only") {
			continue
		}
		j := i + 1
		for j < to && determiners[toks[j].lower] {
			j++
		}
		if j < to && toks[j].term != "" && !genericLemmas[toks[j].term] && !verbLemmas[toks[j].term] {
			return toks[j].term, true
		}
		return "", true
	}
	return "", false
}

// restriction fails a clause that widens what a source restricts ("Any
// member may approve" for "Only members of the admins group may
// approve") or restricts it to something else of the source ("Only spot
// nodes are allowed" for "Only on-demand nodes are allowed", where spot
// nodes are named elsewhere).
func (k *checker) restriction(a *conj, need []cterm, u *unit, phrase string) {
	if a.negated {
		return
	}
	toks := k.cd.toks
	from, to := a.toks[0], a.toks[len(a.toks)-1]+1
	claimOnly, claimHas := firstOnly(toks, from, to)
	widens := false
	for _, i := range a.toks {
		if anyWords[toks[i].lower] {
			widens = true
		}
	}
	claimTerms := a.effTerms()
	if widens && !claimHas && k.widensOnly(a) {
		k.fail(Negation, "%q widens what the source restricts with \"only\"", phrase)
		return
	}
	for _, st := range u.sents {
		srcOnly, srcHas := firstOnly(st.d.toks, st.from, st.to)
		if !srcHas {
			continue
		}
		cov := 0
		for _, t := range need {
			if t.in(st.terms) {
				cov++
			}
		}
		if cov*2 < len(need) {
			continue
		}
		switch {
		case !claimHas && widens:
			k.fail(Negation, "%q widens what the source restricts with \"only\"", phrase)
			return
		case claimHas && claimOnly != "" && srcOnly != "" && claimOnly != srcOnly && !claimTerms[srcOnly] && k.anySource(claimOnly):
			k.fail(RoleSwap, "%q restricts it to another thing than the source does", phrase)
			return
		}
	}
}

// widensOnly reports whether the noun after the clause's "any" ("any
// team may deploy the job") is what a cited sentence
// restricts with "only" ("only the fraud-platform team may deploy the
// job"), with the clause's verb or another of its words there too.
func (k *checker) widensOnly(a *conj) bool {
	toks := k.cd.toks
	noun := ""
	for j, i := range a.toks {
		if !anyWords[toks[i].lower] {
			continue
		}
		for _, n := range a.toks[j+1 : min(j+4, len(a.toks))] {
			if t := toks[n]; t.term != "" && !genericLemmas[t.term] {
				noun = t.term
				break
			}
		}
		break
	}
	if noun == "" {
		return false
	}
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			if _, has := firstOnly(st.d.toks, st.from, st.to); !has || !st.terms[noun] {
				continue
			}
			others := 0
			for _, t := range a.own {
				if t != noun && !genericLemmas[t] && st.terms[t] {
					others++
				}
			}
			if others >= 1 && (a.verbTerm == "" || st.terms[a.verbTerm] || others >= 2) {
				return true
			}
		}
	}
	return false
}

// ownTerms are the terms of the conjunct's own words, compound parts
// included (not what it inherits from the clause before).
func (c *conj) ownTerms() map[string]bool {
	m := map[string]bool{}
	for _, i := range c.toks {
		if t := c.s.d.toks[i]; t.term != "" {
			m[t.term] = true
			for _, p := range t.parts {
				m[p] = true
			}
		}
	}
	return m
}

// firstWordPos is the position in c.toks of the conjunct's first word, or
// -1 when it has none.
func (c *conj) firstWordPos() int {
	for j, i := range c.toks {
		if c.s.d.toks[i].kind == tkWord {
			return j
		}
	}
	return -1
}

// startsWith reports whether the conjunct's first word is w.
func (c *conj) startsWith(w string) bool {
	j := c.firstWordPos()
	return j >= 0 && c.s.d.toks[c.toks[j]].lower == w
}

// fixVerbs are the lemmas of verbs that say a problem went away.
var fixVerbs = lemmaSet("stop fix help solve resolve prevent cure remove eliminate")

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

// causeSupposed reports whether a cited source that hedges names both a
// hedged cause and its effect: "the tolerance may be too high" next to
// the problem it would explain supports "possibly because the tolerance
// is too high", a supposition restated as one.
func (k *checker) causeSupposed(cause, effect, scope map[string]bool) bool {
	for _, s := range k.srcs {
		hedged := false
		for _, st := range s.d.sents {
			hedged = hedged || st.hedged
		}
		if hedged && share(cause, s.all) >= 0.6 && max(share(minus(effect, cause), s.all), share(minus(scope, cause), s.all)) >= 0.6 {
			k.used[s] = true
			return true
		}
	}
	return false
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

// causeStated reports whether one cited source states cause as the cause
// of effect: a causal link of the source with the cause on its cause side
// and the effect on its effect side, or a decision record that gives the
// reason in its own words ("X happens. We decided to Y.").
func (k *checker) causeStated(cause, effect map[string]bool) bool {
	for _, s := range k.srcs {
		for _, l := range s.links {
			c, e := share(cause, l.cause), shareEither(effect, l.effect, l.scope)
			if l.fixed && c >= 0.5 {
				e = max(e, shareEither(effect, l.effect, k.blockerAbout(l.effect)))
			}
			if c >= 0.5 && (len(effect) == 0 || e >= 0.34) && c >= share(cause, l.effect) {
				k.used[s] = true
				return true
			}
			// the same link with its words grouped otherwise: "vars
			// relying on init order broke in 3 scenes" for "vars broke
			// in 3 scenes that relied on init order"
			whole := union(l.cause, l.effect)
			if len(l.cause) > 0 && share(distinctiveSet(l.cause), cause) == 1 && share(effect, whole) == 1 && share(cause, whole) >= 0.8 {
				k.used[s] = true
				return true
			}
		}
	}
	for _, s := range k.srcs {
		all := s.all
		// one memory that joins the two ("X; Y instead") states their link
		if s.Kind == KindMemory && share(cause, all) >= 0.6 && share(minus(effect, cause), all) >= 0.6 && !k.causeElsewhere(s, cause) && !agentElsewhere(s.d.sents, cause, effect) {
			k.used[s] = true
			return true
		}
		// so do two sentences of a record side by side ("Apple will not
		// change this. We show a hint"), when the record names no other
		// cause, and two clauses of one sentence when it names no other
		// cause of this effect ("`axum::Server` is gone; switched to
		// `axum::serve`")
		elsewhere, elsewhereFor := k.causeElsewhere(s, cause), k.causeElsewhereFor(s, cause, effect)
		if !elsewhereFor {
			ss := s.d.sents
			for i := range ss {
				win := map[string]bool{}
				for j := i; j < len(ss) && j <= i+1 && (j == i || !elsewhere || endsClause(ss[i])); j++ {
					win = union(win, ss[j].terms)
					if share(cause, win) >= 0.6 && share(minus(effect, cause), win) >= 0.6 && !agentElsewhere(ss[i:j+1], cause, effect) {
						k.used[s] = true
						return true
					}
				}
			}
		}
		for _, st := range s.d.sents {
			if !st.decision && !(s.Type == agentmem.TypeDecision && s.Kind == KindMemory && s.Rationale == "") {
				continue
			}
			if share(effect, st.terms) >= 0.5 && share(cause, all) >= 0.6 && !k.causeElsewhere(s, cause) {
				k.used[s] = true
				return true
			}
		}
	}
	return false
}

// blockerAbout is the terms of the cited blockers that share a
// distinctive term with problem: the problem a record says it fixed,
// described at more length.
func (k *checker) blockerAbout(problem map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range k.srcs {
		if s.Type != agentmem.TypeBlocker || s.Kind != KindMemory {
			continue
		}
		if overlapCount(distinctiveSet(problem), s.all) > 0 {
			addAll(out, s.all)
		}
	}
	return out
}

// agentElsewhere reports whether one of the sentences gives the effect
// an agent of its own: a verb of change whose subject shares nothing
// with the claimed cause and whose object is the effect ("Hermes bytecode
// cut startup from 2.4 s to 1.5 s" next to "the JS bundle is 6.2 MB" does
// not make the bundle the cause of the faster startup).
func agentElsewhere(sents []*sent, cause, effect map[string]bool) bool {
	for _, st := range sents {
		toks := st.d.toks
		for _, c := range st.conjs {
			for j, i := range c.toks {
				if !agentVerbs[toks[i].lower] {
					continue
				}
				subject, object := map[string]bool{}, map[string]bool{}
				for _, k := range c.toks[:j] {
					if t := toks[k]; t.term != "" && !genericLemmas[t.term] {
						subject[t.term] = true
					}
				}
				for _, k := range c.toks[j+1:] {
					if t := toks[k]; t.term != "" && !genericLemmas[t.term] {
						object[t.term] = true
					}
				}
				if len(subject) > 0 && overlapCount(subject, cause) == 0 && overlapCount(subject, effect) == 0 &&
					overlapCount(object, minus(effect, cause)) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// agentVerbs are the verbs of a change made by their subject ("Hermes
// bytecode cut startup to 1.5 s").
var agentVerbs = words(`cut cuts reduced reduces brought brings halved halves lowered lowers raised raises
	increased increases decreased decreases improved improves fixed fixes trimmed trims shaved sped speeds
	caused causes removed removes eliminated eliminates doubled doubles tripled triples`)

// purposeStated reports whether a cited source gives effect as the
// reason (a purpose) for cause: "X, so the layout matches" where a
// decision says X "(why: the layout then matches)".
func (k *checker) purposeStated(cause, effect map[string]bool) bool {
	for _, s := range k.srcs {
		for _, l := range s.links {
			if l.why && share(effect, l.cause) >= 0.6 && share(minus(cause, effect), s.all) >= 0.6 {
				k.used[s] = true
				return true
			}
		}
	}
	return false
}

// causeElsewhere reports whether the source states another cause for its
// decision, which a decision's own words then cannot stand in for.
func (k *checker) causeElsewhere(s *source, cause map[string]bool) bool {
	for _, l := range s.links {
		if share(cause, l.cause) < 0.5 && len(l.cause) > 0 {
			return true
		}
	}
	return false
}

// endsClause reports whether the sentence ends with a semicolon: the
// next one is a clause of the same sentence.
func endsClause(st *sent) bool {
	toks := st.d.toks
	return st.to < len(toks) && toks[st.to].raw == ";" || st.to > st.from && toks[st.to-1].raw == ";"
}

// causeElsewhereFor reports whether the source states another cause for
// the effect: a link whose cause is not the claimed one and whose effect
// shares the claimed effect's words.
func (k *checker) causeElsewhereFor(s *source, cause, effect map[string]bool) bool {
	own := distinctiveSet(minus(effect, cause))
	for _, l := range s.links {
		if share(cause, l.cause) < 0.5 && len(l.cause) > 0 && (len(own) == 0 || overlapCount(own, l.effect) > 0) {
			return true
		}
	}
	return false
}

// docLinks is every causal link of a doc: those of its sentences, and a
// root cause ("Root cause: X", "the cause was X") of the sentences before.
func docLinks(d *doc) []link {
	var out []link
	for i, s := range d.sents {
		for _, l := range s.links {
			if len(l.effect) == 0 && i > 0 {
				l.effect = d.sents[i-1].terms
			}
			if l.why && i > 0 {
				// a rationale "(why: ...)" after the content gives the
				// reason for all of it, not for its last sentence only
				l.effect = union(l.effect, map[string]bool{})
				for _, p := range d.sents[:i] {
					addAll(l.effect, p.terms)
				}
			}
			if d.source && l.so && i > 0 && s.from > 0 && d.toks[s.from-1].raw == ";" {
				// "Tried X in dev; the skips still happened, so the
				// blocker stays open": what was tried is part of the cause
				l.cause = union(l.cause, d.sents[i-1].terms)
			}
			out = append(out, l)
		}
		if s.rootCause {
			effect := map[string]bool{}
			for j := max(0, i-3); j < i; j++ {
				addAll(effect, d.sents[j].terms)
			}
			cause := map[string]bool{}
			for _, c := range s.conjs {
				if c.verb >= 0 && beForms[d.toks[c.verb].lower] && containsTerm(c.left, lemma("cause")) {
					addAll(cause, setOf(c.right))
					continue
				}
				addAll(cause, setOf(c.own))
			}
			out = append(out, link{cause: cause, effect: effect})
		}
	}
	return out
}

// steps reads the steps a sentence puts in order: "A, then B, then C";
// "A first, then B"; "A before B"; "B after A" (in the order they
// happen), each as its terms. A label before a colon ("Config
// precedence:") is no step. It returns nil when the sentence orders
// nothing.
func steps(st *sent) []map[string]bool {
	toks := st.d.toks
	from := st.from
	for i := st.from; i < st.to; i++ {
		if toks[i].raw == "(" {
			break // "(why: ...)" is no label of the steps
		}
		if toks[i].raw == ":" {
			from = i + 1
			break
		}
	}
	side := func(from, to int) map[string]bool {
		m := map[string]bool{}
		depth := 0 // "(why: ...)" belongs to no step
		for i := from; i < to; i++ {
			switch toks[i].raw {
			case "(":
				depth++
			case ")":
				depth = max(0, depth-1)
			}
			if t := toks[i]; depth == 0 && t.term != "" && !genericLemmas[t.term] && !orderWords[t.lower] {
				m[t.term] = true
				if t.code || t.compound {
					m[nameMark+t.term] = true
				}
			}
		}
		return m
	}
	var out []map[string]bool
	cut := from
	for i := from + 1; i < st.to-1; i++ {
		// "dropped after 2 years": a time, not a step
		if (toks[i].lower == "after" || toks[i].lower == "before") && (toks[i+1].kind == tkNumber || i+2 < st.to && approxWords[toks[i+1].lower] && toks[i+2].kind == tkNumber) {
			continue
		}
		switch toks[i].lower {
		case "then":
			// "A, B, C, then D": every item of the list is a step
			if toks[i-1].raw == "," {
				for j := cut; j < i-1; j++ {
					if toks[j].raw == "," {
						out = append(out, side(cut, j))
						cut = j + 1
					}
				}
			}
			if len(out) == 0 && toks[i-1].raw != "," {
				// "two jobs, `core` then `apps`": the first step starts
				// after the comma, the words before it are about both
				for j := i - 1; j > cut; j-- {
					if toks[j].raw == "," {
						cut = j + 1
						break
					}
				}
			}
			out = append(out, side(cut, i))
			cut = i + 1
		case "and":
			// "A first, then B, and C last": a step after the steps
			if len(out) > 0 && toks[i-1].raw == "," {
				out = append(out, side(cut, i-1))
				cut = i + 1
			}
		case "before":
			if len(out) == 0 {
				return []map[string]bool{side(cut, i), side(i+1, nextComma(toks, i, st.to))}
			}
		case "after":
			if len(out) == 0 && i > from+1 && toks[i-1].raw != "," {
				// "X after Y, run Z": the step after "after" ends at the comma
				return []map[string]bool{side(i+1, nextComma(toks, i, st.to)), side(cut, i)}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, side(cut, st.to))
}

// nameMark marks, in a step's terms, the names (code, compounds) that
// tell one step from another.
const nameMark = "\x00"

// placeOf is the index of the source step a claim step is: the one step
// with a name of it, else the one step with at least half its words; -1
// when none is, -2 when several are.
func placeOf(c map[string]bool, src []map[string]bool) int {
	by := func(match func(x map[string]bool) bool) int {
		at := -1
		for j, x := range src {
			if match(x) {
				if at >= 0 {
					return -2
				}
				at = j
			}
		}
		return at
	}
	// the names of the step that one source step alone has
	names := map[string]bool{}
	for t := range c {
		if !strings.HasPrefix(t, nameMark) {
			continue
		}
		n := 0
		for _, x := range src {
			if x[t] {
				n++
			}
		}
		if n == 1 {
			names[t] = true
		}
	}
	if at := by(func(x map[string]bool) bool { return overlapCount(names, x) > 0 }); at != -1 {
		return at
	}
	return by(func(x map[string]bool) bool { return len(c) > 0 && share(c, x) >= 0.5 })
}

// orderWords say an order, not a step.
var orderWords = words("first then before after next finally")

// orderSwap fails a claim that puts two steps of a cited sentence in the
// other order ("submitted the build to TestFlight first, then deployed
// the schema" for "deployed the schema first, then submitted the
// build"; "flags, then env vars, then the file" reversed).
func (k *checker) orderSwap() {
	for _, cs := range k.cd.sents {
		claim := steps(cs)
		if len(claim) < 2 {
			continue
		}
		for _, s := range k.srcs {
			for _, src := range s.steps {
				if len(src) < 2 {
					continue
				}
				// each claim step's place in the source: the one step it
				// shares at least half its words with
				at := make([]int, len(claim))
				for i, c := range claim {
					at[i] = placeOf(c, src)
				}
				for i := range at {
					for j := i + 1; j < len(at); j++ {
						if at[i] >= 0 && at[j] >= 0 && at[i] > at[j] {
							k.fail(RoleSwap, "the claim puts two steps in the other order than a cited source")
							return
						}
					}
				}
			}
		}
	}
}

// checklistItem is one "[ ] label" or "[x] label" of a text.
type checklistItem struct {
	done  bool
	label map[string]bool
}

// checklistItems reads the checklist items of a text: a box, then its
// label up to the next box or the end of the sentence.
func checklistItems(text string) []checklistItem {
	var out []checklistItem
	for i := 0; i+2 < len(text); i++ {
		if text[i] != '[' || text[i+2] != ']' || !strings.ContainsRune(" xX", rune(text[i+1])) {
			continue
		}
		rest := text[i+3:]
		end := strings.IndexAny(rest, "[.;\n")
		if end < 0 {
			end = len(rest)
		}
		label := map[string]bool{}
		for _, t := range scan(rest[:end]) {
			if t.term != "" {
				label[t.term] = true
			}
		}
		if len(label) > 0 {
			out = append(out, checklistItem{done: text[i+1] != ' ', label: label})
		}
		i += 2
	}
	return out
}

// checklist fails a claim that ticks a checklist item its source leaves
// open, or opens one its source ticked ("[x] descriptor set lifetime
// audit" for "[ ] descriptor set lifetime audit").
func (k *checker) checklist() {
	items := checklistItems(k.claim.Content)
	if len(items) == 0 {
		return
	}
	for _, it := range items {
		for _, s := range k.srcs {
			for _, o := range checklistItems(s.text) {
				if o.done != it.done && share(it.label, o.label) >= 0.75 && share(o.label, it.label) >= 0.75 {
					state := map[bool]string{true: "done", false: "open"}
					k.fail(StatusChange, "a checklist item the sources have %s is %s in the claim", state[o.done], state[it.done])
					return
				}
			}
		}
	}
}

// status checks a blocker's status against the sources about it.
func (k *checker) status() {
	if k.claim.Type != agentmem.TypeBlocker || k.claim.Status == "" {
		return
	}
	about := distinctiveSet(k.claimTerms)
	if len(about) == 0 {
		return
	}
	resolved, openRecord := false, false
	for _, s := range k.srcs {
		if s.Kind == KindMemory && s.Type == agentmem.TypeBlocker {
			// the memory of the blocker: most of the claim is in it, or
			// most of it is in a claim that adds how it was fixed
			if share(about, s.all) >= 0.5 || share(distinctiveSet(s.all), about) >= 0.7 || problemRestated(s, about) {
				if s.Status == agentmem.StatusResolved {
					resolved = true
				}
			}
			continue
		}
		if overlapCount(about, s.all) < 2 && share(about, s.all) < 0.5 {
			continue
		}
		// a record about the blocker: solved if a sentence about it, or
		// one closing "the blocker", says so
		solved := false
		for i, st := range s.d.sents {
			if !st.resolved || st.hedged {
				continue // "seems to fix it", "not confirmed yet": not solved
			}
			text := st.rawLower()
			if pendingFix(text) || i+1 < len(s.d.sents) && pendingFix(s.d.sents[i+1].rawLower()) {
				continue // a fix tried, "not yet rolled out": not solved
			}
			if partialFix(text) {
				continue // "gone on macOS, but iOS still shows it": not solved
			}
			if overlapCount(about, st.terms) > 0 || strings.Contains(text, "blocker") {
				solved = true
			}
		}
		if solved {
			resolved = true
		} else if s.Kind == KindDaily {
			openRecord = true
		}
	}
	switch k.claim.Status {
	case agentmem.StatusResolved:
		if !resolved {
			k.fail(StatusChange, "the blocker is marked resolved, but no cited source says it was solved")
		}
	default:
		if resolved && !openRecord {
			k.fail(StatusChange, "the blocker is marked open, but a cited source says it was solved")
		}
	}
}

// problemRestated reports whether a claim restates the problem a blocker
// memory opens with (its first clause: "/health returned 200 before the
// model loaded"), whatever else it adds about the fix.
func problemRestated(s *source, about map[string]bool) bool {
	if len(s.d.sents) == 0 || len(s.d.sents[0].conjs) == 0 {
		return false
	}
	first := distinctiveSet(s.d.sents[0].conjs[0].ownSet)
	return len(first) >= 3 && share(first, about) >= 0.6
}

// pendingPhrases say a fix is not in place yet.
var pendingPhrases = []string{"not yet", "yet to", "untested", "not tested", "not rolled out", "not merged", "not deployed", "in a quick test",
	"works around", "worked around", "work around", "a workaround", "as a stopgap"}

// partialFix reports whether a sentence that says a problem is gone says
// in the same breath that part of it stays ("gone on macOS, but iOS
// Safari still shows a black screen") or came back ("finished once and
// failed once").
func partialFix(lower string) bool {
	for _, join := range []string{" but ", " and "} {
		i := strings.Index(lower, join)
		if i < 0 {
			continue
		}
		rest := lower[i:]
		if strings.Contains(rest, " still ") || strings.Contains(rest, " failed ") || strings.Contains(rest, " fails ") {
			return true
		}
	}
	return false
}

// triedFix fails a claim that says something fixed a problem when the
// cited sources that speak of it only tried it: "Tried X; the wrong rate
// still appeared", "X might help", "looks fixed, but only tested on two
// boards" do not say X fixed it.
func (k *checker) triedFix() {
	for _, t := range k.cd.toks {
		if attemptWords[t.lower] || t.lower == "try" {
			return // the claim says it was tried
		}
	}
	fixes := false
	for _, s := range k.cd.sents {
		for _, c := range s.conjs {
			if c.negated || c.hedged || c.role == roleRejected {
				continue
			}
			for _, i := range c.toks {
				// "fix" is the verb before what it fixes ("fix the drops")
				w := k.cd.toks[i].lower
				if fixClaimWords[w] || (w == "fix" || w == "resolve" || w == "solve") && i+1 < len(k.cd.toks) && determiners[k.cd.toks[i+1].lower] {
					fixes = true
				}
			}
		}
	}
	if !fixes {
		return
	}
	about := distinctiveSet(k.claimTerms)
	tried := false
	for _, s := range k.srcs {
		if overlapCount(about, s.all) < 2 {
			continue
		}
		if s.Kind == KindMemory && s.Type == agentmem.TypeBlocker && s.Status == agentmem.StatusResolved {
			return
		}
		for _, st := range s.d.sents {
			if overlapCount(about, st.terms) == 0 {
				continue
			}
			text := st.rawLower()
			if (st.resolved || workedRe.MatchString(text) && !notWorkedRe.MatchString(text)) && !st.hedged && !pendingFix(text) {
				return // a source says it was fixed, or that it worked
			}
			first := st.d.toks[st.from].lower
			if attemptWords[first] || st.hedged || pendingFix(text) || strings.Contains(text, "still") || strings.Contains(text, "not enough") {
				tried = true
			}
		}
	}
	if tried {
		k.fail(Modality, "the claim says it fixed the problem; the cited sources only tried it")
	}
}

// fixClaimWords say in a claim that something fixed a problem ("fix"
// alone is often the noun: "the fix was tried").
var fixClaimWords = words("fixes fixed resolves resolved solves solved cures cured")

// workedRe and notWorkedRe find a record saying what it tried worked.
var (
	workedRe    = regexp.MustCompile(`\b(worked|works|helped|did the trick)\b`)
	notWorkedRe = regexp.MustCompile(`\b(not|never|nt|didnt|doesnt|hasnt|barely|partly|partially)\b[^.;]{0,12}\b(worked|works|helped)\b`)
)

// pendingFix reports whether a sentence says its fix is not in place yet.
func pendingFix(lower string) bool {
	for _, p := range pendingPhrases {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
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

// confidence fails a pattern whose confidence exceeds that of the
// patterns it restates.
func (k *checker) confidence() {
	if k.claim.Confidence == nil {
		return
	}
	about := distinctiveSet(k.claimTerms)
	for _, s := range k.srcs {
		if s.Kind != KindMemory || s.Confidence == nil {
			continue
		}
		if share(about, s.all) >= 0.5 && *k.claim.Confidence > *s.Confidence+0.001 {
			k.fail(NumberContext, "confidence %.2f is higher than the %.2f of the pattern it restates", *k.claim.Confidence, *s.Confidence)
			return
		}
	}
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

// plainModifiers describe a subject without naming another entity ("a
// shorter TTL", "the custom renderer"): no role is moved with them.
var plainModifiers = func() map[string]bool {
	m := map[string]bool{}
	for w := range words(`custom new old own short shorter long longer small smaller large larger big bigger
		high higher low lower fast faster slow slower current previous default main separate dedicated extra
		additional whole entire full partial simple basic existing different itself themselves`) {
		m[lemma(w)] = true
	}
	return m
}()

// wholeNegators are the words that negate a whole clause ("nobody has X").
var wholeNegators = words("nobody nothing none neither nor noone")

// addingWords open a clause that adds something ("Adding an index ...").
var addingWords = words("adding added add using enabling installing creating")

// returnWords before an opposite say a return to a state ("back online").
var returnWords = words("back again")

// relationWords relate two things in an order, which a converse states from the other end.
var relationWords = words("before after above below over under older newer earlier later")

// distinctTerms are the distinctive terms of a conjunct, in order.
func distinctTerms(c *conj) []string {
	var out []string
	for j, i := range c.toks {
		t := c.s.d.toks[i]
		if t.term == "" || t.unitWord {
			continue
		}
		if ct := termAt(c.s.d.toks, c.toks, j); ct.distinctive() {
			out = append(out, t.term)
		}
	}
	return out
}

// listItem reports whether a clause restates an item of a list its best
// conjunct v starts: "24 clients on Nomad 1.7.7" for "The cluster runs
// Nomad 1.7.7 with 3 servers and 24 clients", where the conjunct "24
// clients" (w: no verb, no subject) carries what the clause added. v's
// last terms, as many as w has, are v's own item; the rest is the head
// both items share. The clause keeps the head and w's item, drops only
// v's item and takes nothing of it: no item is given another's place.
func listItem(a, v *conj, dropped []cterm, added map[string]bool) bool {
	for _, w := range v.s.conjs {
		if w == v || w.verb >= 0 || len(w.subject) > 0 {
			continue
		}
		wt := distinctTerms(w)
		if !slices.ContainsFunc(wt, func(t string) bool { return added[t] }) {
			continue
		}
		vt := distinctTerms(v)
		if len(wt) >= len(vt) {
			continue
		}
		item := setOf(vt[len(vt)-len(wt):])
		wset := setOf(wt)
		ok := !slices.ContainsFunc(dropped, func(d cterm) bool { return !item[d.key] })
		for _, t := range distinctTerms(a) {
			if item[t] && !wset[t] {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

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

// beyondOnly fails a claim that adds a member to what a cited sentence
// restricts with "only": "billing has been migrated together with
// portal-shell and claims" for "only portal-shell and claims have been
// migrated; billing still uses *ngIf", "read in client components and in
// server/ routes" for "read only in server/ routes".
func (k *checker) beyondOnly() {
	for _, s := range k.srcs {
		for _, o := range s.only {
			for _, cs := range k.cd.sents {
				if restricts(cs) {
					continue // the claim keeps a restriction of its own
				}
				for _, a := range cs.conjs {
					if a.negated || a.hedged && !o.c.hedged && !permission(a) {
						continue
					}
					own := distinctiveSet(a.ownSet)
					if share(o.rest, a.effTerms()) < 0.6 || overlapCount(o.kept, own) == 0 {
						continue
					}
					for t := range own {
						if !o.c.ownSet[t] && !o.kept[t] && !o.rest[t] && s.all[t] && coordinated(a, t, o.kept) {
							k.fail(Negation, "the claim adds %q to what a cited source restricts with \"only\"", t)
							return
						}
					}
				}
			}
		}
	}
}

// onlyScope is a clause's restriction with "only": the terms "only" keeps
// and the rest of the clause.
type onlyScope struct {
	c          *conj
	kept, rest map[string]bool
}

// onlyScopes are the restrictions with "only" of a doc's clauses, read
// once per source.
func onlyScopes(d *doc) []onlyScope {
	var out []onlyScope
	toks := d.toks
	for _, st := range d.sents {
		for _, c := range st.conjs {
			at := -1
			for j, i := range c.toks {
				if toks[i].isWord("only") && !toks[i].code {
					at = j
					break
				}
			}
			if at < 0 || c.negated {
				continue
			}
			// what "only" keeps: up to the verb after it, or the end
			end := len(c.toks)
			for j := at + 1; j < len(c.toks); j++ {
				if t := toks[c.toks[j]]; c.toks[j] == c.verb || auxiliaries[t.lower] || j > at+1 && t.kind == tkWord && !t.code && (strings.HasSuffix(t.lower, "ies") || verbLemmas[t.term] && strings.HasSuffix(t.lower, "s") && !strings.HasSuffix(t.lower, "ss")) {
					end = j
					break
				}
			}
			kept, rest := map[string]bool{}, map[string]bool{}
			for j, i := range c.toks {
				if t := toks[i]; t.term != "" && !genericLemmas[t.term] {
					if j > at && j < end {
						kept[t.term] = true
					} else {
						rest[t.term] = true
					}
				}
			}
			addAll(rest, distinctiveSet(setOf(c.inherited)))
			if len(kept) > 0 && len(rest) >= 2 {
				out = append(out, onlyScope{c: c, kept: kept, rest: rest})
			}
		}
	}
	return out
}

// restrictWords restrict what a sentence says to some of its kind.
var restrictWords = words("only restricted restrict restricts limited limit limits exclusively solely just except unless")

// restricts reports whether a sentence has a word of restriction.
func restricts(st *sent) bool {
	toks := st.d.toks
	for i := st.from; i < st.to; i++ {
		if restrictWords[toks[i].lower] && !toks[i].code {
			return true
		}
	}
	return false
}

// coordinatingWords join the members of a list ("X together with Y",
// "both X and Y").
var coordinatingWords = words("and or with both plus also together well")

// coordinated reports whether the clause joins the term t to one of the
// terms of set as members of one list: a coordinating word between them,
// at most sixteen tokens apart.
func coordinated(a *conj, t string, set map[string]bool) bool {
	toks := a.s.d.toks
	var at, others []int
	for j, i := range a.toks {
		switch term := toks[i].term; {
		case term == t:
			at = append(at, j)
		case set[term]:
			others = append(others, j)
		}
	}
	for _, x := range at {
		for _, y := range others {
			lo, hi := min(x, y), max(x, y)
			if hi-lo > 16 {
				continue
			}
			for j := lo + 1; j < hi; j++ {
				if coordinatingWords[toks[a.toks[j]].lower] {
					return true
				}
			}
		}
	}
	return false
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

// permission reports whether the only hedge of a clause is "may", which
// grants a permission ("support staff may issue refunds").
func permission(a *conj) bool {
	may := false
	for _, i := range a.toks {
		switch w := a.s.d.toks[i].lower; {
		case w == "may":
			may = true
		case hedgeWords[w] || hedgeStarts[w]:
			return false
		}
	}
	return may
}
