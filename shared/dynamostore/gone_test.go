package dynamostore_test

import (
	"context"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
)

// goneFixture is a scope holding one live memory and one that left it
// (retired or superseded), written through a proxy (st) and read
// directly (direct).
type goneFixture struct {
	proxy       *lossyProxy
	st, direct  *dynamostore.Store
	gone, other agentmem.Memory
}

func newGoneFixture(t *testing.T, superseded bool) goneFixture {
	t.Helper()
	ctx := context.Background()
	proxy, st, direct := lossyStore(t)
	if err := direct.EnsureTables(ctx); err != nil {
		t.Fatal(err)
	}
	f := goneFixture{proxy: proxy, st: st, direct: direct}
	gone, err := direct.CreateMemory(ctx, newMemory("nori", "p", "the deploy key is hunter2"))
	if err != nil {
		t.Fatal(err)
	}
	if superseded {
		c, err := direct.Create(ctx, newMemory("nori", "p", "deploy keys live in the vault"), dynamostore.CreateOptions{Supersedes: []string{gone.ID}})
		if err != nil {
			t.Fatal(err)
		}
		f.other = c.Memory
	} else {
		if _, err := direct.RetireMemory(ctx, "nori", gone.ID, 0, manual); err != nil {
			t.Fatal(err)
		}
		if f.other, err = direct.CreateMemory(ctx, newMemory("nori", "p", "deploy keys live in the vault")); err != nil {
			t.Fatal(err)
		}
	}
	f.gone = gone
	return f
}

// checkDeletedForGood fails unless the memory id of nori is gone for
// good: no read answers it, no restore brings it back, no listing shows
// it.
func checkDeletedForGood(t *testing.T, st *dynamostore.Store, id string) {
	t.Helper()
	ctx := context.Background()
	if m, err := st.GetMemory(ctx, "nori", id); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("get: got %+v, %v; want not_found", m, err)
	}
	if h, err := st.MemoryHistory(ctx, "nori", id, 0, ""); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("history: got %d versions, %v; want not_found", len(h.Versions), err)
	}
	for v := 1; v <= 2; v++ {
		if m, err := st.RestoreVersion(ctx, "nori", id, v, nil, manual); agentmem.ErrorCode(err) != agentmem.ENotFound {
			t.Errorf("restore version %d: got %+v, %v; want not_found", v, m, err)
		}
	}
	if ids := scopeIDs(t, st, "nori", "p"); contains(ids, id) {
		t.Errorf("the scope holds %s again: %v", id, ids)
	}
	page, err := st.ListGone(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range page.Memories {
		if m.ID == id {
			t.Errorf("listed as %s: %+v", m.State, m)
		}
	}
	checkCounters(t, st, "nori", "p")
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// TestDeletedGoneMemoriesStayDeleted: a superseded or retired memory
// deleted for good (by id, or with its scope) is never answered or
// restored again, when the best-effort history delete after it fails (a
// crash between the two) and when a restore of it races the delete.
func TestDeletedGoneMemoriesStayDeleted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, superseded := range []bool{false, true} {
		name := map[bool]string{false: "retired", true: "superseded"}[superseded]
		t.Run(name+"/delete by id, history delete fails", func(t *testing.T) {
			t.Parallel()
			f := newGoneFixture(t, superseded)
			f.proxy.refuseWith("BatchWriteItem", "hist#")
			if err := f.st.DeleteMemory(ctx, "nori", f.gone.ID); err != nil {
				t.Fatal(err)
			}
			checkDeletedForGood(t, f.direct, f.gone.ID)
		})
		t.Run(name+"/scope delete, history delete fails", func(t *testing.T) {
			t.Parallel()
			f := newGoneFixture(t, superseded)
			f.proxy.refuseWith("BatchWriteItem", "hist#")
			if _, err := f.st.DeleteScope(ctx, "nori", "p"); err != nil {
				t.Fatal(err)
			}
			checkDeletedForGood(t, f.direct, f.gone.ID)
		})
		t.Run(name+"/delete by id lands while it is restored", func(t *testing.T) {
			t.Parallel()
			f := newGoneFixture(t, superseded)
			f.proxy.beforeNext("TransactWriteItems", func() {
				if err := f.direct.DeleteMemory(ctx, "nori", f.gone.ID); err != nil {
					t.Errorf("delete: %v", err)
				}
			})
			if m, err := f.st.RestoreVersion(ctx, "nori", f.gone.ID, 1, nil, manual); agentmem.ErrorCode(err) != agentmem.ENotFound {
				t.Errorf("restore of a memory deleted meanwhile: got %+v, %v; want not_found", m, err)
			}
			checkDeletedForGood(t, f.direct, f.gone.ID)
		})
		t.Run(name+"/restore lands while it is deleted by id", func(t *testing.T) {
			t.Parallel()
			f := newGoneFixture(t, superseded)
			f.proxy.beforeNext("DeleteItem", func() {
				if _, err := f.direct.RestoreVersion(ctx, "nori", f.gone.ID, 1, nil, manual); err != nil {
					t.Errorf("restore: %v", err)
				}
			})
			if err := f.st.DeleteMemory(ctx, "nori", f.gone.ID); err != nil {
				t.Fatal(err)
			}
			checkDeletedForGood(t, f.direct, f.gone.ID)
		})
	}
}

// TestDeleteOfAMemoryThatLeavesMeanwhileDeletesIt: a delete by id that
// read a live memory just before another write superseded or retired it
// deletes it where it went (for good), instead of answering not found.
func TestDeleteOfAMemoryThatLeavesMeanwhileDeletesIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, superseded := range []bool{false, true} {
		t.Run(map[bool]string{false: "retired", true: "superseded"}[superseded], func(t *testing.T) {
			t.Parallel()
			proxy, st, direct := lossyStore(t)
			if err := direct.EnsureTables(ctx); err != nil {
				t.Fatal(err)
			}
			x, err := direct.CreateMemory(ctx, newMemory("nori", "p", "the deploy key is hunter2"))
			if err != nil {
				t.Fatal(err)
			}
			proxy.afterNext("GetItem", st.Config().MemoriesTable, func() {
				var err error
				if superseded {
					_, err = direct.Create(ctx, newMemory("nori", "p", "deploy keys live in the vault"), dynamostore.CreateOptions{Supersedes: []string{x.ID}})
				} else {
					_, err = direct.RetireMemory(ctx, "nori", x.ID, 0, manual)
				}
				if err != nil {
					t.Errorf("leave: %v", err)
				}
			})
			if err := st.DeleteMemory(ctx, "nori", x.ID); err != nil {
				t.Fatalf("delete: %v", err)
			}
			checkDeletedForGood(t, direct, x.ID)
		})
	}
}
