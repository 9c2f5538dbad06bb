package markdown_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

func TestDailyFileIsSeed001Format(t *testing.T) {
	t.Parallel()
	got := markdown.DailyFile("2026-11-22", []agentmem.DailyRecord{
		{Title: "run-42", Content: "Summary of run 42.\n", At: "2026-11-22T15:02:59.000000000Z"},
		{Title: "Trimmed Context", Content: "Messages: 120, tokens: 48000.", At: "2026-11-22T14:30:00.000000000Z"},
	})
	want := "# Daily Memory: 2026-11-22\n\n## Trimmed Context (14:30)\nMessages: 120, tokens: 48000.\n\n## run-42 (15:02)\nSummary of run 42.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if markdown.DailyFile("2026-11-22", nil) != "" {
		t.Error("an empty day renders as something")
	}
}

func TestDreamDiaryShowsChangesAndDroppedBullets(t *testing.T) {
	t.Parallel()
	got := markdown.DreamDiary("2026-11-22", []agentmem.Dream{
		{ID: "D1", Kind: agentmem.DreamKindDream, Status: agentmem.DreamCommitted, StartedAt: "2026-11-22T03:00:05Z", Trigger: "schedule",
			Records: 12, WindowFrom: "2026-11-20T00:00:00Z", WindowTo: "2026-11-23T00:00:00Z", Diary: "I merged the retry notes.",
			Created: 4, Updated: 1, Retired: 5, Unchanged: 2, Kept: 1, Compressed: 3,
			Operations: []agentmem.DreamOperation{
				{Op: agentmem.OpUpdate, MemoryID: "M1", Type: agentmem.TypeFinding, Before: "Retries: 3", Content: "Retries: 5", Version: 2, Citations: []string{"R9"}},
				{Op: agentmem.OpRetire, MemoryID: "M2", Type: agentmem.TypeNote, Content: "Staging resets on Monday", Rule: agentmem.RetireObsolete, Citations: []string{"R8", "M1"}},
				{Op: agentmem.OpAdd, MemoryID: "M4", Type: agentmem.TypeNote, Content: "The provider retries webhooks 3 times", Restated: "Webhooks come thrice", Citations: []string{"R9"}},
			},
			Restate:  &agentmem.RestateReport{Status: agentmem.RestateRan, Asked: 2, Restated: 1, Declined: 1, Usage: agentmem.ModelUsage{Calls: 1, InputTokens: 500, OutputTokens: 30}},
			Usage:    &agentmem.ModelUsage{Calls: 3, InputTokens: 9000, OutputTokens: 1200, Retries: 1},
			Verifier: &agentmem.VerifierReport{Status: agentmem.VerifierFailed, Checked: 6, Usage: agentmem.ModelUsage{Calls: 1, InputTokens: 800, OutputTokens: 40}, Error: "server (HTTP 500)"},
			Dropped: []agentmem.DroppedBullet{{Type: agentmem.TypeNote, Content: "Deploys happen on Fridays", Support: 0.33, Missing: []string{"friday"}, Class: "low_overlap", Reason: "not supported"},
				{Op: agentmem.OpRetire, MemoryID: "M3", Type: agentmem.TypeFinding, Content: "Uses pgx", Class: "retire_unsupported", Reason: "no reason cited", Citations: []string{"R7"}}}},
		{ID: "D2", Kind: agentmem.DreamKindDream, Status: agentmem.DreamFailed, StartedAt: "2026-11-22T09:00:00Z", Error: "llm timeout"},
		{ID: "R1", Kind: agentmem.DreamKindRevert, Status: agentmem.DreamCommitted, StartedAt: "2026-11-22T10:00:00Z", RevertOf: "2026-11-22#D1", Created: 9, Deleted: 4},
	})
	for _, want := range []string{
		"# Dream Diary: 2026-11-22\n",
		"## Dream (03:00) — committed\n",
		"Consolidated 12 daily records from 2026-11-20 to 2026-11-22.",
		"I merged the retry notes.",
		"- 4 memories added, 1 updated, 5 retired, 0 removed, 2 unchanged, 1 kept as they were (pinned or manual)\n- 3 old memories compressed",
		"- updated `M1` (Findings): Retries: 3 → Retries: 5 — cites `R9`\n",
		"- retired `M2` (Notes, obsolete): Staging resets on Monday — cites `R8`, `M1`\n",
		"Model calls: 3, 9000 input and 1200 output tokens (1 answers cut off and asked again smaller).",
		"- added `M4` (Notes): The provider retries webhooks 3 times (restated in the sources' words; the model wrote: Webhooks come thrice) — cites `R9`\n",
		"Restate: ran, 2 refused claims asked, 1 restated, 1 dropped by the model, 1 calls, 500 input and 30 output tokens.",
		"Verifier: failed, 6 changes checked, 0 refused, 1 calls, 800 input and 40 output tokens; server (HTTP 500).",
		"### Dropped (refused operations, with the reason)\n- Notes: Deploys happen on Fridays (low_overlap: not supported; support 0.33; not in the sources: friday)\n",
		"- retire `M3` Findings: Uses pgx (retire_unsupported: no reason cited) — cites `R7`\n",
		"## Dream (09:00) — failed\n", "The dream failed; nothing changed. llm timeout",
		"## Revert (10:00) — committed", "9 memories put back, 4 retired",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diary lacks %q:\n%s", want, got)
		}
	}
}
