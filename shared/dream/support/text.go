package support

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A text is read in three layers: tokens (words, numbers, punctuation;
// scan.go), sentences (split at full stops, semicolons and line breaks)
// and, within a sentence, conjuncts: the clauses and coordinated parts a
// fact is made of ("A does X, and B does Y"; "X because Y"; "X, not Y").
// Each conjunct knows its subject, its verb, which of its terms are
// negated, whether it is hedged and what role a connective gives it (a
// cause, an effect, a rejected alternative).

// doc is an analysed text.
type doc struct {
	source bool
	raw    string
	toks   []token
	sents  []*sent
	// anchors caches numberAnchors (read by the number checks and by
	// exchangedNumbers)
	anchors  []numberAnchor
	anchored bool
}

// sent is one sentence of a doc.
type sent struct {
	d        *doc
	from, to int // token range
	idx      int // position in its doc
	conjs    []*conj
	terms    map[string]bool // every term of the sentence, compound parts included
	plain    map[string]bool // its words' terms, compounds whole (no parts)
	hedged   bool
	// hedgeAll is set when the whole sentence is uncertain: a question,
	// or followed by "not confirmed yet".
	hedgeAll bool
	decision bool
	// rootCause is set for "Root cause: X" and "the cause was X": the
	// sentence is the cause of the sentences before it.
	rootCause bool
	resolved  bool // says a problem is solved
	open      bool // says a problem persists
	links     []link
	// counterNeg are terms the sentence negates by implication: X in
	// "needs X or Y", the condition before "Otherwise, Y".
	counterNeg []string
}

// role is what a connective makes of a conjunct.
type role uint8

const (
	rolePlain    role = iota
	roleCause         // because, since, due to, so that, (why: ...)
	roleEffect        // so, therefore, which is why
	roleRejected      // , not X; instead of X; rather than X
	roleParen         // (...)
)

// conj is one conjunct of a sentence.
type conj struct {
	s      *sent
	toks   []int // indexes into doc.toks, in order
	marker string
	role   role
	label  string // "why", "root cause", ... when the conjunct starts with "Label:"
	why    bool   // a later clause of a "(why: ...)" rationale

	own       []string // its terms, in order (compound parts not included)
	ownSet    map[string]bool
	inherited []string // subject (and verb) carried over from the conjunct before
	// context is every term of the conjunct before, for a conjunct
	// without a verb ("24 partitions and 3-day retention"): the words
	// around its numbers.
	context          []string
	fromSide, toSide map[string]bool // terms after "from" and after its "to"
	subject          []string
	anaphoric        bool // starts with a pronoun
	speaker          bool // its subject is "we", "I" or "you": explicit, but no term
	verb             int  // token index of its verb, -1 when none
	verbTerm         string
	headVerb         string // its verb, or the one it borrows ("and Linux" borrows "comes")
	passive          bool
	left             []string // terms before the verb
	right            []string // terms after the verb

	eff     map[string]bool // effTerms, once computed
	neg     map[string]bool // terms in a negation's scope
	negHead string          // the first term negated: what the negation is about
	pos     map[string]bool // terms outside any
	negated bool
	// lacks is set when the negation is a word of lacking ("X is missing
	// from Y", "Y lacks X"): it relates two sides, either of which may
	// come first
	lacks  bool
	hedged bool
	// negPronoun is set for a negation of a pronoun only ("without it")
	negPronoun bool
	// failHead is the verb after "fails to" ("fails to sync": sync), which
	// a claim may not state as done
	failHead string
}

// link is a causal link stated by a text: the terms of the cause and of
// the effect, and the other terms of its sentence not on the cause side
// (an effect may be described by any of them).
type link struct {
	cause, effect map[string]bool
	scope         map[string]bool
	// so: an effect after "so", which may also be a purpose ("X, so the
	// layout matches"); why: a reason given in parentheses ("(why: ...)"),
	// which may be a purpose too
	so, why bool
	// hedged: the cause itself is only supposed ("possibly because X",
	// "probably due to X", "X may be the cause")
	hedged bool
	// fixed: a record's "Fixed X: Y", Y explaining the problem X, which
	// a cited blocker may describe at more length
	fixed bool
}

func (c *conj) effective() map[string]bool {
	m := make(map[string]bool, len(c.own)+len(c.inherited))
	for _, t := range c.own {
		m[t] = true
	}
	for _, t := range c.inherited {
		m[t] = true
	}
	return m
}

// analyse reads a claim into a doc.
func analyse(text string) *doc { return analyseAs(text, false) }

// analyseAs reads text into a doc; a source also reads "comes from" and
// "stems from" as naming a cause (a claim saying so is not held to it).
func analyseAs(text string, source bool) *doc {
	d := &doc{raw: text, toks: scan(text), source: source}
	start := 0
	flush := func(end int) {
		if end > start {
			s := &sent{d: d, from: start, to: end, idx: len(d.sents)}
			if s.analyse() {
				d.sents = append(d.sents, s)
			}
		}
		start = end + 1
	}
	depth := 0
	for k, t := range d.toks {
		if t.kind != tkPunct {
			continue
		}
		switch t.raw {
		case "(", "[":
			depth++
		case ")", "]":
			depth = max(0, depth-1)
		case ";":
			// "(why: A; B)": a rationale's clauses stay in its parenthesis
			if depth == 0 {
				flush(k)
			}
		case "\n", "!", "?":
			flush(k)
			depth = 0
		case ":":
			// "do X: Y does Z" (not a "Label:" at the sentence's start,
			// nor "(why: ...)")
			if depth == 0 && t.spaceAfter && k-start > 4 && hasVerbAhead(d.toks, k+1, min(len(d.toks), k+9)) && !nextIsNumber(d.toks, k) {
				flush(k)
			}
		case ".":
			if t.spaceAfter && !abbreviationEnd(d.toks, k) {
				flush(k)
				depth = 0
			}
		}
	}
	flush(len(d.toks))
	// "...; streaming the parse keeps it under 20 ms": it is the subject
	// of the sentence before
	for i := 1; i < len(d.sents); i++ {
		s, p := d.sents[i], d.sents[i-1]
		if len(s.conjs) == 0 || len(p.conjs) == 0 {
			continue
		}
		c, pc := s.conjs[0], p.conjs[len(p.conjs)-1]
		if pc.role == roleParen {
			continue
		}
		ante := pc.subject
		if len(ante) == 0 {
			ante = pc.inherited
		}
		if len(ante) == 0 {
			ante = pc.firstNouns()
		}
		if c.hasObjectPronoun() || c.anaphoric {
			c.inherited = append(c.inherited, ante...)
			c.context = append(c.context, ante...)
			c.eff = nil
		}
	}
	// "X runs against the stack; unit tests run without it": the
	// negation is about the object of the clause before
	var prev *conj
	for _, s := range d.sents {
		for _, c := range s.conjs {
			if c.role == roleParen {
				continue
			}
			if c.negPronoun && prev != nil {
				for _, t := range nonGeneric(prev.right) {
					c.neg[t] = true
					if c.negHead == "" {
						c.negHead = t
					}
				}
				c.eff = nil
			}
			prev = c
		}
	}
	// "Otherwise, Y" negates the condition of the sentence before.
	for i := 1; i < len(d.sents); i++ {
		s, p := d.sents[i], d.sents[i-1]
		if !d.toks[s.from].isWord("otherwise") {
			continue
		}
		after := false
		for k := p.from; k < p.to; k++ {
			t := d.toks[k]
			if t.isWord("if") || t.isWord("when") || t.isWord("unless") {
				after = true
				continue
			}
			if after && t.term != "" {
				s.counterNeg = append(s.counterNeg, t.term)
			}
		}
	}
	// A sentence that is only a hedge ("not confirmed yet") hedges the
	// one before it.
	for i := 1; i < len(d.sents); i++ {
		if s := d.sents[i]; s.hedged && len(s.terms) <= 1 {
			p := d.sents[i-1]
			p.hedged, p.hedgeAll = true, true
			for _, c := range p.conjs {
				c.hedged = true
			}
		}
	}
	return d
}

func nextIsNumber(toks []token, k int) bool {
	return k+1 < len(toks) && toks[k+1].kind == tkNumber
}

// clausePrepositions may open, after a comma, a clause of its own ("...,
// under the 2 the ops team accepts").
var clausePrepositions = words("with within under over at for in on using via after before")

// markers that open a conjunct after a comma, and without one.
var (
	commaMarkers = words(`and but or while whereas so which where then not never yet although though because since instead rather nor only`)
	bareMarkers  = words(`but whereas because`)
	// phraseMarkers open a conjunct wherever they stand; the value is its role.
	phraseMarkers = []struct {
		words []string
		role  role
	}{
		{[]string{"instead", "of"}, roleRejected},
		{[]string{"rather", "than"}, roleRejected},
		// "SQLite was chosen over Fly Postgres"
		{[]string{"chosen", "over"}, roleRejected},
		{[]string{"preferred", "over"}, roleRejected},
		{[]string{"picked", "over"}, roleRejected},
		{[]string{"selected", "over"}, roleRejected},
		{[]string{"favored", "over"}, roleRejected},
		{[]string{"favoured", "over"}, roleRejected},
		{[]string{"because", "of"}, roleCause},
		{[]string{"due", "to"}, roleCause},
		{[]string{"caused", "by"}, roleCause},
		{[]string{"so", "that"}, roleCause},
		{[]string{"in", "order", "to"}, roleCause},
		{[]string{"to", "avoid"}, roleCause},
		{[]string{"to", "prevent"}, roleCause},
		{[]string{"so", "as", "to"}, roleCause},
		{[]string{"thanks", "to"}, roleCause},
		{[]string{"owing", "to"}, roleCause},
		{[]string{"which", "is", "why"}, roleEffect},
		{[]string{"that", "is", "why"}, roleEffect},
		{[]string{"as", "a", "result"}, roleEffect},
		{[]string{"therefore"}, roleEffect},
		{[]string{"thus"}, roleEffect},
		{[]string{"hence"}, roleEffect},
		{[]string{"consequently"}, roleEffect},
	}
)

func markerRole(w string) role {
	switch w {
	case "because", "since":
		return roleCause
	case "so":
		return roleEffect
	case "not", "never", "instead", "rather", "nor":
		return roleRejected
	}
	return rolePlain
}

// analyse splits the sentence into conjuncts and reads them; it reports
// whether the sentence has any word.
func (s *sent) analyse() bool {
	toks := s.d.toks
	s.terms = map[string]bool{}
	s.plain = map[string]bool{}
	hasWord := false
	for k := s.from; k < s.to; k++ {
		t := &toks[k]
		if t.kind == tkPunct {
			continue
		}
		hasWord = true
		if t.kind == tkNumber {
			s.terms["#"+t.value] = true
		}
		if t.term != "" {
			s.terms[t.term] = true
			s.plain[t.term] = true
			for _, p := range t.parts {
				s.terms[p] = true
			}
		}
	}
	if !hasWord {
		return false
	}
	lower := s.lowerText()
	s.hedgeAll = s.to < len(toks) && toks[s.to].raw == "?"
	s.hedged = s.hedgeAll || hasHedge(lower)
	for k := s.from; k < s.to; k++ {
		if toks[k].kind == tkWord && decisionWords[toks[k].lower] {
			s.decision = true
		}
	}
	s.resolved, s.open = statusCues(s)
	s.split()
	for i, c := range s.conjs {
		c.read(i)
	}
	// "On the CI runners, never run X": a short leading phrase of place
	// is the setting of the negated clause after it, which is no rejected
	// alternative
	for i := 0; i+1 < len(s.conjs); i++ {
		c, n := s.conjs[i], s.conjs[i+1]
		// (a short one: its "verb" is a plural noun, "on the staging hosts")
		if i != 0 || len(c.toks) == 0 || len(c.toks) > 5 || !placePrepositions[toks[c.toks[0]].lower] ||
			n.role != roleRejected || (n.marker != "never" && n.marker != "not") {
			continue
		}
		n.role = rolePlain
		for t := range c.pos {
			c.neg[t] = true
		}
		c.pos = map[string]bool{}
		c.negated = len(c.neg) > 0
	}
	// "possibly because X": a hedge alone hedges what follows; "may be
	// caused by X": the cause of a hedged effect is hedged too
	for i := 0; i+1 < len(s.conjs); i++ {
		if c := s.conjs[i]; c.hedged && (len(c.own) == 0 || s.conjs[i+1].role == roleCause) {
			s.conjs[i+1].hedged = true
			if s.conjs[i+1].role == roleCause && !s.hedgeAll && c.hedgedOnlyAtEnd() {
				// "X fails, probably because Y": Y is supposed, X is not
				c.hedged = false
			}
		}
	}
	s.inherit()
	for _, c := range s.conjs {
		c.readFromTo()
	}
	s.buildLinks()
	return true
}

// rawLower is the sentence as written, in lower case.
func (s *sent) rawLower() string {
	return strings.ToLower(s.d.raw[s.d.toks[s.from].start:s.d.toks[s.to-1].end])
}

// lowerText is the sentence's words, lower case, one space apart, with
// the neutral phrases ("no more than") blanked.
func (s *sent) lowerText() string {
	var b strings.Builder
	b.WriteByte(' ')
	for k := s.from; k < s.to; k++ {
		t := &s.d.toks[k]
		b.WriteString(t.lower)
		b.WriteByte(' ')
	}
	return blankNeutral(b.String())
}

func blankNeutral(s string) string {
	if !strings.Contains(s, " no ") && !strings.Contains(s, " not ") && !strings.Contains(s, " or not ") {
		return s
	}
	for _, p := range neutralPhrases {
		s = strings.ReplaceAll(s, " "+p+" ", " "+strings.Repeat("_", len(p))+" ")
	}
	return s
}

func hasHedge(lower string) bool {
	fields := strings.Fields(lower)
	anyHedge := false
	for _, w := range fields {
		if hedgeWords[w] || hedgeStarts[w] {
			anyHedge = true
			break
		}
	}
	if !anyHedge {
		return false
	}
	for _, p := range hedgePhrases {
		if strings.Contains(lower, " "+p+" ") {
			return true
		}
	}
	for i, w := range fields {
		if !hedgeWords[w] {
			continue
		}
		// "could not reproduce" is an ability, not a doubt.
		if (w == "could" || w == "would") && i+1 < len(fields) && (fields[i+1] == "not" || fields[i+1] == "never") {
			continue
		}
		// "appears only in the batched test": it shows up, no doubt
		if (w == "appear" || w == "appears" || w == "appeared") && i+1 < len(fields) && fields[i+1] != "to" && fields[i+1] != "that" && !isAdjectiveLike(fields[i+1]) {
			continue
		}
		if (w == "looks" || w == "looked") && i+1 < len(fields) && fields[i+1] != "like" && !isAdjectiveLike(fields[i+1]) {
			continue
		}
		// "in May", "May 2024": the month
		if w == "may" && (i > 0 && monthLeads[fields[i-1]] || i+1 < len(fields) && len(fields[i+1]) > 0 && fields[i+1][0] >= '0' && fields[i+1][0] <= '9') {
			continue
		}
		// "only the billing team may export", "may only run": a
		// permission, not a doubt
		if w == "may" && (i+1 < len(fields) && fields[i+1] == "only" || slices.Contains(fields[:i], "only")) {
			continue
		}
		return true
	}
	return false
}

// hedgeStarts are the first words of the hedge phrases.
var hedgeStarts = func() wordSet {
	set := wordSet{}
	for _, p := range hedgePhrases {
		set[strings.Fields(p)[0]] = true
	}
	return set
}()

func isAdjectiveLike(w string) bool {
	return strings.HasSuffix(w, "er") || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed") ||
		adjectiveWords[w]
}

// statusCues reads whether the sentence says a problem is solved or
// persists.
func statusCues(s *sent) (resolved, open bool) {
	lower := s.lowerText()
	for _, p := range resolvedPhrases {
		if strings.Contains(lower, " "+p+" ") {
			resolved = true
		}
	}
	fields := strings.Fields(lower)
	// "Tried X: ...": an attempt; "works but is limited to 540p": in part
	partial := partialCount(fields) || len(fields) > 0 && attemptWords[fields[0]]
	for i, w := range fields {
		// nor "before closing it", "until it is closed": not yet
		pending := i > 0 && pendingWords[fields[i-1]] || i > 1 && pendingWords[fields[i-2]] ||
			// "while the web client works fine": another thing works
			slices.Contains(fields[:i], "while") || slices.Contains(fields[:i], "whereas")
		if resolvedWords[w] && !partial && !pending && !negatedBefore(fields, i) && !slices.Contains(fields[i+1:], "but") {
			// not "not enough to call it fixed", "isn't fixed", nor "7 of
			// 10 updates finished"
			resolved = true
		}
		if openWords[w] {
			open = true
		}
	}
	raw := s.d.raw[s.d.toks[s.from].start:s.d.toks[s.to-1].end]
	if strings.Contains(raw, "[x]") {
		resolved = true
	}
	// "Logo fix: X was never fetched; embedded it instead": a record of
	// the fix (not "possible fix:", "attempted fix:")
	if before, _, ok := strings.Cut(strings.ToLower(raw), " fix:"); ok || strings.HasPrefix(strings.ToLower(raw), "fix:") {
		f := strings.Fields(before)
		if len(f) == 0 || !tentativeFix[f[len(f)-1]] {
			resolved = true
		}
	}
	return resolved, open
}

// keptFrom reports whether a verb of preventing stands in the six words
// before ("keep a stuck slot from filling", "prevents the job from
// running").
func keptFrom(before []string) bool {
	for j := len(before) - 1; j >= 0 && j >= len(before)-6; j-- {
		if preventVerbs[before[j]] {
			return true
		}
	}
	return false
}

// negatedBefore reports whether a negation stands in the five words
// before position i ("not enough to call it fixed", "is not fixed yet").
func negatedBefore(fields []string, i int) bool {
	for j := max(0, i-5); j < i; j++ {
		if negationWords[fields[j]] || fields[j] == "nt" {
			return true
		}
	}
	return false
}

// partialCount reports whether the words give a part of a whole, "7 of
// 10": a success of some, not the problem solved.
func partialCount(fields []string) bool {
	for i := 1; i+1 < len(fields); i++ {
		if fields[i] != "of" {
			continue
		}
		a, err1 := strconv.Atoi(fields[i-1])
		b, err2 := strconv.Atoi(fields[i+1])
		if err1 == nil && err2 == nil && a < b {
			return true
		}
	}
	return false
}

// tentativeFix are the words that make "X fix:" a fix not yet made.
var tentativeFix = words("possible tentative attempted proposed candidate potential partial planned suggested")

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

// inherit carries subjects over: a conjunct without a subject of its own
// takes the previous one's; one without a verb takes its subject and
// verb; an object pronoun takes the previous conjunct's object.
func (s *sent) inherit() {
	var prev *conj
	for _, c := range s.conjs {
		c.headVerb = c.verbTerm
	}
	var beforeRelative *conj
	for _, c := range s.conjs {
		if c.role == roleParen {
			continue
		}
		if c.marker == "resume" && beforeRelative != nil {
			c.inherited = append(append([]string{}, beforeRelative.subject...), beforeRelative.inherited...)
			prev = c
			continue
		}
		if c.marker == "which" || c.marker == "who" {
			beforeRelative = prev
		}
		// ", which forwards them": which is the noun before it
		if prev != nil && (c.marker == "which" || c.marker == "who" || c.marker == "where") {
			ante := prev.right
			if len(ante) > 3 {
				ante = ante[len(ante)-3:]
			}
			if len(ante) == 0 {
				ante = prev.subject
			}
			c.inherited = append(c.inherited, ante...)
			if c.hasObjectPronoun() {
				c.inherited = append(c.inherited, prev.subject...)
				c.context = append(c.context, prev.subject...)
			}
			prev = c
			continue
		}
		if prev != nil {
			head := append(append([]string{}, prev.subject...), prev.inherited...)
			switch {
			case c.speaker:
			case c.verb < 0:
				if prev.headVerb != "" {
					head = append(head, prev.headVerb)
					c.headVerb = prev.headVerb
				}
				c.inherited = head
				c.context = append(append([]string{}, prev.own...), prev.context...)
			case len(c.subject) == 0:
				c.inherited = head
			}
			if c.hasObjectPronoun() {
				c.inherited = append(c.inherited, prev.right...)
				c.inherited = append(c.inherited, prev.subject...)
				c.context = append(c.context, prev.right...)
			}
			// "needs X or Y": Y is what happens without X
			if c.marker == "or" && (containsTerm([]string{prev.verbTerm}, lemma("need")) || prev.has("must") || prev.has("require") || prev.has("requires")) {
				s.counterNeg = append(s.counterNeg, prev.right...)
			}
		}
		prev = c
	}
}

// hasValue reports whether the conjunct has the number "#value".
func (c *conj) hasValue(key string) bool {
	for _, k := range c.toks {
		if t := c.s.d.toks[k]; t.kind == tkNumber && "#"+t.value == key {
			return true
		}
	}
	return false
}

// hasNumber reports whether the conjunct has a number.
func (c *conj) hasNumber() bool {
	for _, k := range c.toks {
		if c.s.d.toks[k].kind == tkNumber {
			return true
		}
	}
	return false
}

// firstNouns are the terms before the first verb-like word ("A Worker hit
// the limit": worker).
func (c *conj) firstNouns() []string {
	var out []string
	for _, k := range c.toks {
		t := c.s.d.toks[k]
		if t.term == "" {
			continue
		}
		if verbLemmas[t.term] || irregular[t.lower] != "" {
			break
		}
		out = append(out, t.term)
	}
	return out
}

// tail is the conjunct's terms after its last comma (all of them when it
// has none).
func (c *conj) tail() map[string]bool {
	toks := c.s.d.toks
	from := 0
	for j, k := range c.toks {
		if toks[k].raw == "," {
			from = j + 1
		}
	}
	m := map[string]bool{}
	for _, k := range c.toks[from:] {
		if t := toks[k].term; t != "" {
			m[t] = true
		}
	}
	if len(m) == 0 {
		return setOf(c.own)
	}
	return m
}

// has reports whether the conjunct has the word w.
func (c *conj) has(w string) bool {
	for _, k := range c.toks {
		if c.s.d.toks[k].lower == w {
			return true
		}
	}
	return false
}

// readFromTo finds "from X to Y" in the conjunct, and the same change
// said with a verb of replacing: "swapped X for Y", "replaced X with Y",
// "X was replaced by Y", "Y replaces X".
func (c *conj) readFromTo() {
	toks := c.s.d.toks
	side := 0
	// toWord is the word that opens the "to" side: "to", or "for" after
	// a verb of swapping, "with" or "by" after a verb of replacing
	toWord := map[string]bool{}
	replaceAt := -1 // the position in c.toks of "replace(s|d)" with no "with" or "by" yet
	for i, k := range c.toks {
		t := toks[k]
		switch {
		case t.isWord("from") || swapVerbs[t.lower] || replaceVerbs[t.lower] || renameVerbs[t.lower]:
			side = 1
			c.fromSide, c.toSide = map[string]bool{}, map[string]bool{}
			switch {
			case t.isWord("from"):
				toWord = map[string]bool{"to": true}
			case renameVerbs[t.lower]:
				// "renamed X to Y"; "X was renamed to Y": X is the subject
				toWord = map[string]bool{"to": true}
				if i > 0 && beForms[toks[c.toks[i-1]].lower] {
					for _, kk := range c.toks[:i-1] {
						if tt := toks[kk]; tt.term != "" {
							c.fromSide[tt.term] = true
						}
					}
				}
			case swapVerbs[t.lower]:
				toWord = map[string]bool{"for": true}
			default:
				toWord = map[string]bool{"with": true, "by": true}
				replaceAt = i
				if i > 0 && beForms[toks[c.toks[i-1]].lower] {
					// "X was replaced by Y": X is the subject
					for _, kk := range c.toks[:i-1] {
						if tt := toks[kk]; tt.term != "" {
							c.fromSide[tt.term] = true
						}
					}
					side = 2
					replaceAt = -1
					toWord = nil
				}
			}
			continue
		case side == 1 && toWord[t.lower]:
			side, replaceAt = 2, -1
			continue
		case side == 2 && toWord == nil && t.isWord("by"):
			toWord = map[string]bool{} // the side after "was replaced by" starts here
			c.toSide = map[string]bool{}
			continue
		case t.kind == tkPunct:
			if side == 2 {
				side = 0
			}
			continue
		}
		term := t.term
		if t.kind == tkNumber {
			term = "#" + t.value // "from 1 in 10 reloads to 1 in 40"
		}
		if term == "" {
			continue
		}
		switch side {
		case 1:
			c.fromSide[term] = true
		case 2:
			if toWord != nil {
				c.toSide[term] = true
			}
		}
	}
	if c.fromSide == nil {
		// "52 min → 19 min" (the arrow read as "to"): two numbers
		for j, k := range c.toks {
			if toks[k].kind != tkNumber {
				continue
			}
			n := j + 1
			for n < len(c.toks) && toks[c.toks[n]].unitWord {
				n++
			}
			if n+1 < len(c.toks) && toks[c.toks[n]].isWord("to") && toks[c.toks[n+1]].kind == tkNumber {
				c.fromSide = map[string]bool{"#" + toks[k].value: true}
				c.toSide = map[string]bool{"#" + toks[c.toks[n+1]].value: true}
				break
			}
		}
	}
	if replaceAt >= 0 {
		// "Y replaces X": the subject is the new side, the object the old
		c.fromSide, c.toSide = map[string]bool{}, map[string]bool{}
		for i, k := range c.toks {
			if t := toks[k]; t.term != "" && i != replaceAt {
				if i < replaceAt {
					c.toSide[t.term] = true
				} else {
					c.fromSide[t.term] = true
				}
			}
		}
	}
	if len(c.toSide) == 0 || len(c.fromSide) == 0 && replaceAt >= 0 {
		c.fromSide, c.toSide = nil, nil
	}
}

// swapVerbs give up the thing after them for the thing after "for"
// ("swapped encoding/json for protojson").
var swapVerbs = words("swap swaps swapped swapping exchange exchanges exchanged exchanging trade trades traded trading")

// replaceVerbs give up the thing after them for the thing after "with"
// or "by" ("replaced the cron job with a queue worker").
var replaceVerbs = words("replace replaces replaced replacing")

func (c *conj) hasObjectPronoun() bool {
	toks := c.s.d.toks
	for _, k := range c.toks {
		if k > c.verb && c.verb >= 0 && (toks[k].isWord("them") || toks[k].isWord("it")) {
			return true
		}
	}
	return false
}

// buildLinks records the causal links the sentence states.
func (s *sent) buildLinks() {
	defer func() {
		for i := range s.links {
			l := &s.links[i]
			l.scope = map[string]bool{}
			for t := range s.terms {
				if !l.cause[t] {
					l.scope[t] = true
				}
			}
		}
	}()
	if s.d.source {
		s.fixedLink()
	}
	for i, c := range s.conjs {
		switch c.role {
		case roleCause:
			cause := setOf(c.own)
			// "because they start SQL Server and the Service Bus emulator":
			// in a source, a coordinated part with no verb of its own is
			// the cause's too
			for _, n := range s.conjs[i+1:] {
				if !s.d.source {
					break
				}
				if n.role != rolePlain || n.verb >= 0 || (n.marker != "and" && n.marker != "or") {
					break
				}
				addAll(cause, setOf(n.own))
			}
			effect := map[string]bool{}
			// what a cause explains: the clause right before it (from its
			// last comma: "X, using Y since Z" explains using Y)
			for j := i - 1; j >= 0; j-- {
				if s.conjs[j].role == roleCause || s.conjs[j].role == roleParen {
					continue
				}
				addAll(effect, s.conjs[j].tail())
				if len(effect) == 0 {
					for _, t := range s.conjs[j].inherited {
						effect[t] = true
					}
				}
				break
			}
			if len(effect) == 0 {
				for j := i + 1; j < len(s.conjs); j++ {
					addAll(effect, s.conjs[j].effective())
				}
			}
			s.links = append(s.links, link{cause: cause, effect: effect, why: c.marker == "(" || c.why, hedged: c.hedged})
		case roleEffect:
			cause := map[string]bool{}
			for j := i - 1; j >= 0; j-- {
				addAll(cause, setOf(s.conjs[j].own))
				if m := s.conjs[j].marker; m == "but" || m == "however" || m == "although" || m == "though" || m == "yet" {
					break
				}
			}
			effect := map[string]bool{}
			for j := i; j < len(s.conjs); j++ {
				if j > i && s.conjs[j].role != rolePlain {
					break
				}
				addAll(effect, s.conjs[j].effective())
			}
			s.links = append(s.links, link{cause: cause, effect: effect, so: c.marker == "so"})
		}
		// "X causes Y", "X leads to Y"
		if c.verb >= 0 && causalVerb(s.d.toks, c.verb) {
			s.links = append(s.links, link{cause: setOf(c.left), effect: setOf(c.right), hedged: c.hedged})
		}
		// in a source, "X comes from Y" names a cause too
		if s.d.source {
			s.fromLinks(c)
		}
		// "the cause was X"
		if c.verb >= 0 && beForms[s.d.toks[c.verb].lower] && containsTerm(c.left, lemma("cause")) {
			s.rootCause = true
		}
	}
}

// fixedLink records a record's "Fixed the OTA rollback: the app never
// called X" as the explanation after the colon causing the problem
// before it, up to a semicolon or a consequence ("so ...").
func (s *sent) fixedLink() {
	if len(s.conjs) < 2 {
		return
	}
	toks := s.d.toks
	c0 := s.conjs[0]
	if len(c0.toks) < 2 || !fixedWords[toks[c0.toks[0]].lower] && !explainedWords[toks[c0.toks[0]].lower] {
		return
	}
	if end := c0.toks[len(c0.toks)-1] + 1; end >= s.to || toks[end].raw != ":" {
		return
	}
	effect := setOf(c0.own)
	delete(effect, toks[c0.toks[0]].term)
	cause := map[string]bool{}
	for j, c := range s.conjs[1:] {
		if j > 0 && (c.role != rolePlain || c.toks[0] > 0 && toks[c.toks[0]-1].raw == ";") {
			break
		}
		addAll(cause, setOf(c.own))
	}
	if len(effect) > 0 && len(cause) > 0 {
		s.links = append(s.links, link{cause: cause, effect: effect, fixed: true})
	}
}

// fixedWords start a record's sentence that names a problem solved.
var fixedWords = words("fixed resolved solved")

// explainedWords start a record's sentence that names a problem and,
// after a colon, what causes it ("Found the memory growth: a new client
// was created per upload").
var explainedWords = words("found traced diagnosed explained")

// fromLinks records "X comes (stems, results) from Y" as Y causing X.
func (s *sent) fromLinks(c *conj) {
	toks := s.d.toks
	for j := 0; j+1 < len(c.toks); j++ {
		w := toks[c.toks[j]].lower
		switch w {
		case "come", "comes", "came", "stem", "stems", "stemmed", "result", "results", "resulted":
		default:
			continue
		}
		if !toks[c.toks[j+1]].isWord("from") {
			continue
		}
		if j > 0 && (modalWords[toks[c.toks[j-1]].lower] || toks[c.toks[j-1]].isWord("to")) {
			continue // "data must come from the load functions": where it is taken from
		}
		effect, cause := map[string]bool{}, map[string]bool{}
		for i, k := range c.toks {
			if t := toks[k].term; t != "" {
				if i < j {
					effect[t] = true
				} else if i > j+1 {
					cause[t] = true
				}
			}
		}
		for _, t := range c.inherited {
			effect[t] = true
		}
		s.links = append(s.links, link{cause: cause, effect: effect})
		return
	}
}

func causalVerb(toks []token, k int) bool {
	switch toks[k].lower {
	case "causes", "caused", "cause", "leads", "led", "results", "resulted", "triggers", "triggered", "breaks", "broke":
		// "caused by" names the cause after it; "the alert triggers when
		// lag stays high", "the build broke on Monday": no object, no link
		return !(k+1 < len(toks) && (toks[k+1].isWord("by") || toks[k+1].kind == tkWord && timePrepositions[toks[k+1].lower]))
	}
	return false
}

func containsTerm(ts []string, t string) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func setOf(ts []string) map[string]bool {
	m := make(map[string]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

func addAll(dst, src map[string]bool) {
	for t := range src {
		dst[t] = true
	}
}

// sentencePrepositions start a phrase that may speak of a whole sentence.
var sentencePrepositions = words(`for on in at during when across`)

// lackWords negate a relation between two sides rather than one side.
var lackWords = words(`lack lacks lacked lacking missing absent forget forgets forgot forgetting omit omits omitted omitting`)

// stoppedWords are the participles of stopping: in the passive ("is
// stopped") they negate the subject.
var stoppedWords = words(`stopped halted blocked prevented`)

// passiveBe are the forms of "be" that make the participle after them
// passive.
var passiveBe = words(`is are was were be been`)

// passiveAux make the participle after them passive: "be", or "get".
var passiveAux = union(passiveBe, words(`get gets got`))

// passiveLeads before a participle make it part of the same phrase.
var passiveLeads = words(`being been having getting`)

// adjectiveWords are adjectives a hedge verb may take ("looks fine").
var adjectiveWords = words("good bad fine ok okay right wrong broken stable flaky slow fast correct worse better")

// attemptWords open a sentence about an attempt ("Tried X: ...").
var attemptWords = words("tried trying attempted tested")

// pendingWords put a resolution in the future ("before closing it").
var pendingWords = words("before until pending")

// preventVerbs keep something from happening ("keep X from filling").
var preventVerbs = words("keep keeps kept keeping prevent prevents prevented preventing block blocks blocked blocking protect protects protected protecting")

// sinceTimes after "since" make it a time ("since Monday").
var sinceTimes = words("then last yesterday monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december the")

// pronounWords stand for what a clause before named.
var pronounWords = words("it them this that")

// nothingWords negate by naming no thing ("nothing from X is sent").
var nothingWords = words("nothing nobody none neither noone no")

// negatedWord reports whether the conjunct so far has a negation word.
func (c *conj) negatedWord() bool {
	for _, k := range c.toks {
		if negationWords[c.s.d.toks[k].lower] {
			return true
		}
	}
	return false
}

// imperativeVerbs open a command of their own after a comma ("never edit
// an applied migration, add a new one").
var imperativeVerbs = words("add use run create write keep set pass call put make open start move")

// intransitiveStops are verbs of stopping said of their subject.
var intransitiveStops = words("stops stopped halts halted ceases ceased")

// timePrepositions open a phrase of time or condition after a verb, one
// that takes no object there ("stops after some hours", "triggers when
// lag stays high", "broke on Monday").
var timePrepositions = words("after when whenever once if until during at on while within")

// renameVerbs give something a new name after "to".
var renameVerbs = words("renamed rename renames renaming")
