package markdown_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

func TestSuggestedPatterns(t *testing.T) {
	t.Parallel()
	if got := markdown.SuggestedPatterns("anything", nil); got != "" {
		t.Errorf("no patterns: got %q, want no section", got)
	}
	c := 0.92
	p := agentmem.Memory{Type: agentmem.TypePattern, Content: "Flaky e2e test", Trigger: "timeout in checkout e2e", Solution: "wait for network idle", Confidence: &c}
	task := "Fix the\nflaky   checkout test " + strings.Repeat("x", 300)
	got := markdown.SuggestedPatterns(task, []agentmem.Memory{p})
	want := "\n## Suggested patterns\nHigh-confidence patterns from earlier runs that match the current task (\"Fix the flaky checkout test "
	if !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start with %q (task on one line)", got, want)
	}
	if !strings.Contains(got, "…\"), most relevant first.\n- Flaky e2e test\n  When: timeout in checkout e2e\n  Do: wait for network idle\n  Confidence: 0.92\n") {
		t.Errorf("got %q: want the task cut at 200 characters and the pattern rendered as in ## Patterns", got)
	}
}
