package agentmem

import "strings"

// lineBreaks turns every line terminator a reader may honour into "\n":
// CRLF and a lone CR, NEL (U+0085), the vertical tab and form feed, and the
// Unicode line and paragraph separators (U+2028, U+2029). Claude Code's
// import rule counts all but NEL as white space before an "@", and editors
// show them as new lines; stored text uses "\n" only, so that a renderer
// sees every line it writes.
var lineBreaks = strings.NewReplacer(
	"\r\n", "\n",
	"\r", "\n",
	"\u0085", "\n",
	"\v", "\n",
	"\f", "\n",
	"\u2028", "\n",
	"\u2029", "\n",
)

// NormalizeLineBreaks returns s with every line terminator (CRLF, CR, NEL,
// VT, FF, U+2028, U+2029) written as "\n". The text is otherwise kept as
// it was written: making it safe to load is the renderer's job
// (shared/markdown), which normalises again.
func NormalizeLineBreaks(s string) string {
	if !strings.ContainsAny(s, "\r\u0085\v\f\u2028\u2029") { // lineTerminators but "\n"
		return s
	}
	return lineBreaks.Replace(s)
}

// lineTerminators are the characters NormalizeLineBreaks turns into "\n".
const lineTerminators = "\r\n\u0085\v\f\u2028\u2029"

// hasLineBreak reports whether s holds any line terminator.
func hasLineBreak(s string) bool { return strings.ContainsAny(s, lineTerminators) }

// normalizeText is the write-time form of a stored text field: line
// terminators normalised, surrounding white space trimmed.
func normalizeText(s string) string { return strings.TrimSpace(NormalizeLineBreaks(s)) }
