package dynamostore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestRunClaimFinishAndReplay(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	lease := time.Now().Add(time.Minute)
	run, claimed, err := st.ClaimRun(ctx, "nori", "p", "run-1", lease)
	if err != nil || !claimed || run.Status != dynamostore.RunRunning || run.Owner == "" {
		t.Fatalf("first claim: got %+v, %v, %v", run, claimed, err)
	}
	if _, _, err := st.ClaimRun(ctx, "nori", "p", "run-1", lease); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Errorf("claim while held: got %v, want busy", err)
	}
	// The same runId in another scope is another run.
	if _, claimed, err := st.ClaimRun(ctx, "nori", "other", "run-1", lease); err != nil || !claimed {
		t.Errorf("other project: got %v, %v", claimed, err)
	}
	if _, err := st.FinishRun(ctx, run, []string{"A", "B"}, []byte(`{"saved":2}`)); err != nil {
		t.Fatal(err)
	}
	done, claimed, err := st.ClaimRun(ctx, "nori", "p", "run-1", lease)
	if err != nil || claimed || done.Status != dynamostore.RunDone || done.Result != `{"saved":2}` || len(done.MemoryIDs) != 2 || done.FinishedAt == "" {
		t.Errorf("claim after finish: got %+v, %v, %v; want the finished run to replay", done, claimed, err)
	}
	// A finished run is never released by a stale holder.
	if err := st.ReleaseRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if got, err := st.GetRun(ctx, "nori", "p", "run-1"); err != nil || got.Status != dynamostore.RunDone {
		t.Errorf("after a stale release: got %+v, %v", got, err)
	}
}

func TestReleasedRunCanBeClaimedAgain(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	run, _, err := st.ClaimRun(ctx, "nori", "p", "run-1", time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ReleaseRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetRun(ctx, "nori", "p", "run-1"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("after release: got %v, want not found", err)
	}
	again, claimed, err := st.ClaimRun(ctx, "nori", "p", "run-1", time.Now().Add(time.Minute))
	if err != nil || !claimed || again.Owner == run.Owner {
		t.Errorf("claim after release: got %+v, %v, %v", again, claimed, err)
	}
	// The old holder has lost the run: it can neither finish nor release it.
	if _, err := st.FinishRun(ctx, run, nil, []byte(`{}`)); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("finish by the old holder: got %v, want conflict", err)
	}
	if err := st.ReleaseRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if got, err := st.GetRun(ctx, "nori", "p", "run-1"); err != nil || got.Owner != again.Owner {
		t.Errorf("the old holder's release removed the new claim: %+v, %v", got, err)
	}
}

func TestExpiredClaimIsTakenOver(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	dead, _, err := st.ClaimRun(ctx, "nori", "p", "run-1", time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	run, claimed, err := st.ClaimRun(ctx, "nori", "p", "run-1", time.Now().Add(time.Minute))
	if err != nil || !claimed || run.Owner == dead.Owner {
		t.Errorf("claim over an expired lease: got %+v, %v, %v", run, claimed, err)
	}
}

func TestConcurrentClaimsHaveOneWinner(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	results := make([]error, n)
	won := make([]bool, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, won[i], results[i] = st.ClaimRun(ctx, "nori", "p", "run-1", time.Now().Add(time.Minute))
		}()
	}
	wg.Wait()
	winners := 0
	for i := range n {
		switch {
		case won[i]:
			winners++
		case agentmem.ErrorCode(results[i]) != agentmem.EBusy:
			t.Errorf("loser %d: got %v, want busy", i, results[i])
		}
	}
	if winners != 1 {
		t.Errorf("got %d winners, want 1", winners)
	}
}
