package support

import (
	"regexp"
	"strings"
	"unicode"
)

// Identifiers (code spans, paths, flags, names joined with - _ . : / @ =,
// camelCase, names mixing letters and digits, commands such as
// "make itest") must appear in a cited source as written: a model that
// builds `make itest-postgres` out of "make itest" and "Postgres" invents a
// command however familiar its words are.

// ident is an identifier of a claim.
type ident struct {
	text string
	// fold compares without case (names whose case is not part of them).
	fold bool
	// soft is set for plain hyphenated words ("read-only"), which may
	// also be written apart or joined.
	soft bool
}

var codeSpan = regexp.MustCompile("`([^`\n]+)`")

// ratePattern is an amount per unit written as one word: "$3.20/hour",
// "~$38/month", "40k/day".
var ratePattern = regexp.MustCompile(`^[~≈]?[$€£¥]?[0-9][0-9.,]*[kKmM]?/[A-Za-z]+$`)

// identifiers returns the identifiers of a claim's text.
func identifiers(text string) []ident {
	var out []ident
	seen := map[string]bool{}
	add := func(id ident) {
		if id.text != "" && !seen[id.text] {
			seen[id.text] = true
			out = append(out, id)
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		span := strings.Join(strings.Fields(m[1]), " ")
		add(ident{text: span, fold: strings.ToLower(span) == span})
	}
	// a code span stays a chunk of its own, so that a command's word
	// before it does not pair with the word after it ("dbt `meta`
	// descriptions")
	outside := codeSpan.ReplaceAllString(text, " `` ")
	chunks := strings.Fields(outside)
	for i, ch := range chunks {
		w := trimChunk(ch)
		if w == "" || w == "``" || abbreviations[strings.ToLower(w)] {
			continue
		}
		lw := strings.ToLower(w)
		// a tool's name capitalised inside a sentence is the tool, not a
		// command line ("the Playwright coupon test", "Terraform state")
		prose := isCapitalised(w) // commands are typed in lower case
		// "the top 5 dbt models": a tool's name after a determiner or a
		// number is prose too
		if i > 0 {
			prev := strings.ToLower(trimChunk(chunks[i-1]))
			prose = prose || determiners[prev] || isNumberChunk(prev)
		}
		if i+1 < len(chunks) && !prose && (commandWords[lw] || ambiguousCommands[lw] && i > 0 && commandLeads[strings.ToLower(trimChunk(chunks[i-1]))]) {
			if arg := trimChunk(chunks[i+1]); arg != "" && arg != "``" && !isStop(strings.ToLower(arg)) && !strings.ContainsAny(chunks[i], ",;:.") {
				add(ident{text: w + " " + arg, fold: true})
			}
		}
		if kind := identKind(w); kind != notIdent {
			add(ident{text: w, fold: kind != strictIdent, soft: kind == softIdent})
		}
	}
	return out
}

// abbreviations of prose are no names ("e.g.", "i.e.").
var abbreviations = words("e.g i.e e.g. i.e. etc. a.k.a a.k.a. w.r.t w.r.t. cf. vs.")

// trimChunk strips the punctuation around a whitespace-separated chunk.
func trimChunk(s string) string {
	s = strings.TrimLeft(s, "\"'([{“‘")
	s = strings.TrimRight(s, "\"')]}.,;:!?”’")
	// a possessive is no part of the name ("OkHttp's", "A14’s")
	for _, p := range []string{"'s", "’s"} {
		if len(s) > len(p)+1 && strings.HasSuffix(s, p) {
			s = strings.TrimSuffix(s, p)
		}
	}
	return s
}

type identClass uint8

const (
	notIdent    identClass = iota
	strictIdent            // compared as written
	foldIdent              // compared without case
	softIdent              // a plain hyphenated word
)

// identKind classifies a chunk.
func identKind(w string) identClass {
	if len(w) < 2 || isNumberChunk(w) || isNumberChunk(strings.TrimRight(strings.TrimLeft(w, "$€£¥~≈+-"), "+")) || ratePattern.MatchString(w) {
		return notIdent // "$1.8k", "~35%", "+0.4", "8.1+", "~$38/month"
	}
	if strings.ContainsAny(w, "/_=@#~$<>\\") || strings.Contains(w, "::") ||
		(strings.HasPrefix(w, "-") && strings.TrimLeft(w, "-") != "" && unicode.IsLetter(rune(strings.TrimLeft(w, "-")[0]))) {
		return strictIdent
	}
	if joinedBy(w, ".:") {
		return strictIdent
	}
	camel := false
	letters, digits := false, false
	rs := []rune(w)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
			camel = true
		}
		if unicode.IsDigit(r) {
			digits = true
		} else if unicode.IsLetter(r) {
			letters = true
		}
	}
	if strings.Contains(w, "-") && joinedBy(w, "-") {
		// "Multi-statement" at a sentence's start is a plain word
		if isCapitalised(w) && !camel && isLowerLetters(strings.ReplaceAll(strings.ToLower(w), "-", "")) {
			return softIdent
		}
		for _, p := range strings.Split(w, "-") {
			if !isLowerLetters(p) {
				if camel || strings.ToLower(w) != w && !isCapitalised(w) {
					return strictIdent
				}
				return foldIdent
			}
		}
		return softIdent
	}
	switch {
	case camel:
		return strictIdent
	case letters && digits && unicode.IsLetter(rs[0]):
		return foldIdent
	}
	return notIdent
}

func isCapitalised(w string) bool {
	rs := []rune(w)
	return len(rs) > 1 && unicode.IsUpper(rs[0]) && strings.ToLower(string(rs[1:])) == string(rs[1:])
}

func isLowerLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return s != ""
}

// joinedBy reports whether one of seps stands between two letters or
// digits of w.
func joinedBy(w, seps string) bool {
	rs := []rune(w)
	for i := 1; i+1 < len(rs); i++ {
		if strings.ContainsRune(seps, rs[i]) && isWordRune(rs[i-1]) && isWordRune(rs[i+1]) {
			return true
		}
	}
	return false
}

// isNumberChunk reports whether a chunk is a number, a version or a
// number with its unit ("3.11", "v1.2", "12-partition", "30s", "2.1%").
func isNumberChunk(w string) bool {
	w = strings.TrimSuffix(w, "%")
	if versionPattern.MatchString(w) {
		return true
	}
	if w == "" || !unicode.IsDigit(rune(w[0])) {
		return false
	}
	m := numberPattern.FindStringSubmatch(w)
	if m == nil {
		return false
	}
	rest := m[2]
	if len(rest) > 2 && (rest[0] == 'k' || rest[0] == 'K') && rest[1] == '-' {
		rest = rest[1:] // "50k-row"
	}
	return rest == "" || isLetters(rest) || rest == ".x" ||
		(strings.HasPrefix(rest, "-") && len(rest) > 1 && (unicode.IsLetter(rune(rest[1])) || isDigitByte(rest[1])))
}

// found reports whether the identifier appears in text (and, for a soft
// one, in the words of d).
func (id ident) found(text, lower string, d *doc) bool {
	if id.fold {
		if l := strings.ToLower(id.text); containsWord(lower, l) || lastSegment(lower, l) || qualifierOf(lower, l) || calledWithArguments(lower, l) {
			return true
		}
		if (isUpperAlnum(id.text) || isLowerAlnum(id.text)) && d != nil && hasPart(d, strings.ToLower(id.text)) {
			return true // "E2E tests", "e2e tests" where a source runs `pnpm test:e2e`
		}
	} else if containsWord(text, id.text) || firstFolded(text, id.text) || lastSegment(text, id.text) || qualifierOf(text, id.text) ||
		calledWithArguments(text, id.text) {
		return true
	}
	if id.soft {
		return softFound(id.text, d)
	}
	return false
}

// calledWithArguments reports whether sub is a call written without its
// arguments ("create_label.delay()") that s writes with them
// (`create_label.delay(shipment.id)`).
func calledWithArguments(s, sub string) bool {
	name, ok := strings.CutSuffix(sub, "()")
	if !ok || name == "" {
		return false
	}
	return someOccurrence(s, name+"(", func(i, end int) bool {
		return (i == 0 || !nameByte(s[i-1])) && end < len(s) && s[end] != ')'
	})
}

// containsWord reports whether sub occurs in s not as part of a longer
// name (no letter, digit, - or _ right before or after it).
func containsWord(s, sub string) bool {
	return someOccurrence(s, sub, func(i, end int) bool {
		before := i == 0 || !nameByte(s[i-1]) && !(strings.IndexByte(":./", s[i-1]) >= 0 && i >= 2 && nameByte(s[i-2]))
		return before && nameEndsAt(s, end)
	})
}

// someOccurrence reports whether ok holds for some occurrence of sub in
// s, given where it starts and where it ends.
func someOccurrence(s, sub string, ok func(i, end int) bool) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return false
		}
		i += from
		if ok(i, i+len(sub)) {
			return true
		}
		from = i + 1
	}
}

// nameEndsAt reports whether a name of s ends at end: no letter, digit, -
// or _ after it, nor a ":", ".", "/" or "=" that a name goes on after
// ("lint:fix", "config.toml").
func nameEndsAt(s string, end int) bool {
	return end == len(s) || !nameByte(s[end]) && !(strings.IndexByte(":./=", s[end]) >= 0 && end+1 < len(s) && nameByte(s[end+1]))
}

// isLowerAlnum reports whether w is lower-case letters and digits only
// ("e2e", "k8s").
func isLowerAlnum(w string) bool {
	for _, r := range w {
		if !unicode.IsLower(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

// lastSegment reports whether sub ends a longer dotted or slashed name
// of s ("actAs" of `iam.serviceAccounts.actAs`, "created_at" of
// `posts.created_at`, "Main.kt" of `src/Main.kt`): the same name, its
// qualifier left out. A first segment is not ("config" of "config.toml").
func lastSegment(s, sub string) bool {
	return someOccurrence(s, sub, func(i, end int) bool {
		qualified := i >= 2 && strings.IndexByte("./", s[i-1]) >= 0 && nameByte(s[i-2])
		return qualified && nameEndsAt(s, end)
	})
}

// qualifierOf reports whether sub, a name with an underscore, qualifies a
// longer dotted name of s ("fct_payments" of `fct_payments.payment_id`),
// not as a file's name before its extension.
func qualifierOf(s, sub string) bool {
	if !strings.Contains(sub, "_") {
		return false
	}
	return someOccurrence(s, sub, func(i, end int) bool {
		before := i == 0 || !nameByte(s[i-1])
		if !before || end+1 >= len(s) || s[end] != '.' || !nameByte(s[end+1]) {
			return false
		}
		next := s[end+1:]
		if k := strings.IndexFunc(next, func(r rune) bool { return r > 0x7f || !nameByte(byte(r)) }); k >= 0 {
			next = next[:k]
		}
		return !fileExtensions[strings.ToLower(next)]
	})
}

// fileExtensions end file names: "config.toml" is a file, not a
// qualified name.
var fileExtensions = words("toml json yaml yml go py ts tsx js jsx mjs md txt lock sh rb rs kt kts swift java c h cc cpp hpp cs sql env cfg ini xml html css scss csv parquet log conf lua php ex exs erl dart gradle")

func nameByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// firstFolded accepts an identifier whose first letter only changes case
// (a sentence starting with it).
func firstFolded(text, id string) bool {
	rs := []rune(id)
	if len(rs) < 2 {
		return false
	}
	alt := string(unicode.ToLower(rs[0])) + string(rs[1:])
	if alt == id {
		alt = string(unicode.ToUpper(rs[0])) + string(rs[1:])
	}
	return containsWord(text, alt)
}

// softFound looks for the parts of a hyphenated word as consecutive words
// of d, or joined into one.
func softFound(w string, d *doc) bool {
	parts := strings.Split(strings.ToLower(w), "-")
	lemmas := make([]string, len(parts))
	for i, p := range parts {
		lemmas[i] = lemma(p)
	}
	key := compact(w)
	for k := range d.toks {
		t := d.toks[k]
		if t.kind != tkWord {
			continue
		}
		if t.compound && t.term == key {
			return true
		}
		if t.term == key {
			return true
		}
		ok := true
		for i := range lemmas {
			if k+i >= len(d.toks) || d.toks[k+i].kind != tkWord {
				ok = false
				break
			}
			if t := d.toks[k+i]; t.term != lemmas[i] && t.lower != parts[i] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// isUpperAlnum reports whether w is an acronym of capitals and digits
// ("E2E", "S3", "P99").
func isUpperAlnum(w string) bool {
	for _, r := range w {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

// hasPart reports whether a compound of d has part as one of its parts.
func hasPart(d *doc, part string) bool {
	for _, t := range d.toks {
		if !t.compound {
			continue
		}
		for _, p := range t.parts {
			if p == part {
				return true
			}
		}
	}
	return false
}
