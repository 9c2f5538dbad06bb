package markdown

import "strings"

// The import line inject adds to CLAUDE.md sits between these two lines,
// so that inject can tell its own line from one the role file has, and
// take it out again when there are no memories any more.
const (
	MemoryImportBegin = "<!-- agentmem:memory:begin -->"
	MemoryImportEnd   = "<!-- agentmem:memory:end -->"
)

// markerPairs are agentmem's delimited blocks in CLAUDE.md.
var markerPairs = [][2]string{
	{PersonalityBegin, PersonalityEnd},
	{MemoryImportBegin, MemoryImportEnd},
}

// SpliceClaudeMD returns the CLAUDE.md that inject writes: doc without any
// block an earlier inject wrote (StripClaudeMD), with the personality
// section (may be "") and, when importMemory is true, the delimited import
// line of MEMORY.md prepended above it, separated from it by one blank
// line. The import block is left out when the role instructions already
// have the import line, so that it appears once. Splicing is idempotent:
// SpliceClaudeMD(SpliceClaudeMD(d, s, i), s, i) == SpliceClaudeMD(d, s, i),
// and StripClaudeMD of the result is StripClaudeMD(d), byte for byte.
func SpliceClaudeMD(doc, personalitySection string, importMemory bool) string {
	body := StripClaudeMD(doc)
	var header strings.Builder
	if content := withoutMarkerLines(personalitySection); strings.TrimSpace(content) != "" {
		header.WriteString(PersonalityBegin + "\n")
		header.WriteString(content)
		if !strings.HasSuffix(content, "\n") {
			header.WriteByte('\n')
		}
		header.WriteString(PersonalityEnd + "\n")
	}
	if importMemory && !HasMemoryImport(body) {
		header.WriteString(MemoryImportBegin + "\n" + MemoryImport + "\n" + MemoryImportEnd + "\n")
	}
	switch {
	case header.Len() == 0:
		return body
	case body == "":
		return header.String()
	}
	return header.String() + "\n" + body
}

// StripClaudeMD returns doc without agentmem's blocks: every well-formed
// block (a begin marker line, the lines up to its end marker line) is
// removed, as is any marker line without its partner. When blocks open the
// document, the blank line that separated them from the rest goes too.
// Lines are compared without surrounding white space, so CRLF files work.
func StripClaudeMD(doc string) string {
	lines := strings.SplitAfter(doc, "\n")
	var out strings.Builder
	out.Grow(len(doc))
	removed, kept := false, false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if end, ok := beginMarker(line); ok {
			removed = true
			if j := blockEnd(lines, i, end); j > i {
				i = j // skip the whole block
			}
			// Without its end marker, only the marker line goes.
			continue
		}
		if isMarker(line) {
			removed = true // an end marker without its begin
			continue
		}
		if !kept && removed && strings.TrimSpace(line) == "" && line != "" {
			kept = true // the separator after the leading blocks
			continue
		}
		kept = true
		out.WriteString(line)
	}
	return out.String()
}

// HasMemoryImport reports whether doc has the line that imports MEMORY.md
// where Claude Code reads it as an import: a line of its own with at most
// three spaces of indentation, outside fenced code blocks, HTML comments
// and other HTML blocks (a role file that shows the line in an example or
// comments it out does not import MEMORY.md). It errs towards false: a line
// it does not count only makes SpliceClaudeMD add its own import block, and
// Claude Code loads a file imported twice once.
func HasMemoryImport(doc string) bool {
	fence := ""   // the fence of the open code block
	htmlEnd := "" // what ends the open HTML block; "\n" for a blank line
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimRight(line, " \t\r")
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		switch {
		case fence != "":
			if indent <= 3 && strings.HasPrefix(body, fence) && strings.Trim(body, fence[:1]) == "" {
				fence = ""
			}
			continue
		case htmlEnd == "\n":
			if body == "" {
				htmlEnd = ""
			}
			continue
		case htmlEnd != "":
			if strings.Contains(strings.ToLower(line), htmlEnd) {
				htmlEnd = ""
			}
			continue
		case indent > 3:
			continue
		}
		if fence = openingFence(body); fence != "" {
			continue
		}
		if strings.HasPrefix(body, "<") {
			if htmlEnd = htmlBlockEnd(body); htmlEnd != "\n" && strings.Contains(strings.ToLower(body[1:]), htmlEnd) {
				htmlEnd = "" // a block that ends on its first line
			}
			continue
		}
		if body == MemoryImport {
			return true
		}
	}
	return false
}

// openingFence returns the run of "`" or "~" (three or more) that opens a
// fenced code block at the start of body, or "".
func openingFence(body string) string {
	if body == "" || body[0] != '`' && body[0] != '~' {
		return ""
	}
	n := len(body) - len(strings.TrimLeft(body, body[:1]))
	if n < 3 || body[0] == '`' && strings.Contains(body[n:], "`") {
		return ""
	}
	return body[:n]
}

// htmlBlockEnd returns what ends the HTML block that a line starting with
// "<" opens (CommonMark's kinds 1 to 5), in lower case, or "\n" when a
// blank line ends it. Any other line starting with "<" is taken for an
// HTML block too, which can only make HasMemoryImport say false.
func htmlBlockEnd(body string) string {
	lower := strings.ToLower(body)
	for _, tag := range []string{"pre", "script", "style", "textarea"} {
		if rest, ok := strings.CutPrefix(lower, "<"+tag); ok && (rest == "" || strings.ContainsAny(rest[:1], " \t>")) {
			return "</" + tag + ">"
		}
	}
	switch {
	case strings.HasPrefix(lower, "<!--"):
		return "-->"
	case strings.HasPrefix(lower, "<?"):
		return "?>"
	case strings.HasPrefix(lower, "<![cdata["):
		return "]]>"
	case strings.HasPrefix(lower, "<!"):
		return ">"
	}
	return "\n"
}

// IsMemoryFile reports whether content is a MEMORY.md that MemoryFile
// rendered: its title line, then its fixed introduction (inject only
// removes a stale MEMORY.md it wrote itself, never a person's notes that
// happen to be titled "# Memory: ...").
func IsMemoryFile(content string) bool {
	title, rest, _ := strings.Cut(content, "\n")
	return strings.HasPrefix(title, memoryTitle) && strings.HasPrefix(rest, "\n"+memoryIntro+"\n")
}

// blockEnd returns the index of the end marker closing the block opened at
// lines[i], or -1 when another marker or the end of doc comes first.
func blockEnd(lines []string, i int, end string) int {
	for j := i + 1; j < len(lines); j++ {
		switch t := strings.TrimSpace(lines[j]); {
		case t == end:
			return j
		case isMarker(lines[j]):
			return -1
		}
	}
	return -1
}

func beginMarker(line string) (end string, ok bool) {
	t := strings.TrimSpace(line)
	for _, p := range markerPairs {
		if t == p[0] {
			return p[1], true
		}
	}
	return "", false
}

func isMarker(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range markerPairs {
		if t == p[0] || t == p[1] {
			return true
		}
	}
	return false
}

// withoutMarkerLines drops marker lines from a section, so that the block
// inject writes is always well formed whatever the server sent.
func withoutMarkerLines(s string) string {
	if !strings.Contains(s, "<!-- agentmem:") {
		return s
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if !isMarker(line) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// CloseBlocks returns text with what it leaves open at its end closed: a
// fenced code block (its fence repeated on a line of its own) and an HTML
// comment ("-->"). A text shown among others in Markdown (a daily record in
// the dream prompt) then cannot turn the texts after it into its code or
// its comment.
func CloseBlocks(text string) string {
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		switch {
		case indent > 3:
		case fence != "":
			if strings.HasPrefix(body, fence) && strings.Trim(body, fence[:1]) == "" {
				fence = ""
			}
		default:
			fence = openingFence(body)
		}
	}
	if fence == "" && strings.LastIndex(text, "<!--") > strings.LastIndex(text, "-->") {
		text += " -->"
	}
	if fence != "" {
		text += "\n" + fence
	}
	return text
}
