package extract_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/extract"
)

// FuzzParse checks Parse's promises on any text: it never panics; it
// either fails with ErrUnparseable or returns at most MaxLearnings
// learnings that all pass the memory rules, with a bounded, valid summary
// and valid skipped items; and its result, encoded as JSON, parses back
// to the same learnings. The seeds include every labelled answer of
// testdata/answers. Its cost on large inputs is measured by
// BenchmarkParseHostile.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		twoLearnings,
		"```json\n" + twoLearnings + "\n```",
		"Sure: " + twoLearnings + " done",
		`[{"content": "a",}, {"type": "pattern", "content": "b", "confidence": "80%"},]`,
		`{"type": "blocker", "content": "x", "status": "fixed"}`,
		`{"learnings": [{"content": "` + strings.Repeat("é", 5000) + `"}]}`,
		"{\"summary\": \"a\\u0000b\", \"learnings\": []}",
		`{"learnings": [{"content": "a"}, {"content": "A "}, {"content": "b"}, {"content": "c"}, {"content": "d"}, {"content": "e"}, {"content": "f"}]}`,
		"{\"learnings\": [{\"content\": \"cut",
		"[] {} [[[[{{{{",
		"",
		"<think>\n{\"learnings\": [{\"content\": \"draft\"}]}\n</think>\nNONE",
		"analysisx assistantfinal{\"learnings\": []}",
		"Draft:\n[{\"content\": \"a\"}]\nFinal answer:\n[{'content': 'b',}]",
		"- **Finding:** x (why: y)\n  - Trigger: t\n1. [blocker] z [x]",
		"learnings:\n  - type: pattern\n    content: |\n      a\n    confidence: 120%\n  - content: \"cut",
		"| type | content |\n|---|---|\n| finding | a |",
		"<learning type=\"decision\" rationale=\"r\">d</learning><summary>s</summary>",
		"{“learnings”: [“a b c d”, ‘e f g h’]} // c\n/* d",
		"{\"result\": \"{\\\"learnings\\\": [{\\\"finding\\\": \\\"x\\\"}]}\"}",
		strings.Repeat("[", 100) + strings.Repeat("{\"a\":", 100),
		strings.Repeat("- ", 50) + strings.Repeat("**", 50) + strings.Repeat("\"", 50),
	} {
		f.Add(seed)
	}
	for _, part := range []string{"tuned", "heldout"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "answers", part, "*.txt"))
		for _, file := range files {
			raw, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if _, rest, ok := strings.Cut(string(raw), "\n-- answer --\n"); ok {
				answer, _, _ := strings.Cut(rest, "\n-- want --\n")
				f.Add(answer)
			}
		}
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
		if len(res.Summary) > extract.MaxSummaryBytes || !utf8.ValidString(res.Summary) || strings.ContainsRune(res.Summary, 0) {
			t.Fatalf("summary %.80q of %d bytes, valid UTF-8 %v (and no NUL, which the daily log refuses)", res.Summary, len(res.Summary), utf8.ValidString(res.Summary))
		}
		for _, l := range res.Learnings {
			if err := l.Validate(); err != nil {
				t.Fatalf("learning %+v: %v", l, err)
			}
		}
		for _, s := range res.Skipped {
			if s.Reason == "" || len(s.Content) > agentmem.MaxContentBytes {
				t.Fatalf("skipped %.80q without a reason or over the content limit", s.Content)
			}
		}
		if res.Learnings == nil {
			t.Fatal("learnings is nil; want a list")
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
