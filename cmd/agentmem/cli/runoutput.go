package cli

import (
	"strings"
	"unicode/utf8"
)

// PrepareOutput turns the tail of a run's output (raw, the last bytes of
// total) into the text extract sends: when the start was cut it begins at
// a whole line, terminal escape sequences and control characters are
// removed (CleanTerminalOutput), and surrounding blank space is trimmed.
// cut reports whether the start of the output is missing.
func PrepareOutput(raw []byte, total int64) (text string, cut bool) {
	s := string(raw)
	if cut = total > int64(len(raw)); cut {
		s = startAtLine(s, 0)
	}
	return strings.TrimSpace(CleanTerminalOutput(s)), cut
}

// startAtLine drops at least n bytes from the front of s, then the rest of
// a partial line (when a line break follows within 1 KiB), never splitting
// a character.
func startAtLine(s string, n int) string {
	if n >= len(s) {
		return ""
	}
	s = s[n:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < 1<<10 {
		s = s[i+1:]
	}
	return s
}

// CleanTerminalOutput removes what a terminal would interpret rather than
// show: ANSI escape sequences (CSI such as colours, OSC such as titles and
// links, and the other ESC forms), carriage-return overwrites (a progress
// line keeps only what was written last; CRLF becomes LF), and control
// characters other than tab and newline. Invalid UTF-8 becomes U+FFFD.
func CleanTerminalOutput(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	b := make([]byte, 0, len(s))
	lineStart := 0 // where the current line starts in b
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue // the '\n' comes next
			}
			// Overwrite: what follows replaces the line so far.
			b = b[:lineStart]
			i++
			continue
		case c == '\n':
			b = append(b, '\n')
			lineStart = len(b)
			i++
			continue
		case c == '\t':
			b = append(b, c)
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x80 && r <= 0x9f { // C1 controls
			i += size
			continue
		}
		b = append(b, s[i:i+size]...)
		i += size
	}
	return string(b)
}

// skipEscape returns the index just after the escape sequence at s[i]
// (s[i] is ESC). Unterminated sequences run to the end of s.
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for i++; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
			if s[i] < 0x20 || s[i] > 0x7e {
				return i // malformed: stop before the stray byte
			}
		}
		return i
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \)
		for i++; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return i
	}
	// nF (ESC, intermediates 0x20-0x2f, final) and two-byte forms (ESC =).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}
