package dynamostore_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/embeddingstest"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/embeddings/openai"
	"github.com/agentmem/agentmem/shared/search"
)

// logTo makes the store log JSON lines into a buffer.
func logTo(st *dynamostore.Store) *bytes.Buffer {
	var buf bytes.Buffer
	st.Log = slog.New(slog.NewJSONHandler(&buf, nil))
	return &buf
}

func conf(v float64) *float64 { return &v }

// scopeIDs returns the ids stored in a scope, read from the table.
func scopeIDs(t *testing.T, st *dynamostore.Store, agent, project string) []string {
	t.Helper()
	ms, err := st.ScopeMemories(context.Background(), agent, project, "")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// checkCounters compares a scope's running counters with a recount.
func checkCounters(t *testing.T, st *dynamostore.Store, agent, project string) agentmem.ScopeCounts {
	t.Helper()
	before := counts(t, st, agent, project)
	rc, err := st.RecountScope(context.Background(), agent, project)
	if err != nil {
		t.Fatal(err)
	}
	after := rc.After
	if rc.Drifted || before.Total != after.Total || before.Bytes != after.Bytes {
		t.Errorf("counters drifted: running total %d, bytes %d; recount %d, %d (%+v)", before.Total, before.Bytes, after.Total, after.Bytes, rc.Drift)
	}
	return counts(t, st, agent, project)
}

func TestCreateMemoryStoresItsVector(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	st.Embedder = hashing.New(256)
	ctx := context.Background()
	m := newMemory("nori", "p", "Stripe webhooks are retried three times")
	m.Type = agentmem.TypeFinding
	created, err := st.CreateMemory(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.GetMemory(ctx, "nori", created.ID)
	if err != nil {
		t.Fatal(err)
	}
	vec := embeddings.DecodeFor(got.Embedding, "hashing-v1-256")
	if len(vec) != 256 {
		t.Fatalf("stored vector: got %d dims, want 256", len(vec))
	}
	if c := search.Cosine(vec, hashing.New(256).Vector(search.MemoryText(got))); c < 0.999 {
		t.Errorf("stored vector is not the memory text's: cosine %.4f", c)
	}
	checkCounters(t, st, "nori", "p")
}

func TestCreateMemoryWithoutVectorWhenTheEmbedderFails(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	logs := logTo(st)
	srv := embeddingstest.NewOpenAIServer(t, hashing.New(32))
	srv.Fail.Store(503)
	emb, err := openai.New(embeddings.Config{Model: "nomic-embed-text", Endpoint: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	st.Embedder = emb
	created, err := st.CreateMemory(context.Background(), newMemory("nori", "p", "stored anyway"))
	if err != nil {
		t.Fatalf("an embeddings failure must not fail the write: %v", err)
	}
	got, err := st.GetMemory(context.Background(), "nori", created.ID)
	if err != nil || len(got.Embedding) != 0 {
		t.Fatalf("got %d embedding bytes, %v; want the memory without a vector", len(got.Embedding), err)
	}
	if !strings.Contains(logs.String(), "stays searchable lexically") || !strings.Contains(logs.String(), created.ID) {
		t.Errorf("no warning naming the memory: %s", logs)
	}
}

func TestEvictionRemovesTheLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	st.MemoryLimit = 5
	logs := logTo(st)
	ctx := context.Background()
	clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	var made []agentmem.Memory
	create := func(m agentmem.Memory) agentmem.Memory {
		t.Helper()
		c, err := st.CreateMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, c)
		return c
	}
	pinned := newMemory("nori", "p", "pinned, oldest")
	pinned.Pinned = true
	create(pinned) // 0: protected
	critical := newMemory("nori", "p", "critical pattern")
	critical.Type, critical.Trigger, critical.Confidence = agentmem.TypePattern, "deploy fails", conf(0.95)
	create(critical) // 1: protected
	weak := newMemory("nori", "p", "weak pattern")
	weak.Type, weak.Trigger, weak.Confidence = agentmem.TypePattern, "flaky test", conf(0.6)
	create(weak)                                     // 2: evictable
	create(newMemory("nori", "p", "old but used"))   // 3: touched below
	create(newMemory("nori", "p", "old and unused")) // 4: evictable
	if _, err := st.TouchMemories(ctx, []agentmem.Memory{made[3]}, clock.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	create(newMemory("nori", "p", "new 1")) // over the limit: evicts 2
	create(newMemory("nori", "p", "new 2")) // evicts 4
	ids := scopeIDs(t, st, "nori", "p")
	want := []string{made[6].ID, made[5].ID, made[3].ID, made[1].ID, made[0].ID}
	if !slices.Equal(ids, want) {
		t.Errorf("kept %v, want %v (pinned, critical pattern, the used one and the two newest)", ids, want)
	}
	for _, evicted := range []string{made[2].ID, made[4].ID} {
		if !strings.Contains(logs.String(), evicted) {
			t.Errorf("eviction of %s not logged: %s", evicted, logs)
		}
	}
	if c := checkCounters(t, st, "nori", "p"); c.Total != 5 {
		t.Errorf("total: got %d, want 5", c.Total)
	}
}

func TestEvictionKeepsProtectedMemoriesOverTheLimit(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	st.MemoryLimit = 2
	logs := logTo(st)
	ctx := context.Background()
	for i := range 3 {
		m := newMemory("koji", "p", fmt.Sprintf("pinned %d", i))
		m.Pinned = true
		if _, err := st.CreateMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(scopeIDs(t, st, "koji", "p")); got != 3 {
		t.Errorf("got %d memories, want all 3 pinned ones kept", got)
	}
	if !strings.Contains(logs.String(), "stays over its memory limit") {
		t.Errorf("no warning about the protected overflow: %s", logs)
	}
}

func TestEvictionUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	st.MemoryLimit = 20
	logTo(st)
	ctx := context.Background()
	var protected []string
	for i := range 20 {
		m := newMemory("toro", "p", fmt.Sprintf("seed %d", i))
		if i < 2 {
			m.Pinned = true
		}
		if i == 2 {
			m.Type, m.Trigger, m.Confidence = agentmem.TypePattern, "release", conf(0.9)
		}
		c, err := st.CreateMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if i < 3 {
			protected = append(protected, c.ID)
		}
	}
	const writers, each = 8, 5
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := st.CreateMemory(ctx, newMemory("toro", "p", fmt.Sprintf("writer %d memory %d", w, i))); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	ids := scopeIDs(t, st, "toro", "p")
	if len(ids) != 20 {
		t.Errorf("after %d concurrent writes: %d memories, want the limit of 20", writers*each, len(ids))
	}
	for _, id := range protected {
		if !slices.Contains(ids, id) {
			t.Errorf("protected memory %s was evicted", id)
		}
	}
	if c := checkCounters(t, st, "toro", "p"); c.Total != int64(len(ids)) {
		t.Errorf("counters say %d, the table holds %d", c.Total, len(ids))
	}
}

func TestTouchMemories(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	a, _ := st.CreateMemory(ctx, newMemory("miso", "p", "a"))
	b, _ := st.CreateMemory(ctx, newMemory("miso", "p", "b"))
	gone, _ := st.CreateMemory(ctx, newMemory("miso", "p", "gone"))
	if err := st.DeleteMemory(ctx, "miso", gone.ID); err != nil {
		t.Fatal(err)
	}
	t1 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	n, err := st.TouchMemories(ctx, []agentmem.Memory{a, b, gone}, t1)
	if err != nil || n != 2 {
		t.Fatalf("touch: got %d, %v; want 2 (the deleted one skipped)", n, err)
	}
	if n, err := st.TouchMemories(ctx, []agentmem.Memory{a}, t1.Add(-time.Hour)); err != nil || n != 0 {
		t.Errorf("touch with an earlier time: got %d, %v; want 0 (never backwards)", n, err)
	}
	got, _ := st.GetMemory(ctx, "miso", a.ID)
	if got.LastAccessedAt != agentmem.FormatTime(t1) {
		t.Errorf("lastAccessedAt: got %q, want %q", got.LastAccessedAt, agentmem.FormatTime(t1))
	}
	if ids := scopeIDs(t, st, "miso", "p"); len(ids) != 2 {
		t.Errorf("touch recreated a deleted memory: %v", ids)
	}
	checkCounters(t, st, "miso", "p")
}

func pattern(agent, trigger, solution string, c float64) agentmem.Memory {
	m := newMemory(agent, "p", "When "+trigger+": "+solution)
	m.Type, m.Trigger, m.Solution, m.Confidence = agentmem.TypePattern, trigger, solution, conf(c)
	m.Source = agentmem.SourceExtraction
	return m
}

func TestSavePatternRaisesTheConfidenceOfTheSamePattern(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	first, raised, err := st.SavePattern(ctx, pattern("nori", "the checkout e2e test times out", "wait for the network idle event before asserting", 0.5))
	if err != nil || raised {
		t.Fatalf("first save: raised %v, %v", raised, err)
	}
	again, raised, err := st.SavePattern(ctx, pattern("nori", "The checkout e2e test times out.", "Wait for the network-idle event before asserting", 0.5))
	if err != nil || !raised || again.ID != first.ID {
		t.Fatalf("same pattern: got %s raised %v, %v; want %s raised", again.ID, raised, err, first.ID)
	}
	if got, want := *again.Confidence, search.RaiseConfidence(0.5); got != want {
		t.Errorf("confidence: got %v, want %v", got, want)
	}
	if again.LastAccessedAt == "" {
		t.Error("a pattern seen again should count as used")
	}
	other, raised, err := st.SavePattern(ctx, pattern("nori", "terraform plan shows drift on the bucket", "import the bucket policy", 0.5))
	if err != nil || raised || other.ID == first.ID {
		t.Fatalf("different pattern: got %s raised %v, %v; want a new one", other.ID, raised, err)
	}
	if _, _, err := st.SavePattern(ctx, newMemory("nori", "p", "a note")); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("a note: got %v, want invalid", err)
	}
	checkCounters(t, st, "nori", "p")
}

func TestSavePatternUnderConcurrentSightings(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	p := pattern("koji", "go test hangs in CI", "run with -race -timeout 5m and look at the goroutine dump", 0.5)
	first, _, err := st.SavePattern(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	const n = 6
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, raised, err := st.SavePattern(ctx, p); err != nil || !raised {
				t.Errorf("raised %v, %v", raised, err)
			}
		}()
	}
	wg.Wait()
	got, err := st.GetMemory(ctx, "koji", first.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.5
	for range n {
		want = search.RaiseConfidence(want)
	}
	if *got.Confidence != want {
		t.Errorf("after %d concurrent sightings: confidence %v, want %v (every sighting counted once)", n, *got.Confidence, want)
	}
	if ids := scopeIDs(t, st, "koji", "p"); len(ids) != 1 {
		t.Errorf("got %d patterns, want 1", len(ids))
	}
	checkCounters(t, st, "koji", "p")
}

// TestEvictionSparesWhatChangedSinceItRead: a memory that becomes
// protected or is used between eviction's read of the scope and its
// delete (a pattern raised to critical, a pin, a search hit) is kept: the
// delete is conditional on what eviction chose it by, and the scope
// settles at its limit at the next write instead.
func TestEvictionSparesWhatChangedSinceItRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name   string
		oldest agentmem.Memory
		change func(st *dynamostore.Store, m agentmem.Memory) error
	}{
		{"a pattern raised to critical", agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceExtraction,
			Type: agentmem.TypePattern, Content: "flaky deploy", Trigger: "deploy times out", Solution: "raise the timeout to 60s", Confidence: conf(0.87)},
			func(st *dynamostore.Store, m agentmem.Memory) error {
				_, raised, err := st.SavePattern(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceExtraction,
					Type: agentmem.TypePattern, Content: "flaky deploy", Trigger: "deploy times out", Solution: "raise the timeout to 60s"})
				if err == nil && !raised {
					err = fmt.Errorf("the pattern was not raised")
				}
				return err
			}},
		{"pinned", newMemory("nori", "p", "the release branch is frozen on Fridays (UTC)"),
			func(st *dynamostore.Store, m agentmem.Memory) error {
				// Pinned, and said shorter by as many bytes as the pin
				// adds: the counted size stays the same.
				pinned, content := true, m.Content[:len(m.Content)-7]
				next := m
				next.Content, next.Pinned = content, true
				if dynamostore.MemorySize(next) != dynamostore.MemorySize(m) {
					return fmt.Errorf("sizes differ: %d, %d", dynamostore.MemorySize(next), dynamostore.MemorySize(m))
				}
				_, _, err := st.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Pinned: &pinned, Content: &content}, manual)
				return err
			}},
		{"used by a search", newMemory("nori", "p", "the staging database is reset nightly"),
			func(st *dynamostore.Store, m agentmem.Memory) error {
				n, err := st.TouchMemories(ctx, []agentmem.Memory{m}, time.Now().Add(time.Minute))
				if err == nil && n != 1 {
					err = fmt.Errorf("touched %d", n)
				}
				return err
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			proxy, st, direct := lossyStore(t)
			if err := direct.EnsureTables(ctx); err != nil {
				t.Fatal(err)
			}
			st.MemoryLimit, direct.MemoryLimit = 2, 2
			logTo(st)
			oldest, err := direct.CreateMemory(ctx, tc.oldest)
			if err != nil {
				t.Fatal(err)
			}
			// Edited once, so that it has its updatedAt already.
			if oldest, _, err = direct.UpdateMemory(ctx, "nori", oldest.ID, agentmem.MemoryPatch{Tags: &[]string{"ops"}}, manual); err != nil {
				t.Fatal(err)
			}
			if _, err := direct.CreateMemory(ctx, newMemory("nori", "p", "CI runs on arm64")); err != nil {
				t.Fatal(err)
			}
			// The third write takes the scope over its limit; the change
			// lands right after eviction read the scope.
			proxy.afterNext("Query", st.Config().MemoriesTable, func() {
				if err := tc.change(direct, oldest); err != nil {
					t.Errorf("change: %v", err)
				}
			})
			if _, err := st.CreateMemory(ctx, newMemory("nori", "p", "lint with golangci-lint v2")); err != nil {
				t.Fatal(err)
			}
			if ids := scopeIDs(t, direct, "nori", "p"); !slices.Contains(ids, oldest.ID) {
				t.Errorf("%s meanwhile, it was evicted: the scope holds %v", tc.name, ids)
			}
			checkCounters(t, direct, "nori", "p")
		})
	}
}

// TestForgetKeepsWhatWasPinnedMeanwhile: a forget that keeps pinned
// memories keeps one pinned between its read and its delete, even when
// the edit that pinned it left its counted size as it was.
func TestForgetKeepsWhatWasPinnedMeanwhile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proxy, st, direct := lossyStore(t)
	if err := direct.EnsureTables(ctx); err != nil {
		t.Fatal(err)
	}
	keep, err := direct.CreateMemory(ctx, newMemory("nori", "p", "never force-push to main (team rule)"))
	if err != nil {
		t.Fatal(err)
	}
	if keep, _, err = direct.UpdateMemory(ctx, "nori", keep.ID, agentmem.MemoryPatch{Tags: &[]string{"git"}}, manual); err != nil {
		t.Fatal(err)
	}
	other, err := direct.CreateMemory(ctx, newMemory("nori", "p", "the build cache is in /tmp/cache"))
	if err != nil {
		t.Fatal(err)
	}
	proxy.afterNext("Query", st.Config().MemoriesTable, func() {
		pinned, content := true, keep.Content[:len(keep.Content)-7] // the pin's bytes, taken off the text
		if _, _, err := direct.UpdateMemory(ctx, "nori", keep.ID, agentmem.MemoryPatch{Pinned: &pinned, Content: &content}, manual); err != nil {
			t.Errorf("pin: %v", err)
		}
	})
	j, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobForget, AgentName: "nori", ProjectID: "p",
		Cutoff: agentmem.FormatTime(time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if j, err = st.RunJob(ctx, "nori", j.ID); err != nil || j.Status != agentmem.JobDone || j.Removed != 1 {
		t.Fatalf("forget: got %+v, %v; want done, 1 removed", j, err)
	}
	ids := scopeIDs(t, direct, "nori", "p")
	if !slices.Contains(ids, keep.ID) || slices.Contains(ids, other.ID) {
		t.Errorf("after the forget the scope holds %v; want %s (pinned meanwhile) and not %s", ids, keep.ID, other.ID)
	}
	checkCounters(t, direct, "nori", "p")
}

// TestEvictionCountsAnEditOrRestoreAsUse: a memory a person edited or
// restored is as recently used as the change; eviction takes an older,
// untouched one first, though the changed one was created before it.
func TestEvictionCountsAnEditOrRestoreAsUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, how := range []string{"edited", "restored"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			st := dynamotest.NewStore(t)
			st.MemoryLimit = 2
			logTo(st)
			clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
			st.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }
			changed, err := st.CreateMemory(ctx, newMemory("nori", "p", "CI uses Node 18"))
			if err != nil {
				t.Fatal(err)
			}
			untouched, err := st.CreateMemory(ctx, newMemory("nori", "p", "the staging database is reset nightly"))
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := st.UpdateMemory(ctx, "nori", changed.ID, agentmem.MemoryPatch{Content: ptr("CI uses Node 20")}, manual); err != nil {
				t.Fatal(err)
			}
			if how == "restored" {
				if _, err := st.RestoreVersion(ctx, "nori", changed.ID, 1, nil, manual); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.CreateMemory(ctx, newMemory("nori", "p", "lint with golangci-lint v2")); err != nil {
				t.Fatal(err)
			}
			ids := scopeIDs(t, st, "nori", "p")
			if !slices.Contains(ids, changed.ID) || slices.Contains(ids, untouched.ID) {
				t.Errorf("kept %v; want the %s %s, not the untouched %s", ids, how, changed.ID, untouched.ID)
			}
		})
	}
}
