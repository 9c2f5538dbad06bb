package extract_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/extract"
)

// FuzzParse checks Parse's promises on any text: it never panics; it
// either fails with ErrUnparseable or returns at most MaxLearnings
// learnings that all pass the memory rules, with a bounded, valid summary;
// and its result, encoded as JSON, parses back to the same learnings.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		twoLearnings,
		"```json\n" + twoLearnings + "\n```",
		"Sure: " + twoLearnings + " done",
		`[{"content": "a",}, {"type": "pattern", "content": "b", "confidence": "80%"},]`,
		`{"type": "blocker", "content": "x", "status": "fixed"}`,
		`{"learnings": [{"content": "` + strings.Repeat("é", 5000) + `"}]}`,
		`{"learnings": [{"content": "a"}, {"content": "A "}, {"content": "b"}, {"content": "c"}, {"content": "d"}, {"content": "e"}, {"content": "f"}]}`,
		"{\"learnings\": [{\"content\": \"cut",
		"[] {} [[[[{{{{",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res, err := extract.Parse(text)
		if err != nil {
			if !errors.Is(err, extract.ErrUnparseable) {
				t.Fatalf("error %v does not wrap ErrUnparseable", err)
			}
			return
		}
		if len(res.Learnings) > extract.MaxLearnings {
			t.Fatalf("%d learnings, over the limit", len(res.Learnings))
		}
		if len(res.Summary) > extract.MaxSummaryBytes || !utf8.ValidString(res.Summary) {
			t.Fatalf("summary of %d bytes, valid UTF-8 %v", len(res.Summary), utf8.ValidString(res.Summary))
		}
		for _, l := range res.Learnings {
			if err := l.Validate(); err != nil {
				t.Fatalf("learning %+v: %v", l, err)
			}
		}
		raw, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		again, err := extract.Parse(string(raw))
		if err != nil {
			t.Fatalf("re-parse of %s: %v", raw, err)
		}
		if a, b := fmt.Sprintf("%+v", view(again.Learnings)), fmt.Sprintf("%+v", view(res.Learnings)); a != b {
			t.Fatalf("round trip changed the learnings:\n%s\n%s", a, b)
		}
	})
}

// view prints learnings with confidences dereferenced.
func view(ls []agentmem.Learning) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		c := "-"
		if l.Confidence != nil {
			c = fmt.Sprint(*l.Confidence)
		}
		out[i] = fmt.Sprintf("%s|%q|%q|%q|%q|%q|%q|%s", l.Type, l.Content, l.Rationale, l.Status, l.Trigger, l.Context, l.Solution, c)
	}
	return out
}
