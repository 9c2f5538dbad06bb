package extract_test

import (
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
