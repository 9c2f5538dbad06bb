package dynamostore_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/search"
)

func ptr[T any](v T) *T { return &v }

var manual = agentmem.ChangeBy{Kind: agentmem.ByManual, Note: "test"}

// history reads a memory's versions, newest first, as (version, change)
// pairs.
func history(t *testing.T, st *dynamostore.Store, agent, id string) agentmem.MemoryHistory {
	t.Helper()
	h, err := st.MemoryHistory(context.Background(), agent, id, 0, "")
	if err != nil {
		t.Fatalf("history of %s: %v", id, err)
	}
	return h
}

func changes(h agentmem.MemoryHistory) []string {
	var out []string
	for _, v := range h.Versions {
		out = append(out, string(v.Change))
	}
	return out
}

func TestCreateRecordsTheFirstVersion(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	m := newMemory("nori", "p", "Webhooks are retried 3 times")
	m.Source, m.RunID = agentmem.SourceExtraction, "run-1"
	created, err := st.CreateMemory(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if created.Version != 1 {
		t.Errorf("version: got %d, want 1", created.Version)
	}
	h := history(t, st, "nori", created.ID)
	if h.State != agentmem.StateLive || h.Current != 1 || h.ProjectID != "p" || len(h.Versions) != 1 {
		t.Fatalf("history: got %+v", h)
	}
	v := h.Versions[0]
	if v.Version != 1 || v.Change != agentmem.ChangeCreated || v.By.Kind != agentmem.ByExtraction || v.By.RunID != "run-1" || v.Memory.Content != m.Content {
		t.Errorf("version 1: got %+v", v)
	}
	if _, err := st.MemoryHistory(ctx, "other", created.ID, 0, ""); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("another agent's history: got %v, want not_found", err)
	}
}

func TestUpdateKeepsIdAndAgeAndRecordsVersions(t *testing.T) {
	st := dynamotest.NewStore(t)
	st.Embedder = hashing.New(64)
	ctx := context.Background()
	m := newMemory("nori", "p", "The CI runs on Node 18")
	m.Type = agentmem.TypeFinding
	created, err := st.CreateMemory(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	before := checkCounters(t, st, "nori", "p")

	tests := []struct {
		name    string
		patch   agentmem.MemoryPatch
		code    string
		version int
		changed []string
	}{
		{"stale version", agentmem.MemoryPatch{Version: ptr(2), Content: ptr("x")}, agentmem.EConflict, 1, nil},
		{"content", agentmem.MemoryPatch{Version: ptr(1), Content: ptr("The CI runs on Node 20")}, "", 2, []string{"content"}},
		{"nothing changes", agentmem.MemoryPatch{Version: ptr(2), Content: ptr("  The CI runs on Node 20 ")}, "", 2, nil},
		{"type change drops nothing it lacks, adds defaults", agentmem.MemoryPatch{Version: ptr(2), Type: ptr(agentmem.TypeBlocker)}, "", 3, []string{"type", "status"}},
		{"invalid field", agentmem.MemoryPatch{Version: ptr(3), Trigger: ptr("when")}, agentmem.EInvalid, 3, nil},
		{"pin and tags", agentmem.MemoryPatch{Version: ptr(3), Pinned: ptr(true), Tags: &[]string{"ci"}}, "", 4, []string{"tags", "pinned"}},
		{"back to finding drops status", agentmem.MemoryPatch{Version: ptr(4), Type: ptr(agentmem.TypeFinding)}, "", 5, []string{"type", "status"}},
	}
	for _, tt := range tests {
		got, changed, err := st.UpdateMemory(ctx, "nori", created.ID, tt.patch, manual)
		if agentmem.ErrorCode(err) != tt.code {
			t.Fatalf("%s: got error %v, want code %q", tt.name, err, tt.code)
		}
		if err != nil {
			continue
		}
		if got.ID != created.ID || got.CreatedAt != created.CreatedAt || got.Version != tt.version || changed != (tt.changed != nil) {
			t.Errorf("%s: got id %s createdAt %s version %d changed %v; want %s %s %d %v", tt.name, got.ID, got.CreatedAt, got.Version, changed,
				created.ID, created.CreatedAt, tt.version, tt.changed != nil)
		}
		h := history(t, st, "nori", created.ID)
		if h.Current != tt.version || h.Versions[0].Version != tt.version {
			t.Errorf("%s: history at %d (%d), want %d", tt.name, h.Current, h.Versions[0].Version, tt.version)
		}
		if tt.changed != nil && !slices.Equal(h.Versions[0].Changed, tt.changed) {
			t.Errorf("%s: changed %v, want %v", tt.name, h.Versions[0].Changed, tt.changed)
		}
	}
	got, err := st.GetMemory(ctx, "nori", created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "The CI runs on Node 20" || got.Type != agentmem.TypeFinding || got.Status != "" || !got.Pinned || got.Version != 5 || got.UpdatedAt == "" {
		t.Errorf("stored: got %+v", got)
	}
	if page, _ := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p"}); len(page.Memories) != 1 || page.Memories[0].Version != 5 {
		t.Errorf("list: got %+v, want the one memory at version 5", page.Memories)
	}
	after := checkCounters(t, st, "nori", "p")
	if after.Total != before.Total || after.ByType[agentmem.TypeFinding] != 1 || after.ByType[agentmem.TypeBlocker] != 0 {
		t.Errorf("counters: before %+v, after %+v", before.Counts, after.Counts)
	}
	if got, want := changes(history(t, st, "nori", created.ID)), []string{"updated", "updated", "updated", "updated", "created"}; !slices.Equal(got, want) {
		t.Errorf("history: got %v, want %v", got, want)
	}
	if _, _, err := st.UpdateMemory(ctx, "other", created.ID, agentmem.MemoryPatch{Content: ptr("x")}, manual); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("another agent's memory: got %v, want not_found", err)
	}
}

func TestConcurrentEditsOneWins(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	created, err := st.CreateMemory(ctx, newMemory("koji", "p", "base"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = st.UpdateMemory(ctx, "koji", created.ID, agentmem.MemoryPatch{Version: ptr(1), Content: ptr("edit " + string(rune('a'+i)))}, manual)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch agentmem.ErrorCode(err) {
		case "":
			ok++
		case agentmem.EConflict:
		default:
			t.Errorf("unexpected error %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d edits of version 1 succeeded, want exactly 1", ok)
	}
	if h := history(t, st, "koji", created.ID); h.Current != 2 || len(h.Versions) != 2 {
		t.Errorf("history: current %d, %d versions; want 2, 2", h.Current, len(h.Versions))
	}
	checkCounters(t, st, "koji", "p")
}

func TestSupersedeRetireAndRestore(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	old, err := st.CreateMemory(ctx, newMemory("nori", "p", "The CI runs on Node 18"))
	if err != nil {
		t.Fatal(err)
	}
	keep, err := st.CreateMemory(ctx, newMemory("nori", "p", "Deploys go through cdk deploy"))
	if err != nil {
		t.Fatal(err)
	}
	byRun := agentmem.ChangeBy{Kind: agentmem.ByExtraction, RunID: "run-9"}
	c, err := st.Create(ctx, newMemory("nori", "p", "The CI runs on Node 20"), dynamostore.CreateOptions{Supersedes: []string{old.ID}, By: byRun})
	if err != nil {
		t.Fatal(err)
	}
	neu := c.Memory
	if !slices.Equal(neu.Supersedes, []string{old.ID}) || len(c.Superseded) != 1 || c.Superseded[0].SupersededBy != neu.ID || c.Superseded[0].State != agentmem.StateSuperseded {
		t.Fatalf("create: got %+v", c)
	}
	if ids := scopeIDs(t, st, "nori", "p"); !slices.Equal(ids, []string{neu.ID, keep.ID}) {
		t.Errorf("live memories: got %v, want the new one and the kept one", ids)
	}
	if got := checkCounters(t, st, "nori", "p"); got.Total != 2 {
		t.Errorf("total: got %d, want 2", got.Total)
	}
	got, err := st.GetMemory(ctx, "nori", old.ID)
	if err != nil || got.State != agentmem.StateSuperseded || got.SupersededBy != neu.ID || got.Version != 2 {
		t.Errorf("get superseded: got %+v, %v", got, err)
	}
	h := history(t, st, "nori", old.ID)
	if h.State != agentmem.StateSuperseded || h.SupersededBy != neu.ID || h.Versions[0].By.RunID != "run-9" || !slices.Equal(changes(h), []string{"superseded", "created"}) {
		t.Errorf("history of the superseded: got %+v", h)
	}
	gone, err := st.ListGone(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p"}, agentmem.StateSuperseded)
	if err != nil || len(gone.Memories) != 1 || gone.Memories[0].ID != old.ID || gone.Memories[0].SupersededBy != neu.ID {
		t.Errorf("list superseded: got %+v, %v", gone.Memories, err)
	}
	if _, _, err := st.UpdateMemory(ctx, "nori", old.ID, agentmem.MemoryPatch{Content: ptr("x")}, manual); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("edit a superseded memory: got %v, want conflict", err)
	}
	if _, err := st.Create(ctx, newMemory("nori", "p", "Node 22"), dynamostore.CreateOptions{Supersedes: []string{old.ID}}); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("supersede it again: got %v, want conflict", err)
	}
	if _, err := st.Create(ctx, newMemory("nori", "q", "Node 22"), dynamostore.CreateOptions{Supersedes: []string{keep.ID}}); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("supersede a memory of another project: got %v, want not_found", err)
	}

	// Restore the superseded memory: it comes back with its id and age.
	back, err := st.RestoreVersion(ctx, "nori", old.ID, 1, ptr(2), manual)
	if err != nil {
		t.Fatal(err)
	}
	if back.ID != old.ID || back.CreatedAt != old.CreatedAt || back.Version != 3 || back.State != "" || back.Content != old.Content {
		t.Errorf("restored: got %+v", back)
	}
	if got := checkCounters(t, st, "nori", "p"); got.Total != 3 {
		t.Errorf("total after restore: got %d, want 3", got.Total)
	}
	if gone, _ := st.ListGone(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p"}, ""); len(gone.Memories) != 0 {
		t.Errorf("still listed as superseded: %+v", gone.Memories)
	}
	if h := history(t, st, "nori", old.ID); h.State != agentmem.StateLive || h.Versions[0].RestoredFrom != 1 || !slices.Equal(changes(h), []string{"restored", "superseded", "created"}) {
		t.Errorf("history after restore: %+v", h)
	}

	// Retire, then restore an older version of a live one.
	ret, err := st.RetireMemory(ctx, "nori", keep.ID, 1, agentmem.ChangeBy{Kind: agentmem.ByDream, DreamID: "D1", Citations: []string{"rec-1"}, Note: "contradicted"})
	if err != nil || ret.State != agentmem.StateRetired || ret.Version != 2 {
		t.Fatalf("retire: got %+v, %v", ret, err)
	}
	if h := history(t, st, "nori", keep.ID); h.State != agentmem.StateRetired || h.Versions[0].By.DreamID != "D1" || !slices.Equal(h.Versions[0].By.Citations, []string{"rec-1"}) {
		t.Errorf("history of the retired: %+v", h)
	}
	if _, err := st.RestoreVersion(ctx, "nori", keep.ID, 1, ptr(1), manual); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("restore with a stale version: got %v, want conflict", err)
	}
	if _, err := st.RestoreVersion(ctx, "nori", keep.ID, 9, nil, manual); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("restore a version that does not exist: got %v, want not_found", err)
	}
	if _, err := st.RestoreVersion(ctx, "nori", keep.ID, 1, nil, manual); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.UpdateMemory(ctx, "nori", keep.ID, agentmem.MemoryPatch{Content: ptr("Deploys go through the pipeline")}, manual); err != nil {
		t.Fatal(err)
	}
	r, err := st.RestoreVersion(ctx, "nori", keep.ID, 1, nil, manual)
	if err != nil || r.Content != keep.Content || r.Version != 5 {
		t.Errorf("restore version 1 of a live memory: got %+v, %v", r, err)
	}
	if same, err := st.RestoreVersion(ctx, "nori", keep.ID, 1, nil, manual); err != nil || same.Version != 5 {
		t.Errorf("restore what it holds: got version %d, %v; want 5 (no new version)", same.Version, err)
	}
	checkCounters(t, st, "nori", "p")
}

func TestDeleteDeletesHistoryAndScopeDeleteTheSuperseded(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	a, _ := st.CreateMemory(ctx, newMemory("nori", "p", "a"))
	b, err := st.Create(ctx, newMemory("nori", "p", "b"), dynamostore.CreateOptions{Supersedes: []string{a.ID}})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := st.CreateMemory(ctx, newMemory("nori", "p", "c"))
	if err := st.DeleteMemory(ctx, "nori", c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.MemoryHistory(ctx, "nori", c.ID, 0, ""); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("history of a deleted memory: got %v, want not_found", err)
	}
	if _, err := st.RestoreVersion(ctx, "nori", c.ID, 1, nil, manual); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("restore a deleted memory: got %v, want not_found", err)
	}
	j, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if j, err = st.RunJob(ctx, "nori", j.ID); err != nil || j.Status != agentmem.JobDone || j.Removed != 1 {
		t.Fatalf("delete scope: got %+v, %v", j, err)
	}
	for _, id := range []string{a.ID, b.Memory.ID} {
		if _, err := st.GetMemory(ctx, "nori", id); agentmem.ErrorCode(err) != agentmem.ENotFound {
			t.Errorf("get %s after the scope delete: got %v, want not_found", id, err)
		}
		if _, err := st.MemoryHistory(ctx, "nori", id, 0, ""); agentmem.ErrorCode(err) != agentmem.ENotFound {
			t.Errorf("history of %s after the scope delete: got %v, want not_found", id, err)
		}
	}
	if gone, err := st.ListGone(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p"}, ""); err != nil || len(gone.Memories) != 0 {
		t.Errorf("superseded after the scope delete: got %+v, %v", gone.Memories, err)
	}
	// Deleting a superseded memory by id deletes it from history.
	x, _ := st.CreateMemory(ctx, newMemory("nori", "p", "x"))
	if _, err := st.Create(ctx, newMemory("nori", "p", "y"), dynamostore.CreateOptions{Supersedes: []string{x.ID}}); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteMemory(ctx, "nori", x.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetMemory(ctx, "nori", x.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("get a deleted superseded memory: got %v, want not_found", err)
	}
	checkCounters(t, st, "nori", "p")
}

func TestHistoryPages(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	m, _ := st.CreateMemory(ctx, newMemory("nori", "p", "v1"))
	for i := 2; i <= 7; i++ {
		if _, _, err := st.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Version: ptr(i - 1), Content: ptr("v" + string(rune('0'+i)))}, manual); err != nil {
			t.Fatal(err)
		}
	}
	var seen []int
	cursor := ""
	for range 10 {
		h, err := st.MemoryHistory(ctx, "nori", m.ID, 3, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range h.Versions {
			seen = append(seen, v.Version)
			if v.Memory.Version != v.Version || v.Memory.Content != "v"+string(rune('0'+v.Version)) {
				t.Errorf("version %d holds %+v", v.Version, v.Memory)
			}
		}
		if cursor = h.NextCursor; cursor == "" {
			break
		}
	}
	if want := []int{7, 6, 5, 4, 3, 2, 1}; !slices.Equal(seen, want) {
		t.Errorf("pages: got %v, want %v", seen, want)
	}
	if _, err := st.MemoryHistory(ctx, "nori", m.ID, 3, "garbage"); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("bad cursor: got %v, want invalid", err)
	}
}

func TestLegacyMemoryGetsItsFirstVersionOnFirstChange(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	// A memory written before versions existed: no version, no history.
	legacy := agentmem.Memory{ID: "01HZZZZZZZZZZZZZZZZZZZZZZZ", AgentName: "nori", ProjectID: "p", Content: "old fact",
		Type: agentmem.TypeFinding, Source: agentmem.SourceManual, CreatedAt: "2025-01-01T00:00:00.000000000Z"}
	item := struct {
		Scope string `dynamo:"scope"`
		agentmem.Memory
	}{agentmem.Scope("nori", "p"), legacy}
	if err := st.DB().Table(st.Config().MemoriesTable).Put(item).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecountScope(ctx, "nori", "p"); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetMemory(ctx, "nori", legacy.ID)
	if err != nil || got.Version != 1 {
		t.Fatalf("get: version %d, %v; want 1", got.Version, err)
	}
	if h := history(t, st, "nori", legacy.ID); len(h.Versions) != 1 || h.Versions[0].Change != agentmem.ChangeCreated {
		t.Errorf("made-up history: %+v", h)
	}
	if _, _, err := st.UpdateMemory(ctx, "nori", legacy.ID, agentmem.MemoryPatch{Version: ptr(1), Content: ptr("new fact")}, manual); err != nil {
		t.Fatal(err)
	}
	h := history(t, st, "nori", legacy.ID)
	if !slices.Equal(changes(h), []string{"updated", "created"}) || h.Versions[1].Memory.Content != "old fact" {
		t.Errorf("history after the first change: %+v", h)
	}
	checkCounters(t, st, "nori", "p")
}

func TestCreateDedupFindsRepeatsAndSeesOtherWriters(t *testing.T) {
	st := dynamotest.NewStore(t)
	other := dynamostore.NewWithDB(st.DB(), st.Config()) // another process on the same tables
	ctx := context.Background()
	first, err := st.Create(ctx, newMemory("nori", "p", "Run `make test` before pushing."), dynamostore.CreateOptions{Dedup: true})
	if err != nil || first.Duplicate {
		t.Fatalf("first: %+v, %v", first, err)
	}
	again, err := st.Create(ctx, newMemory("nori", "p", "run make test before pushing"), dynamostore.CreateOptions{Dedup: true})
	if err != nil || !again.Duplicate || again.Memory.ID != first.Memory.ID || again.Match.Kind != search.MatchSame {
		t.Fatalf("repeat: got %+v, %v", again, err)
	}
	// The cached scope took the first create in; another process's write
	// must still be seen.
	if _, err := other.CreateMemory(ctx, newMemory("nori", "p", "Lint with golangci-lint v1.61")); err != nil {
		t.Fatal(err)
	}
	lint, err := st.Create(ctx, newMemory("nori", "p", "Lint with golangci-lint v1.61."), dynamostore.CreateOptions{Dedup: true})
	if err != nil || !lint.Duplicate {
		t.Errorf("repeat of another process's memory: got %+v, %v", lint, err)
	}
	newer, err := st.Create(ctx, newMemory("nori", "p", "Lint with golangci-lint v1.62"), dynamostore.CreateOptions{Dedup: true})
	if err != nil || newer.Duplicate {
		t.Errorf("another version: got %+v, %v; want stored", newer, err)
	}
	// A superseded memory is no longer a candidate.
	if _, err := st.Create(ctx, newMemory("nori", "p", "Run make check before pushing"), dynamostore.CreateOptions{Dedup: true, Supersedes: []string{first.Memory.ID}}); err != nil {
		t.Fatal(err)
	}
	back, err := st.Create(ctx, newMemory("nori", "p", "run make test before pushing"), dynamostore.CreateOptions{Dedup: true})
	if err != nil || back.Duplicate {
		t.Errorf("repeat of a superseded memory: got %+v, %v; want stored", back, err)
	}
	if got := checkCounters(t, st, "nori", "p"); got.Total != 4 {
		t.Errorf("total: got %d, want 4", got.Total)
	}
}

func TestRestoreMemoriesRecordsAVersionOnce(t *testing.T) {
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	m := agentmem.Memory{ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", AgentName: "nori", ProjectID: "p", Content: "planned", Source: agentmem.SourceSystem,
		CreatedAt: "2026-01-01T00:00:00.000000000Z"}
	for range 2 { // the second is a replayed plan
		if _, err := st.RestoreMemories(ctx, []agentmem.Memory{m}); err != nil {
			t.Fatal(err)
		}
	}
	h := history(t, st, "nori", m.ID)
	if len(h.Versions) != 1 || h.Versions[0].By.Kind != agentmem.BySystem {
		t.Errorf("history: %+v", h)
	}
	if _, _, err := st.UpdateMemory(ctx, "nori", m.ID, agentmem.MemoryPatch{Version: ptr(1), Content: ptr("edited")}, manual); err != nil {
		t.Errorf("edit a restored memory: %v", err)
	}
	checkCounters(t, st, "nori", "p")
}

// TestEditKeepsWhatChangedInPlaceMeanwhile: a pattern's reinforcement and
// a search's touch change a memory without a new version; an edit that
// read the memory before either lands keeps them (it is applied again to
// the memory as it is now) instead of writing back what it read.
func TestEditKeepsWhatChangedInPlaceMeanwhile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, how := range []string{"edit", "restore"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			proxy, st, direct := lossyStore(t)
			if err := direct.EnsureTables(ctx); err != nil {
				t.Fatal(err)
			}
			p := agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceExtraction, Type: agentmem.TypePattern,
				Content: "flaky deploy", Trigger: "deploy times out", Solution: "raise the timeout to 60s", Confidence: ptr(0.5)}
			p, err := direct.CreateMemory(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if p, _, err = direct.UpdateMemory(ctx, "nori", p.ID, agentmem.MemoryPatch{Tags: &[]string{"deploy"}}, manual); err != nil {
				t.Fatal(err)
			}
			var raised agentmem.Memory
			proxy.afterNext("GetItem", st.Config().MemoriesTable, func() {
				var err error
				if raised, _, err = direct.SavePattern(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceExtraction,
					Type: agentmem.TypePattern, Content: "flaky deploy", Trigger: "deploy times out", Solution: "raise the timeout to 60s"}); err != nil {
					t.Errorf("reinforce: %v", err)
				}
			})
			var got agentmem.Memory
			if how == "edit" {
				got, _, err = st.UpdateMemory(ctx, "nori", p.ID, agentmem.MemoryPatch{Version: ptr(p.Version), Content: ptr("flaky deploys")}, manual)
			} else {
				got, err = st.RestoreVersion(ctx, "nori", p.ID, 1, ptr(p.Version), manual)
			}
			if err != nil {
				t.Fatal(err)
			}
			stored, err := direct.GetMemory(ctx, "nori", p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Version != p.Version+1 || got.Version != stored.Version {
				t.Errorf("versions: answered %d, stored %d; want %d", got.Version, stored.Version, p.Version+1)
			}
			if how == "edit" && (stored.Confidence == nil || *stored.Confidence != *raised.Confidence || stored.LastAccessedAt != raised.LastAccessedAt) {
				t.Errorf("after the edit: confidence %v, lastAccessedAt %q; want the reinforcement's %v, %q", stored.Confidence, stored.LastAccessedAt, *raised.Confidence, raised.LastAccessedAt)
			}
			if how == "restore" && stored.LastAccessedAt != raised.LastAccessedAt {
				t.Errorf("after the restore: lastAccessedAt %q; want the reinforcement's %q", stored.LastAccessedAt, raised.LastAccessedAt)
			}
			checkCounters(t, direct, "nori", "p")
		})
	}
}
