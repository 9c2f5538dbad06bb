package dream_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

var listedID = regexp.MustCompile(`(?m)^- \[([0-9A-Z]{26})\] \(Notes\) (.*)$`)

func TestCompressionSummarisesOldMemoriesAndRecordsTheirIDs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	old := f.oldMemories(
		"The orders service retries failed payments twice",
		"The orders service logs payment failures to Sentry",
		"The orders service uses pgx for Postgres",
	)
	recent := f.memory(agentmem.Memory{Content: "Checkout uses the orders-v2 queue"})
	f.daily("run-41", "Checkout uses the orders-v2 queue; nothing else changed.", "2026-11-21T10:00:00Z")
	dreamAnswer := ops(keep(recent.ID))
	var listed []string
	chat, client := newChat(t, func(_ context.Context, prompt string) llmtest.Reply {
		if strings.Contains(prompt, "<daily_records>") {
			return llmtest.Reply{Text: dreamAnswer}
		}
		for _, m := range listedID.FindAllStringSubmatch(prompt, -1) {
			listed = append(listed, m[1])
		}
		return llmtest.Reply{Text: fmt.Sprintf("[MEMORY]\n## Notes\n- The orders service retries failed payments twice, logs payment failures to Sentry and uses pgx for Postgres (sources: %s)\n- Something about nothing (sources: 01JD5Q8Z3K7M2N4P6R8T0V2X4Y)\n", strings.Join(listed, ", "))}
	})
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if len(chat.Prompts()) != 2 || len(listed) != 3 {
		t.Fatalf("%d prompts, %d memories offered for compression; want 2 and the 3 old ones", len(chat.Prompts()), len(listed))
	}
	core := f.core()
	for _, m := range old {
		if _, ok := core[m.ID]; ok {
			t.Errorf("compressed memory %q is still there", m.Content)
		}
	}
	if _, ok := core[recent.ID]; !ok {
		t.Error("the recent memory was compressed or removed")
	}
	var compressed *agentmem.Memory
	for _, m := range core {
		if len(m.SourceIDs) > 0 {
			compressed = &m
		}
	}
	wantIDs := []string{old[0].ID, old[1].ID, old[2].ID}
	slices.Sort(wantIDs)
	if compressed == nil || !slices.Equal(compressed.SourceIDs, wantIDs) || compressed.Source != agentmem.SourceSystem || !strings.HasPrefix(compressed.CreatedAt, "2026-11-12T09:00:00.0000000") {
		t.Fatalf("compressed memory: got %+v, want sourceIds %v placed after its newest source", compressed, wantIDs)
	}
	d := res.Dream
	if d.Compressed != 3 || d.Created != 1 || d.Retired != 3 || d.Deleted != 0 || d.Unchanged != 1 || len(d.Dropped) != 1 || !strings.Contains(d.Dropped[0].Reason, "cites none") {
		t.Errorf("dream: %+v", d)
	}
	// The compressed memories stay in their history, citing the summary.
	for _, m := range old {
		if h := f.history(m.ID); h.State != agentmem.StateRetired || !slices.Equal(h.Versions[0].By.Citations, []string{compressed.ID}) {
			t.Errorf("compressed memory %s: state %s, %+v", m.ID, h.State, h.Versions[0].By)
		}
	}
	if d.Usage == nil || d.Usage.Calls != 2 {
		t.Errorf("usage: %+v, want 2 calls", d.Usage)
	}
	f.countersConsistent()

	// A revert puts the three back and removes the summary.
	if _, err := f.dreamer(client).Revert(context.Background(), "nori", "p", "2026-11-22"); err != nil {
		t.Fatal(err)
	}
	if got := len(f.core()); got != 4 {
		t.Errorf("after revert: %d memories, want 4: %q", got, f.contents())
	}
}

func TestCompressionOffOrTooFewMemories(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.memory(agentmem.Memory{Content: "The orders service uses pgx for Postgres", CreatedAt: "2026-11-01T09:00:00Z"})
	f.memory(agentmem.Memory{Content: "The orders service logs payment failures to Sentry", CreatedAt: "2026-11-02T09:00:00Z"})
	f.daily("run", "The orders service uses pgx for Postgres and logs payment failures to Sentry.", "2026-11-21T10:00:00Z")
	chat, client := newChat(t, fixed(ops()))
	off := 0
	if _, err := run(f.dreamer(client), dream.Request{CompressAfterDays: &off}); err != nil {
		t.Fatal(err)
	}
	if n := len(chat.Prompts()); n != 1 {
		t.Errorf("compression off: %d LLM calls, want 1", n)
	}
	// A compression answer that cites nothing leaves everything as it was.
	f.daily("run 2", "The orders service uses pgx for Postgres.", "2026-11-21T11:00:00Z")
	chat.SetAnswer(func(_ context.Context, prompt string) llmtest.Reply {
		if !strings.Contains(prompt, "<daily_records>") {
			return llmtest.Reply{Text: "- The orders service uses pgx and Sentry"}
		}
		return llmtest.Reply{Text: ops()}
	})
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.core()); got != 2 || res.Dream.Compressed != 0 || len(res.Dream.Notes) == 0 {
		t.Errorf("got %d memories, dream %+v; want both kept and a note", got, res.Dream)
	}
}

// TestCompressionRetiresOnlyWhatItsSummarySays: a compressed item takes
// the place of the memories it cites, so each of them must be said by the
// item: a memory cited beside others but not summarised (an answer that
// cites every id it was given) stays as it is instead of being retired
// with nothing live saying it.
func TestCompressionRetiresOnlyWhatItsSummarySays(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	old := f.oldMemories(
		"The orders service retries failed payments twice",
		"The orders service logs payment failures to Sentry",
		"Deploys to staging run every night from GitHub Actions",
	)
	recent := f.memory(agentmem.Memory{Content: "Checkout uses the orders-v2 queue"})
	f.daily("run-41", "Checkout uses the orders-v2 queue; nothing else changed.", "2026-11-21T10:00:00Z")
	_, client := newChat(t, func(_ context.Context, prompt string) llmtest.Reply {
		if strings.Contains(prompt, "<daily_records>") {
			return llmtest.Reply{Text: ops(keep(recent.ID))}
		}
		return llmtest.Reply{Text: fmt.Sprintf("- The orders service retries failed payments twice and logs payment failures to Sentry (sources: %s, %s, %s)\n", old[0].ID, old[1].ID, old[2].ID)}
	})
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	core := f.core()
	if _, ok := core[old[2].ID]; !ok {
		t.Errorf("memory %q, which the summary does not say, was retired; core: %q", old[2].Content, f.contents())
	}
	for _, m := range old[:2] {
		if _, ok := core[m.ID]; ok {
			t.Errorf("summarised memory %q is still there", m.Content)
		}
	}
	if d := res.Dream; d.Compressed != 2 || d.Retired != 2 || d.Created != 1 {
		t.Errorf("dream: compressed %d, retired %d, created %d; want 2, 2, 1 (%+v)", d.Compressed, d.Retired, d.Created, d)
	}
	for _, m := range core {
		if len(m.SourceIDs) > 0 && slices.Contains(m.SourceIDs, old[2].ID) {
			t.Errorf("summary %q lists %s among the memories it replaces", m.Content, old[2].ID)
		}
	}
	f.countersConsistent()
}

// TestCompressionKeepsCriticalPatterns: compression takes old memories
// that nothing protects; a critical pattern (confidence at least
// agentmem.CriticalConfidence), which eviction never removes either, is
// never offered for compression and stays a pattern.
func TestCompressionKeepsCriticalPatterns(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.oldMemories(
		"The orders service retries failed payments twice",
		"The orders service logs payment failures to Sentry",
		"The orders service uses pgx for Postgres",
	)
	confidence := 0.95
	critical := f.memory(agentmem.Memory{Type: agentmem.TypePattern, Content: "Flaky payment tests", Trigger: "payment tests time out in CI",
		Solution: "run them with -p 1", Confidence: &confidence, CreatedAt: "2026-11-13T09:00:00Z"})
	f.daily("run-41", "Checkout uses the orders-v2 queue; nothing else changed.", "2026-11-21T10:00:00Z")
	chat, client := newChat(t, func(_ context.Context, prompt string) llmtest.Reply {
		if strings.Contains(prompt, "<daily_records>") {
			return llmtest.Reply{Text: ops()}
		}
		// Every memory offered comes back as said, citing itself.
		var out strings.Builder
		for _, m := range regexp.MustCompile(`(?m)^- \[([0-9A-Z]{26})\] \((\w+)\) (.*)$`).FindAllStringSubmatch(prompt, -1) {
			fmt.Fprintf(&out, "## %s\n- %s (sources: %s)\n", m[2], m[3], m[1])
		}
		return llmtest.Reply{Text: "[MEMORY]\n" + out.String()}
	})
	if _, err := run(f.dreamer(client), dream.Request{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range chat.Prompts() {
		if !strings.Contains(p, "<daily_records>") && strings.Contains(p, critical.ID) {
			t.Errorf("the critical pattern %s was offered for compression", critical.ID)
		}
	}
	if got, ok := f.core()[critical.ID]; !ok || got.Type != agentmem.TypePattern {
		t.Errorf("the critical pattern is gone or changed: %+v", got)
	}
	f.countersConsistent()
}
