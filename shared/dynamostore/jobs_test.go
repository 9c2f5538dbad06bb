package dynamostore_test

import (
	"context"
	"fmt"
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
	msg := dynamostore.JobMessage{Job: dynamostore.JobRef{AgentName: "nori", ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"}}
	ref, ok, err := dynamostore.ParseJobMessage(msg.Encode())
	if !ok || err != nil || ref != msg.Job {
		t.Errorf("round trip: %+v, %v, %v", ref, ok, err)
	}
	for _, body := range []string{`{"agentName":"nori","projectId":"p"}`, `not json`, `{}`} {
		if _, ok, _ := dynamostore.ParseJobMessage(body); ok {
			t.Errorf("%s: taken for a job message", body)
		}
	}
	for _, body := range []string{`{"job":{}}`, `{"job":{"agentName":"no#ri","id":"x"}}`, `{"job":{"agentName":"nori","id":"a#b"}}`} {
		if _, ok, err := dynamostore.ParseJobMessage(body); !ok || err == nil {
			t.Errorf("%s: ok %v, err %v; want a bad job message", body, ok, err)
		}
	}
}
