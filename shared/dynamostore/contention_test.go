package dynamostore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

// TestWritersContendingForTheSameMemories: writers edit, retype, pin,
// reinforce, use, retire, restore, replace and delete the same few
// memories at once, while the scope is held at a small limit. Every call
// answers or refuses with a conflict or not found (never another error);
// afterwards the counters equal the memories, by type too, and every
// memory is in one place only: live, or superseded or retired, or gone.
func TestWritersContendingForTheSameMemories(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	st.MemoryLimit = 12
	logTo(st)
	ctx := context.Background()
	var mu sync.Mutex
	var ids []string
	add := func(m agentmem.Memory) {
		mu.Lock()
		defer mu.Unlock()
		ids = append(ids, m.ID)
	}
	pick := func(r *rand.Rand) string {
		mu.Lock()
		defer mu.Unlock()
		return ids[r.IntN(len(ids))]
	}
	pattern := func(i int) agentmem.Memory {
		return agentmem.Memory{AgentName: "toro", ProjectID: "p", Source: agentmem.SourceExtraction, Type: agentmem.TypePattern,
			Content: "flaky deploy", Trigger: fmt.Sprintf("deploy %d times out", i%3), Solution: "raise the timeout"}
	}
	for i := range 8 {
		m, err := st.CreateMemory(ctx, newMemory("toro", "p", fmt.Sprintf("seed memory %d", i)))
		if err != nil {
			t.Fatal(err)
		}
		add(m)
	}
	const writers, each = 6, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range each {
				id := pick(r)
				var err error
				switch r.IntN(10) {
				case 0:
					var m agentmem.Memory
					if m, err = st.CreateMemory(ctx, newMemory("toro", "p", fmt.Sprintf("writer %d memory %d", w, i))); err == nil {
						add(m)
					}
				case 1:
					typ := []agentmem.Type{agentmem.TypeFinding, agentmem.TypeSession, agentmem.TypeNote, agentmem.TypeBlocker}[r.IntN(4)]
					_, _, err = st.UpdateMemory(ctx, "toro", id, agentmem.MemoryPatch{Type: &typ}, manual)
				case 2:
					pinned := r.IntN(2) == 0
					_, _, err = st.UpdateMemory(ctx, "toro", id, agentmem.MemoryPatch{Pinned: &pinned}, manual)
				case 3:
					var m agentmem.Memory
					if m, _, err = st.SavePattern(ctx, pattern(i)); err == nil {
						add(m)
					}
				case 4:
					var m agentmem.Memory
					if m, err = st.GetMemory(ctx, "toro", id); err == nil && m.State == "" {
						_, err = st.TouchMemories(ctx, []agentmem.Memory{m}, time.Now())
					}
				case 5:
					_, err = st.RetireMemory(ctx, "toro", id, 0, manual)
				case 6:
					_, err = st.RestoreVersion(ctx, "toro", id, 1, nil, manual)
				case 7:
					var c dynamostore.Created
					if c, err = st.Create(ctx, newMemory("toro", "p", fmt.Sprintf("writer %d replacement %d", w, i)), dynamostore.CreateOptions{Supersedes: []string{id}}); err == nil {
						add(c.Memory)
					}
				case 8:
					err = st.DeleteMemory(ctx, "toro", id)
				case 9:
					_, _, err = st.UpdateMemory(ctx, "toro", id, agentmem.MemoryPatch{Content: ptr(fmt.Sprintf("edited by %d at %d", w, i))}, manual)
				}
				switch agentmem.ErrorCode(err) {
				case "", agentmem.EConflict, agentmem.ENotFound:
				default:
					t.Errorf("writer %d op %d on %s: %v", w, i, id, err)
				}
			}
		}()
	}
	wg.Wait()
	rc, err := st.RecountScope(ctx, "toro", "p")
	if err != nil || rc.Drifted {
		t.Errorf("recount: drift %+v, %v; want none", rc.Drift, err)
	}
	live := map[string]bool{}
	for _, id := range scopeIDs(t, st, "toro", "p") {
		if live[id] {
			t.Errorf("%s is stored twice", id)
		}
		live[id] = true
	}
	gone, err := st.ListGone(ctx, dynamostore.ListOptions{AgentName: "toro", ProjectID: "p", Limit: agentmem.MaxListLimit}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range gone.Memories {
		if live[m.ID] {
			t.Errorf("%s is both live and %s", m.ID, m.State)
		}
	}
	for _, id := range ids {
		m, err := st.GetMemory(ctx, "toro", id)
		switch {
		case agentmem.ErrorCode(err) == agentmem.ENotFound:
			if live[id] {
				t.Errorf("%s is stored but not found", id)
			}
		case err != nil:
			t.Errorf("get %s: %v", id, err)
		case m.State == "" && !live[id]:
			t.Errorf("%s answers live but the scope does not hold it", id)
		}
	}
}
