package dynamostore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func counts(t *testing.T, st *dynamostore.Store, agent, project string) agentmem.ScopeCounts {
	t.Helper()
	c, err := st.GetScopeCounts(context.Background(), agent, project)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCountersFollowEveryWritePath(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	if c := counts(t, st, "nori", "p"); c.Total != 0 || len(c.ByType) != 0 {
		t.Fatalf("fresh scope: got %+v", c)
	}
	var made []agentmem.Memory
	for i, typ := range []agentmem.Type{agentmem.TypeFinding, agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeNote} {
		m := newMemory("nori", "p", fmt.Sprintf("memory %d", i))
		m.Type = typ
		if i == 3 {
			m.Source = agentmem.SourceExtraction
		}
		created, err := st.CreateMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, created)
	}
	if _, err := st.CreateMemory(ctx, newMemory("nori", "other", "elsewhere")); err != nil {
		t.Fatal(err)
	}
	c := counts(t, st, "nori", "p")
	if c.Total != 4 || c.ByType[agentmem.TypeFinding] != 2 || c.ByType[agentmem.TypeDecision] != 1 || c.ByType[agentmem.TypeNote] != 1 ||
		c.BySource[agentmem.SourceManual] != 3 || c.BySource[agentmem.SourceExtraction] != 1 {
		t.Errorf("after 4 creates: got %+v", c)
	}
	var wantBytes int64
	for _, m := range made {
		wantBytes += int64(dynamostore.MemorySize(m))
	}
	if c.Bytes != wantBytes || c.Bytes <= 0 {
		t.Errorf("bytes: got %d, want %d", c.Bytes, wantBytes)
	}

	if err := st.DeleteMemory(ctx, "nori", made[0].ID); err != nil {
		t.Fatal(err)
	}
	// The second delete of made[0] deletes nothing and must not count.
	n, err := st.DeleteMemories(ctx, []agentmem.Memory{made[0], made[2]})
	if err != nil || n != 1 {
		t.Fatalf("DeleteMemories: got %d, %v; want 1 deleted", n, err)
	}
	c = counts(t, st, "nori", "p")
	if c.Total != 2 || c.ByType[agentmem.TypeFinding] != 1 || c.ByType[agentmem.TypeDecision] != 0 {
		t.Errorf("after deletes: got %+v", c)
	}
	if _, ok := c.ByType[agentmem.TypeDecision]; ok {
		t.Errorf("zero counters should be left out: %+v", c.ByType)
	}

	if n, err := st.DeleteScope(ctx, "nori", "p"); err != nil || n != 2 {
		t.Fatalf("DeleteScope: got %d, %v; want 2", n, err)
	}
	if c := counts(t, st, "nori", "p"); c.Total != 0 || c.Bytes != 0 {
		t.Errorf("after DeleteScope: got %+v", c)
	}
	if c := counts(t, st, "nori", "other"); c.Total != 1 {
		t.Errorf("other scope: got %+v, want 1", c)
	}
}

func TestCountersUnderConcurrentCreates(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := st.CreateMemory(ctx, newMemory("toro", "p", fmt.Sprintf("m%d", i))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if c := counts(t, st, "toro", "p"); c.Total != n {
		t.Errorf("got total %d, want %d", c.Total, n)
	}
}

func TestRecountScopeRepairsDrift(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for i := range 3 {
		if _, err := st.CreateMemory(ctx, newMemory("koji", "p", fmt.Sprintf("m%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	// Drift: a memory written behind the store's back, as when a process
	// dies between the memory write and the counter update.
	lost := map[string]any{"scope": "koji#p", "createdAt": "2026-11-22T10:00:00.000000000Z", "id": "01JD5Q8Z3K7M2N4P6R8T0V2X4Y",
		"agentName": "koji", "projectId": "p", "content": "lost", "type": "pattern", "source": "system"}
	if err := st.DB().Table(st.Config().MemoriesTable).Put(lost).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if c := counts(t, st, "koji", "p"); c.Total != 3 {
		t.Fatalf("before recount: got %d, want the drifted 3", c.Total)
	}
	rc, err := st.RecountScope(ctx, "koji", "p")
	if err != nil {
		t.Fatal(err)
	}
	got := rc.After
	if got.Total != 4 || got.BySource[agentmem.SourceManual] != 3 || got.BySource[agentmem.SourceSystem] != 1 || got.ByType[agentmem.TypePattern] != 1 {
		t.Errorf("recount: got %+v", got)
	}
	if !rc.Drifted || rc.Before.Total != 3 || rc.Drift.Total != 1 || rc.Drift.ByType[agentmem.TypePattern] != 1 || rc.Drift.Bytes <= 0 {
		t.Errorf("recount report: got %+v, want a drift of one pattern", rc)
	}
	if again, err := st.RecountScope(ctx, "koji", "p"); err != nil || again.Drifted || again.Drift.Total != 0 {
		t.Errorf("second recount: got %+v, %v; want no drift", again, err)
	}
	if c := counts(t, st, "koji", "p"); c.Total != 4 || c.Bytes != got.Bytes || c.ByType[agentmem.TypePattern] != 1 {
		t.Errorf("stored after recount: got %+v, want %+v", c, got)
	}
}

// TestDeleteFindsAMemoryThatMovedFromItsSlot: a memory restored at a
// createdAt another memory holds lands a little later; deleting it by the
// createdAt it was asked for (as a dream's plan remembers it) deletes it
// where it is, and leaves the slot's own memory alone.
func TestDeleteFindsAMemoryThatMovedFromItsSlot(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	holder, err := st.CreateMemory(ctx, newMemory("nori", "p", "holds the slot"))
	if err != nil {
		t.Fatal(err)
	}
	moved := newMemory("nori", "p", "restored into a taken slot")
	moved.ID, moved.CreatedAt = "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", holder.CreatedAt
	if n, err := st.RestoreMemories(ctx, []agentmem.Memory{moved}); err != nil || n != 1 {
		t.Fatalf("restore: %d, %v", n, err)
	}
	got, err := st.GetMemory(ctx, "nori", moved.ID)
	if err != nil || got.CreatedAt == holder.CreatedAt {
		t.Fatalf("restored memory: %+v, %v; want it moved after the taken slot", got, err)
	}
	n, err := st.DeleteMemories(ctx, []agentmem.Memory{moved}) // the createdAt asked for, not the one it got
	if err != nil || n != 1 {
		t.Fatalf("DeleteMemories: got %d, %v; want the moved memory deleted", n, err)
	}
	if _, err := st.GetMemory(ctx, "nori", moved.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("the moved memory is still there: %v", err)
	}
	if _, err := st.GetMemory(ctx, "nori", holder.ID); err != nil {
		t.Errorf("the slot's own memory was deleted: %v", err)
	}
	if c := counts(t, st, "nori", "p"); c.Total != 1 {
		t.Errorf("counters: got %d, want 1", c.Total)
	}
	// A memory of another scope with that id is not this one.
	if n, err := st.DeleteMemories(ctx, []agentmem.Memory{{AgentName: "koji", ProjectID: "p", ID: holder.ID, CreatedAt: holder.CreatedAt}}); err != nil || n != 0 {
		t.Errorf("delete across scopes: got %d, %v; want nothing deleted", n, err)
	}
}

// TestCountersStayExactUnderMixedWriters: creates, deletes, touches and
// recounts of one scope at once, over every counter slot; afterwards the
// counters equal a count of the stored memories (no drift to repair), and
// the totals their sum.
func TestCountersStayExactUnderMixedWriters(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	const writers, each = 8, 12
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []agentmem.Memory
			for i := range each {
				m, err := st.CreateMemory(ctx, newMemory("toro", "p", fmt.Sprintf("writer %d memory %d", w, i)))
				if err != nil {
					t.Error(err)
					return
				}
				mine = append(mine, m)
				switch i % 4 {
				case 1:
					if _, err := st.TouchMemories(ctx, mine, time.Now()); err != nil {
						t.Error(err)
					}
				case 2:
					if err := st.DeleteMemory(ctx, "toro", mine[0].ID); err != nil {
						t.Error(err)
					}
					mine = mine[1:]
				case 3:
					// The counters are exact all along: a recount among
					// the writers finds nothing to repair.
					if rc, err := st.RecountScope(ctx, "toro", "p"); err != nil || rc.Drifted {
						t.Errorf("recount among writers: %+v, %v; want no drift", rc.Drift, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	c := counts(t, st, "toro", "p")
	if want := int64(writers * (each - each/4)); c.Total != want {
		t.Errorf("total %d, want %d", c.Total, want)
	}
	rc, err := st.RecountScope(ctx, "toro", "p")
	if err != nil || rc.Drifted {
		t.Errorf("recount after the writers: %+v, %v; want no drift", rc, err)
	}
	tot, err := st.GetTotals(ctx)
	if err != nil || tot.Total != c.Total || tot.Bytes != c.Bytes || tot.Scopes != 1 {
		t.Errorf("totals %+v, %v; want the scope's %d memories, %d bytes", tot, err, c.Total, c.Bytes)
	}
}

// TestDeleteOfAMemoryRetypedMeanwhileCountsItsType: a delete that read a
// memory before an edit changed its type (to one of the same length, so
// that its counted size stayed) takes it off its current type's counter,
// never the old one's: the per-type counts stay exact.
func TestDeleteOfAMemoryRetypedMeanwhileCountsItsType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proxy, st, direct := lossyStore(t)
	if err := direct.EnsureTables(ctx); err != nil {
		t.Fatal(err)
	}
	m := newMemory("nori", "p", "the flaky test is TestUpload")
	m.Type = agentmem.TypeFinding
	m, err := direct.CreateMemory(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	// Edited once, so that it has its updatedAt already.
	if m, _, err = direct.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Tags: &[]string{"ci"}}, manual); err != nil {
		t.Fatal(err)
	}
	proxy.afterNext("GetItem", st.Config().MemoriesTable, func() {
		typ := agentmem.TypeSession
		if _, _, err := direct.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Type: &typ}, manual); err != nil {
			t.Errorf("retype: %v", err)
		}
	})
	if err = st.DeleteMemory(ctx, "nori", m.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if ids := scopeIDs(t, direct, "nori", "p"); len(ids) != 0 {
		t.Errorf("after the delete the scope holds %v", ids)
	}
	rc, rerr := direct.RecountScope(ctx, "nori", "p")
	if rerr != nil {
		t.Fatal(rerr)
	}
	if rc.Drifted {
		t.Errorf("delete answered %v; the counters drifted: %+v", err, rc.Drift)
	}
}
