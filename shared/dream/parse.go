package dream

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/markdown"
)

// Section markers: [MEMORY] of a compression answer, [DREAM] of the
// diary prose a dream answer may write after its JSON.
const (
	MemoryMarker = "[MEMORY]"
	DreamMarker  = "[DREAM]"
)

// MaxDiaryBytes bounds the diary prose kept from a dream's answers.
const MaxDiaryBytes = 8 << 10

// sections splits an answer at its first [MEMORY] and [DREAM] markers
// (case-insensitive, either order) and drops code fence lines.
func sections(text string) (mem, diary string, hasMem, hasDream bool) {
	mi, di := indexASCIIFold(text, MemoryMarker), indexASCIIFold(text, DreamMarker)
	cut := func(from, other int, marker string) string {
		end := len(text)
		if other > from {
			end = other
		}
		return unfence(strings.TrimLeft(text[from+len(marker):end], "*_:# \t"))
	}
	if mi >= 0 {
		mem, hasMem = cut(mi, di, MemoryMarker), true
	}
	if di >= 0 {
		diary, hasDream = cut(di, mi, DreamMarker), true
		diary = strings.TrimRight(strings.TrimSpace(diary), "*_#")
	}
	return mem, diary, hasMem, hasDream
}

// indexASCIIFold is strings.Index ignoring the case of ASCII letters, on
// bytes, so that the index is valid in s whatever else s holds.
func indexASCIIFold(s, marker string) int {
	lower := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	for i := 0; i+len(marker) <= len(s); i++ {
		j := 0
		for j < len(marker) && lower(s[i+j]) == lower(marker[j]) {
			j++
		}
		if j == len(marker) {
			return i
		}
	}
	return -1
}

// unfence removes Markdown code fence lines, keeping what they enclose.
func unfence(s string) string {
	lines := strings.Split(s, "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool {
		l = strings.TrimSpace(l)
		return strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~")
	})
	return strings.Join(lines, "\n")
}

// truncate cuts s to at most n bytes at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n-len("…")]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// CompressedItem is one item of a compression answer: a summary of the
// memories whose ids it cites.
type CompressedItem struct {
	markdown.Item
	SourceIDs []string
}

// sourcesPattern matches an item's trailing "(sources: ID, ID)".
var sourcesPattern = regexp.MustCompile(`(?i)\(\s*(?:sources?|from|ids?)\s*:\s*([0-9A-Za-z ,;]*)\)\s*\.?\s*$`)

// ParseCompressed reads a compression answer: the items of its [MEMORY]
// section (or of the whole answer, when the marker is missing), each with
// the ids its trailing "(sources: ...)" cites. Items without sources are
// returned with none; the caller refuses them.
func ParseCompressed(text string) []CompressedItem {
	mem, _, hasMem, _ := sections(text)
	if !hasMem {
		mem = unfence(text)
	}
	var out []CompressedItem
	for _, it := range markdown.ParseItems(mem) {
		ci := CompressedItem{Item: it}
		if m := sourcesPattern.FindStringSubmatchIndex(it.Text); m != nil {
			for _, id := range strings.FieldsFunc(it.Text[m[2]:m[3]], func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
				ci.SourceIDs = append(ci.SourceIDs, strings.ToUpper(id))
			}
			ci.Text = strings.TrimSpace(it.Text[:m[0]])
		}
		if ci.Text != "" {
			out = append(out, ci)
		}
	}
	return out
}
