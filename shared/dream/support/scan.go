package support

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/search"
)

// The first layer of reading a text: tokens. A word is letters and
// digits joined by - _ . : / @ = + (so identifiers stay whole), a number
// keeps its unit ("30s", "12-partition", "15 minutes", "20 requests per
// minute"), and every word gets its term (see lemma).

type tokKind uint8

const (
	tkWord tokKind = iota
	tkNumber
	tkPunct
)

// token is one word, number or punctuation mark.
type token struct {
	kind       tokKind
	raw        string // as written
	lower      string // lower case, apostrophes dropped
	start, end int    // byte offsets in the text
	code       bool   // inside a `code span`
	spaceAfter bool   // followed by white space (or the end)

	// words
	term     string   // the term ("" for stopwords, cues, single letters)
	parts    []string // a compound's parts, as terms
	compound bool     // joined with - _ . : / @ = or camelCase
	negLex   bool     // a negative word ("disabled"): its term is negated
	unitWord bool     // consumed as the unit of the number before it

	// numbers
	value string // normalised value
	unit  string // canonical unit of measure, or the lemma of the noun counted
	per   string // the unit of time of a rate ("20 requests per minute": "min")
	// measure is set when unit is a unit of measure (ms, h, GiB, %...).
	measure bool
	// multiplier is set for a verb that says "n times" ("tripled"): a
	// number to compare with, not one a claim must find
	multiplier bool
}

func (t *token) isWord(w string) bool { return t.kind == tkWord && t.lower == w }

// scan splits s into tokens.
func scan(s string) []token {
	var toks []token
	code := false
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '`':
			code = !code
			i += size
		case r == '\n':
			toks = append(toks, token{kind: tkPunct, raw: "\n", lower: "\n", start: i, end: i + 1, spaceAfter: true})
			i += size
		case r == '%' && len(toks) > 0 && toks[len(toks)-1].kind == tkNumber && toks[len(toks)-1].end == i && toks[len(toks)-1].unit == "":
			n := &toks[len(toks)-1]
			n.unit, n.measure, n.end = "%", true, i+1
			i += size
		case isWordRune(r):
			j := scanWord(s, i)
			toks = append(toks, makeWord(s, i, j, code))
			i = j
		case strings.ContainsRune(",;:.!?()[]", r) && !code:
			// (punctuation inside a code span is part of the code)
			toks = append(toks, token{kind: tkPunct, raw: string(r), lower: string(r), start: i, end: i + size, code: code})
			i += size
		case r == '$' || r == '€':
			i += size
		default:
			i += size
		}
		if n := len(toks); n > 0 && toks[n-1].end <= i {
			toks[n-1].spaceAfter = i >= len(s) || isSpaceAt(s, toks[n-1].end)
		}
	}
	for k := range toks {
		toks[k].spaceAfter = toks[k].end >= len(s) || isSpaceAt(s, toks[k].end)
	}
	// "no longer" is a negation, not a length
	for k := 1; k < len(toks); k++ {
		if toks[k].lower == "longer" && toks[k-1].lower == "no" {
			toks[k].term = ""
		}
	}
	toks = splitRanges(toks)
	// "for one day" says what "a one-day trial" says
	for k := 0; k+1 < len(toks); k++ {
		if toks[k].kind == tkWord && toks[k].lower == "one" && !toks[k].code && toks[k+1].kind == tkWord {
			if _, ok := measureUnits[toks[k+1].lower]; ok && len(toks[k+1].lower) > 2 {
				toks[k] = number(toks[k], "1", "")
			}
		}
	}
	attachUnits(toks)
	shareUnits(toks)
	readSwitchStates(toks)
	return toks
}

// pairWords join two numbers of one quantity, whose unit may be written
// once ("from 52 to 19 minutes", "11 minutes vs 4").
var pairWords = words("to vs versus or and")

// forwardPairWords join a number to a later one whose unit it takes.
var forwardPairWords = words("to vs versus")

// shareUnits gives a number without a unit the unit of measure of the
// number it is paired with ("52" in "from 52 to 19 minutes", "4" in "11
// minutes vs 4").
func shareUnits(toks []token) {
	for k := range toks {
		t := &toks[k]
		if t.kind != tkNumber || t.unit != "" {
			continue
		}
		// the number after: "52 to 19 minutes", "between 5 and 10
		// minutes" (not "on 4.8 and 1.4 s": 4.8 is a version there)
		joins := k+1 < len(toks) && (forwardPairWords[toks[k+1].lower] || toks[k+1].isWord("and") && k > 0 && toks[k-1].isWord("between"))
		if k+2 < len(toks) && joins && toks[k+2].kind == tkNumber && toks[k+2].measure {
			t.unit, t.measure, t.per = toks[k+2].unit, true, toks[k+2].per
			continue
		}
		// the number before: "11 minutes vs 4" (its unit word between)
		j := k - 1
		if j >= 0 && (pairWords[toks[j].lower] || toks[j].lower == "vs.") {
			j--
			for j >= 0 && toks[j].unitWord {
				j--
			}
			if j >= 0 && toks[j].kind == tkNumber && toks[j].measure && toks[k-1].lower != "and" && toks[k-1].lower != "to" {
				t.unit, t.measure, t.per = toks[j].unit, true, toks[j].per
			}
		}
	}
}

// switchVerbs turn a setting on or off ("turned off X", "switch it on").
var switchVerbs = words("turn turns turned turning switch switches switched switching toggle toggled flip flipped set left kept stays stayed")

// stateEnds are the words that may follow a setting's state ("off by
// default", "on for every build").
var stateEnds = words("and but by for in when while until")

// readSwitchStates reads "on" and "off" that say a setting's state as
// "enabled" and "disabled" ("with the new architecture off"; "turned on
// caching"), so that a claim that flips one contradicts its source like
// "enabled" for "disabled" does. "on" and "off" elsewhere ("runs on
// pve2", "off the main thread") stay stopwords.
func readSwitchStates(toks []token) {
	for k := range toks {
		t := &toks[k]
		if t.kind != tkWord || t.code || (t.lower != "on" && t.lower != "off") {
			continue
		}
		prev := ""
		if k > 0 && toks[k-1].kind == tkWord {
			prev = toks[k-1].lower
		}
		endsClause := k+1 >= len(toks) || toks[k+1].kind == tkPunct || stateEnds[toks[k+1].lower]
		switch {
		case switchVerbs[prev]:
		case endsClause && prev != "" && !stopAfterState[prev]:
		default:
			continue
		}
		t.term = lemma("enabled")
		t.negLex = t.lower == "off"
	}
}

// stopAfterState are words that, before "on" or "off" at a clause's end,
// make it a particle of the verb ("depends on.", "logged off"), not a
// state.
var stopAfterState = words("depends depend depending relies rely relied based built runs run ran running logged log back backed cut pay paid drop dropped sign signed log")

func isSpaceAt(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r) || r == '`'
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// scanWord returns the end of the word starting at i: letters and digits,
// joined by - _ . : / @ = + and apostrophes between two of them, and by a
// comma between digit groups (1,200).
func scanWord(s string, i int) int {
	j := i
	allDigits := true
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if isWordRune(r) {
			if !unicode.IsDigit(r) {
				allDigits = false
			}
			j += size
			continue
		}
		if j+size >= len(s) {
			break
		}
		next, _ := utf8.DecodeRuneInString(s[j+size:])
		switch {
		case r == ',' && allDigits && j+4 <= len(s) && isDigits(s[j+1:j+4]) && (j+4 == len(s) || !isDigitByte(s[j+4])):
			j += size
			continue
		case strings.ContainsRune("-_.:/@=+", r) && isWordRune(next):
			j += size
			continue
		case (r == '\'' || r == '’') && unicode.IsLetter(next):
			j += size
			continue
		}
		break
	}
	return j
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return s != ""
}

var numberPattern = regexp.MustCompile(`^(\d+(?:,\d{3})*(?:[.:]\d+)*)(.*)$`)
var versionPattern = regexp.MustCompile(`^[vV](\d+(?:\.\d+)*)$`)

// makeWord classifies the word s[i:j]: a number (with its attached unit),
// a compound or a plain word.
func makeWord(s string, i, j int, code bool) token {
	raw := s[i:j]
	t := token{kind: tkWord, raw: raw, start: i, end: j, code: code}
	t.lower = lowerNoApostrophe(raw)
	if hexPattern.MatchString(raw) {
		t.term = t.lower // "0xFFFF" is a value to quote, a name more than a number
		return t
	}
	if unicode.IsDigit(rune(raw[0])) {
		if m := numberPattern.FindStringSubmatch(raw); m != nil {
			rest := m[2]
			value := strings.ReplaceAll(m[1], ",", "")
			switch {
			case rest == "":
				return number(t, value, "")
			case rest == ".x" || rest == ".X":
				return number(t, value+".x", "")
			case isLetters(rest):
				return number(t, value, rest)
			case len(rest) > 2 && (rest[0] == 'k' || rest[0] == 'K') && rest[1] == '-' && unicode.IsLetter(rune(rest[2])):
				// "50k-row": fifty thousand rows
				if v, ok := thousands(m[1]); ok {
					unit := rest[2:]
					if k := strings.IndexAny(unit, "-_./"); k > 0 {
						unit = unit[:k]
					}
					return number(t, v, unit)
				}
			case rest[0] == '-' && len(rest) > 1 && isDigitByte(rest[1]):
				return number(t, strings.ReplaceAll(raw, ",", ""), "")
			case rest[0] == '-' && len(rest) > 1 && unicode.IsLetter(rune(rest[1])):
				unit := rest[1:]
				if k := strings.IndexAny(unit, "-_./"); k > 0 {
					unit = unit[:k]
				}
				return number(t, value, unit)
			}
		}
	}
	if m := versionPattern.FindStringSubmatch(raw); m != nil {
		return number(t, m[1], "")
	}
	if v, ok := numberWords[t.lower]; ok {
		unit := ""
		if t.lower == "twice" || t.lower == "thrice" || multiplierVerbs[t.lower] {
			unit = "x"
		}
		n := number(t, v, unit)
		n.multiplier = multiplierVerbs[t.lower]
		return n
	}
	if first, rest, ok := strings.Cut(t.lower, "-"); ok && !code {
		// "one-hour", "five-minute": a number word with a unit of measure
		if v, isNum := numberWords[first]; isNum || first == "one" {
			if _, isUnit := measureUnits[rest]; isUnit {
				if first == "one" {
					v = "1"
				}
				return number(t, v, rest)
			}
		}
	}
	if isCompound(raw) {
		t.compound = true
		t.term = compact(raw)
		if !code && plainHyphenated(raw) {
			// "hard-coded" and "hard-code" are one word in two forms
			i := strings.LastIndexByte(t.lower, '-')
			t.term = compact(t.lower[:i]) + lemma(t.lower[i+1:])
		}
		t.parts = partTerms(raw)
		return t
	}
	w := t.lower
	if pos, ok := negatedLemmas[w]; ok {
		t.negLex = true
		w = pos
	}
	if isAcronym(raw) && len(raw) >= 2 && isStop(w) {
		t.term = w + "_" // "the US" is no "us"
		return t
	}
	if isStop(w) || isCue(t.lower) || utf8.RuneCountInString(w) < 2 {
		return t
	}
	t.term = lemma(w)
	if isStop(t.term) {
		t.term = "" // "backed off" is "back off"
	}
	return t
}

// lowerNoApostrophe lower-cases a word and drops its apostrophes
// ("Don't" -> "dont").
func lowerNoApostrophe(s string) string {
	if !strings.ContainsAny(s, "'’") {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, r := range s {
		if r != '\'' && r != '’' {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// number makes t a number token with value and an attached unit.
func number(t token, value, unit string) token {
	t.kind = tkNumber
	if strings.EqualFold(unit, "k") {
		if v, ok := thousands(value); ok {
			value, unit = v, ""
		}
	}
	t.value = strings.TrimLeft(value, "vV")
	switch unit {
	case "M":
		unit = "million" // "2M rows" is "2 million rows"; minutes are "m"
	case "B", "bn":
		unit = "billion"
	}
	if unit != "" {
		if u, ok := measureUnits[strings.ToLower(unit)]; ok {
			t.unit, t.measure = u, true
		} else {
			t.unit = lemma(strings.ToLower(unit))
		}
	}
	return t
}

// attachUnits gives a number without a unit the word after it: a unit of
// measure ("15 minutes", which then is no term of its own) or the noun it
// counts ("12 partitions").
func attachUnits(toks []token) {
	for k := range toks {
		n := &toks[k]
		if n.kind != tkNumber || n.unit != "" || k+1 >= len(toks) {
			continue
		}
		next := &toks[k+1]
		if next.kind != tkWord {
			continue
		}
		// "retries 3 times": a count of tries, which a source may give as
		// "3 attempts"; "3 times faster", "3 times as many": a factor
		if (next.lower == "times" || next.lower == "time") && !(k+2 < len(toks) && (comparatives[toks[k+2].lower] || toks[k+2].lower == "as" || toks[k+2].lower == "the")) {
			next.unitWord, next.term = true, ""
			continue
		}
		if next.lower == "million" || next.lower == "billion" {
			// "2 million rows" is "2M rows": the word is the number's
			n.unit = next.lower
			next.unitWord, next.term = true, ""
			continue
		}
		if u, ok := measureUnits[next.lower]; ok && (!next.compound || isLetters(next.raw)) { // "MiB" is camelCase
			n.unit, n.measure = u, true
			next.unitWord, next.term = true, ""
			continue
		}
		// a version counts nothing ("v1.4.0 took 3 days"), and a verb in
		// the past is no noun
		version := strings.Count(n.value, ".") >= 2 || strings.HasPrefix(strings.ToLower(n.raw), "v") ||
			// "GUT 9.2 tests": a decimal after a name is the name's version
			strings.Count(n.value, ".") == 1 && k > 0 && toks[k-1].kind == tkWord && (isCapitalWord(toks[k-1].raw) || isAcronym(toks[k-1].raw))
		if next.term != "" && !next.compound && !strings.HasSuffix(next.lower, "ed") && !version && !pastVerbs[next.lower] {
			n.unit = next.term // "20 requests": after a number, a noun
		}
	}
	// rates: "per minute", "a second", "/s" after the number or its unit
	for k := range toks {
		n := &toks[k]
		if n.kind != tkNumber {
			continue
		}
		j := k + 1
		if j < len(toks) && toks[j].kind == tkWord && (toks[j].unitWord || toks[j].term == n.unit && n.unit != "") {
			j++
		}
		if j+1 < len(toks) && toks[j].kind == tkWord && (toks[j].lower == "per" || toks[j].lower == "a" || toks[j].lower == "an" || toks[j].lower == "each" || toks[j].lower == "every") {
			if u, ok := measureUnits[toks[j+1].lower]; ok && dimensionOf(u) == "time" {
				n.per = u
			}
		}
	}
}

// pastVerbs are irregular verbs in the past that follow a subject
// ending in a number ("Python 3.12 broke the build").
var pastVerbs = words("took ran saw got went made brought broke fell rose grew began became kept left led lost paid put read sent set shut spent stood won wrote")

// dimensionOf is the dimension of a canonical unit of measure.
func dimensionOf(u string) string {
	switch u {
	case "ns", "us", "ms", "s", "min", "h", "d", "w", "mo", "y":
		return "time"
	}
	return u
}

// isCompound reports whether a word is an identifier-like compound: joined
// by punctuation, camelCase, or letters and digits mixed after a letter.
func isCompound(w string) bool {
	if strings.ContainsAny(w, "-_.:/@=+") {
		return true
	}
	prev := rune(0)
	letters, digits := false, false
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		if unicode.IsDigit(r) {
			digits = true
		} else {
			letters = true
		}
		prev = r
	}
	return letters && digits
}

// partTerms splits a compound at its joiners and case changes and returns
// the terms of its parts.
func partTerms(w string) []string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) == 0 {
			return
		}
		p := strings.ToLower(string(cur))
		cur = cur[:0]
		if isStop(p) || utf8.RuneCountInString(p) < 2 {
			return
		}
		if isLetters(p) {
			p = lemma(p)
		}
		parts = append(parts, p)
	}
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case !isWordRune(r):
			flush()
			continue
		case i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]):
			flush()
		case i > 0 && unicode.IsUpper(r) && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return parts
}

func isStop(w string) bool {
	return search.IsStopword(w) || functionWords[w]
}

// isCue reports whether a word is read as a cue (negation, hedge,
// causal or decision word) rather than as a term.
func isCue(w string) bool {
	return negationWords[w] || hedgeWords[w] || decisionWords[w] || causalWords[w] || w == "still"
}

var causalWords = words(`because therefore thus hence consequently why reason`)

// thousands is value times 1,000 ("1.8k" is 1800), for a whole number or
// one with up to three decimals.
func thousands(value string) (string, bool) {
	whole, frac, dot := strings.Cut(value, ".")
	if !isDigits(whole) || dot && (!isDigits(frac) || len(frac) > 3) {
		return "", false
	}
	v := strings.TrimLeft(whole+frac+strings.Repeat("0", 3-len(frac)), "0")
	if v == "" {
		v = "0"
	}
	return v, true
}

// multiplierVerbs say "n times" as a verb ("tripled" is 3x).
var multiplierVerbs = words(`doubled doubles doubling tripled triples tripling quadrupled quadruples`)

// hexPattern is a hexadecimal literal.
var hexPattern = regexp.MustCompile(`^0[xX][0-9a-fA-F]+$`)

// rangePattern is a range of two plain numbers written with a hyphen.
var rangePattern = regexp.MustCompile(`^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$`)

// splitRanges reads "9-12 minutes" as "9 to 12 minutes", the way a source
// may write it.
func splitRanges(toks []token) []token {
	var out []token
	for _, t := range toks {
		m := rangePattern.FindStringSubmatch(t.raw)
		if t.kind != tkNumber || t.code || m == nil {
			out = append(out, t)
			continue
		}
		mid := t.start + len(m[1])
		lo := token{kind: tkWord, raw: m[1], lower: m[1], start: t.start, end: mid}
		to := token{kind: tkWord, raw: "to", lower: "to", start: mid, end: mid + 1}
		hi := token{kind: tkWord, raw: m[2], lower: m[2], start: mid + 1, end: t.end, spaceAfter: t.spaceAfter}
		out = append(out, number(lo, m[1], ""), to, number(hi, m[2], ""))
	}
	return out
}
