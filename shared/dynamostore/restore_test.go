package dynamostore_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

// copiesOf counts the items of agent/project that carry id, reading the
// partition strongly consistent.
func copiesOf(t *testing.T, st *dynamostore.Store, agent, project, id string) int {
	t.Helper()
	var items []agentmem.Memory
	err := st.DB().Table(st.Config().MemoriesTable).Get("scope", agentmem.Scope(agent, project)).
		Consistent(true).All(context.Background(), &items)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range items {
		if m.ID == id {
			n++
		}
	}
	return n
}

// TestReplayedRestoreAfterAClashWritesNoSecondCopy is issue 10's replay
// bug: a restore whose planned slot another memory holds moves the memory
// a little later; replaying the same plan (the roll-forward after a crash)
// must find it there and write nothing, whether the slot is still taken
// or was freed since (the plan's deletes ran), so that the id stays unique,
// GetMemory answers and the counters hold.
func TestReplayedRestoreAfterAClashWritesNoSecondCopy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		freeSlot  bool // the memory in the planned slot is deleted before the replay
		replays   int
		batchSize int // other memories restored along with it
	}{
		{"slot still taken", false, 1, 0},
		{"slot freed before the replay", true, 1, 0},
		{"replayed three times in a batch", true, 3, 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := dynamotest.NewStore(t)
			ctx := context.Background()
			holder, err := st.CreateMemory(ctx, newMemory("nori", "p", "holds the planned slot"))
			if err != nil {
				t.Fatal(err)
			}
			planned := newMemory("nori", "p", "written by a dream's plan")
			planned.ID, planned.CreatedAt, planned.Source = "01JD5Q8Z3K7M2N4P6R8T0V2PLN", holder.CreatedAt, agentmem.SourceSystem
			plan := []agentmem.Memory{planned}
			at, _ := agentmem.ParseTime(holder.CreatedAt)
			for i := range tt.batchSize {
				plan = append(plan, sysMemory(i, at.Add(time.Duration(i+1)*time.Millisecond)))
			}
			if n, err := st.RestoreMemories(ctx, plan); err != nil || n != len(plan) {
				t.Fatalf("first restore: wrote %d, %v; want %d", n, err, len(plan))
			}
			moved, err := st.GetMemory(ctx, "nori", planned.ID)
			if err != nil || moved.CreatedAt == holder.CreatedAt {
				t.Fatalf("the planned memory: %+v, %v; want it moved after the taken slot", moved, err)
			}
			if tt.freeSlot {
				if err := st.DeleteMemory(ctx, "nori", holder.ID); err != nil {
					t.Fatal(err)
				}
			}
			for r := range tt.replays {
				if n, err := st.RestoreMemories(ctx, plan); err != nil || n != 0 {
					t.Fatalf("replay %d: wrote %d, %v; want nothing written", r+1, n, err)
				}
			}
			if got := copiesOf(t, st, "nori", "p", planned.ID); got != 1 {
				t.Fatalf("%d items carry the planned id, want 1", got)
			}
			got, err := st.GetMemory(ctx, "nori", planned.ID)
			if err != nil || got.CreatedAt != moved.CreatedAt || got.Content != planned.Content {
				t.Errorf("GetMemory after the replay: %+v, %v; want the memory where the first restore put it", got, err)
			}
			want := int64(1 + tt.batchSize)
			if !tt.freeSlot {
				want++
			}
			c, recount := counts(t, st, "nori", "p"), recountOf(t, st, "nori", "p")
			if c.Total != want || recount.Total != want || c.Bytes != recount.Bytes {
				t.Errorf("counters %+v, recount %+v; want %d memories and equal", c, recount, want)
			}
		})
	}
}

func recountOf(t *testing.T, st *dynamostore.Store, agent, project string) agentmem.Counts {
	t.Helper()
	rc, err := st.RecountScope(context.Background(), agent, project)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Drifted {
		t.Errorf("the counters had drifted: %+v", rc.Drift)
	}
	return rc.After
}

// TestRestoreListingAMemoryTwiceWritesItOnce: a plan that names one memory
// twice restores one item.
func TestRestoreListingAMemoryTwiceWritesItOnce(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	m := sysMemory(7, time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC))
	if n, err := st.RestoreMemories(ctx, []agentmem.Memory{m, m}); err != nil || n != 1 {
		t.Fatalf("restore: wrote %d, %v; want 1", n, err)
	}
	if got := copiesOf(t, st, "nori", "p", m.ID); got != 1 {
		t.Errorf("%d copies, want 1", got)
	}
}

// TestGetMemoryWithDuplicateItemsAnswers: should two items ever carry one
// id (as the replay bug left some behind), GetMemory answers with the
// earliest, always the same one, instead of failing; DeleteMemory deletes
// one copy at a time and never fails.
func TestGetMemoryWithDuplicateItemsAnswers(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	orig, err := st.CreateMemory(ctx, newMemory("nori", "p", "the original"))
	if err != nil {
		t.Fatal(err)
	}
	at, _ := agentmem.ParseTime(orig.CreatedAt)
	dup := orig
	dup.Content, dup.CreatedAt = "the duplicate", agentmem.FormatTime(at.Add(time.Microsecond))
	// a duplicate written behind the store's back, as the old replay did
	if err := st.DB().Table(st.Config().MemoriesTable).Put(struct {
		Scope string `dynamo:"scope"`
		agentmem.Memory
	}{agentmem.Scope("nori", "p"), dup}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		got, err := st.GetMemory(ctx, "nori", orig.ID)
		if err != nil || got.Content != "the original" || got.CreatedAt != orig.CreatedAt {
			t.Fatalf("GetMemory with a duplicate: %+v, %v; want the earliest copy", got, err)
		}
	}
	if _, err := st.GetMemory(ctx, "koji", orig.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("another agent: got %v, want not found", err)
	}
	for i := range 2 {
		if err := st.DeleteMemory(ctx, "nori", orig.ID); err != nil {
			t.Fatalf("delete %d: %v", i+1, err)
		}
	}
	if _, err := st.GetMemory(ctx, "nori", orig.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("after deleting both copies: got %v, want not found", err)
	}
}

// TestRetriedRestoreWithItsExpectedVersionIsHarmless: a restore sent
// again with the version it expected (a client's retry after its first
// answer was lost) answers the memory the first one made, as a retried
// restore without one does, for a live memory and for one that came back
// into its scope; a restore expecting a version someone else moved still
// conflicts.
func TestRetriedRestoreWithItsExpectedVersionIsHarmless(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, name := range []string{"live", "retired"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			st := dynamotest.NewStore(t)
			m, err := st.CreateMemory(ctx, newMemory("nori", "p", "CI uses Node 18"))
			if err != nil {
				t.Fatal(err)
			}
			if m, _, err = st.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Content: ptr("CI uses Node 20")}, manual); err != nil {
				t.Fatal(err)
			}
			if name == "retired" {
				if m, err = st.RetireMemory(ctx, "nori", m.ID, 0, manual); err != nil {
					t.Fatal(err)
				}
			}
			expect := m.Version
			first, err := st.RestoreVersion(ctx, "nori", m.ID, 1, &expect, manual)
			if err != nil {
				t.Fatal(err)
			}
			again, err := st.RestoreVersion(ctx, "nori", m.ID, 1, &expect, manual)
			if err != nil || again.Version != first.Version || again.Content != "CI uses Node 18" {
				t.Errorf("retried restore: got version %d %q, %v; want version %d, unchanged", again.Version, again.Content, err, first.Version)
			}
			if _, _, err := st.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Tags: &[]string{"ci"}}, manual); err != nil {
				t.Fatal(err)
			}
			if _, err := st.RestoreVersion(ctx, "nori", m.ID, 1, &expect, manual); agentmem.ErrorCode(err) != agentmem.EConflict {
				t.Errorf("restore expecting version %d after another change: got %v, want conflict", expect, err)
			}
			checkCounters(t, st, "nori", "p")
		})
	}
}
