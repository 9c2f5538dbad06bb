package extractionapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// today is the date of the daily records the handler writes now.
func today() string { return time.Now().UTC().Format(agentmem.DateLayout) }

// TestRunSummaryGoesToTheDailyLog: a run's summary becomes one record of
// the agent's daily log, titled with the run id (issue 4); a retry adds no
// second record and a failed run writes none.
func TestRunSummaryGoesToTheDailyLog(t *testing.T) {
	t.Parallel()
	a := newAPITest(t, reply{status: 500}, reply{content: twoLearnings})
	ctx := context.Background()
	if resp := a.post("nori", outputBody("run-0", "output")); resp.StatusCode != 502 {
		t.Fatalf("failing LLM: got %d %s, want 502", resp.StatusCode, resp.Body)
	}
	if recs, err := a.store.DailyDay(ctx, "nori", "p", today()); err != nil || len(recs) != 0 {
		t.Fatalf("a failed run wrote %d daily records (%v)", len(recs), err)
	}

	got := a.ok(a.post("nori", outputBody("run-1", "$ make test\nok\n")))
	if got.Daily == nil || got.Daily.Title != "run-1" {
		t.Fatalf("daily: got %+v, want a record titled run-1", got.Daily)
	}
	a.ok(a.post("nori", outputBody("run-1", "sent again")))
	recs, err := a.store.DailyDay(ctx, "nori", "p", today())
	if err != nil || len(recs) != 1 {
		t.Fatalf("daily log: got %d records (%v), want exactly 1", len(recs), err)
	}
	r := recs[0]
	for _, want := range []string{"Added webhook retries; make test passes.", "The run achieved its goal.", "2 learnings saved."} {
		if !strings.Contains(r.Content, want) {
			t.Errorf("record content %q lacks %q", r.Content, want)
		}
	}
	if r.Title != "run-1" || r.ID != got.Daily.ID {
		t.Errorf("record: got %+v, want the one answered (%s)", r, got.Daily.ID)
	}
}

// TestPatternsOfSuccessfulRunsAreReinforced: a pattern seen again in a
// later successful run raises the stored pattern's confidence instead of
// adding a copy; a failed run's pattern is not captured (seed 003).
func TestPatternsOfSuccessfulRunsAreReinforced(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	pattern := func(runID, content string, success bool) string {
		s := "false"
		if success {
			s = "true"
		}
		return `{"projectId": "p", "runId": "` + runID + `", "summary": "Fixed the flaky checkout test.", "success": ` + s + `, "learnings": [
		  {"type": "pattern", "content": "` + content + `", "trigger": "checkout e2e test times out in CI", "solution": "wait for the network idle event before asserting", "confidence": 0.6}]}`
	}
	first := a.ok(a.post("nori", pattern("run-1", "Flaky checkout e2e test", true)))
	if len(first.Saved) != 1 || len(first.Reinforced) != 0 {
		t.Fatalf("first sighting: got %+v", first)
	}
	second := a.ok(a.post("nori", pattern("run-2", "The checkout end-to-end test is flaky", true)))
	if len(second.Saved) != 0 || len(second.Reinforced) != 1 || second.Reinforced[0].ID != first.Saved[0].ID {
		t.Fatalf("second sighting: got %+v, want the first pattern reinforced", second)
	}
	if c := second.Reinforced[0].Confidence; c == nil || *c <= 0.6 {
		t.Errorf("confidence after reinforcement: got %v, want above 0.6", c)
	}
	failed := a.ok(a.post("nori", pattern("run-3", "Another pattern from a failed run", false)))
	if len(failed.Saved) != 0 || len(failed.Reinforced) != 0 || len(failed.Skipped) != 1 || !strings.Contains(failed.Skipped[0].Reason, "successful runs") {
		t.Errorf("failed run: got %+v, want its pattern skipped", failed)
	}
	ms := a.memories("nori", "p")
	if len(ms) != 1 || ms[0].Type != agentmem.TypePattern || *ms[0].Confidence <= 0.6 {
		t.Errorf("scope: got %+v, want the one reinforced pattern", ms)
	}
}

// TestRunSummaryWithControlCharactersStillReachesTheDailyLog: a model's
// summary may hold NUL and other control characters (escaped in JSON or
// raw); the daily log refuses a NUL, so the run's record must not be lost
// over one: it is written without them.
func TestRunSummaryWithControlCharactersStillReachesTheDailyLog(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, answer, want string }{
		{"escaped NUL", `{"success": true, "summary": "Bumped lodash\u0000 to 4.17.21.", "learnings": []}`, "Bumped lodash to 4.17.21."},
		{"raw NUL", "{\"success\": true, \"summary\": \"Bumped\x00 lodash.\", \"learnings\": []}", "Bumped lodash."},
		{"NUL in a prose summary", "Summary: Fixed the\x00 flaky test.\n\nNo new learnings.", "Fixed the flaky test."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newAPITest(t, reply{content: tt.answer})
			got := a.ok(a.post("nori", outputBody("run-1", "output")))
			if got.Daily == nil {
				t.Fatalf("daily: got no record (summary %q), want one", got.Summary)
			}
			if strings.ContainsRune(got.Summary, 0) || !strings.HasPrefix(got.Daily.Content, tt.want) {
				t.Errorf("summary %q, record %q: want it to start with %q and hold no NUL", got.Summary, got.Daily.Content, tt.want)
			}
			recs, err := a.store.DailyDay(context.Background(), "nori", "p", today())
			if err != nil || len(recs) != 1 {
				t.Fatalf("daily log: got %d records (%v), want 1", len(recs), err)
			}
		})
	}
}
