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

// onceWrite is one idempotent write path: it writes with once and returns
// what the caller would answer (an id identifying what was stored) and
// whether it was replayed; count says how many were stored.
type onceWrite struct {
	name  string
	write func(st *dynamostore.Store, once dynamostore.Once, body string) (id string, replayed bool, err error)
	count func(t *testing.T, st *dynamostore.Store) int
}

var onceWrites = []onceWrite{
	{"create memory", func(st *dynamostore.Store, once dynamostore.Once, body string) (string, bool, error) {
		m, replayed, err := st.CreateMemoryOnce(context.Background(), newMemory("nori", "p", body), once)
		return m.ID, replayed, err
	}, func(t *testing.T, st *dynamostore.Store) int {
		return len(scopeIDs(t, st, "nori", "p"))
	}},
	{"append daily", func(st *dynamostore.Store, once dynamostore.Once, body string) (string, bool, error) {
		r, replayed, err := st.AppendDailyOnce(context.Background(), agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: "t", Content: body}, once)
		return r.ID, replayed, err
	}, func(t *testing.T, st *dynamostore.Store) int {
		recs, err := st.DailyRecords(context.Background(), "nori", "p", time.Now().Add(-48*time.Hour), time.Now().Add(48*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return len(recs)
	}},
	{"put personality", func(st *dynamostore.Store, once dynamostore.Once, body string) (string, bool, error) {
		p, _, replayed, err := st.PutPersonalityOnce(context.Background(), agentmem.Personality{AgentName: "nori", DisplayName: body}, nil, once)
		return fmt.Sprint(p.Version), replayed, err
	}, func(t *testing.T, st *dynamostore.Store) int {
		p, err := st.GetPersonality(context.Background(), "nori")
		if agentmem.ErrorCode(err) == agentmem.ENotFound {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return p.Version // each write is a version
	}},
}

func onceFor(key, route, body string) dynamostore.Once {
	o, err := dynamostore.NewOnce(key, route, "nori", map[string]string{"body": body})
	if err != nil {
		panic(err)
	}
	return o
}

// TestIdempotencyKeys: for each idempotent write, the same key with the
// same request replays the first answer and writes nothing; the same key
// with another request is idempotency_mismatch and writes nothing; the
// same key on another route or for another agent is another request; a
// key past its retention is a new request.
func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	for _, w := range onceWrites {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			st := dynamotest.NewStore(t)
			now := time.Now()
			st.Now = func() time.Time { return now }
			first, replayed, err := w.write(st, onceFor("key-1", "route", "first body"), "first body")
			if err != nil || replayed {
				t.Fatalf("first: %v, replayed %v", err, replayed)
			}
			again, replayed, err := w.write(st, onceFor("key-1", "route", "first body"), "first body")
			if err != nil || !replayed || again != first {
				t.Errorf("retry: got %s, replayed %v, %v; want %s replayed", again, replayed, err, first)
			}
			if _, _, err := w.write(st, onceFor("key-1", "route", "another body"), "another body"); agentmem.ErrorCode(err) != agentmem.EIdempotencyMismatch {
				t.Errorf("same key, another request: got %v, want %s", err, agentmem.EIdempotencyMismatch)
			}
			if n := w.count(t, st); n != 1 {
				t.Fatalf("after a write, its retry and a mismatch: %d stored, want 1", n)
			}
			if _, replayed, err := w.write(st, onceFor("key-1", "other-route", "first body"), "first body"); err != nil || replayed {
				t.Errorf("same key on another route: replayed %v, %v; want a new write", replayed, err)
			}
			if n := w.count(t, st); n != 2 {
				t.Errorf("after a write on another route: %d stored, want 2", n)
			}
			// Past the key's retention (TTL may not have removed it yet).
			now = now.Add(agentmem.IdempotencyRetention + time.Minute)
			if _, replayed, err := w.write(st, onceFor("key-1", "route", "first body"), "first body"); err != nil || replayed {
				t.Errorf("after the key expired: replayed %v, %v; want a new write", replayed, err)
			}
			if n := w.count(t, st); n != 3 {
				t.Errorf("after the key expired: %d stored, want 3", n)
			}
		})
	}
}

// TestConcurrentRetriesOfOneKeyWriteOnce: many calls with one key at once
// (a client retrying before the first answered) store one thing, and every
// call gets its answer.
func TestConcurrentRetriesOfOneKeyWriteOnce(t *testing.T) {
	t.Parallel()
	for _, w := range onceWrites {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			st := dynamotest.NewStore(t)
			const callers = 12
			ids := make([]string, callers)
			errs := make([]error, callers)
			var wg sync.WaitGroup
			for i := range callers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ids[i], _, errs[i] = w.write(st, onceFor("same-key", "route", "one body"), "one body")
				}()
			}
			wg.Wait()
			for i := range callers {
				if errs[i] != nil {
					t.Errorf("caller %d: %v", i, errs[i])
				} else if ids[i] != ids[0] {
					t.Errorf("caller %d got %s, caller 0 got %s: want one answer", i, ids[i], ids[0])
				}
			}
			if n := w.count(t, st); n != 1 {
				t.Errorf("%d stored, want 1", n)
			}
		})
	}
}

// TestIdempotencyKeysAreScopedToTheAgent: another agent's key is another
// key.
func TestIdempotencyKeysAreScopedToTheAgent(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for _, agent := range []string{"nori", "kai"} {
		once, err := dynamostore.NewOnce("shared-key", "CreateMemory", agent, "same")
		if err != nil {
			t.Fatal(err)
		}
		if _, replayed, err := st.CreateMemoryOnce(ctx, newMemory(agent, "p", "same"), once); err != nil || replayed {
			t.Errorf("%s: replayed %v, %v; want its own write", agent, replayed, err)
		}
	}
	for _, agent := range []string{"nori", "kai"} {
		if n := len(scopeIDs(t, st, agent, "p")); n != 1 {
			t.Errorf("%s: %d memories, want 1", agent, n)
		}
	}
}

// TestIdempotencyKeyInItsLastSecond: a retry in the very second the key
// expires at (expiresAt is whole seconds) gets one answer from the record
// and the transaction's condition alike: the first result, replayed,
// instead of a conflict that no retry within that second could pass.
func TestIdempotencyKeyInItsLastSecond(t *testing.T) {
	t.Parallel()
	for _, w := range onceWrites {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			st := dynamotest.NewStore(t)
			now := time.Now().Truncate(time.Second).Add(300 * time.Millisecond)
			st.Now = func() time.Time { return now }
			first, _, err := w.write(st, onceFor("key-1", "route", "first body"), "first body")
			if err != nil {
				t.Fatal(err)
			}
			now = now.Add(agentmem.IdempotencyRetention) // expiresAt's second, 300 ms into it
			again, replayed, err := w.write(st, onceFor("key-1", "route", "first body"), "first body")
			if err != nil || !replayed || again != first {
				t.Errorf("retry in the key's last second: got %s, replayed %v, %v; want %s replayed", again, replayed, err, first)
			}
			if n := w.count(t, st); n != 1 {
				t.Errorf("%d stored, want 1", n)
			}
		})
	}
}

// TestRetryOfACreateThatCommitsMeanwhileIsReplayed: a keyed create that
// also checks for duplicates or replaces a memory looks for its key
// before it reads the scope; when the first call with the key commits
// right after that look (a client's retry while its first call is still
// at work), the retry still answers the first call's memory, replayed,
// not a duplicate of itself or a conflict with the memory it replaced.
func TestRetryOfACreateThatCommitsMeanwhileIsReplayed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opt  func(old agentmem.Memory) dynamostore.CreateOptions
	}{
		{"dedup", func(agentmem.Memory) dynamostore.CreateOptions { return dynamostore.CreateOptions{Dedup: true} }},
		{"replaces", func(old agentmem.Memory) dynamostore.CreateOptions {
			return dynamostore.CreateOptions{Dedup: true, Supersedes: []string{old.ID}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			proxy, st, direct := lossyStore(t)
			if err := direct.EnsureTables(ctx); err != nil {
				t.Fatal(err)
			}
			old, err := direct.CreateMemory(ctx, newMemory("nori", "p", "CI uses Node 18"))
			if err != nil {
				t.Fatal(err)
			}
			m := newMemory("nori", "p", "CI uses Node 20 since the runner upgrade")
			var first dynamostore.Created
			proxy.afterNext("GetItem", "idem#nori", func() {
				opt := tc.opt(old)
				opt.Once = onceFor("key-1", "route", m.Content)
				if first, err = direct.Create(ctx, m, opt); err != nil {
					t.Errorf("first call: %v", err)
				}
			})
			opt := tc.opt(old)
			opt.Once = onceFor("key-1", "route", m.Content)
			again, err := st.Create(ctx, m, opt)
			if err != nil || !again.Replayed || again.Duplicate || again.Memory.ID != first.Memory.ID {
				t.Errorf("retry: got %s replayed %v duplicate %v, %v; want %s replayed", again.Memory.ID, again.Replayed, again.Duplicate, err, first.Memory.ID)
			}
			checkCounters(t, direct, "nori", "p")
		})
	}
}
