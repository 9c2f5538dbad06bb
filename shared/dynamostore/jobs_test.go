package dynamostore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"golang.org/x/sync/errgroup"
)

// fill stores n memories in agent/project, 16 at a time; pinned makes
// every third one pinned.
func fill(t *testing.T, st *dynamostore.Store, agent, project string, n int, pinned bool) {
	t.Helper()
	var g errgroup.Group
	g.SetLimit(16)
	for i := range n {
		g.Go(func() error {
			m := newMemory(agent, project, fmt.Sprintf("memory %d of %s", i, project))
			m.Pinned = pinned && i%3 == 0
			_, err := st.CreateMemory(context.Background(), m)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// runJobInRuns runs a job a run at a time, each cut short after d, until
// it is over, and returns it and how many runs it took.
func runJobInRuns(t *testing.T, st *dynamostore.Store, j agentmem.Job, d time.Duration) (agentmem.Job, int) {
	t.Helper()
	for runs := 1; runs <= 200; runs++ {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		got, err := st.RunJob(ctx, j.AgentName, j.ID)
		cancel()
		if err != nil && agentmem.ErrorCode(err) != agentmem.EUnavailable {
			t.Fatalf("run %d: %v", runs, err)
		}
		if err == nil && got.Status != agentmem.JobRunning {
			return got, runs
		}
	}
	t.Fatal("the job never ended")
	return j, 0
}

// TestJobsFinishAcrossRuns: a bulk delete cut into many short runs (as
// requests and workers hit their deadlines) finishes, removes exactly what
// it selects, reports it exactly, and leaves the counters exact.
func TestJobsFinishAcrossRuns(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	fill(t, st, "nori", "big", 600, true)
	fill(t, st, "nori", "other", 3, false)
	ctx := context.Background()

	// Forget everything older than now, pinned kept: 400 of the 600.
	cutoff := agentmem.FormatTime(time.Now().Add(time.Second))
	j, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobForget, AgentName: "nori", ProjectID: "big", Cutoff: cutoff})
	if err != nil {
		t.Fatal(err)
	}
	// Each run gets the job's margin plus a little work.
	got, runs := runJobInRuns(t, st, j, 1700*time.Millisecond)
	if got.Status != agentmem.JobDone || got.Removed != 400 || got.FinishedAt == "" {
		t.Errorf("forget job: got %+v after %d runs, want done with 400 removed", got, runs)
	}
	if c := checkCounters(t, st, "nori", "big"); c.Total != 200 {
		t.Errorf("after forget: %d memories, want the 200 pinned", c.Total)
	}

	d, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "big"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = runJobInRuns(t, st, d, 1700*time.Millisecond)
	if got.Status != agentmem.JobDone || got.Removed != 200 {
		t.Errorf("delete job: got %+v, want done with 200 removed", got)
	}
	if c := checkCounters(t, st, "nori", "big"); c.Total != 0 || c.Bytes != 0 {
		t.Errorf("after delete: %+v, want nothing", c)
	}
	if c := checkCounters(t, st, "nori", "other"); c.Total != 3 {
		t.Errorf("another scope: %d memories, want its 3", c.Total)
	}
	// A finished job runs no more.
	if again, err := st.RunJob(ctx, "nori", d.ID); err != nil || again.Status != agentmem.JobDone || again.Removed != 200 {
		t.Errorf("running a finished job: %+v, %v", again, err)
	}
}

// TestJobHeldByAnotherRunIsLeftAlone: two runners of one job (a duplicate
// queue message) never work on it at once.
func TestJobHeldByAnotherRunIsLeftAlone(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	fill(t, st, "nori", "p", 120, false)
	ctx := context.Background()
	j, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var g errgroup.Group
	results := make([]agentmem.Job, 4)
	for i := range results {
		g.Go(func() error {
			var err error
			results[i], err = st.RunJob(ctx, "nori", j.ID)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	final, err := st.GetJob(ctx, "nori", j.ID)
	if err != nil || final.Status != agentmem.JobDone || final.Removed != 120 {
		t.Errorf("job: %+v, %v; want done with 120 removed once", final, err)
	}
	checkCounters(t, st, "nori", "p")
}

func TestJobInputsAndLookups(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for _, bad := range []agentmem.Job{
		{Kind: "truncate", AgentName: "nori", ProjectID: "p"},
		{Kind: agentmem.JobForget, AgentName: "nori", ProjectID: "p", Cutoff: "yesterday"},
		{Kind: agentmem.JobDeleteScope, AgentName: "no#ri", ProjectID: "p"},
		{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: ""},
	} {
		if _, err := st.StartJob(ctx, bad); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("StartJob(%+v): got %v, want invalid", bad, err)
		}
	}
	j, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetJob(ctx, "kai", j.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("another agent's job: got %v, want not_found", err)
	}
	if _, err := st.GetJob(ctx, "nori", "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("no such job: got %v, want not_found", err)
	}
}

func TestJobMessages(t *testing.T) {
	t.Parallel()
	for _, ref := range []dynamostore.JobRef{
		{AgentName: "nori", ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"},
		{AgentName: "nori", ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", Dream: true},
	} {
		body := dynamostore.JobMessage{Job: ref}.Encode()
		got, ok, err := dynamostore.ParseJobMessage(body)
		if !ok || err != nil || got != ref {
			t.Errorf("round trip of %+v through %s: %+v, %v, %v", ref, body, got, ok, err)
		}
		// A dream job's message is no bulk delete's: a worker that
		// reads only "job" never takes one for a delete.
		if wantKey := map[bool]string{false: `{"job":`, true: `{"dreamJob":`}[ref.Dream]; !strings.HasPrefix(body, wantKey) {
			t.Errorf("message %s, want it under %s", body, wantKey)
		}
	}
	for _, body := range []string{`{"agentName":"nori","projectId":"p"}`, `not json`, `{}`, `{"job":null}`} {
		if _, ok, _ := dynamostore.ParseJobMessage(body); ok {
			t.Errorf("%s: taken for a job message", body)
		}
	}
	for _, body := range []string{`{"job":{}}`, `{"job":{"agentName":"no#ri","id":"x"}}`, `{"job":{"agentName":"nori","id":"a#b"}}`,
		`{"dreamJob":{"agentName":"nori"}}`, `{"job":{"agentName":"nori","id":"a"},"dreamJob":{"agentName":"nori","id":"a"}}`} {
		if _, ok, err := dynamostore.ParseJobMessage(body); !ok || err == nil {
			t.Errorf("%s: ok %v, err %v; want a bad job message", body, ok, err)
		}
	}
}

// TestDreamJobs: a dream job records its request, is held by one runner
// at a time, reports its progress and ends with the dream's result; the
// bulk delete runner refuses it and deletes nothing.
func TestDreamJobs(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	fill(t, st, "nori", "p", 5, false)
	if _, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDream, AgentName: "nori", ProjectID: "p"}); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("a dream job without its request: got %v, want invalid", err)
	}
	days := 7
	j, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDream, AgentName: "nori", ProjectID: "p", Cutoff: "x",
		DreamInput: &agentmem.CreateDreamInput{ProjectID: "other", LookbackDays: &days, Force: true}})
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != agentmem.JobRunning || j.Phase != agentmem.DreamPhaseQueued || j.Cutoff != "" || j.DreamInput.ProjectID != "p" {
		t.Errorf("started: %+v; want running, queued, its own scope", j)
	}

	// The bulk delete runner refuses it and deletes nothing.
	if _, err := st.RunJob(ctx, "nori", j.ID); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("RunJob of a dream job: got %v, want invalid", err)
	}
	if c, err := st.GetScopeCounts(ctx, "nori", "p"); err != nil || c.Total != 5 {
		t.Fatalf("after RunJob of a dream job: %+v, %v; want the 5 memories", c, err)
	}

	deadline := time.Now().Add(time.Minute)
	got, owner, held, err := st.HoldJob(ctx, "nori", j.ID, deadline)
	if err != nil || !held || owner == "" || *got.DreamInput.LookbackDays != 7 || !got.DreamInput.Force {
		t.Fatalf("hold: %+v, %q, %v, %v", got, owner, held, err)
	}
	if _, _, held, err := st.HoldJob(ctx, "nori", j.ID, deadline); err != nil || held {
		t.Errorf("a second runner: held %v, %v; want the job left to the first", held, err)
	}
	if err := st.ReportDreamProgress(ctx, "nori", j.ID, owner, agentmem.DreamPhaseReview, 3, 17); err != nil {
		t.Fatal(err)
	}
	if err := st.ReportDreamProgress(ctx, "nori", j.ID, "someone-else", agentmem.DreamPhaseCommit, 20, 17); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Errorf("progress from a runner that does not hold it: got %v, want busy", err)
	}
	if got, err := st.GetJob(ctx, "nori", j.ID); err != nil || got.Phase != agentmem.DreamPhaseReview || got.Calls != 3 || got.PlannedCalls != 17 {
		t.Errorf("progress: %+v, %v", got, err)
	}
	// Given back, it can be held again (by the next run).
	st.ReleaseJob(ctx, "nori", j.ID, owner)
	_, owner, held, err = st.HoldJob(ctx, "nori", j.ID, deadline)
	if err != nil || !held {
		t.Fatalf("hold after release: %v, %v", held, err)
	}
	result := &agentmem.DreamResult{Status: agentmem.DreamStatusDreamed, Dream: &agentmem.Dream{ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", Date: "2026-11-22", Created: 4, Updated: 2,
		Usage: &agentmem.ModelUsage{Calls: 22, InputTokens: 1000, OutputTokens: 100}}}
	if _, err := st.EndJob(ctx, "nori", j.ID, "someone-else", agentmem.JobDone, "", result); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetJob(ctx, "nori", j.ID); got.Status != agentmem.JobRunning || got.DreamResult != nil {
		t.Errorf("ended by a runner that does not hold it: %+v; want it left running", got)
	}
	done, err := st.EndJob(ctx, "nori", j.ID, owner, agentmem.JobDone, "", result)
	if err != nil || done.Status != agentmem.JobDone || done.FinishedAt == "" || done.DreamResult == nil ||
		done.DreamResult.Dream.Created != 4 || done.DreamResult.Dream.Usage.Calls != 22 || done.Phase != agentmem.DreamPhaseReview {
		t.Errorf("done: %+v, %v", done, err)
	}
	if _, _, held, err := st.HoldJob(ctx, "nori", j.ID, deadline); err != nil || held {
		t.Errorf("hold of a job that is done: %v, %v", held, err)
	}
}
