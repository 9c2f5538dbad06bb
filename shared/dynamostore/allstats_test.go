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
	rebuilt, err := st.RecountTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt.Scopes != after.Scopes || rebuilt.Total != after.Total || rebuilt.Bytes != after.Bytes {
		t.Errorf("RecountTotals: got %+v, running totals %+v", rebuilt, after)
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

func TestScopesCursor(t *testing.T) {
	t.Parallel()
	c := dynamostore.EncodeScopesCursor(7, "nori#checkout-service")
	shard, sk, err := dynamostore.DecodeScopesCursor(c)
	if err != nil || shard != 7 || sk != "nori#checkout-service" {
		t.Errorf("round trip: got %d %q %v", shard, sk, err)
	}
	for _, bad := range []string{"", "!!", dynamostore.EncodeScopesCursor(16, "a#b"), dynamostore.EncodeScopesCursor(3, "nohash"),
		dynamostore.EncodeScopesCursor(3, "a#b#c"), dynamostore.EncodeCursor("2026-01-01T00:00:00Z")} {
		if _, _, err := dynamostore.DecodeScopesCursor(bad); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("cursor %q: got %v, want invalid", bad, err)
		}
	}
}

// FuzzDecodeScopesCursor: any string decodes to a valid shard and scope
// key, or is refused as invalid.
func FuzzDecodeScopesCursor(f *testing.F) {
	f.Add(dynamostore.EncodeScopesCursor(7, "nori#p"))
	f.Add("MDcvbm9yaSNw")
	f.Add("")
	f.Fuzz(func(t *testing.T, cursor string) {
		shard, sk, err := dynamostore.DecodeScopesCursor(cursor)
		if err != nil {
			if agentmem.ErrorCode(err) != agentmem.EInvalid {
				t.Fatalf("%q: %v", cursor, err)
			}
			return
		}
		if shard < 0 || shard >= dynamostore.StatsShards || dynamostore.EncodeScopesCursor(shard, sk) != cursor {
			t.Fatalf("%q decoded to %d %q", cursor, shard, sk)
		}
	})
}
