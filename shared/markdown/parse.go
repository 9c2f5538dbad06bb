package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Item is one list item of a Markdown memory document (MEMORY.md, or the
// [MEMORY] section of a compression answer), with the "## " heading it
// stands under.
type Item struct {
	Heading string
	// Type is the memory type the heading maps to (TypeForHeading); items
	// before any heading are notes.
	Type agentmem.Type
	// Text is the item's text: its first line and, joined with "\n", its
	// indented continuation lines, each trimmed.
	Text string
}

// ParseItems reads the list items of a Markdown document, the inverse of
// MemoryFile. It is lenient about what models write:
// "-", "*", "+" and numbered ("1." or "1)") items, up to three spaces of
// indentation, any heading level from "##" down ("# " titles reset the
// heading), CRLF line ends. Indented lines after an item continue it
// (pattern fields, nested lists); a blank line or a non-indented line of
// prose ends it; prose is otherwise ignored. Empty items are skipped.
func ParseItems(doc string) []Item {
	var items []Item
	heading := ""
	typ := agentmem.TypeNote
	var cur *Item
	for _, line := range strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			cur = nil
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		body := strings.TrimSpace(line)
		if cur != nil && indent >= 2 && !(indent <= 3 && isItem(body)) {
			cur.Text += "\n" + body
			continue
		}
		cur = nil
		if level, title := headingOf(body); level > 0 && indent <= 3 {
			if level == 1 {
				heading, typ = "", agentmem.TypeNote
			} else {
				heading, typ = title, TypeForHeading(title)
			}
			continue
		}
		if indent > 3 || !isItem(body) {
			continue
		}
		text := strings.TrimSpace(itemText(body))
		if text == "" {
			continue
		}
		items = append(items, Item{Heading: heading, Type: typ, Text: text})
		cur = &items[len(items)-1]
	}
	return items
}

// headingOf returns the level and text of an ATX heading line, or 0.
func headingOf(s string) (int, string) {
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, ""
	}
	return level, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[level:]), "#"))
}

// isItem reports whether s (trimmed) starts a list item.
func isItem(s string) bool { return itemText(s) != s }

// itemText returns s without its list marker, or s itself when it has
// none.
func itemText(s string) string {
	if s == "-" || s == "*" || s == "+" {
		return ""
	}
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		return s[2:]
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && (s[i+1] == ' ' || s[i+1] == '\t') {
		return s[i+2:]
	}
	return s
}

// Pin marks a pinned memory's bullet (see Bullet).
const Pin = "📌"

// MemoryFromItem turns a list item back into a memory of type t: the
// inverse of Bullet. A decision's trailing "(why: ...)" becomes its
// rationale; a blocker's "[ ]" or "[x]" its status (open by default); a
// pattern's "When:", "Context:", "Do:" and "Confidence:" lines its typed
// fields. A leading pin sets Pinned. What SafeText added to make the text
// inert is removed (Plain). Only content and typed fields are set; the
// caller adds scope, source and the rest.
func MemoryFromItem(t agentmem.Type, text string) agentmem.Memory {
	if !t.Valid() {
		t = agentmem.TypeNote
	}
	m := agentmem.Memory{Type: t}
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, Pin); ok {
		m.Pinned, text = true, strings.TrimSpace(rest)
	}
	// Rendered bullets carry SafeText's word joiners; store the text as
	// it was written.
	text = Plain(text)
	switch t {
	case agentmem.TypeDecision:
		if i := strings.LastIndex(text, "(why:"); i >= 0 && strings.HasSuffix(text, ")") {
			m.Rationale = strings.TrimSpace(text[i+len("(why:") : len(text)-1])
			text = strings.TrimSpace(text[:i])
		}
	case agentmem.TypeBlocker:
		m.Status = agentmem.StatusOpen
		switch {
		case strings.HasPrefix(text, "[ ]"):
			text = strings.TrimSpace(text[3:])
		case strings.HasPrefix(text, "[x]"), strings.HasPrefix(text, "[X]"):
			m.Status, text = agentmem.StatusResolved, strings.TrimSpace(text[3:])
		}
	case agentmem.TypePattern:
		lines := strings.Split(text, "\n")
		var content []string
		for _, l := range lines {
			key, value, ok := strings.Cut(l, ":")
			value = strings.TrimSpace(value)
			switch {
			case ok && len(content) > 0 && key == "When":
				m.Trigger = value
			case ok && len(content) > 0 && key == "Context":
				m.Context = value
			case ok && len(content) > 0 && key == "Do":
				m.Solution = value
			case ok && len(content) > 0 && key == "Confidence":
				if c, err := strconv.ParseFloat(value, 64); err == nil && c >= 0 && c <= 1 {
					m.Confidence = &c
				}
			default:
				content = append(content, l)
			}
		}
		text = strings.Join(content, "\n")
	}
	m.Content = strings.TrimSpace(text)
	if !utf8.ValidString(m.Content) {
		m.Content = strings.ToValidUTF8(m.Content, "\uFFFD")
	}
	return m
}
