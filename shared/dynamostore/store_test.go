package dynamostore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

func newMemory(agent, project, content string) agentmem.Memory {
	return agentmem.Memory{AgentName: agent, ProjectID: project, Content: content, Source: agentmem.SourceManual}
}

func TestListReturnsNewest50InOrder(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for i := range 55 {
		if _, err := st.CreateMemory(ctx, newMemory("nori", "p1", fmt.Sprintf("memory %02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	page, err := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(page.Memories), 50; got != want {
		t.Fatalf("got %d memories, want %d", got, want)
	}
	for i, m := range page.Memories {
		if got, want := m.Content, fmt.Sprintf("memory %02d", 54-i); got != want {
			t.Errorf("memory %d: got %q, want %q", i, got, want)
		}
	}
	if page.NextCursor == "" {
		t.Fatal("no cursor although 5 older memories remain")
	}
	next, err := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p1", Cursor: page.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(next.Memories), 5; got != want {
		t.Fatalf("second page: got %d, want %d", got, want)
	}
	if got, want := next.Memories[0].Content, "memory 04"; got != want {
		t.Errorf("second page starts with %q, want %q", got, want)
	}
	if next.NextCursor != "" {
		t.Errorf("last page has cursor %q", next.NextCursor)
	}
}

func TestConcurrentCreatesInOnePartitionAreDistinct(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	fixed := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return fixed } // every write collides at first
	ctx := context.Background()
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.CreateMemory(ctx, newMemory("koji", "p", fmt.Sprintf("m%d", i)))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	keys := map[string]bool{}
	err := st.EachMemory(ctx, "koji", "p", func(m agentmem.Memory) error {
		seen[m.Content] = true
		keys[m.CreatedAt] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != n || len(keys) != n {
		t.Fatalf("got %d distinct contents and %d distinct keys, want %d of each", len(seen), len(keys), n)
	}
}

func TestTypeFilterAndLimit(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for i := range 30 {
		m := newMemory("miso", "p", fmt.Sprintf("m%d", i))
		if i%3 == 0 {
			m.Type = agentmem.TypeDecision
		}
		if _, err := st.CreateMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	page, err := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "miso", ProjectID: "p", Type: agentmem.TypeDecision, Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(page.Memories), 4; got != want {
		t.Fatalf("got %d, want %d", got, want)
	}
	for _, m := range page.Memories {
		if m.Type != agentmem.TypeDecision {
			t.Errorf("got type %q in a decision-only list", m.Type)
		}
	}
	if page.Memories[0].Content != "m27" {
		t.Errorf("newest decision: got %q, want m27", page.Memories[0].Content)
	}
}

func TestGetAndDeleteByIDAreScopedToAgent(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	m, err := st.CreateMemory(ctx, newMemory("nori", "p", "hello"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetMemory(ctx, "koji", m.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Fatalf("get as another agent: got %v, want not_found", err)
	}
	if err := st.DeleteMemory(ctx, "koji", m.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Fatalf("delete as another agent: got %v, want not_found", err)
	}
	got, err := st.GetMemory(ctx, "nori", m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "hello" || got.Source != agentmem.SourceManual {
		t.Errorf("got %+v", got)
	}
	if err := st.DeleteMemory(ctx, "nori", m.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteMemory(ctx, "nori", m.ID); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Fatalf("second delete: got %v, want not_found", err)
	}
}

func TestDeleteScopeDeletesEverything(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for i := range 120 {
		if _, err := st.CreateMemory(ctx, newMemory("toro", "p", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.CreateMemory(ctx, newMemory("toro", "other", "kept")); err != nil {
		t.Fatal(err)
	}
	n, err := st.DeleteScope(ctx, "toro", "p")
	if err != nil {
		t.Fatal(err)
	}
	if n != 120 {
		t.Errorf("deleted %d, want 120", n)
	}
	page, _ := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "toro", ProjectID: "p"})
	if len(page.Memories) != 0 {
		t.Errorf("%d memories left", len(page.Memories))
	}
	other, _ := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "toro", ProjectID: "other"})
	if len(other.Memories) != 1 {
		t.Errorf("other project: got %d memories, want 1", len(other.Memories))
	}
}

func TestPersonalityOptimisticConcurrency(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	p := agentmem.Personality{AgentName: "miso", DisplayName: "Miso"}
	zero := 0
	got, created, err := st.PutPersonality(ctx, p, &zero)
	if err != nil || !created || got.Version != 1 {
		t.Fatalf("create: got %+v created=%v err=%v", got, created, err)
	}
	if _, _, err := st.PutPersonality(ctx, p, &zero); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Fatalf("create again with version 0: got %v, want conflict", err)
	}
	one := 1
	p.Voice = "calm"
	got, created, err = st.PutPersonality(ctx, p, &one)
	if err != nil || created || got.Version != 2 {
		t.Fatalf("update: got %+v created=%v err=%v", got, created, err)
	}
	if _, _, err := st.PutPersonality(ctx, p, &one); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Fatalf("stale update: got %v, want conflict", err)
	}
	got, created, err = st.PutPersonality(ctx, p, nil)
	if err != nil || created || got.Version != 3 {
		t.Fatalf("unconditional update: got %+v created=%v err=%v", got, created, err)
	}
	page, err := st.ListPersonalities(ctx, 0, "")
	if err != nil || len(page.Personalities) != 1 || page.Personalities[0].Voice != "calm" || page.NextCursor != "" {
		t.Fatalf("list: got %+v, %v", page, err)
	}
	if err := st.DeletePersonality(ctx, "miso"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetPersonality(ctx, "miso"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Fatalf("get after delete: got %v", err)
	}
	if err := st.DeletePersonality(ctx, "miso"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Fatalf("delete twice: got %v", err)
	}
}

func TestBadCursor(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	_, err := st.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: "a", ProjectID: "p", Cursor: "!!"})
	var e *agentmem.Error
	if !errors.As(err, &e) || e.Code != agentmem.EInvalid {
		t.Fatalf("got %v, want invalid", err)
	}
}
