package support

import (
	"slices"
	"strconv"
	"strings"
)

// A text is read in three layers: tokens (words, numbers, punctuation;
// scan.go), sentences (split at full stops, semicolons and line breaks)
// and, within a sentence, conjuncts: the clauses and coordinated parts a
// fact is made of ("A does X, and B does Y"; "X because Y"; "X, not Y").
// Each conjunct knows its subject, its verb, which of its terms are
// negated, whether it is hedged and what role a connective gives it (a
// cause, an effect, a rejected alternative): clauses.go, verbs.go,
// clauseterms.go and links.go.

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
