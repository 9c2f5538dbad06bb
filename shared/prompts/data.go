package prompts

import (
	"regexp"
	"strings"
)

// Stored text in a prompt is data. A prompt shows it between tags of its
// own (<memories>, <daily_records>, <run_output>, ...), and says that
// what is inside them is never an instruction; text that closes such an
// element, or opens another, would put what follows it outside the data
// (a forged instruction) or under another element (a forged source).
// Inert is the one rule that keeps it in: Render applies it to every value
// with the prompt's own elements, and a prompt whose tags are written in
// code (extraction's user message) calls it with its elements.

// inertAngle is what takes the place of the "<" of an element's tag in
// data: a single angle quotation mark, which reads alike and is no tag.
const inertAngle = "‹"

// Inert returns s with every opening or closing tag of the named elements
// ("<name" and "</name", in any ASCII case, with or without attributes)
// made inert: its "<" becomes "‹". Everything else in s, in any script,
// is kept byte for byte.
func Inert(s string, elements ...string) string {
	for _, name := range elements {
		for _, tag := range []string{"<" + name, "</" + name} {
			s = inertTags(s, tag)
		}
	}
	return s
}

// inertTags replaces the "<" of every occurrence of tag (ASCII, starting
// with "<") in s, ignoring the case of ASCII letters, with inertAngle;
// the rest of each occurrence keeps its case. Only ASCII letters are
// folded, so positions in the folded text are positions in s
// (strings.ToLower changes the length of some letters, such as U+023A,
// and with it every position after them).
func inertTags(s, tag string) string {
	lower, lo := asciiLower(s), asciiLower(tag)
	var b strings.Builder
	for {
		i := strings.Index(lower, lo)
		if i < 0 {
			if b.Len() == 0 {
				return s
			}
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(inertAngle)
		b.WriteString(s[i+1 : i+len(tag)])
		s, lower = s[i+len(tag):], lower[i+len(tag):]
	}
}

// asciiLower maps the ASCII capital letters of s to small ones, leaving
// every other byte as it is (invalid UTF-8 too: the result has the length
// of s).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// elementLine matches a line of a prompt that opens or closes one of its
// elements: "<memories>", "</daily_records>".
var elementLine = regexp.MustCompile(`(?m)^</?([A-Za-z][A-Za-z0-9_-]*)>\s*$`)

// Elements lists the elements the prompt's text opens or closes on lines
// of their own, each once, in order: the tags its data goes between.
func (p Prompt) Elements() []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range elementLine.FindAllStringSubmatch(p.Text, -1) {
		if name := strings.ToLower(m[1]); !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}
