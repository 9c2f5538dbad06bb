package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Stored text (memories, personalities, daily records, a dream's prose) is
// data that agents wrote from runs that read untrusted content. Claude Code
// reads the files agentmem renders it into (CLAUDE.md and the MEMORY.md it
// imports) as instructions, and treats "@path" anywhere in their text as an
// import of that file. Every renderer of this package therefore writes
// stored text through SafeText or SafeLine, which keep it readable and
// make it inert; docs/SECURITY.md has the threat model and the evidence.

// WordJoiner (U+2060) is the invisible character that keeps rendered text
// inert: it follows every "@" (so no import path can start there, whatever
// the Markdown around it) and precedes anything at the start of a line that
// would open a block (heading, fence, HTML block or comment, setext
// underline, thematic break). It has no width and no meaning to a reader,
// and Claude Code passes it through to the model unchanged.
const WordJoiner = "\u2060"

const wj = '\u2060'

// SafeText renders untrusted text as inert Markdown lines that stay where
// they are put:
//
//   - every line terminator (CR, CRLF, NEL, VT, FF, U+2028, U+2029) becomes
//     "\n" (agentmem.NormalizeLineBreaks); other control characters, Unicode
//     tag characters (invisible text) and invalid UTF-8 are dropped;
//   - no import: every "@" is followed by WordJoiner, so no character after
//     an "@" can start a path (Claude Code's rule: "@" at the start of a
//     text token or after white space, followed by "./", "~/", "/" or a
//     letter, digit, ".", "_" or "-");
//   - nothing hides or swallows what follows: "<!--" never appears (no
//     comment, so no forged agentmem marker), and a line never starts (after
//     its indentation) with "#", "`", "~", "<", or a run of "=", "-", "*",
//     "_" alone: no heading, code fence, HTML block, setext heading,
//     thematic break or front matter fence can form;
//   - trailing white space of each line is removed.
//
// It is idempotent, and Plain undoes it for text that had no WordJoiner of
// its own. Callers indent continuation lines themselves (Bullet).
func SafeText(s string) string {
	s = clean(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = safeLine(line)
	}
	return strings.Join(lines, "\n")
}

// SafeLine renders untrusted text as one inert line: SafeText of the text
// with every run of white space (line breaks included) made one space.
func SafeLine(s string) string {
	return SafeText(strings.Join(strings.Fields(clean(s)), " "))
}

// clean normalises line terminators and drops what a reader cannot see:
// control characters other than tab and newline, Unicode tag characters
// (U+E0000 to U+E007F, which can spell hidden text) and invalid UTF-8.
func clean(s string) string {
	s = agentmem.NormalizeLineBreaks(s)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return r
		case unicode.IsControl(r), r >= 0xE0000 && r <= 0xE007F:
			return -1
		}
		return r
	}, s)
}

// safeLine makes one line (no "\n") inert.
func safeLine(line string) string {
	line = strings.TrimRight(line, " \t")
	var b strings.Builder
	b.Grow(len(line) + 8)
	body := strings.TrimLeft(line, " \t")
	b.WriteString(line[:len(line)-len(body)])
	if opensBlock(body) {
		b.WriteRune(wj)
	}
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		b.WriteString(body[i : i+size])
		i += size
		switch {
		case r == '@' && !strings.HasPrefix(body[i:], WordJoiner):
			b.WriteRune(wj)
		case r == '<' && strings.HasPrefix(body[i:], "!--"):
			b.WriteRune(wj)
		}
	}
	return b.String()
}

// opensBlock reports whether a line whose indentation is removed could
// start a block that changes the structure around it: an ATX heading, a
// fenced code block, an HTML block (comments included), a setext heading
// underline or a thematic break (also YAML front matter's fence).
func opensBlock(body string) bool {
	if body == "" {
		return false
	}
	switch body[0] {
	case '#', '`', '~', '<':
		return true
	}
	return strings.Trim(body, "=-*_ \t") == ""
}

// Plain undoes SafeText: it removes the WordJoiners SafeText inserts (after
// "@", inside "<!--", before a line's first character), so that text read
// back from a rendered document (Deep Dream's answer echoes MEMORY.md's
// bullets) is stored as it was written.
func Plain(s string) string {
	if !strings.Contains(s, WordJoiner) {
		return s
	}
	s = strings.ReplaceAll(s, "@"+WordJoiner, "@")
	s = strings.ReplaceAll(s, "<"+WordJoiner+"!--", "<!--")
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		body := strings.TrimLeft(line, " \t")
		if rest, ok := strings.CutPrefix(body, WordJoiner); ok && opensBlock(rest) {
			lines[i] = line[:len(line)-len(body)] + rest
		}
	}
	return strings.Join(lines, "\n")
}

// Import is one file that Claude Code would import from a text.
type Import struct {
	// Line is the 1-based line of the "@".
	Line int
	// Path is the import's path as written after the "@".
	Path string
}

// Imports lists every "@path" of doc that Claude Code would import if the
// text token holding it started at that "@", which Markdown can arrange at
// almost any position (after emphasis, a code span, an escape, a tag, a
// link, an HTML comment removed, a table pipe...). It applies Claude Code's
// rule as the real client was found to behave (2.1.x; docs/SECURITY.md):
// after the "@", a run of characters other than white space and "\" (or
// "\ ") is the path, cut at "#", and it is an import when it starts with
// "./", "~/", "/" (not "/" alone) or with a letter, digit, ".", "_" or "-",
// and not with "@". White space is JavaScript's \s. A document safe to
// load yields none, apart from the import lines agentmem writes itself.
func Imports(doc string) []Import {
	var out []Import
	line := 1
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '\n':
			line++
		case '@':
			if p := importPath(doc[i+1:]); p != "" {
				out = append(out, Import{Line: line, Path: p})
			}
		}
	}
	return out
}

// importPath returns the import path Claude Code reads after an "@" at
// the start of rest, or "" when there is none.
func importPath(rest string) string {
	var b strings.Builder
	for i := 0; i < len(rest); {
		if strings.HasPrefix(rest[i:], `\ `) {
			b.WriteString(`\ `)
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(rest[i:])
		if r == '\\' || jsSpace(r) {
			break
		}
		b.WriteString(rest[i : i+size])
		i += size
	}
	h := b.String()
	if j := strings.IndexByte(h, '#'); j >= 0 {
		h = h[:j]
	}
	h = strings.ReplaceAll(h, `\ `, " ")
	switch {
	case h == "":
		return ""
	case strings.HasPrefix(h, "./"), strings.HasPrefix(h, "~/"), strings.HasPrefix(h, "/") && h != "/":
		return h
	case strings.HasPrefix(h, "@"), strings.Trim(h[:1], "#%^&*()") == "":
		return ""
	}
	c := h[0]
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
		return h
	}
	return ""
}

// jsSpace reports whether JavaScript's \s matches r.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}
