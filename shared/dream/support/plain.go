package support

import (
	"regexp"
	"strings"
)

// Models write the same fact in many dresses: a list item, a bold lead,
// "~35%", "$1.8k". plainText takes the dress off before a claim or a
// source is read, the same way for both, so that only what is said is
// compared. Code spans are left as written: they are identifiers.

var (
	// listMarker is a Markdown list marker, quote marker or heading at
	// the start of a line: "- ", "* ", "+ ", "• ", "1. ", "1) ", "> ", "## ".
	listMarker = regexp.MustCompile(`(?m)^[ \t]*(?:[-*+•][ \t]+|\d{1,3}[.)][ \t]+|>[ \t]*|#{1,6}[ \t]+)`)
	// emphasis is bold or italic around a word or words: **x**, __x__, *x*.
	emphasis = regexp.MustCompile(`\*\*([^*\n]+)\*\*|(^|[\s(])__([^_\n]+)__([\s).,;:!?]|$)|(^|[\s(])\*([^*\s\n][^*\n]*)\*([\s).,;:!?]|$)`)
	// arrow is an arrow between two values ("8.11 -> 8.13"), read "to".
	arrow = regexp.MustCompile(`\s(?:->|-->|=>|→|⇒)\s`)
	// approx is a sign of an approximate number ("~35%", "≈ 2 s").
	approx = regexp.MustCompile(`(^|[\s(])[~≈][ \t]?(\d)`)
)

// plainText strips Markdown dress (list markers, headings, emphasis)
// and approximation signs from s outside its code spans, and reads an
// arrow between two words as "to".
func plainText(s string) string {
	if lineMarked(s) {
		s = listMarker.ReplaceAllString(s, "")
	}
	if !strings.ContainsAny(s, "*_~≈>→⇒") {
		return s
	}
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 { // even parts are outside code spans
		p := parts[i]
		if strings.Contains(p, "**") || strings.Contains(p, "__") || strings.Contains(p, "*") {
			p = emphasis.ReplaceAllString(p, "$1$2$3$4$5$6$7")
		}
		if strings.ContainsAny(p, ">→⇒") {
			p = arrow.ReplaceAllString(p, " to ")
		}
		if strings.ContainsAny(p, "~≈") {
			p = approx.ReplaceAllString(p, "$1$2")
		}
		parts[i] = p
	}
	return strings.Join(parts, "`")
}

// lineMarked reports whether a line of s may start with a list marker,
// a quote marker or a heading (what listMarker removes).
func lineMarked(s string) bool {
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimLeft(line, " \t")
		if line == "" {
			continue
		}
		switch c := line[0]; {
		case strings.IndexByte("-*+>#", c) >= 0, c >= '0' && c <= '9', strings.HasPrefix(line, "•"):
			return true
		}
	}
	return false
}
