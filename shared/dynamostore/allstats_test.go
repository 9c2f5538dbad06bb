package dynamostore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func totals(t *testing.T, st *dynamostore.Store) agentmem.Totals {
	t.Helper()
	tot, err := st.GetTotals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tot
}

func TestTotalsAndScopeListing(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	if tot := totals(t, st); tot.Total != 0 || tot.Scopes != 0 {
		t.Fatalf("empty tables: got %+v", tot)
	}
	// 23 scopes over the 16 shards, scope i holding i%3+1 memories.
	want := map[string]int64{}
	var sum int64
	for i := range 23 {
		agent, project := fmt.Sprintf("agent%d", i%5), fmt.Sprintf("proj-%d", i)
		for j := range i%3 + 1 {
			m := newMemory(agent, project, fmt.Sprintf("m%d", j))
			if j == 1 {
				m.Type, m.Source = agentmem.TypeDecision, agentmem.SourceExtraction
			}
			if _, err := st.CreateMemory(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		want[agentmem.Scope(agent, project)] = int64(i%3 + 1)
		sum += int64(i%3 + 1)
	}
	tot := totals(t, st)
	if tot.Scopes != 23 || tot.Total != sum || tot.ByType[agentmem.TypeDecision] == 0 || tot.BySource[agentmem.SourceExtraction] != tot.ByType[agentmem.TypeDecision] {
		t.Errorf("totals: got %+v, want 23 scopes and %d memories", tot, sum)
	}

	seen := map[string]int64{}
	var bytes int64
	cursor, pages := "", 0
	for {
		page, err := st.ListScopeCounts(ctx, cursor, 7)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.Scopes) > 7 || len(page.Scopes) == 0 {
			t.Fatalf("page %d has %d scopes", pages, len(page.Scopes))
		}
		for _, c := range page.Scopes {
			k := agentmem.Scope(c.AgentName, c.ProjectID)
			if _, dup := seen[k]; dup {
				t.Errorf("scope %s listed twice", k)
			}
			seen[k] = c.Total
			bytes += c.Bytes
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if pages != 4 || len(seen) != 23 {
		t.Errorf("got %d scopes in %d pages, want 23 in 4", len(seen), pages)
	}
	for k, n := range want {
		if seen[k] != n {
			t.Errorf("scope %s: listed total %d, want %d", k, seen[k], n)
		}
	}
	if bytes != tot.Bytes {
		t.Errorf("bytes: listed %d, totals %d", bytes, tot.Bytes)
	}

	// An emptied scope leaves the listing and the scope count.
	if _, err := st.DeleteScope(ctx, "agent0", "proj-0"); err != nil {
		t.Fatal(err)
	}
	page, err := st.ListScopeCounts(ctx, "", dynamostore.MaxScopesPage)
	if err != nil || len(page.Scopes) != 22 || page.NextCursor != "" {
		t.Errorf("after emptying one scope: %d scopes, cursor %q, %v; want 22 on one page", len(page.Scopes), page.NextCursor, err)
	}
	after := totals(t, st)
	if after.Scopes != 22 || after.Total != sum-1 {
		t.Errorf("totals after emptying a scope: got %+v", after)
	}
	// The totals are the sum of the scopes: no scope drifted.
	drifted, n, err := st.RecountAll(ctx)
	if err != nil || len(drifted) != 0 || n < 22 {
		t.Errorf("RecountAll: %d scopes, drifted %+v, %v; want at least 22 scopes and no drift", n, drifted, err)
	}
	if again := totals(t, st); again.Scopes != after.Scopes || again.Total != after.Total || again.Bytes != after.Bytes {
		t.Errorf("totals after RecountAll: got %+v, want %+v", again, after)
	}
}

func TestRecountScopeMovesTheTotals(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	if _, err := st.CreateMemory(ctx, newMemory("koji", "p", "counted")); err != nil {
		t.Fatal(err)
	}
	lost := map[string]any{"scope": "koji#p", "createdAt": "2026-11-22T10:00:00.000000000Z", "id": "01JD5Q8Z3K7M2N4P6R8T0V2X4Y",
		"agentName": "koji", "projectId": "p", "content": "lost", "type": "note", "source": "system"}
	if err := st.DB().Table(st.Config().MemoriesTable).Put(lost).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecountScope(ctx, "koji", "p"); err != nil {
		t.Fatal(err)
	}
	if tot := totals(t, st); tot.Total != 2 || tot.Scopes != 1 || tot.BySource[agentmem.SourceSystem] != 1 {
		t.Errorf("totals after recount: got %+v, want 2 memories in 1 scope", tot)
	}
}

func TestScopesCursorIsBoundAndSealed(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for i := range 5 {
		if _, err := st.CreateMemory(ctx, newMemory(fmt.Sprintf("a%d", i), "p", "counted")); err != nil {
			t.Fatal(err)
		}
	}
	page, err := st.ListScopeCounts(ctx, "", 2)
	if err != nil || page.NextCursor == "" {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	tampered := []byte(page.NextCursor)
	tampered[len(tampered)/2] ^= 1
	for name, bad := range map[string]string{
		"not base64":   "!!",
		"tampered":     string(tampered),
		"truncated":    page.NextCursor[:len(page.NextCursor)-3],
		"empty base64": "AA",
	} {
		if _, err := st.ListScopeCounts(ctx, bad, 2); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("%s cursor %q: got %v, want invalid", name, bad, err)
		}
	}
	// A scope listing's cursor does not open a memory listing.
	if _, err := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "a0", ProjectID: "p", Cursor: page.NextCursor}); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("scope cursor on a memory listing: got %v, want invalid", err)
	}
}
