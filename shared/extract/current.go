package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/prompts"
	"github.com/agentmem/agentmem/shared/search"
)

// The scope's current memories in the prompt: so that the model does not
// repeat what is stored, and can say that a learning replaces a memory
// the run shows out of date ("replaces": "m3"). Bounded: at most MaxShown
// memories and MaxShownBytes of text, the most relevant to the run's
// output first, then the newest; each under a short reference, m1, m2,
// ..., which Run resolves to the memory's id.
const (
	// MaxShown is the most memories the prompt shows.
	MaxShown = 40
	// MaxShownBytes bounds the text of the memories shown (about 1.5k
	// tokens).
	MaxShownBytes = 6 << 10
	// maxShownLine clips one memory's line.
	maxShownLine = 320
)

// ShownMemories returns the memories of ms (a scope's live memories) that
// the prompt for output shows, in the order it shows them: those most
// relevant to the output's tail (BM25 over the memories' text) first, then
// the newest others, at most MaxShown and MaxShownBytes of lines. Session
// notes are never shown.
func ShownMemories(output string, ms []agentmem.Memory) []agentmem.Memory {
	var candidates []agentmem.Memory
	for _, m := range ms {
		if m.Type != agentmem.TypeSession && m.ID != "" {
			candidates = append(candidates, m)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	tail, _ := Tail(output, MaxOutputBytes)
	docs := make([]search.Doc, len(candidates))
	byID := make(map[string]agentmem.Memory, len(candidates))
	for i, m := range candidates {
		docs[i] = search.Doc{ID: m.ID, Text: search.MemoryText(m)}
		byID[m.ID] = m
	}
	var order []agentmem.Memory
	seen := map[string]bool{}
	for _, h := range search.Lexical(tail, docs) {
		if h.Score > 0 && !seen[h.ID] {
			order, seen[h.ID] = append(order, byID[h.ID]), true
		}
	}
	newest := slices.Clone(candidates)
	slices.SortStableFunc(newest, func(a, b agentmem.Memory) int { return strings.Compare(b.CreatedAt, a.CreatedAt) })
	for _, m := range newest {
		if !seen[m.ID] {
			order, seen[m.ID] = append(order, m), true
		}
	}
	var out []agentmem.Memory
	used := 0
	for _, m := range order {
		if len(out) == MaxShown {
			break
		}
		n := len(shownLine(len(out), m)) + 1
		if used+n > MaxShownBytes {
			continue // a shorter one may still fit
		}
		used += n
		out = append(out, m)
	}
	return out
}

// RefOf is the prompt reference of the i-th memory shown (0-based): m1,
// m2, ...
func RefOf(i int) string { return "m" + strconv.Itoa(i+1) }

// shownLine renders the i-th memory shown as one line: its reference,
// type and text with its typed fields, clipped. The text is data: a
// closing tag inside it cannot end the list.
func shownLine(i int, m agentmem.Memory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s] %s", RefOf(i), m.Type, oneLine(m.Content))
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, " | %s: %s", name, oneLine(v))
		}
	}
	field("rationale", m.Rationale)
	field("status", m.Status)
	field("trigger", m.Trigger)
	field("context", m.Context)
	field("solution", m.Solution)
	line := b.String()
	if len(line) > maxShownLine {
		cut := maxShownLine - 3
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "..."
	}
	return neutralizeTags(line)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// neutralizeTags keeps text from closing or opening the prompt's own
// elements (prompts.Inert).
func neutralizeTags(s string) string { return prompts.Inert(s, "current_memories", "run_output") }

// currentBlock is the part of the user message that lists the memories
// shown.
func currentBlock(shown []agentmem.Memory) string {
	if len(shown) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<current_memories>\n")
	for i, m := range shown {
		b.WriteString(shownLine(i, m))
		b.WriteByte('\n')
	}
	b.WriteString("</current_memories>\n\n")
	return b.String()
}

// resolveReplaces turns the replaces reference of each learning into the
// id of the memory shown under it (a reference "m3", or the id of a memory
// shown). A reference to no memory shown is dropped, the learning kept as
// a new one, and a note says so.
func resolveReplaces(res *Result, shown []agentmem.Memory) {
	for i := range res.Learnings {
		l := &res.Learnings[i]
		ref := l.Replaces
		if ref == "" {
			continue
		}
		l.Replaces = ""
		if n, err := strconv.Atoi(strings.TrimPrefix(ref, "m")); err == nil && strings.HasPrefix(ref, "m") && n >= 1 && n <= len(shown) {
			l.Replaces = shown[n-1].ID
			continue
		}
		if j := slices.IndexFunc(shown, func(m agentmem.Memory) bool { return m.ID == ref }); j >= 0 {
			l.Replaces = ref
			continue
		}
		res.Notes = append(res.Notes, fmt.Sprintf("learning %q says it replaces %q, which names no memory shown to the model; it is saved as a new learning", clip(l.Content, 80), clip(ref, 40)))
	}
}
