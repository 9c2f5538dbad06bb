package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is a tolerant reader of the JSON that models write: JSON, plus
// what models get wrong or borrow from JavaScript, JSONC and Python reprs
// (comments, trailing or missing commas, single or typographic quotes,
// unquoted keys, True/False/None, stray unescaped quotes inside strings).
// It never fails outright: a value cut off by the end of the text, or
// broken by a syntax error, comes back as far as it was read, with the
// containers and strings that were not finished marked, so that the
// complete learnings before the cut can be kept and the cut one reported.

// object is a JSON object with its members in the order written.
type object struct {
	members []member
	// cut: the text ended, or broke, before the object closed.
	cut bool
}

type member struct {
	key   string
	value any
}

// list is a JSON array; cut as for object.
type list struct {
	items []any
	cut   bool
}

// cutString is a string the text ended inside.
type cutString string

// number is a JSON number as written.
type number string

// readStatus says how a value's reading ended.
type readStatus int

const (
	readComplete readStatus = iota // the value closed
	readCut                        // the text ended inside it
	readBroken                     // a syntax error stopped it
)

// maxDepth bounds nesting; deeper values are broken.
const maxDepth = 40

// jsonReader reads one value from s at i. Every byte is looked at a
// bounded number of times, so a read costs O(len(s)).
type jsonReader struct {
	s      string
	i      int
	depth  int
	status readStatus
}

// readJSON reads the value starting at s[start] and returns it, the index
// just past it (or where reading stopped) and how reading ended.
func readJSON(s string, start int) (any, int, readStatus) {
	r := &jsonReader{s: s, i: start}
	v := r.value()
	return v, r.i, r.status
}

func (r *jsonReader) stop(st readStatus) {
	if r.status == readComplete {
		r.status = st
	}
}

func (r *jsonReader) done() bool { return r.status != readComplete }

// space skips white space (Unicode included) and comments: // and # to the
// end of the line, /* ... */.
func (r *jsonReader) space() {
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			r.i++
		case c == '/' && r.i+1 < len(r.s) && r.s[r.i+1] == '/', c == '#':
			if j := strings.IndexByte(r.s[r.i:], '\n'); j >= 0 {
				r.i += j + 1
			} else {
				r.i = len(r.s)
			}
		case c == '/' && r.i+1 < len(r.s) && r.s[r.i+1] == '*':
			if j := strings.Index(r.s[r.i+2:], "*/"); j >= 0 {
				r.i += j + 4
			} else {
				r.i = len(r.s)
			}
		case c >= utf8.RuneSelf:
			ru, n := utf8.DecodeRuneInString(r.s[r.i:])
			if ru != '\u00a0' && ru != '\u2028' && ru != '\u2029' && ru != '\ufeff' && ru != '\u200b' {
				return
			}
			r.i += n
		default:
			return
		}
	}
}

func (r *jsonReader) value() any {
	r.space()
	if r.i >= len(r.s) {
		r.stop(readCut)
		return nil
	}
	c := r.s[r.i]
	switch {
	case c == '{':
		return r.object()
	case c == '[':
		return r.list()
	case c == '"' || c == '\'':
		return r.str()
	case c == 0xE2 && openQuote(r.s[r.i:]) != "":
		return r.str()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return r.number()
	case isIdentStart(c):
		w := r.ident()
		switch w {
		case "true", "True", "TRUE":
			return true
		case "false", "False", "FALSE":
			return false
		case "null", "None", "nil", "undefined", "NaN", "Infinity":
			return nil
		}
		// An unquoted word (JavaScript-ish {type: finding}) reads as a
		// string when a separator follows it.
		r.space()
		if r.i >= len(r.s) {
			r.stop(readCut)
			return cutString(w)
		}
		if c := r.s[r.i]; c == ',' || c == '}' || c == ']' {
			return w
		}
		r.stop(readBroken)
		return nil
	}
	r.stop(readBroken)
	return nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9') || c == '-'
}

func (r *jsonReader) ident() string {
	j := r.i
	for j < len(r.s) && isIdentByte(r.s[j]) {
		j++
	}
	w := r.s[r.i:j]
	r.i = j
	return w
}

func (r *jsonReader) number() any {
	j := r.i
	for j < len(r.s) && strings.IndexByte("+-.0123456789eE_", r.s[j]) >= 0 {
		j++
	}
	w := r.s[r.i:j]
	r.i = j
	if r.i >= len(r.s) {
		r.stop(readCut)
		return nil
	}
	if _, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimPrefix(w, "+"), "_", ""), 64); err != nil {
		r.stop(readBroken)
		return nil
	}
	return number(strings.TrimPrefix(w, "+"))
}

// Typographic quotes models put where JSON wants straight ones.
const (
	leftDouble  = "\u201c" // “
	rightDouble = "\u201d" // ”
	leftSingle  = "\u2018" // ‘
	rightSingle = "\u2019" // ’
	lowDouble   = "\u201e" // „
)

// openQuote returns the typographic quote s starts with, if any.
func openQuote(s string) string {
	for _, q := range []string{leftDouble, rightDouble, leftSingle, lowDouble} {
		if strings.HasPrefix(s, q) {
			return q
		}
	}
	return ""
}

// closers returns the quotes that may close a string opened with q.
func closers(q string) []string {
	switch q {
	case `"`:
		return []string{`"`}
	case `'`:
		return []string{`'`}
	case leftSingle:
		return []string{rightSingle}
	}
	return []string{rightDouble, leftDouble, `"`}
}

// str reads a quoted string. A closing quote followed by something that
// cannot follow a string (a letter, say) is taken as a quote inside the
// string that the model forgot to escape.
func (r *jsonReader) str() any {
	open := r.s[r.i : r.i+1]
	if open != `"` && open != `'` {
		open = openQuote(r.s[r.i:])
	}
	r.i += len(open)
	ends := closers(open)
	var b strings.Builder
	for r.i < len(r.s) {
		c := r.s[r.i]
		if c == '\\' {
			if r.i+1 >= len(r.s) {
				r.i++
				break
			}
			r.escape(&b)
			continue
		}
		if q := hasAnyPrefix(r.s[r.i:], ends); q != "" && r.closesString(r.i+len(q)) {
			r.i += len(q)
			return b.String()
		}
		b.WriteByte(c)
		r.i++
	}
	r.stop(readCut)
	return cutString(b.String())
}

func hasAnyPrefix(s string, prefixes []string) string {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}

// closesString reports whether a quote ending at j can close a string:
// what follows it (after blanks) must be a separator, a closing bracket,
// a colon, a line break, a comment or the end.
func (r *jsonReader) closesString(j int) bool {
	for j < len(r.s) && (r.s[j] == ' ' || r.s[j] == '\t' || r.s[j] == '\r') {
		j++
	}
	if j >= len(r.s) {
		return true
	}
	switch r.s[j] {
	case ',', '}', ']', ':', '\n', '#':
		return true
	case '/':
		return j+1 < len(r.s) && (r.s[j+1] == '/' || r.s[j+1] == '*')
	case '"':
		// A forgotten comma before the next key or item: "a" "b": ...
		k := strings.IndexByte(r.s[j+1:], '"')
		if k < 0 || strings.ContainsAny(r.s[j+1:j+1+k], "\n") {
			return false
		}
		k += j + 2
		for k < len(r.s) && (r.s[k] == ' ' || r.s[k] == '\t') {
			k++
		}
		return k < len(r.s) && strings.IndexByte(":,]}", r.s[k]) >= 0
	}
	return false
}

// escape reads a backslash escape into b; unknown escapes keep their
// backslash (a Windows path, a regular expression).
func (r *jsonReader) escape(b *strings.Builder) {
	c := r.s[r.i+1]
	r.i += 2
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case '"', '\'', '\\', '/', '`':
		b.WriteByte(c)
	case 'u':
		ru, ok := r.hex4()
		if !ok {
			b.WriteString(`\u`)
			return
		}
		if ru >= 0xD800 && ru < 0xDC00 && strings.HasPrefix(r.s[r.i:], `\u`) {
			save := r.i
			r.i += 2
			if lo, ok := r.hex4(); ok && lo >= 0xDC00 && lo < 0xE000 {
				ru = 0x10000 + (ru-0xD800)<<10 + (lo - 0xDC00)
			} else {
				r.i = save
			}
		}
		if ru >= 0xD800 && ru < 0xE000 {
			ru = utf8.RuneError
		}
		b.WriteRune(ru)
	default:
		b.WriteByte('\\')
		b.WriteByte(c)
	}
}

func (r *jsonReader) hex4() (rune, bool) {
	if r.i+4 > len(r.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(r.s[r.i:r.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	r.i += 4
	return rune(n), true
}

func (r *jsonReader) list() any {
	r.i++ // [
	l := &list{}
	if r.depth++; r.depth > maxDepth {
		r.stop(readBroken)
		l.cut = true
		return l
	}
	defer func() { r.depth-- }()
	for {
		r.space()
		if r.i >= len(r.s) {
			r.stop(readCut)
			l.cut = true
			return l
		}
		switch r.s[r.i] {
		case ']':
			r.i++
			return l
		case ',':
			r.i++
			continue
		}
		v := r.value()
		if v != nil || !r.done() {
			l.items = append(l.items, v)
		}
		if r.done() {
			l.cut = true
			return l
		}
		if !r.separator(']') {
			l.cut = true
			return l
		}
	}
}

// separator checks what follows a value inside a container closed by end:
// a comma, the closer, or (a forgotten comma) the start of another value.
func (r *jsonReader) separator(end byte) bool {
	r.space()
	if r.i >= len(r.s) {
		r.stop(readCut)
		return false
	}
	c := r.s[r.i]
	if c == ',' || c == end || c == '{' || c == '[' || c == '"' || c == '\'' || openQuote(r.s[r.i:]) != "" {
		return true
	}
	if end == '}' && isIdentStart(c) {
		return true // an unquoted key after a forgotten comma
	}
	r.stop(readBroken)
	return false
}

func (r *jsonReader) object() any {
	r.i++ // {
	o := &object{}
	if r.depth++; r.depth > maxDepth {
		r.stop(readBroken)
		o.cut = true
		return o
	}
	defer func() { r.depth-- }()
	for {
		r.space()
		if r.i >= len(r.s) {
			r.stop(readCut)
			o.cut = true
			return o
		}
		c := r.s[r.i]
		switch {
		case c == '}':
			r.i++
			return o
		case c == ',':
			r.i++
			continue
		}
		var key string
		switch {
		case c == '"' || c == '\'' || openQuote(r.s[r.i:]) != "":
			k := r.str()
			if ks, ok := k.(string); ok {
				key = ks
			}
		case isIdentStart(c):
			key = r.ident()
		default:
			r.stop(readBroken)
		}
		if !r.done() {
			r.space()
			switch {
			case r.i >= len(r.s):
				r.stop(readCut)
			case r.s[r.i] == ':' || r.s[r.i] == '=':
				r.i++
			default:
				r.stop(readBroken)
			}
		}
		if r.done() {
			o.cut = true
			return o
		}
		v := r.value()
		if v != nil || !r.done() {
			o.members = append(o.members, member{key: key, value: v})
		}
		if r.done() || !r.separator('}') {
			o.cut = true
			return o
		}
	}
}

// complete reports whether v and everything in it closed.
func complete(v any) bool {
	switch v := v.(type) {
	case *object:
		if v.cut {
			return false
		}
		for _, m := range v.members {
			if !complete(m.value) {
				return false
			}
		}
	case *list:
		if v.cut {
			return false
		}
		for _, it := range v.items {
			if !complete(it) {
				return false
			}
		}
	case cutString:
		return false
	}
	return true
}
