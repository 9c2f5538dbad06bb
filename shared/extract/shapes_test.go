package extract_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/extract"
)

// A finding and a decision, written in each shape models use.
const (
	findingText  = "The queue consumer acks only after the DB commit."
	decisionText = "Keep the outbox table instead of dual writes."
	whyText      = "Dual writes lost events when the broker was down."
)

// wantTwo is the reading of every shape below: the finding, then the
// decision with its rationale.
var wantTwo = []agentmem.Learning{
	{Type: agentmem.TypeFinding, Content: findingText},
	{Type: agentmem.TypeDecision, Content: decisionText, Rationale: whyText},
}

// TestParseShapes reads the same two learnings in each answer shape of
// issue 11 and its relatives: exactly, with nothing skipped.
func TestParseShapes(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"answer object":              `{"success": true, "summary": "s", "learnings": [{"type": "finding", "content": "` + findingText + `"}, {"type": "decision", "content": "` + decisionText + `", "rationale": "` + whyText + `"}]}`,
		"bare array":                 `[{"type": "finding", "content": "` + findingText + `"}, {"type": "decision", "content": "` + decisionText + `", "rationale": "` + whyText + `"}]`,
		"category and learning keys": `{"learnings": [{"category": "finding", "learning": "` + findingText + `"}, {"category": "decision", "learning": "` + decisionText + `", "why": "` + whyText + `"}]}`,
		"kind and text keys":         `{"learnings": [{"kind": "Fact", "text": "` + findingText + `"}, {"kind": "Choice", "text": "` + decisionText + `", "reason": "` + whyText + `"}]}`,
		"keyed by type":              `{"learnings": [{"finding": "` + findingText + `"}, {"decision": "` + decisionText + `", "rationale": "` + whyText + `"}]}`,
		"grouped by type":            `{"findings": ["` + findingText + `"], "decisions": [{"content": "` + decisionText + `", "rationale": "` + whyText + `"}]}`,
		"json lines": `{"type": "finding", "content": "` + findingText + `"}
{"type": "decision", "content": "` + decisionText + `", "rationale": "` + whyText + `"}`,
		"nested under result":             `{"result": {"learnings": [{"type": "finding", "content": "` + findingText + `"}, {"type": "decision", "content": "` + decisionText + `", "rationale": "` + whyText + `"}]}}`,
		"nested under output as a string": `{"output": "{\"learnings\": [{\"type\": \"finding\", \"content\": \"` + findingText + `\"}, {\"type\": \"decision\", \"content\": \"` + decisionText + `\", \"rationale\": \"` + whyText + `\"}]}"}`,
		"python repr":                     `{'learnings': [{'type': 'finding', 'content': '` + findingText + `'}, {'type': 'decision', 'content': '` + decisionText + `', 'rationale': '` + whyText + `', 'status': None}]}`,
		"jsonc":                           "```jsonc\n{\n  // the two\n  \"learnings\": [\n    {\"type\": \"finding\", \"content\": \"" + findingText + "\"}, /* first */\n    {\"type\": \"decision\", \"content\": \"" + decisionText + "\", \"rationale\": \"" + whyText + "\",},\n  ],\n}\n```",
		"typographic quotes":              "{“learnings”: [{“type”: “finding”, “content”: “" + findingText + "”}, {“type”: “decision”, “content”: “" + decisionText + "”, “rationale”: “" + whyText + "”}]}",
		"unquoted keys":                   `{learnings: [{type: "finding", content: "` + findingText + `"}, {type: "decision", content: "` + decisionText + `", rationale: "` + whyText + `"}]}`,
		"bullets with type prefixes":      "- Finding: " + findingText + "\n- Decision: " + decisionText + " Rationale: " + whyText,
		"numbered bold labels":            "1. **Finding:** " + findingText + "\n2. **Decision:** " + decisionText + " (why: " + whyText + ")",
		"type headings":                   "## Findings\n* " + findingText + "\n\n## Decisions\n* " + decisionText + "\n  * Rationale: " + whyText,
		"bracket tags":                    "1) [finding] " + findingText + "\n2) [decision] " + decisionText + " — Rationale: " + whyText,
		"yaml":                            "learnings:\n  - type: finding\n    content: " + findingText + "\n  - type: decision\n    content: " + decisionText + "\n    rationale: >\n      " + whyText,
		"yaml fence with quotes":          "```yaml\n- type: finding\n  content: \"" + findingText + "\"\n- type: decision\n  content: '" + decisionText + "'\n  rationale: \"" + whyText + "\"\n```",
		"markdown table":                  "| type | content | rationale |\n|---|---|---|\n| finding | " + findingText + " | |\n| decision | " + decisionText + " | " + whyText + " |",
		"xml elements":                    `<learning type="finding">` + findingText + `</learning><learning type="decision"><content>` + decisionText + `</content><rationale>` + whyText + `</rationale></learning>`,
		"one fence per learning":          "```json\n{\"type\": \"finding\", \"content\": \"" + findingText + "\"}\n```\n\n```json\n{\"type\": \"decision\", \"content\": \"" + decisionText + "\", \"rationale\": \"" + whyText + "\"}\n```",
		"missing commas":                  `{"learnings": [{"type": "finding" "content": "` + findingText + `"} {"type": "decision", "content": "` + decisionText + `", "rationale": "` + whyText + `"}]}`,
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := extract.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := learningLines(res.Learnings), learningLines(wantTwo); got != want {
				t.Errorf("got %s\nwant %s", got, want)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("skipped %+v, want none", res.Skipped)
			}
		})
	}
}

// TestParseFindsTheFinalAnswer: reasoning, drafts and quoted examples
// never win over the answer.
func TestParseFindsTheFinalAnswer(t *testing.T) {
	t.Parallel()
	final := `{"success": true, "summary": "final", "learnings": [{"type": "finding", "content": "` + findingText + `"}]}`
	draft := `{"success": true, "summary": "draft", "learnings": [{"type": "note", "content": "A draft learning."}]}`
	tests := map[string]string{
		"think block":            "<think>\nDraft: " + draft + "\n</think>\n\n" + final,
		"thinking block":         "<thinking>" + draft + "</thinking>\n" + final,
		"orphan closing tag":     "The user wants JSON. " + draft + "\n</think>\n" + final,
		"reasoning element":      "<reasoning>\n" + draft + "\n</reasoning>\n```json\n" + final + "\n```",
		"harmony channels":       "<|channel|>analysis<|message|>" + draft + "<|end|><|start|>assistant<|channel|>final<|message|>" + final + "<|return|>",
		"draft then final label": "Draft:\n" + draft + "\n\nFinal answer:\n" + final,
		"draft then corrected":   "**Draft**\n```json\n" + draft + "\n```\n**Corrected JSON**\n```json\n" + final + "\n```",
		"reasoning section":      "## Reasoning\n- " + draft + "\n\n## Output\n" + final,
		"answer element":         "Let me look. " + draft + " is too vague.\n<answer>" + final + "</answer>",
		"last of two answers":    "```json\n" + draft + "\n```\nOn reflection that is narration. Revised:\n```json\n" + final + "\n```",
		"inline example first":   "An empty answer is `{\"learnings\": []}`. Mine:\n" + final,
		"example after answer":   final + "\n\nFor example, with nothing durable I would send {\"summary\": \"x\", \"learnings\": []}.",
		"example in an aside":    final + "\n(Had there been nothing, {\"learnings\": []}.)",
		"think quotes tags":      "<think>\nI must not emit </think> twice.\n</think>\n" + final,
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := extract.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary != "final" || len(res.Learnings) != 1 || res.Learnings[0].Content != findingText {
				t.Errorf("got summary %q, learnings %s; want the final answer", res.Summary, learningLines(res.Learnings))
			}
		})
	}
}

// TestParseNoLearnings: an explicit "no learnings" is zero learnings and
// no error, with the summary the answer gives (labelled, or the prose
// describing the run).
func TestParseNoLearnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, summary string
		success             bool
	}{
		{"empty list", `{"success": true, "summary": "Typo fix.", "learnings": []}`, "Typo fix.", true},
		{"null list", `{"success": false, "summary": "Did not start.", "learnings": null}`, "Did not start.", false},
		{"none string", `{"summary": "Lockfile refresh.", "learnings": "none"}`, "Lockfile refresh.", false},
		{"summary only", `{"success": true, "summary": "Nothing durable."}`, "Nothing durable.", true},
		{"bare empty array", `[]`, "", false},
		{"NONE", "NONE", "", false},
		{"none with a period", "None.", "", false},
		{"no new learnings", "No new learnings.", "", false},
		{"bold", "**No learnings.**", "", false},
		{"nothing noteworthy", "Nothing noteworthy.", "", false},
		{"n/a", "N/A", "", false},
		{"could not find", "I couldn't find any durable learnings in this output.", "", false},
		{"prose describes the run", "The run bumped the Go toolchain to 1.22.3. Nothing worth remembering.", "The run bumped the Go toolchain to 1.22.3.", false},
		{"clause describes the run", "No new learnings — the run only renamed a variable.", "The run only renamed a variable.", false},
		{"labelled", "Summary: Renamed a package.\nSuccess: yes\nLearnings: none", "Renamed a package.", true},
		{"markdown section", "## Summary\nRe-ran the flaky job.\n\n## Learnings\nNone.", "Re-ran the flaky job.", false},
		{"xml", "<summary>Rebased.</summary><learnings/>", "Rebased.", false},
		{"after thinking", "<think>\nnothing here\n</think>\nNo durable learnings.", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := extract.Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Learnings) != 0 || res.Learnings == nil || len(res.Skipped) != 0 {
				t.Errorf("got learnings %s, skipped %+v; want an empty list", learningLines(res.Learnings), res.Skipped)
			}
			if res.Summary != tt.summary || res.Success != tt.success {
				t.Errorf("got summary %q success %v, want %q %v", res.Summary, res.Success, tt.summary, tt.success)
			}
		})
	}
}

// TestParseListsBeatStatementsOfNone: a list of learnings wins over a
// sentence that only says there are no others.
func TestParseListsBeatStatementsOfNone(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"json then no others":  `{"learnings": [{"type": "finding", "content": "` + findingText + `"}]}` + "\n\nNo other learnings.",
		"list then no further": "Learnings:\n- Finding: " + findingText + "\n\nNothing further worth remembering.",
	} {
		t.Run(name, func(t *testing.T) {
			res, err := extract.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Learnings) != 1 || res.Learnings[0].Content != findingText {
				t.Errorf("got %s", learningLines(res.Learnings))
			}
		})
	}
}

// TestParseSalvagesCutAnswers: an answer cut off by the token cap keeps
// its complete learnings; the one it ends inside is skipped as cut off.
func TestParseSalvagesCutAnswers(t *testing.T) {
	t.Parallel()
	head := `{"success": true, "summary": "s", "learnings": [{"type": "finding", "content": "A"}, {"type": "learning", "content": "B"}`
	tests := []struct {
		name, text, cut string
	}{
		{"inside a string", head + `, {"type": "note", "content": "C is cut he`, "C is cut he"},
		{"between members", head + `, {"type": "note", "content": "C"`, "C"},
		{"after a comma", head + `,`, ""},
		{"before the list closes", head, ""},
		{"in a fence", "```json\n" + head + `, {"type": "note", "conte`, ""},
		{"in a bare array", `[{"content": "A", "type": "finding"}, {"content": "B"}, {"content": "C`, "C"},
		{"in python repr", `{'learnings': [{'type': 'finding', 'content': 'A'}, {'content': 'B'}, {'content': 'C`, "C"},
		{"in yaml", "learnings:\n  - type: finding\n    content: A\n  - content: B\n  - content: \"C is cu", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := extract.Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(contents(res.Learnings), " | "); got != "finding: A | learning: B" {
				t.Errorf("learnings: got %q, want A and B", got)
			}
			if tt.cut == "" {
				return
			}
			if len(res.Skipped) != 1 || res.Skipped[0].Content != tt.cut || !strings.HasPrefix(res.Skipped[0].Reason, "cut off") {
				t.Errorf("skipped: got %+v, want %q cut off", res.Skipped, tt.cut)
			}
		})
	}
}

// TestParseNeverDropsSilently: every proposed item that is not returned
// is listed in Skipped with why.
func TestParseNeverDropsSilently(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", agentmem.MaxContentBytes+10)
	text := `{"learnings": [
	  {"type": "finding", "content": "one"},
	  {"type": "finding", "content": "One."},
	  {"type": "finding", "content": ""},
	  {"type": "finding"},
	  {"type": "???", "content": "odd type"},
	  {"type": "finding", "content": "` + long + `"},
	  {"type": "decision", "content": "two", "rationale": "` + strings.Repeat("r", agentmem.MaxFieldBytes+1) + `"},
	  true,
	  ["nested", "list"],
	  {"content": "three"}, {"content": "four"}, {"content": "five"}, {"content": "six"}, {"content": "seven"}
	]}`
	res, err := extract.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(contents(res.Learnings), " | "); got != "finding: one | learning: three | learning: four | learning: five | learning: six" {
		t.Errorf("learnings: got %q", got)
	}
	want := []struct{ content, reason string }{
		{"One.", "repeats another learning of this answer"},
		{"", "no content"},
		{"", "no content"},
		{"odd type", "invalid type"},
		{long[:agentmem.MaxContentBytes], "invalid: content is"},
		{"two", "invalid: rationale is"},
		{"true", "not a learning: a boolean"},
		{"nested; list", "not a learning: a list"},
		{"seven", "over the limit of 5 learnings per run"},
	}
	if len(res.Skipped) != len(want) {
		t.Fatalf("got %d skipped %+v, want %d", len(res.Skipped), res.Skipped, len(want))
	}
	for i, w := range want {
		if s := res.Skipped[i]; s.Content != w.content || !strings.HasPrefix(s.Reason, w.reason) {
			t.Errorf("skipped[%d]: got %.60q %q, want %.60q %q…", i, s.Content, s.Reason, w.content, w.reason)
		}
	}
}

// TestParseTypedFieldsInText: typed fields written as text land in their
// fields for the type that has them, and stay in the content otherwise.
func TestParseTypedFieldsInText(t *testing.T) {
	t.Parallel()
	res, err := extract.Parse(`Learnings:
- Pattern: Port 8000 already in use when starting DynamoDB Local.
  - Trigger: bind: address already in use
  - Solution: stop the old java process
  - Context: make dev
  - Confidence: 80%
- Blocker: CI runners are out of disk. (resolved)
- [ ] Blocker: The staging deploy key expired.
- Learning: Run tests with -race. Reason: the CI does too.
- Pattern: Flaky checkout test. Trigger: timeout in CI; Solution: wait for network idle.`)
	if err != nil {
		t.Fatal(err)
	}
	c := 0.8
	want := []agentmem.Learning{
		{Type: agentmem.TypePattern, Content: "Port 8000 already in use when starting DynamoDB Local.", Trigger: "bind: address already in use", Solution: "stop the old java process", Context: "make dev", Confidence: &c},
		{Type: agentmem.TypeBlocker, Content: "CI runners are out of disk.", Status: agentmem.StatusResolved},
		{Type: agentmem.TypeBlocker, Content: "The staging deploy key expired.", Status: agentmem.StatusOpen},
		{Type: agentmem.TypeLearning, Content: "Run tests with -race. Reason: the CI does too."},
		{Type: agentmem.TypePattern, Content: "Flaky checkout test.", Trigger: "timeout in CI", Solution: "wait for network idle."},
	}
	if got, w := learningLines(res.Learnings), learningLines(want); got != w {
		t.Errorf("got %s\nwant %s", got, w)
	}
}

// TestParseRepairsQuotes: quotes a model forgot to escape inside a string
// stay in the string.
func TestParseRepairsQuotes(t *testing.T) {
	t.Parallel()
	res, err := extract.Parse(`{"learnings": [{"type": "finding", "content": "Run "make test" before pushing; it starts DynamoDB Local."}, {"type": "learning", "content": "Don't use 'go test' directly."}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(contents(res.Learnings), " | "); got != `finding: Run "make test" before pushing; it starts DynamoDB Local. | learning: Don't use 'go test' directly.` {
		t.Errorf("got %q", got)
	}
}
