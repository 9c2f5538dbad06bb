package markdown_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

func mem(typ agentmem.Type, at, content string) agentmem.Memory {
	return agentmem.Memory{Type: typ, CreatedAt: at, Content: content}
}

func TestDocument(t *testing.T) {
	t.Parallel()
	decision := mem(agentmem.TypeDecision, "2026-02-01T10:00:00.000000000Z", "ORM: use sqlc | not GORM")
	decision.Rationale = "typed queries,\nno magic"
	plain := mem(agentmem.TypeDecision, "2026-02-02T09:00:00.000000000Z", "Keep the REST API")
	open := mem(agentmem.TypeBlocker, "2026-02-01T11:00:00.000000000Z", "CI has no   Docker")
	open.Status = agentmem.StatusOpen
	resolved := mem(agentmem.TypeBlocker, "2026-02-01T12:00:00.000000000Z", "Flaky ~ test")
	resolved.Status = agentmem.StatusResolved
	pinned := mem(agentmem.TypeFinding, "2026-02-01T09:00:00.000000000Z", "Webhooks retry 3 times")
	pinned.Pinned = true
	memories := []agentmem.Memory{ // newest first, as the API lists them
		mem(agentmem.TypeSession, "2026-02-03T08:00:00.000000000Z", "Second session.\n# not a heading"),
		plain,
		mem(agentmem.TypeNote, "2026-02-02T08:00:00.000000000Z", "a note"),
		mem(agentmem.TypeSession, "2026-02-01T18:00:00.000000000Z", "First session: set up CI."),
		resolved, open, decision,
		mem(agentmem.TypeFinding, "2026-02-01T09:30:00.000000000Z", "Orders table has no index on\nuser_id"),
		pinned,
	}
	want := `---
agent: nori
project: checkout-service
created: 2026-02-01
updated: 2026-02-03
sessions: 2
---

# Agent Memory: nori (checkout-service)

## Findings
- 📌 Webhooks retry 3 times
- Orders table has no index on
  user_id

## Decisions
| Decision | Choice | Rationale | Date |
|----------|--------|-----------|------|
| ORM | use sqlc \| not GORM | typed queries,<br>no magic | 2026-02-01 |
|  | Keep the REST API |  | 2026-02-02 |

## Blockers
- [ ] CI has no Docker
- [x] ~~Flaky \~ test~~

## Notes
- a note

## Session Log
### Session 1 — 2026-02-01
First session: set up CI.

### Session 2 — 2026-02-03
Second session.
` + markdown.WordJoiner + `# not a heading
`
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if got := markdown.Document("nori", "checkout-service", memories, now); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDecisionStaysInItsCells: whatever backslashes and pipes a decision
// holds, its row of the Decisions table has exactly its four cells, by the
// rule of the renderers that count backslashes (a "|" after an even number
// of them ends a cell).
func TestDecisionStaysInItsCells(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, content, rationale string }{
		{"plain pipe", "ORM: sqlc | GORM", "a | b"},
		{"escaped pipe", `ORM: sqlc \| GORM`, `a \| b`},
		{"escaped backslash", `ORM: sqlc \\| GORM`, `a \\| b`},
		{"three backslashes", `ORM: sqlc \\\| GORM`, `a \\\| b`},
		{"trailing backslash", `ORM: sqlc \`, `b \`},
		{"pipe after a line break", "ORM: sqlc\n| GORM |", "x\n\\| y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mem(agentmem.TypeDecision, "2026-02-01T10:00:00.000000000Z", tt.content)
			m.Rationale = tt.rationale
			doc := markdown.Document("nori", "p", []agentmem.Memory{m}, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
			_, rest, _ := strings.Cut(doc, "|------|\n")
			row, _, _ := strings.Cut(rest, "\n")
			if got := cellEnds(row); got != 5 {
				t.Errorf("row %q has %d cell boundaries, want 5 (four cells)", row, got)
			}
		})
	}
}

// cellEnds counts the pipes of a table row that end a cell: those after an
// even number of backslashes.
func cellEnds(row string) int {
	n, backslashes := 0, 0
	for _, r := range row {
		if r == '|' && backslashes%2 == 0 {
			n++
		}
		if r == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
	}
	return n
}

func TestDocumentEmpty(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 15, 0, 0, 0, time.UTC)
	want := `---
agent: nori
project: "2026"
created: 2026-03-01
updated: 2026-03-01
sessions: 0
---

# Agent Memory: nori (2026)

## Findings

## Decisions
| Decision | Choice | Rationale | Date |
|----------|--------|-----------|------|

## Blockers

## Session Log
`
	if got := markdown.Document("nori", "2026", nil, now); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSplitDecision(t *testing.T) {
	t.Parallel()
	tests := []struct{ content, topic, choice string }{
		{"ORM: use sqlc", "ORM", "use sqlc"},
		{"Use sqlc for the orders queries", "", "Use sqlc for the orders queries"},
		{"see https://example.com/x", "", "see https://example.com/x"},
		{"a|b: c", "", "a|b: c"},
		{strings.Repeat("t", 61) + ": c", "", strings.Repeat("t", 61) + ": c"},
		{"line\nbreak: c", "", "line\nbreak: c"},
		{"Topic:   spaced", "Topic", "spaced"},
		{"Topic:", "", "Topic:"},
	}
	for _, tt := range tests {
		topic, choice := markdown.SplitDecision(tt.content)
		if topic != tt.topic || choice != tt.choice {
			t.Errorf("SplitDecision(%q): got (%q, %q), want (%q, %q)", tt.content, topic, choice, tt.topic, tt.choice)
		}
	}
}

func FuzzSplitDecision(f *testing.F) {
	f.Add("ORM", "use sqlc")
	f.Add("", "a: b")
	f.Add("x|y", "z")
	f.Fuzz(func(t *testing.T, topic, choice string) {
		content := markdown.JoinDecision(topic, choice)
		gotTopic, gotChoice := markdown.SplitDecision(content)
		if gotTopic+gotChoice == "" && strings.TrimSpace(content) != "" {
			t.Fatalf("SplitDecision(%q) lost the content", content)
		}
		topic, choice = strings.TrimSpace(topic), strings.TrimSpace(choice)
		representable := topic != "" && choice != "" && len(topic) <= 60 && !strings.ContainsAny(topic, ":|\n")
		if representable && (gotTopic != topic || gotChoice != choice) {
			t.Fatalf("JoinDecision(%q, %q) = %q splits into (%q, %q)", topic, choice, content, gotTopic, gotChoice)
		}
	})
}

// FuzzDocument checks the document's structure whatever the memories say:
// the front matter stays five lines, each decision stays one table row of
// four cells, and each blocker stays one list item.
func FuzzDocument(f *testing.F) {
	f.Add("ORM: sqlc", "why | not", "blocker\nline", "notes\n## Findings", "a-b")
	f.Add("", "", "", "", "x")
	f.Fuzz(func(t *testing.T, decision, rationale, blocker, session, project string) {
		ms := []agentmem.Memory{
			{Type: agentmem.TypeDecision, Content: decision, Rationale: rationale, CreatedAt: "2026-01-01T00:00:00.000000000Z"},
			{Type: agentmem.TypeBlocker, Content: blocker, Status: agentmem.StatusResolved, CreatedAt: "2026-01-02T00:00:00.000000000Z"},
			{Type: agentmem.TypeSession, Content: session, CreatedAt: "2026-01-03T00:00:00.000000000Z"},
		}
		doc := markdown.Document("nori", project, ms, time.Unix(0, 0))
		lines := strings.Split(doc, "\n")
		if lines[0] != "---" || lines[6] != "---" || !strings.HasPrefix(lines[5], "sessions: 1") {
			t.Fatalf("front matter broken:\n%s", doc)
		}
		var rows, items int
		for _, l := range lines {
			if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| Decision |") {
				rows++
				if n := unescapedPipes(l); n != 5 {
					t.Fatalf("decision row has %d cell separators, want 5: %q", n, l)
				}
			}
			if strings.HasPrefix(l, "- [x] ") {
				items++
			}
		}
		if rows != 1 || items != 1 {
			t.Fatalf("got %d decision rows and %d blocker items, want 1 and 1:\n%s", rows, items, doc)
		}
		if strings.Count(doc, "\n## ") != 4 || strings.Count(doc, "\n### Session ") != 1 {
			t.Fatalf("sections broken:\n%s", doc)
		}
	})
}

func unescapedPipes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			n++
		}
	}
	return n
}
