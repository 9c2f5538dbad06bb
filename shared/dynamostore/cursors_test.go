package dynamostore_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

// TestCursorsAreBoundToTheirListing: a page cursor continues the listing
// it came from and no other: another agent's, another project's, another
// type filter's, another kind of listing's, an altered one or a made-up
// one is invalid (400), never a silent skip.
func TestCursorsAreBoundToTheirListing(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for _, scope := range [][2]string{{"nori", "p"}, {"nori", "q"}, {"kai", "p"}} {
		for i := range 3 {
			m := newMemory(scope[0], scope[1], fmt.Sprintf("memory %d", i))
			m.Type = agentmem.TypeFinding
			if _, err := st.CreateMemory(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	page, err := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Limit: 1})
	if err != nil || page.NextCursor == "" {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	next, err := st.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Limit: 1, Cursor: page.NextCursor})
	if err != nil || len(next.Memories) != 1 || next.Memories[0].ID == page.Memories[0].ID {
		t.Fatalf("second page: %+v, %v", next, err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(page.NextCursor)
	flip := func(i int) string {
		b := append([]byte(nil), raw...)
		b[i] ^= 0x01
		return base64.RawURLEncoding.EncodeToString(b)
	}
	// A position the server never sealed: the old unsigned cursor format.
	forged := base64.RawURLEncoding.EncodeToString([]byte("2026-01-01T00:00:00.000000000Z"))
	bad := []struct {
		name string
		opt  dynamostore.ListOptions
	}{
		{"another agent's listing", dynamostore.ListOptions{AgentName: "kai", ProjectID: "p", Cursor: page.NextCursor}},
		{"another project's listing", dynamostore.ListOptions{AgentName: "nori", ProjectID: "q", Cursor: page.NextCursor}},
		{"another type filter", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Type: agentmem.TypeFinding, Cursor: page.NextCursor}},
		{"a changed position", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: flip(5)}},
		{"a changed signature", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: flip(len(raw) - 1)}},
		{"a changed version", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: flip(0)}},
		{"truncated", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: page.NextCursor[:len(page.NextCursor)-4]}},
		{"forged", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: forged}},
		{"padded base64", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: page.NextCursor + "=="}},
		{"not base64", dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Cursor: "!!"}},
	}
	for _, tt := range bad {
		if _, err := st.ListMemories(ctx, tt.opt); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("%s: got %v, want invalid", tt.name, err)
		}
	}
	if _, err := st.ListDreams(ctx, "nori", "p", 10, page.NextCursor); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("a memory cursor on the dream diary: got %v, want invalid", err)
	}
	if _, err := st.ListPersonalities(ctx, 10, page.NextCursor); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("a memory cursor on the personalities: got %v, want invalid", err)
	}
}

// TestCursorKeyIsSharedByEveryProcess: two stores on the same tables (two
// Lambda instances) agree on the key they create, so a cursor from one
// opens in the other; a configured key is used instead.
func TestCursorKeyIsSharedByEveryProcess(t *testing.T) {
	t.Parallel()
	a := dynamotest.NewStore(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := dynamostore.New(awsCfg, a.Config())
	for i := range 3 {
		if _, err := a.CreateMemory(ctx, newMemory("nori", "p", fmt.Sprintf("m%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	page, err := a.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if next, err := b.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Limit: 1, Cursor: page.NextCursor}); err != nil || len(next.Memories) != 1 {
		t.Errorf("another process: %+v, %v; want the next page", next, err)
	}
	c := dynamostore.New(awsCfg, a.Config())
	c.CursorKey = []byte("a configured key of some length")
	if _, err := c.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "p", Limit: 1, Cursor: page.NextCursor}); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("a cursor sealed with another key: got %v, want invalid", err)
	}
}

// TestPersonalitiesArePaged: the listing pages in name order through the
// name index, every personality once.
func TestPersonalitiesArePaged(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	const n = 13
	for i := range n {
		if _, _, err := st.PutPersonality(ctx, agentmem.Personality{AgentName: fmt.Sprintf("agent-%02d", n-i), DisplayName: "A"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	cursor, pages := "", 0
	for {
		page, err := st.ListPersonalities(ctx, 5, cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, p := range page.Personalities {
			names = append(names, p.AgentName)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if pages != 3 || len(names) != n {
		t.Fatalf("got %d personalities in %d pages, want %d in 3", len(names), pages, n)
	}
	for i, name := range names {
		if want := fmt.Sprintf("agent-%02d", i+1); name != want {
			t.Errorf("position %d: %s, want %s", i, name, want)
		}
	}
}

// TestRetention: daily records, dream diary entries and plans expire
// after their retention (their TTL attribute); 0 keeps them.
func TestRetention(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return now }
	st.DailyRetention = 40 * 24 * time.Hour
	rec, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: "t", Content: "c"})
	if err != nil {
		t.Fatal(err)
	}
	var item struct {
		ExpiresAt int64 `dynamo:"expiresAt"`
	}
	err = st.DB().Table(st.Config().JournalTable).Get("pk", "daily#nori#p").Range("sk", "EQ", rec.At+"#"+rec.ID).One(ctx, &item)
	if err != nil || item.ExpiresAt != now.Add(st.DailyRetention).Unix() {
		t.Errorf("daily record expiresAt %d, %v; want %d", item.ExpiresAt, err, now.Add(st.DailyRetention).Unix())
	}
	st.DailyRetention = 0
	rec, err = st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: "t", Content: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	item.ExpiresAt = -1
	if err := st.DB().Table(st.Config().JournalTable).Get("pk", "daily#nori#p").Range("sk", "EQ", rec.At+"#"+rec.ID).One(ctx, &item); err != nil || item.ExpiresAt != 0 {
		t.Errorf("kept record expiresAt %d, %v; want none", item.ExpiresAt, err)
	}

	st.DreamRetention = 100 * 24 * time.Hour
	d := agentmem.Dream{ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", AgentName: "nori", ProjectID: "p", Date: "2026-11-22", Kind: agentmem.DreamKindDream, Status: agentmem.DreamFailed}
	if err := st.RecordDream(ctx, d); err != nil {
		t.Fatal(err)
	}
	err = st.DB().Table(st.Config().JournalTable).Get("pk", "dream#nori#p").Range("sk", "EQ", "diary#2026-11-22#"+d.ID).One(ctx, &item)
	if err != nil || item.ExpiresAt != now.Add(st.DreamRetention).Unix() {
		t.Errorf("diary entry expiresAt %d, %v; want %d", item.ExpiresAt, err, now.Add(st.DreamRetention).Unix())
	}
}

// TestTouchesAndRaisesChangeNoCountedBytes: lastAccessedAt and a raised
// confidence are not counted, so touching a memory and reinforcing a
// pattern leave the counters' bytes where a delete will find them, and a
// delete after them leaves zero; the raise still moves the scope's
// Version.
func TestTouchesAndRaisesChangeNoCountedBytes(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	m, err := st.CreateMemory(ctx, newMemory("nori", "p", "touched a lot"))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := st.SavePattern(ctx, pattern("nori", "a flaky test", "retry it once", 0.5))
	if err != nil {
		t.Fatal(err)
	}
	before := counts(t, st, "nori", "p")
	for i := range 3 {
		if _, err := st.TouchMemories(ctx, []agentmem.Memory{m, p}, time.Now().Add(time.Duration(i+1)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if after := counts(t, st, "nori", "p"); after.Bytes != before.Bytes || after.Version != before.Version {
		t.Errorf("after touches: bytes %d version %d, want %d and %d", after.Bytes, after.Version, before.Bytes, before.Version)
	}
	if _, raised, err := st.SavePattern(ctx, pattern("nori", "a flaky test", "retry it once", 0.5)); err != nil || !raised {
		t.Fatalf("raise: %v, %v", raised, err)
	}
	after := counts(t, st, "nori", "p")
	if after.Bytes != before.Bytes || after.Version <= before.Version {
		t.Errorf("after a raise: bytes %d version %d, want bytes %d and a later version than %d", after.Bytes, after.Version, before.Bytes, before.Version)
	}
	if _, err := st.DeleteMemories(ctx, []agentmem.Memory{m}); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteMemory(ctx, "nori", p.ID); err != nil {
		t.Fatal(err)
	}
	if c := checkCounters(t, st, "nori", "p"); c.Total != 0 || c.Bytes != 0 {
		t.Errorf("after deleting both: %+v, want zero", c)
	}
}

// TestUnreachableDatabaseIsUnavailable: a DynamoDB that cannot be reached
// is agentmem.EUnavailable (503, retry later), not an internal error.
func TestUnreachableDatabaseIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := dynamostore.New(awsCfg, dynamostore.Config{MemoriesTable: "m", PersonalitiesTable: "p", JournalTable: "j", Endpoint: "http://127.0.0.1:1"})
	_, err = st.CreateMemory(ctx, newMemory("nori", "p", "x"))
	if agentmem.ErrorCode(err) != agentmem.EUnavailable || agentmem.RetryAfterOf(err) <= 0 {
		t.Errorf("got %v (%s), want unavailable with a Retry-After", err, agentmem.ErrorCode(err))
	}
}

// TestEnsureTablesAddsMissingIndexes: tables an older version created
// (make dev keeps its data) get the indexes they lack, and personalities
// stored before the name index existed are listed.
func TestEnsureTablesAddsMissingIndexes(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg := dynamotest.Config(t)
	st := dynamostore.New(awsCfg, cfg)
	type oldPersonality struct {
		AgentName   string `dynamo:"agentName,hash"`
		DisplayName string `dynamo:"displayName"`
		Version     int    `dynamo:"version"`
	}
	if err := st.DB().CreateTable(cfg.PersonalitiesTable, oldPersonality{}).OnDemand(true).Run(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.DeleteTables(context.Background()) })
	if err := st.DB().Table(cfg.PersonalitiesTable).Put(oldPersonality{AgentName: "nori", DisplayName: "Nori", Version: 1}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureTables(ctx); err != nil {
		t.Fatal(err)
	}
	page, err := st.ListPersonalities(ctx, 0, "")
	if err != nil || len(page.Personalities) != 1 || page.Personalities[0].AgentName != "nori" {
		t.Errorf("listing after the upgrade: %+v, %v", page, err)
	}
	if err := st.EnsureTables(ctx); err != nil {
		t.Errorf("second EnsureTables: %v", err)
	}
}
