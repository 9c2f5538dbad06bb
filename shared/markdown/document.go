package markdown

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// DocumentHeader is the YAML front matter of the seed-004 memory document.
type DocumentHeader struct {
	Agent   string `json:"agent"`
	Project string `json:"project"`
	// Created and Updated are the dates (YYYY-MM-DD, UTC) of the oldest and
	// newest memory; both are the render date when there are none.
	Created string `json:"created"`
	Updated string `json:"updated"`
	// Sessions counts the memories of type session.
	Sessions int `json:"sessions"`
}

// NewDocumentHeader computes the front matter for memories (any order).
func NewDocumentHeader(agent, project string, memories []agentmem.Memory, now time.Time) DocumentHeader {
	h := DocumentHeader{Agent: agent, Project: project}
	for _, m := range memories {
		d := dateOf(m.CreatedAt)
		if h.Created == "" || d < h.Created {
			h.Created = d
		}
		if d > h.Updated {
			h.Updated = d
		}
		if m.Type == agentmem.TypeSession {
			h.Sessions++
		}
	}
	if h.Created == "" {
		h.Created = now.UTC().Format(time.DateOnly)
		h.Updated = h.Created
	}
	return h
}

// Document renders the memory document of seed 004 for an agent in a
// project: YAML front matter (agent, project, created, updated, sessions),
// then the sections Findings, Decisions (a table), Blockers, any
// Learnings, Patterns and Notes, and the Session Log. Each section lists
// its memories oldest first, the order they were added in.
//
// A decision's columns: Choice is the memory's content and Rationale its
// rationale. Decision, the question the choice answers, is filled when the
// content reads "TOPIC: CHOICE" with a one-line topic of at most 60
// characters (what `agentmem add ... decision --topic` stores); otherwise
// it is empty. Date is the day the memory was created.
func Document(agent, project string, memories []agentmem.Memory, now time.Time) string {
	h := NewDocumentHeader(agent, project, memories, now)
	sorted := slices.Clone(memories)
	slices.SortStableFunc(sorted, func(a, b agentmem.Memory) int { return strings.Compare(a.CreatedAt, b.CreatedAt) })
	byType := groupByType(sorted)

	var b strings.Builder
	fmt.Fprintf(&b, "---\nagent: %s\nproject: %s\ncreated: %s\nupdated: %s\nsessions: %d\n---\n\n",
		yamlScalar(h.Agent), yamlScalar(h.Project), h.Created, h.Updated, h.Sessions)
	fmt.Fprintf(&b, "# Agent Memory: %s (%s)\n", oneLine(agent), oneLine(project))

	b.WriteString("\n## Findings\n")
	bullets(&b, byType[agentmem.TypeFinding])

	b.WriteString("\n## Decisions\n| Decision | Choice | Rationale | Date |\n|----------|--------|-----------|------|\n")
	for _, m := range byType[agentmem.TypeDecision] {
		topic, choice := SplitDecision(m.Content)
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", tableCell(topic), tableCell(choice), tableCell(m.Rationale), dateOf(m.CreatedAt))
	}

	b.WriteString("\n## Blockers\n")
	for _, m := range byType[agentmem.TypeBlocker] {
		text := oneLine(m.Content)
		if m.Status == agentmem.StatusResolved {
			fmt.Fprintf(&b, "- [x] ~~%s~~\n", strings.ReplaceAll(text, "~", `\~`))
		} else {
			fmt.Fprintf(&b, "- [ ] %s\n", text)
		}
	}

	for _, t := range []agentmem.Type{agentmem.TypeLearning, agentmem.TypePattern, agentmem.TypeNote} {
		if group := byType[t]; len(group) > 0 {
			fmt.Fprintf(&b, "\n## %s\n", Heading(t))
			bullets(&b, group)
		}
	}

	b.WriteString("\n## Session Log\n")
	for i, m := range byType[agentmem.TypeSession] {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "### Session %d — %s\n%s\n", i+1, dateOf(m.CreatedAt), paragraph(m.Content))
	}
	return b.String()
}

// groupByType groups memories by type, keeping their order; memories of
// an unknown type count as notes.
func groupByType(memories []agentmem.Memory) map[agentmem.Type][]agentmem.Memory {
	byType := map[agentmem.Type][]agentmem.Memory{}
	for _, m := range memories {
		t := m.Type
		if !t.Valid() {
			t = agentmem.TypeNote
		}
		byType[t] = append(byType[t], m)
	}
	return byType
}

// decisionTopic is "TOPIC: CHOICE" with a short one-line topic.
var decisionTopic = regexp.MustCompile(`^([^\n:|]{1,60}): +(\S[\s\S]*)$`)

// SplitDecision splits a decision's content into its topic (the Decision
// column) and its choice; topic is "" when content has no "TOPIC: " prefix.
func SplitDecision(content string) (topic, choice string) {
	content = strings.TrimSpace(content)
	if m := decisionTopic.FindStringSubmatch(content); m != nil && strings.TrimSpace(m[1]) != "" {
		return strings.TrimSpace(m[1]), m[2]
	}
	return "", content
}

// JoinDecision is the content that stores a choice with its topic, the
// inverse of SplitDecision.
func JoinDecision(topic, choice string) string {
	topic, choice = strings.TrimSpace(topic), strings.TrimSpace(choice)
	if topic == "" {
		return choice
	}
	return topic + ": " + choice
}

func bullets(b *strings.Builder, ms []agentmem.Memory) {
	for _, m := range ms {
		b.WriteString("- ")
		b.WriteString(Bullet(m))
		b.WriteByte('\n')
	}
}

// tableCell keeps a value inside one Markdown table cell, inert.
func tableCell(s string) string {
	lines := strings.Split(strings.Trim(SafeText(strings.TrimSpace(s)), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return cellPipes(strings.Join(lines, "<br>"))
}

// cellPipes escapes every "|" of s so that no table cell ends at it: a
// pipe after an even number of backslashes (none included) gets one more.
// "\\|" is an escaped backslash and then the cell's end to renderers
// that count the backslashes (marked's splitCells, for one), while an odd
// count is an escaped pipe to every renderer.
func cellPipes(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	backslashes := 0
	for _, r := range s {
		if r == '|' && backslashes%2 == 0 {
			b.WriteByte('\\')
		}
		if r == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
		b.WriteRune(r)
	}
	return b.String()
}

// paragraph keeps session notes inert (SafeText): no heading, fence or
// comment of their own.
func paragraph(s string) string { return strings.Trim(SafeText(strings.TrimSpace(s)), "\n") }

func dateOf(createdAt string) string {
	if t, err := agentmem.ParseTime(createdAt); err == nil {
		return t.UTC().Format(time.DateOnly)
	}
	if len(createdAt) >= 10 {
		return createdAt[:10]
	}
	return createdAt
}

// plainYAML is a scalar YAML reads back as the same string unquoted.
var plainYAML = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9._-]*$`)

// yamlScalar renders s as a YAML string: plain when that reads back as the
// same string, double-quoted otherwise.
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf":
		return `"` + s + `"`
	}
	if plainYAML.MatchString(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
