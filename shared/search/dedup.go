package search

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Duplicate detection: is an incoming memory a repeat of one stored, as a
// person reading both would judge it?
//
// Two texts are compared in two ways:
//
//   - Same text: their canonical forms ([Canonical]) are equal: case, white
//     space, quotes and backticks, Markdown emphasis, list markers and the
//     punctuation between words and sentences do not count ("Run `make
//     test`, then push." and "run make test. Then push" are the same
//     text).
//   - Near duplicate: their terms agree. A text's terms are its words
//     tokenized and stemmed as search does ([Tokenize]), with number words
//     as digits ("three" is 3), common paraphrases mapped to one word
//     (need/require, run/execute, use/utilise, ...), filler dropped
//     ("always", "make sure to", "note that", "must", "has to"), every
//     negation as one term ("not", "never", "don't", "cannot", "rather
//     than"), every hedge as one ("might", "probably", "usually"), and
//     "before", "after" kept. Then, with A and B the two sets of terms:
//     1. if each has a term the other lacks, something was substituted (a
//     number, a version, a flag, a tool, a path, a verb): not a repeat,
//     unless the substitution is one of the paraphrases above;
//     2. if the incoming text adds terms to the stored one, they must be
//     ordinary words: an added salient term (one written with a digit,
//     inside backticks, as a flag, a path or an identifier, in capitals
//     or camelCase) or an added critical one (a negation, a hedge,
//     "only", "except", "unless", "before", "after", "without", "off")
//     makes it new; it may leave out detail of the stored one, but not a
//     critical term;
//     3. and the Jaccard similarity |A∩B| / |A∪B| must reach
//     [DuplicateThreshold]. Short texts follow from the same rule: with
//     three terms, one added word is already under it.
//
// A memory repeats another when their types are compatible (the same
// type, or two of note, learning and finding), a blocker has the same
// status, and content and typed fields match field by field: for a
// pattern, its trigger, solution and context (its content is a title);
// for a decision, its content and rationale. A field only the incoming
// memory has is new information, so not a repeat; a field only the stored
// one has is not. Session notes are never duplicates: each is the record
// of a session.
//
// The rule was tuned on a labelled set of pairs and measured on a
// held-out one (testdata/dedup, docs/BENCHMARKS.md).

// DuplicateThreshold is the Jaccard similarity of two texts' terms at or
// above which one that only adds ordinary words to the other is a near
// duplicate.
const DuplicateThreshold = 0.75

// MatchKind says how an incoming memory repeats a stored one.
type MatchKind string

// Match kinds.
const (
	// MatchNone: not a repeat.
	MatchNone MatchKind = ""
	// MatchSame: the same text once normalised (Canonical).
	MatchSame MatchKind = "same"
	// MatchNear: a near duplicate (the same terms, or ordinary words
	// added, at DuplicateThreshold or more).
	MatchNear MatchKind = "near"
)

// Match is the result of comparing an incoming memory with a stored one.
type Match struct {
	Kind MatchKind
	// Similarity is the lowest Jaccard similarity of the fields compared
	// (1 for the same text).
	Similarity float64
}

// Repeat reports whether incoming repeats stored (see the package's rules
// above). It is not symmetric: a field only incoming has is news.
func Repeat(stored, incoming agentmem.Memory) Match {
	return PrintMemory(incoming).Repeats(PrintMemory(stored))
}

// MemoryPrint is a memory's comparable form, computed once (Dedup keeps
// one per stored memory).
type MemoryPrint struct {
	typ    agentmem.Type
	status string
	// fields are content, rationale, trigger, solution, context; nil
	// when empty.
	fields [5]*textPrint
}

const (
	fieldContent = iota
	fieldRationale
	fieldTrigger
	fieldSolution
	fieldContext
)

// PrintMemory computes m's comparable form.
func PrintMemory(m agentmem.Memory) MemoryPrint {
	typ := m.Type
	if typ == "" {
		typ = agentmem.TypeNote
	}
	p := MemoryPrint{typ: typ, status: m.Status}
	if typ == agentmem.TypeBlocker && p.status == "" {
		p.status = agentmem.StatusOpen
	}
	for i, s := range []string{m.Content, m.Rationale, m.Trigger, m.Solution, m.Context} {
		if strings.TrimSpace(s) != "" {
			tp := printText(s)
			p.fields[i] = &tp
		}
	}
	return p
}

// plainTypes are the types a repeat may cross: a fact stored as a
// finding and extracted again as a learning or a note is the same fact.
var plainTypes = map[agentmem.Type]bool{agentmem.TypeNote: true, agentmem.TypeLearning: true, agentmem.TypeFinding: true}

// Repeats reports whether p (incoming) repeats stored.
func (p MemoryPrint) Repeats(stored MemoryPrint) Match {
	if p.typ == agentmem.TypeSession || stored.typ == agentmem.TypeSession {
		return Match{}
	}
	if p.typ != stored.typ && !(plainTypes[p.typ] && plainTypes[stored.typ]) {
		return Match{}
	}
	if p.typ == agentmem.TypeBlocker && p.status != stored.status {
		return Match{}
	}
	var compare []int
	switch {
	case p.typ == agentmem.TypePattern && (p.has(fieldTrigger) || p.has(fieldSolution) || stored.has(fieldTrigger) || stored.has(fieldSolution)):
		compare = []int{fieldTrigger, fieldSolution, fieldContext}
	case p.typ == agentmem.TypeDecision:
		compare = []int{fieldContent, fieldRationale}
	case p.typ == agentmem.TypePattern:
		compare = []int{fieldContent, fieldContext}
	default:
		compare = []int{fieldContent}
	}
	out := Match{Kind: MatchSame, Similarity: 1}
	compared := 0
	for _, f := range compare {
		in, st := p.fields[f], stored.fields[f]
		switch {
		case in == nil:
			continue // nothing new in this field
		case st == nil:
			return Match{} // the incoming memory adds this field
		}
		compared++
		kind, sim := compareTexts(*st, *in)
		if kind == MatchNone {
			return Match{}
		}
		if kind == MatchNear {
			out.Kind = MatchNear
		}
		out.Similarity = min(out.Similarity, sim)
	}
	if compared == 0 {
		return Match{}
	}
	return out
}

func (p MemoryPrint) has(f int) bool { return p.fields[f] != nil }

// SamePattern reports whether b repeats the pattern a, so that extraction
// raises the confidence of the one stored instead of adding a copy: the
// rules of Repeat, so that patterns whose fixes differ in a number, a
// version, a flag or a tool are different patterns, and only a repeat
// reinforces.
func SamePattern(a, b agentmem.Memory) bool {
	return a.Type == agentmem.TypePattern && b.Type == agentmem.TypePattern && Repeat(a, b).Kind != MatchNone
}

// Dedup finds repeats among memories: a scope's, to which a batch's are
// added as they are written. It is not safe for concurrent use.
type Dedup struct {
	memories []agentmem.Memory
	prints   []MemoryPrint
}

// NewDedup prepares ms (newest first, as a scope is read) for Find.
func NewDedup(ms []agentmem.Memory) *Dedup {
	d := &Dedup{memories: make([]agentmem.Memory, 0, len(ms)), prints: make([]MemoryPrint, 0, len(ms))}
	for _, m := range ms {
		d.Add(m)
	}
	return d
}

// Add makes m a candidate of later Finds.
func (d *Dedup) Add(m agentmem.Memory) {
	d.memories = append(d.memories, m)
	d.prints = append(d.prints, PrintMemory(m))
}

// Remove drops the memory with id from the candidates (it was superseded
// or deleted).
func (d *Dedup) Remove(id string) {
	for i := 0; i < len(d.memories); i++ {
		if d.memories[i].ID == id {
			d.memories = slices.Delete(d.memories, i, i+1)
			d.prints = slices.Delete(d.prints, i, i+1)
			i--
		}
	}
}

// Len is how many memories d holds.
func (d *Dedup) Len() int { return len(d.memories) }

// Find returns the memory m repeats, if any: the same text before a near
// duplicate, then the most similar, then the oldest (by createdAt).
func (d *Dedup) Find(m agentmem.Memory) (agentmem.Memory, Match, bool) {
	p := PrintMemory(m)
	best, bestMatch := -1, Match{}
	for i, q := range d.prints {
		mt := p.Repeats(q)
		if mt.Kind == MatchNone {
			continue
		}
		if best < 0 || better(mt, d.memories[i], bestMatch, d.memories[best]) {
			best, bestMatch = i, mt
		}
	}
	if best < 0 {
		return agentmem.Memory{}, Match{}, false
	}
	return d.memories[best], bestMatch, true
}

func better(a Match, am agentmem.Memory, b Match, bm agentmem.Memory) bool {
	switch {
	case a.Kind != b.Kind:
		return a.Kind == MatchSame
	case a.Similarity != b.Similarity:
		return a.Similarity > b.Similarity
	}
	return am.CreatedAt < bm.CreatedAt
}

// textPrint is one text's comparable form.
type textPrint struct {
	canon string
	// terms maps each term to whether it is salient (see the rules).
	terms map[string]bool
	// joins maps the joined form of each compound word (retryWebhook,
	// network-idle: retrywebhook, networkidl) to its parts, and partOf
	// each part to the joined forms it is part of, so that
	// "network-idle" and "network idle", "DynamoDB" and "dynamodb"
	// agree.
	joins  map[string][]string
	partOf map[string][]string
	// seq is the terms in the order written (no joined forms), for
	// telling a substitution in context ("make test" to "make check"
	// when "test" is also said elsewhere) from an addition.
	seq []string
}

func printText(s string) textPrint {
	tp := dedupTerms(s)
	tp.canon = Canonical(s)
	return tp
}

// covered reports whether term t of p is said by other too: other has t,
// or t is a compound of p whose parts other has, or a part of a compound
// of p that other has joined.
func (p textPrint) covered(t string, other textPrint) bool {
	if _, ok := other.terms[t]; ok {
		return true
	}
	if parts, ok := p.joins[t]; ok {
		all := len(parts) > 0
		for _, part := range parts {
			if _, ok := other.terms[part]; !ok {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	for _, j := range p.partOf[t] {
		if _, ok := other.terms[j]; ok {
			return true
		}
	}
	return false
}

// compareTexts compares incoming (b) with stored (a).
func compareTexts(a, b textPrint) (MatchKind, float64) {
	if a.canon == b.canon {
		return MatchSame, 1
	}
	if len(a.terms) == 0 || len(b.terms) == 0 {
		return MatchNone, 0
	}
	inter, onlyA, onlyB := 0, 0, 0
	for t := range a.terms {
		if a.covered(t, b) {
			inter++
			continue
		}
		onlyA++
		if criticalTerms[t] {
			// The incoming text leaves out a negation or a condition.
			return MatchNone, 0
		}
	}
	for t, salient := range b.terms {
		if b.covered(t, a) {
			continue
		}
		onlyB++
		if salient || criticalTerms[t] {
			// What the incoming text adds must be ordinary words.
			return MatchNone, 0
		}
	}
	if onlyA > 0 && onlyB > 0 {
		return MatchNone, 0 // a substitution
	}
	if onlyB > 0 && substitutedInContext(a, b) {
		return MatchNone, 0
	}
	if salientReplaced(a, b) {
		return MatchNone, 0
	}
	sim := float64(inter) / float64(inter+onlyA+onlyB)
	if sim < DuplicateThreshold {
		return MatchNone, sim
	}
	return MatchNear, sim
}

// substitutedInContext reports whether a term the incoming text b adds
// takes the place of another of the stored text a next to the same
// neighbour: b says "make check" where a says "make test", although "test"
// is also in b ("not go test"). An addition ("make fast test") keeps the
// stored neighbour on its other side.
func substitutedInContext(a, b textPrint) bool {
	next, prev := map[string][]string{}, map[string][]string{}
	for i := 0; i+1 < len(a.seq); i++ {
		next[a.seq[i]] = append(next[a.seq[i]], a.seq[i+1])
		prev[a.seq[i+1]] = append(prev[a.seq[i+1]], a.seq[i])
	}
	for i, y := range b.seq {
		if b.covered(y, a) {
			continue
		}
		if i > 0 {
			// b: x y; a: x z, with z not what follows y in b.
			after := ""
			if i+1 < len(b.seq) {
				after = b.seq[i+1]
			}
			for _, z := range next[b.seq[i-1]] {
				if z != y && z != after {
					return true
				}
			}
		}
		if i+1 < len(b.seq) {
			before := ""
			if i > 0 {
				before = b.seq[i-1]
			}
			for _, z := range prev[b.seq[i+1]] {
				if z != y && z != before {
					return true
				}
			}
		}
	}
	return false
}

// salientReplaced reports whether one text puts a salient term (a
// number, a version, a flag, an identifier) next to a neighbour where the
// other text has only other salient terms: "writer 1 memory 1" for
// "writer 1 memory 0", "writer 3 memory 0" for "writer 0 memory 3". Term
// sets cannot see it: the texts have the same terms, or one has fewer and
// adds none, yet they say something else. Leaving out detail ("use the
// Stripe API" for "use the v2 Stripe API") or reordering clauses that
// keep each value with its neighbour is no replacement.
func salientReplaced(a, b textPrint) bool {
	return salientMoved(a, b) || salientMoved(b, a)
}

// salientMoved is salientReplaced seen from the salient terms of b.
func salientMoved(a, b textPrint) bool {
	next, prev := map[string][]string{}, map[string][]string{}
	for i := 0; i+1 < len(a.seq); i++ {
		next[a.seq[i]] = append(next[a.seq[i]], a.seq[i+1])
		prev[a.seq[i+1]] = append(prev[a.seq[i+1]], a.seq[i])
	}
	elsewhere := func(y string, around []string) bool {
		if len(around) == 0 || slices.Contains(around, y) {
			return false
		}
		for _, z := range around {
			if !a.terms[z] {
				return false
			}
		}
		return true
	}
	for i, y := range b.seq {
		if !b.terms[y] {
			continue
		}
		// A term next to itself ("config config/app.yaml") says nothing
		// about where it stands.
		if i > 0 && b.seq[i-1] != y && elsewhere(y, next[b.seq[i-1]]) {
			return true
		}
		if i+1 < len(b.seq) && b.seq[i+1] != y && elsewhere(y, prev[b.seq[i+1]]) {
			return true
		}
	}
	return false
}

// Canonical returns s as two texts that say the same thing in the same
// words compare: lower-cased; quotes, backticks, Markdown emphasis and a
// leading list marker removed; the punctuation that separates words,
// clauses and sentences (",", ";", ":", ".", "!", "?", brackets, a dash
// between spaces) turned into space; runs of white space collapsed.
// Punctuation inside a token stays: "1.2.3", "os.Getenv", "-timeout",
// "a/b", "don't".
func Canonical(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = listMarker.ReplaceAllString(s, "")
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	space := func() { b.WriteByte(' ') }
	for i, r := range rs {
		prev, next := rune(' '), rune(' ')
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case unicode.IsSpace(r):
			space()
		case r == '`' || r == '"' || r == '\u201c' || r == '\u201d' || r == '\u00ab' || r == '\u00bb' || r == '*' || r == '~':
			// quoting and emphasis
		case r == '\'' || r == '\u2018' || r == '\u2019':
			if unicode.IsLetter(prev) && unicode.IsLetter(next) {
				b.WriteByte('\'') // an apostrophe
			}
		case r == '_' && (!isWordChar(prev) || !isWordChar(next)):
			// emphasis, not snake_case
		case r == '\u2014' || r == '\u2013':
			space()
		case r == '-' && unicode.IsSpace(prev) && unicode.IsSpace(next):
			space()
		case strings.ContainsRune(",;:!?.", r) && (unicode.IsSpace(next) || i+1 == len(rs)):
			space()
		case strings.ContainsRune("()[]{}", r):
			space()
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimFunc(strings.Join(strings.Fields(b.String()), " "), func(r rune) bool {
		return unicode.IsPunct(r) && r != '/' && r != '-' || unicode.IsSpace(r)
	})
}

var listMarker = regexp.MustCompile(`^(?:[-*+\x{2022}]|\d{1,3}[.)])\s+`)

func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// phrases are rewritten before a text is split into terms: fillers go,
// negations become one word, "twice" two. Each is matched word by word,
// lower-cased, on the text's words with the punctuation around them
// trimmed.
var phrases = func() map[string][]phrase {
	list := []struct{ from, to string }{
		{"make sure to", ""}, {"make sure that", ""}, {"make sure", ""}, {"be sure to", ""}, {"remember to", ""},
		{"don't forget to", ""}, {"dont forget to", ""}, {"keep in mind that", ""}, {"keep in mind", ""},
		{"it is important to", ""}, {"it's important to", ""}, {"note that", ""}, {"notice that", ""},
		{"bear in mind that", ""},
		{"you need to", ""}, {"need to", ""}, {"needs to", ""}, {"you have to", ""}, {"have to", ""}, {"has to", ""},
		{"had to", ""}, {"ought to", ""}, {"is required to", ""}, {"are required to", ""},
		{"rather than", "not"}, {"instead of", "not"}, {"no longer", "not anymore"}, {"twice", "2 times"},
	}
	out := map[string][]phrase{}
	for _, p := range list {
		words := strings.Fields(p.from)
		out[words[0]] = append(out[words[0]], phrase{words: words, to: strings.Fields(p.to)})
	}
	return out
}()

// phrase is one rewrite: words (lower case) and what replaces them.
type phrase struct{ words, to []string }

// labelWords open a note ("Note:", "Tip -") without adding to it.
var labelWords = map[string]bool{"note": true, "tip": true, "gotcha": true, "important": true, "fyi": true, "warning": true, "caveat": true}

var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "ninety": "90", "hundred": "100",
}

// synonymGroups are the paraphrases a repeat may use: every word of a
// group counts as its first. Kept short and plain: two words belong
// together only where swapping them never changes what a developer's
// note means.
var synonymGroups = [][]string{
	{"need", "needs", "needed", "require", "requires", "required", "requiring"},
	{"run", "runs", "running", "ran", "execute", "executes", "executed", "executing", "invoke", "invokes", "invoked"},
	{"use", "uses", "used", "using", "utilize", "utilizes", "utilized", "utilise", "utilises", "utilised", "employ", "employs"},
	{"start", "starts", "started", "starting", "launch", "launches", "launched"},
	{"fail", "fails", "failed", "failing", "failure", "failures", "break", "breaks", "broke", "broken"},
	{"fix", "fixes", "fixed", "fixing", "repair", "repairs", "repaired"},
	{"fast", "faster", "quick", "quicker", "quickly"},
	{"slow", "slower", "sluggish"},
	{"big", "bigger", "large", "larger", "huge"},
	{"small", "smaller", "tiny"},
	{"show", "shows", "shown", "display", "displays", "displayed"},
	{"delete", "deletes", "deleted", "remove", "removes", "removed"},
	{"change", "changes", "changed", "changing", "modify", "modifies", "modified", "edit", "edits", "edited", "editing"},
	{"dir", "directory", "directories", "folder", "folders"},
	{"not", "no", "never", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "cannot", "cant", "wont", "wouldnt", "shouldnt", "mustnt", "neither", "nor"},
	{"hedge", "might", "may", "maybe", "possibly", "probably", "perhaps", "likely", "unlikely", "seem", "seems", "seemingly", "sometimes", "occasionally", "usually", "often", "rarely", "typically", "apparently"},
}

// fillerTerms say nothing a repeat must keep.
var fillerTerms = map[string]bool{}

// fillerWords are dropped from the terms.
var fillerWords = []string{"always", "really", "just", "simply", "actually", "basically", "also", "please", "ensure",
	"ensures", "important", "importantly", "remember", "must", "shall", "currently", "essentially", "then", "so"}

// criticalTerms change what a text means when one of two otherwise equal
// texts adds them.
var criticalTerms = map[string]bool{}

var criticalWords = []string{"not", "hedge", "only", "except", "unless", "before", "after", "without", "off", "until",
	"anymore", "deprecated", "instead"}

// dedupKeep are the stopwords a repeat must keep (search drops them).
var dedupKeep = map[string]bool{"before": true, "after": true, "not": true, "no": true, "off": true, "only": true, "again": true}

var synonymOf = map[string]string{}

func init() {
	for _, g := range synonymGroups {
		head := Stem(g[0])
		for _, w := range g {
			synonymOf[Stem(w)] = head
		}
	}
	for _, w := range fillerWords {
		fillerTerms[Stem(w)] = true
	}
	for _, w := range criticalWords {
		criticalTerms[Stem(w)] = true
	}
}

// dedupTerms returns the terms of s, each marked salient or not, and its
// compounds (textPrint without canon).
func dedupTerms(s string) textPrint {
	terms := map[string]bool{}
	tp := textPrint{terms: terms}
	add := func(t string, salient bool) string {
		if h, ok := synonymOf[t]; ok {
			t = h
		} else if fillerTerms[t] {
			return ""
		}
		terms[t] = terms[t] || salient
		return t
	}
	var parts []string
	tok := tokenizer{keepPart: dedupKeepPart}
	tok.emitJoined = func(b []byte) {
		j := string(b)
		add(j, true)
		if tp.joins == nil {
			tp.joins, tp.partOf = map[string][]string{}, map[string][]string{}
		}
		tp.joins[j] = append(tp.joins[j], parts...)
		for _, p := range parts {
			tp.partOf[p] = append(tp.partOf[p], j)
		}
	}
	var words []dedupWord
	inCode := false
	for _, raw := range strings.Fields(s) {
		ticks := strings.Count(raw, "`")
		code := inCode || ticks > 0
		if ticks%2 == 1 {
			inCode = !inCode
		}
		core := strings.Trim(raw, "`\"'()[]{}<>,;:!?.*~\u2018\u2019\u201c\u201d")
		if core == "" {
			continue
		}
		lower := strings.ToLower(strings.ReplaceAll(core, "\u2019", "'"))
		words = append(words, dedupWord{raw: raw, core: core, lower: lower, code: code})
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !w.code {
			if i == 0 && labelWords[w.lower] && (strings.HasSuffix(w.raw, ":") || i+1 < len(words) && strings.Trim(words[i+1].raw, "-\u2014\u2013") == "") {
				continue // "Note:", "Tip -"
			}
			if p, n := matchPhrase(words, i); n > 0 {
				for _, t := range p.to {
					tok.scan(t, func(b []byte) {
						if t := add(string(b), false); t != "" {
							tp.seq = append(tp.seq, t)
						}
					})
				}
				i += n - 1
				continue
			}
			if d, ok := numberWords[w.lower]; ok {
				tp.seq = append(tp.seq, add(d, false))
				continue
			}
		}
		salient := w.code || salientWord(w.core)
		if f := flagName(w.core); f != "" {
			tp.seq = append(tp.seq, add(f, true))
		}
		parts = parts[:0]
		tok.scan(w.core, func(b []byte) {
			if t := add(string(b), salient); t != "" {
				parts = append(parts, t)
				tp.seq = append(tp.seq, t)
			}
		})
	}
	return tp
}

// dedupWord is a word of a text as dedupTerms reads it: as written, with
// the punctuation around it trimmed, and that lower-cased; code is true
// inside backticks.
type dedupWord struct {
	raw, core, lower string
	code             bool
}

// matchPhrase returns the phrase starting at words[i] and how many words
// it spans (0: none).
func matchPhrase(words []dedupWord, i int) (phrase, int) {
	for _, p := range phrases[words[i].lower] {
		if i+len(p.words) > len(words) {
			continue
		}
		ok := true
		for j, pw := range p.words {
			if words[i+j].lower != pw {
				ok = false
				break
			}
		}
		if ok {
			return p, len(p.words)
		}
	}
	return phrase{}, 0
}

// dedupKeepPart is the tokenizer's keep for duplicate detection: search's
// stopwords but the few that change a note's meaning (dedupKeep).
func dedupKeepPart(p []byte) bool {
	if len(p) == 1 && !isDigit(rune(p[0])) {
		return false
	}
	if r, size := utf8.DecodeRune(p); size == len(p) && isLetter(r) {
		return false
	}
	return dedupKeep[string(p)] || len(p) > maxStopword || !IsStopword(string(p))
}

// flagName returns the lower-cased name of a command-line flag ("-u",
// "--force", "-timeout" of "-timeout=20m"), "" when word is not one.
func flagName(word string) string {
	if !strings.HasPrefix(word, "-") {
		return ""
	}
	name, _, _ := strings.Cut(word, "=")
	rest := strings.TrimLeft(name, "-")
	if rest == "" || len(name)-len(rest) > 2 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if !unicode.IsLetter(r) {
		return ""
	}
	return strings.ToLower(name)
}

// salientWord reports whether a word (as written, punctuation around it
// trimmed) names something exact: it has a digit, punctuation inside it
// (a path, a file, a dotted, snake_case or kebab-case name), starts
// with a dash (a flag) or has a
// capital after its first letter (camelCase, ALLCAPS).
func salientWord(w string) bool {
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case unicode.IsDigit(r):
			return true
		case i > 0 && unicode.IsUpper(r):
			return true
		case i > 0 && i < len(rs)-1 && strings.ContainsRune("/._:@=+#", r):
			return true
		case i > 0 && i < len(rs)-1 && r == '-':
			return true
		case i == 0 && r == '-':
			return true
		case r == '/' && len(rs) > 1:
			return true
		}
	}
	return false
}
