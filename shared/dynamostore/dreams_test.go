package dynamostore_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestDreamLeaseIsExclusiveUntilItExpires(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	advance := fixedClock(st, time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC))
	ctx := context.Background()
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-a", time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-b", time.Minute); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Fatalf("second lease: got %v, want busy", err)
	}
	if _, err := st.AcquireDreamLease(ctx, "nori", "other", "dream-b", time.Minute); err != nil {
		t.Errorf("another scope is not blocked: %v", err)
	}
	// Releasing someone else's lease does nothing.
	if err := st.ReleaseDreamLease(ctx, "nori", "p", "dream-b"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-b", time.Minute); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Fatalf("after a foreign release: got %v, want busy", err)
	}
	advance(61 * time.Second)
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-b", time.Minute); err != nil {
		t.Fatalf("expired lease: %v", err)
	}
	if err := st.ReleaseDreamLease(ctx, "nori", "p", "dream-b"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-c", time.Minute); err != nil {
		t.Fatalf("released lease: %v", err)
	}
}

// TestRenewDreamLease: the holder extends its lease, also past its time
// while no one took it; a renewal by anyone else, of a lease another took
// or of one given back, is busy and changes nothing.
func TestRenewDreamLease(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	start := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	advance := fixedClock(st, start)
	ctx := context.Background()
	leaseUntil := func() (string, time.Time) {
		t.Helper()
		s, err := st.GetDreamState(ctx, "nori", "p")
		if err != nil {
			t.Fatal(err)
		}
		return s.LeaseOwner, time.UnixMilli(s.LeaseUntil).UTC()
	}
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-a", time.Minute); err != nil {
		t.Fatal(err)
	}
	// Within its time, and past it while no one took it: renewed from now.
	for _, step := range []time.Duration{40 * time.Second, 90 * time.Second} {
		advance(step)
		if err := st.RenewDreamLease(ctx, "nori", "p", "dream-a", time.Minute); err != nil {
			t.Fatalf("renewal by the holder after %v: %v", step, err)
		}
	}
	if owner, until := leaseUntil(); owner != "dream-a" || !until.Equal(start.Add(130*time.Second+time.Minute)) {
		t.Errorf("after the renewals: held by %q until %v, want dream-a until %v", owner, until, start.Add(190*time.Second))
	}
	// The renewed lease keeps another dream out where the first would have
	// expired.
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-b", time.Minute); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Fatalf("another dream while the renewed lease holds: got %v, want busy", err)
	}
	tests := []struct {
		name  string
		setup func()
		owner string
	}{
		{"another dream renews", func() {}, "dream-b"},
		{"the holder's lease was taken", func() {
			advance(2 * time.Minute)
			if _, err := st.AcquireDreamLease(ctx, "nori", "p", "dream-b", time.Minute); err != nil {
				t.Fatal(err)
			}
		}, "dream-a"},
		{"the lease was given back", func() {
			if err := st.ReleaseDreamLease(ctx, "nori", "p", "dream-b"); err != nil {
				t.Fatal(err)
			}
		}, "dream-b"},
	}
	for _, tt := range tests {
		tt.setup()
		wantOwner, wantUntil := leaseUntil()
		err := st.RenewDreamLease(ctx, "nori", "p", tt.owner, time.Hour)
		if agentmem.ErrorCode(err) != agentmem.EBusy {
			t.Errorf("%s: got %v, want busy", tt.name, err)
		}
		if owner, until := leaseUntil(); owner != wantOwner || !until.Equal(wantUntil) {
			t.Errorf("%s: lease now %q until %v, want it unchanged (%q until %v)", tt.name, owner, until, wantOwner, wantUntil)
		}
	}
	// Another scope's renewal never touches this one.
	if err := st.RenewDreamLease(ctx, "nori", "other", "dream-a", time.Minute); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Errorf("renewal of a scope never leased: got %v, want busy", err)
	}
}

func sysMemory(i int, at time.Time) agentmem.Memory {
	return agentmem.Memory{
		ID: fmt.Sprintf("01JD5Q8Z3K7M2N4P6R8T%06d", i), AgentName: "nori", ProjectID: "p",
		Content: fmt.Sprintf("memory %d %s", i, strings.Repeat("x", 2000)), Type: agentmem.TypeFinding,
		Source: agentmem.SourceSystem, CreatedAt: agentmem.FormatTime(at.Add(time.Duration(i))),
		Embedding: []byte{byte(i), 1, 2, 3},
	}
}

func TestBeginDreamNeedsTheLeaseAndKeepsLargePlans(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	fixedClock(st, now)
	ctx := context.Background()
	// 400 memories of 2,000 random hex digits: about 400 KB once
	// gzipped, more than one plan chunk.
	var plan dynamostore.DreamPlan
	for i := range 400 {
		m := sysMemory(i, now)
		var b strings.Builder
		for j := range 32 {
			fmt.Fprintf(&b, "%x", sha(i*100+j))
		}
		m.Content = b.String()
		plan.Create = append(plan.Create, m)
		plan.Delete = append(plan.Delete, sysMemory(1000+i, now.Add(-time.Hour)))
	}
	d := agentmem.Dream{ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", AgentName: "nori", ProjectID: "p", Kind: agentmem.DreamKindDream,
		Date: "2026-11-22", StartedAt: agentmem.FormatTime(now)}
	if err := st.BeginDream(ctx, d, plan, "someone"); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Fatalf("begin without the lease: got %v, want busy", err)
	}
	if _, err := st.AcquireDreamLease(ctx, "nori", "p", d.ID, time.Minute); err != nil {
		t.Fatal(err)
	}
	d.ID = "01JD5Q8Z3K7M2N4P6R8T0V2X4Z" // the failed attempt left its plan chunks behind under the old id
	if err := st.BeginDream(ctx, d, plan, "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"); err != nil {
		t.Fatal(err)
	}
	state, _ := st.GetDreamState(ctx, "nori", "p")
	if state.Committing != "2026-11-22#"+d.ID {
		t.Errorf("state.committing: got %q", state.Committing)
	}
	got, err := st.DreamPlanOf(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, plan) {
		t.Errorf("plan did not round-trip (%d/%d create, %d/%d delete)", len(got.Create), len(plan.Create), len(got.Delete), len(plan.Delete))
	}
	entry, err := st.DreamByRef(ctx, "nori", "p", state.Committing)
	if err != nil || entry.Status != agentmem.DreamCommitting {
		t.Fatalf("entry: %+v, %v", entry, err)
	}
	d.Created = 400
	if err := st.FinishDream(ctx, d, "hash-1"); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishDream(ctx, d, "hash-1"); err != nil {
		t.Errorf("finishing twice: %v", err)
	}
	state, _ = st.GetDreamState(ctx, "nori", "p")
	entry, _ = st.DreamByRef(ctx, "nori", "p", "2026-11-22#"+d.ID)
	if state.Committing != "" || state.LastHash != "hash-1" || state.LastDreamID != d.ID || entry.Status != agentmem.DreamCommitted || entry.Created != 400 {
		t.Errorf("after finish: state %+v, entry status %s", state, entry.Status)
	}
}

func sha(i int) [32]byte {
	var b [32]byte
	x := uint64(i)*0x9E3779B97F4A7C15 + 1
	for j := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[j] = byte(x)
	}
	return b
}

func TestListDreamsPagesNewestFirst(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	ctx := context.Background()
	for i := range 7 {
		d := agentmem.Dream{ID: fmt.Sprintf("01JD5Q8Z3K7M2N4P6R8T0V2X%02d", i), AgentName: "nori", ProjectID: "p",
			Kind: agentmem.DreamKindDream, Status: agentmem.DreamFailed, Date: fmt.Sprintf("2026-11-%02d", 10+i/2)}
		if err := st.RecordDream(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	cursor := ""
	for range 10 {
		page, err := st.ListDreams(ctx, "nori", "p", 3, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range page.Dreams {
			ids = append(ids, d.ID[len(d.ID)-2:])
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if got, want := strings.Join(ids, " "), "06 05 04 03 02 01 00"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	day, err := st.DreamsOn(ctx, "nori", "p", "2026-11-11")
	if err != nil || len(day) != 2 {
		t.Errorf("dreams on 2026-11-11: %d, %v; want 2", len(day), err)
	}
	if _, err := st.ListDreams(ctx, "nori", "p", 3, "bm90IGEgY3Vyc29y"); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("bad cursor: got %v, want invalid", err)
	}
}

func TestRestoreMemoriesIsIdempotentAndKeepsCounters(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	ctx := context.Background()
	var ms []agentmem.Memory
	for i := range 30 {
		ms = append(ms, sysMemory(i, now))
	}
	n, err := st.RestoreMemories(ctx, ms)
	if err != nil || n != 30 {
		t.Fatalf("restore: %d, %v", n, err)
	}
	n, err = st.RestoreMemories(ctx, ms)
	if err != nil || n != 0 {
		t.Fatalf("replay: wrote %d, err %v; want 0", n, err)
	}
	// Another memory in the slot of a restored one: the restore moves on.
	clash := sysMemory(0, now)
	clash.ID = "01JD5Q8Z3K7M2N4P6R8T0V2CLA"
	if n, err := st.RestoreMemories(ctx, []agentmem.Memory{clash}); err != nil || n != 1 {
		t.Fatalf("restore into a taken slot: %d, %v", n, err)
	}
	counts, _ := st.GetScopeCounts(ctx, "nori", "p")
	recount, _ := st.RecountScope(ctx, "nori", "p")
	if counts.Total != 31 || recount.Drifted || counts.Total != recount.After.Total || counts.Bytes != recount.After.Bytes {
		t.Errorf("counters %+v, recount %+v; want 31 and equal", counts, recount)
	}
	m, err := st.GetMemory(ctx, "nori", clash.ID)
	if err != nil || m.CreatedAt == clash.CreatedAt {
		t.Errorf("clash: got %+v, %v; want it stored at a later createdAt", m.CreatedAt, err)
	}
}
