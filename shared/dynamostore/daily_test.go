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

// fixedClock sets the store's clock to t and returns a function that moves
// it forward.
func fixedClock(st *dynamostore.Store, t time.Time) func(time.Duration) {
	var mu sync.Mutex
	st.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return t }
	return func(d time.Duration) { mu.Lock(); t = t.Add(d); mu.Unlock() }
}

func record(agent, project, title, at string) agentmem.DailyRecord {
	return agentmem.DailyRecord{AgentName: agent, ProjectID: project, Title: title, Content: "content of " + title, At: at}
}

func TestAppendDailyReadsBackByDayInTimeOrder(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	fixedClock(st, time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC))
	ctx := context.Background()
	for _, bad := range []agentmem.DailyRecord{
		record("nori", "p", "", ""),
		record("no#ri", "p", "t", ""),
		record("nori", "p", "t", "2026-11-23T02:00:00Z"),
	} {
		if _, err := st.AppendDaily(ctx, bad); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("append %+v: got %v, want invalid", bad, err)
		}
	}
	for _, r := range []agentmem.DailyRecord{
		record("nori", "p", "late", "2026-11-22T16:45:00Z"),
		record("nori", "p", "early", "2026-11-22T09:05:00Z"),
		record("nori", "p", "yesterday", "2026-11-21T23:59:59Z"),
		record("nori", "p", "midnight", "2026-11-23T00:00:00Z"),
		record("nori", "other", "other project", "2026-11-22T10:00:00Z"),
	} {
		got, err := st.AppendDaily(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID == "" || got.At[:19] != r.At[:19] {
			t.Errorf("append %s: got id %q at %q", r.Title, got.ID, got.At)
		}
	}
	day, err := st.DailyDay(ctx, "nori", "p", "2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, r := range day {
		titles = append(titles, r.Title)
	}
	if got, want := fmt.Sprint(titles), "[early late]"; got != want {
		t.Errorf("day 2026-11-22: got %s, want %s", got, want)
	}
	if _, err := st.DailyDay(ctx, "nori", "p", "2026-13-01"); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("bad date: got %v, want invalid", err)
	}
	window, err := st.DailyRecords(ctx, "nori", "p", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(window), 3; got != want {
		t.Errorf("window of two days: got %d records, want %d", got, want)
	}
}

// TestDailyDayAtTheEdgesOfTheCalendar: every day ParseDate accepts reads
// as a day, the last one of year 9999 (whose next midnight, year 10000,
// sorts before it) included.
func TestDailyDayAtTheEdgesOfTheCalendar(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	fixedClock(st, time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC))
	ctx := context.Background()
	if _, err := st.AppendDaily(ctx, record("nori", "p", "late", "2026-11-22T23:59:59.999Z")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		date string
		want int
	}{
		{"0000-01-01", 0},
		{"2026-11-21", 0},
		{"2026-11-22", 1},
		{"2026-11-23", 0},
		{"9999-12-30", 0},
		{"9999-12-31", 0},
	}
	for _, tt := range tests {
		got, err := st.DailyDay(ctx, "nori", "p", tt.date)
		if err != nil || len(got) != tt.want {
			t.Errorf("DailyDay(%s): got %d records (err %v), want %d", tt.date, len(got), err, tt.want)
		}
	}
}

func TestAppendDailyMarksTheScopePending(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	if _, err := st.AppendDaily(ctx, record("nori", "p", "one", "")); err != nil {
		t.Fatal(err)
	}
	state, err := st.GetDreamState(ctx, "nori", "p")
	if err != nil {
		t.Fatal(err)
	}
	if !state.Pending() || state.AppendSeq != 1 || state.PendingSince == "" {
		t.Fatalf("after one append: got %+v, want pending with appendSeq 1", state)
	}
	// A record appended after the dream read appendSeq keeps the scope pending.
	if _, err := st.AppendDaily(ctx, record("nori", "p", "two", "")); err != nil {
		t.Fatal(err)
	}
	if cleared, err := st.ClearPending(ctx, "nori", "p", state.AppendSeq); err != nil || cleared {
		t.Fatalf("clear with a stale appendSeq: cleared %v, err %v; want not cleared", cleared, err)
	}
	if cleared, err := st.ClearPending(ctx, "nori", "p", 2); err != nil || !cleared {
		t.Fatalf("clear with the current appendSeq: cleared %v, err %v", cleared, err)
	}
	state, _ = st.GetDreamState(ctx, "nori", "p")
	if state.Pending() || state.PendingSince != "" {
		t.Errorf("after clearing: got %+v", state)
	}
}

func TestConcurrentAppendsAllLand(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.AppendDaily(ctx, record("nori", "p", fmt.Sprintf("r%02d", i), ""))
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
	now := time.Now()
	recs, err := st.DailyRecords(ctx, "nori", "p", now.Add(-time.Hour), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	state, _ := st.GetDreamState(ctx, "nori", "p")
	if len(recs) != n || state.AppendSeq != n {
		t.Errorf("got %d records and appendSeq %d, want %d and %d", len(recs), state.AppendSeq, n, n)
	}
}

func TestEachPendingScopeReadsOnlyPendingScopes(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	want := map[string]bool{}
	for i := range 30 {
		agent := fmt.Sprintf("agent-%02d", i)
		if _, err := st.AppendDaily(ctx, record(agent, "p", "x", "")); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			want[agent] = true
			continue
		}
		// Two out of three scopes have been dreamed: no longer pending.
		if _, err := st.ClearPending(ctx, agent, "p", 1); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]bool{}
	stats, err := st.EachPendingScope(ctx, func(s dynamostore.DreamState) error {
		if s.ProjectID != "p" || s.PendingSince == "" {
			t.Errorf("pending scope %+v lacks fields", s)
		}
		got[s.AgentName] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got pending %v, want %v", got, want)
	}
	if stats.Items != int64(len(want)) {
		t.Errorf("read %d items, want exactly the %d pending scopes", stats.Items, len(want))
	}
}
