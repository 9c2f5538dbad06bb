package search

import (
	"strings"
	"unicode"
)

// NormalizeText returns s in the form used to detect exact duplicates of
// learnings: lower-cased, runs of white space collapsed to one space, and
// punctuation and white space stripped from both ends ("  Use  pgx.
// " and "use pgx" normalise alike). Punctuation inside the text is kept.
func NormalizeText(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}
