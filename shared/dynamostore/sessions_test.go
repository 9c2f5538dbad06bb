package dynamostore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestSessionValueLifecycle(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	advance := fixedClock(st, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	ctx := context.Background()

	e, created, err := st.PutSessionValue(ctx, "p", "run-1", "auth-patterns", "JWT with refresh tokens", time.Hour)
	if err != nil || !created {
		t.Fatalf("first put: created %v, err %v", created, err)
	}
	if e.ExpiresAt != "2026-11-22T11:00:00.000000000Z" || e.CreatedAt != e.UpdatedAt {
		t.Errorf("first put: got %+v", e)
	}
	advance(10 * time.Minute)
	got, err := st.GetSessionValue(ctx, "p", "run-1", "auth-patterns")
	if err != nil {
		t.Fatal(err)
	}
	if got.Value != "JWT with refresh tokens" || got.AccessedAt != "2026-11-22T10:10:00.000000000Z" || got.CreatedAt != e.CreatedAt {
		t.Errorf("get: got %+v, want the value with accessedAt 10:10", got)
	}
	advance(10 * time.Minute)
	e2, created, err := st.PutSessionValue(ctx, "p", "run-1", "auth-patterns", "opaque tokens", time.Hour)
	if err != nil || created {
		t.Fatalf("overwrite: created %v, err %v", created, err)
	}
	if e2.CreatedAt != e.CreatedAt || e2.ExpiresAt != "2026-11-22T11:20:00.000000000Z" {
		t.Errorf("overwrite keeps createdAt and extends expiry: got %+v", e2)
	}

	// Past its expiry the key is gone for readers, though TTL has not run.
	advance(2 * time.Hour)
	if _, err := st.GetSessionValue(ctx, "p", "run-1", "auth-patterns"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("get after expiry: got %v, want not_found", err)
	}
	if err := st.DeleteSessionValue(ctx, "p", "run-1", "auth-patterns"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("delete after expiry: got %v, want not_found", err)
	}
	e3, created, err := st.PutSessionValue(ctx, "p", "run-1", "auth-patterns", "again", time.Hour)
	if err != nil || !created || e3.CreatedAt != "2026-11-22T12:20:00.000000000Z" {
		t.Errorf("put over an expired key: created %v, entry %+v, err %v; want a new key", created, e3, err)
	}
	if err := st.DeleteSessionValue(ctx, "p", "run-1", "auth-patterns"); err != nil {
		t.Errorf("delete: %v", err)
	}
	if _, err := st.GetSessionValue(ctx, "p", "run-1", "auth-patterns"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("get after delete: got %v, want not_found", err)
	}
}

func TestEndSessionDeletesEveryKeyAndUsageCountsLiveKeys(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	advance := fixedClock(st, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	ctx := context.Background()
	const many = 60 // more than one BatchWriteItem of 25
	for i := range many {
		if _, _, err := st.PutSessionValue(ctx, "p", "run-1", fmt.Sprintf("k%03d", i), "v", time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	// A session whose id is a prefix of another's must not be touched.
	for _, sid := range []string{"run-10", "run-2"} {
		if _, _, err := st.PutSessionValue(ctx, "p", sid, "k", "value", time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := st.PutSessionValue(ctx, "p", "run-3", "short", "v", time.Minute); err != nil {
		t.Fatal(err)
	}
	advance(2 * time.Minute) // run-3's key expires
	u, err := st.SessionUsage(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if u.Sessions != 3 || u.Total != many+2 || u.Bytes <= 0 {
		t.Errorf("usage: got %+v, want 3 sessions, %d keys, some bytes", u, many+2)
	}
	n, err := st.EndSession(ctx, "p", "run-1")
	if err != nil || n != many {
		t.Fatalf("end session: deleted %d, err %v; want %d", n, err, many)
	}
	u, _ = st.SessionUsage(ctx, "p")
	if u.Sessions != 2 || u.Total != 2 {
		t.Errorf("usage after ending run-1: got %+v, want run-10 and run-2 left", u)
	}
	if _, err := st.GetSessionValue(ctx, "p", "run-10", "k"); err != nil {
		t.Errorf("run-10 survived the end of run-1: %v", err)
	}
	if n, err := st.EndSession(ctx, "p", "never-started"); err != nil || n != 0 {
		t.Errorf("end unknown session: %d, %v", n, err)
	}
}

func TestListSessionKeys(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	advance := fixedClock(st, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	ctx := context.Background()
	put := func(session, key, value string, ttl time.Duration) {
		t.Helper()
		if _, _, err := st.PutSessionValue(ctx, "p", session, key, value, ttl); err != nil {
			t.Fatal(err)
		}
	}
	// Neighbouring sessions whose ids share a prefix must not leak in.
	put("run-4", "a", "x", time.Hour)
	put("run-42x", "a", "x", time.Hour)
	put("run-42", "short-lived", "gone soon", time.Minute)
	for i := range 5 {
		put("run-42", fmt.Sprintf("k%d", i), strings.Repeat("v", i), time.Hour)
	}
	advance(2 * time.Minute) // short-lived expires; TTL has not removed it

	var keys []string
	cursor, pages := "", 0
	for {
		page, err := st.ListSessionKeys(ctx, "p", "run-42", 2, cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, k := range page.Keys {
			keys = append(keys, k.Key)
			if want := int(k.Key[1] - '0'); k.Bytes != want {
				t.Errorf("key %s: bytes %d, want %d", k.Key, k.Bytes, want)
			}
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	if got, want := strings.Join(keys, ","), "k0,k1,k2,k3,k4"; got != want || pages != 3 {
		t.Errorf("keys %s in %d pages, want %s in 3", got, pages, want)
	}
	empty, err := st.ListSessionKeys(ctx, "p", "no-such-run", 0, "")
	if err != nil || empty.Keys == nil || len(empty.Keys) != 0 || empty.NextCursor != "" {
		t.Errorf("unknown session: got %+v, %v; want an empty list", empty, err)
	}
	for _, bad := range []string{"!!", "a2V5IyM"} { // not base64; "key##"
		if _, err := st.ListSessionKeys(ctx, "p", "run-42", 2, bad); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("cursor %q: got %v, want invalid", bad, err)
		}
	}
}

// TestPutOverAnExpiredKeyStartsItAnewInOneWrite: a put over a key that
// expired (TTL has not removed it yet) gives it a new createdAt in the
// same write that renews it, so a writer that dies right after that write,
// and another put landing right after it, never leave or answer the
// expired key's createdAt.
func TestPutOverAnExpiredKeyStartsItAnewInOneWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proxy, st, direct := lossyStore(t)
	if err := direct.EnsureTables(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	fixedClock(direct, start)
	if _, _, err := direct.PutSessionValue(ctx, "p", "run-1", "k", "old", time.Hour); err != nil {
		t.Fatal(err)
	}
	later := start.Add(2 * time.Hour)
	fixedClock(direct, later)
	fixedClock(st, later)
	want := agentmem.FormatTime(later)
	var other agentmem.SessionEntry
	proxy.afterNext("UpdateItem", "session#p", func() {
		proxy.refuseWith("UpdateItem", "") // the first writer dies here
		var err error
		if other, _, err = direct.PutSessionValue(ctx, "p", "run-1", "k", "newer", time.Hour); err != nil {
			t.Errorf("second put: %v", err)
		}
	})
	_, _, _ = st.PutSessionValue(ctx, "p", "run-1", "k", "new", time.Hour)
	if other.CreatedAt != want {
		t.Errorf("the put right after answered createdAt %s; want %s (the key started anew)", other.CreatedAt, want)
	}
	got, err := direct.GetSessionValue(ctx, "p", "run-1", "k")
	if err != nil || got.Value != "newer" || got.CreatedAt != want {
		t.Errorf("stored: %+v, %v; want value newer created at %s", got, err, want)
	}
}
