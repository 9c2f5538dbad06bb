package extract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/extract"
)

// BenchmarkBuildAndParse is the CPU work of one extraction besides the
// model and the store: the prompt around a 64 KiB output (cut to its
// tail) and the parse of a fenced, prose-wrapped answer.
func BenchmarkBuildAndParse(b *testing.B) {
	output := strings.Repeat("--- PASS: TestCheckoutRetries (0.02s)\n", 1800)
	answer := "Here are the learnings:\n```json\n" + twoLearnings + "\n```\nLet me know."
	b.ReportAllocs()
	for b.Loop() {
		extract.BuildRequest(output)
		if res, err := extract.Parse(answer); err != nil || len(res.Learnings) != 2 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkParseLabelled parses every answer of the labelled set once per
// iteration: the cost of the parser on realistic answers of every shape.
func BenchmarkParseLabelled(b *testing.B) {
	var answers []string
	for _, part := range []string{"tuned", "heldout"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "answers", part, "*.txt"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			_, rest, _ := strings.Cut(string(raw), "\n-- answer --\n")
			answer, _, _ := strings.Cut(rest, "\n-- want --\n")
			answers = append(answers, answer)
		}
	}
	b.ReportAllocs()
	b.ReportMetric(float64(len(answers)), "answers/op")
	for b.Loop() {
		for _, a := range answers {
			extract.Parse(a)
		}
	}
}

// BenchmarkParseHostile parses inputs of the largest size Parse reads
// (256 KiB) built to make a tolerant parser work hard: deep nesting,
// brackets that never close, thousands of small values on one line,
// reasoning tags, list lines, quotes. Parse must stay linear on all of
// them; the figures are in docs/BENCHMARKS.md.
func BenchmarkParseHostile(b *testing.B) {
	const size = 256 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	inputs := map[string]string{
		"open brackets":     fill("["),
		"deep objects":      fill(`{"a":`),
		"many values":       fill(`{"content": "a b c d"} `),
		"one long line":     fill(`x {"learnings": [}] `),
		"broken answers":    fill(`{"learnings": [{"content": "a", `),
		"quotes":            fill(`"a" "`),
		"think tags":        fill("<think> x </think"),
		"list lines":        fill("- **Finding:** a (why: b) Trigger: c Solution: d\n"),
		"yaml":              fill("- type: finding\n  content: \"x\n"),
		"xml":               fill(`<learning type="finding">x`),
		"none sentences":    fill("No new learnings, nothing noteworthy. "),
		"valid big answer":  `{"learnings": [` + fill(`{"type": "finding", "content": "A finding."}, `) + `]}`,
		"markdown headings": fill("## Findings\n### 1. Finding: x\n"),
	}
	for name, in := range inputs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				extract.Parse(in)
			}
		})
	}
}
