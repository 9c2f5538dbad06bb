package dream_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

// heldModel is a stand-in whose calls wait until the test lets them go
// (or the dream gives up on them): entered is closed when the first call
// arrives, and release lets every call answer.
type heldModel struct {
	entered, release chan struct{}
	enterOnce        sync.Once
	releaseOnce      sync.Once
}

func newHeldModel(t *testing.T) *heldModel {
	h := &heldModel{entered: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(h.let)
	return h
}

func (h *heldModel) answer(text string) llmtest.Answer {
	return func(ctx context.Context, _ string) llmtest.Reply {
		h.enterOnce.Do(func() { close(h.entered) })
		select {
		case <-h.release:
			return llmtest.Reply{Text: text}
		case <-ctx.Done():
			return llmtest.Reply{Status: 499, Text: "the client went away"}
		}
	}
}

func (h *heldModel) let() { h.releaseOnce.Do(func() { close(h.release) }) }

// leasedDreamer is a dreamer with a lease of 10 s on the fixture's clock
// that renews it when the test ticks, reporting each renewal.
func leasedDreamer(f *fixture, h *heldModel, text string) (*dream.Dreamer, chan<- time.Time, <-chan error) {
	_, client := newChat(f.t, h.answer(text))
	d := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, Lease: 10 * time.Second})
	ticks := make(chan time.Time)
	renewed := make(chan error, 1)
	dream.SetLeaseTicks(d, ticks, func(err error) { renewed <- err })
	return d, ticks, renewed
}

type runOutcome struct {
	res agentmem.DreamResult
	err error
}

func start(d *dream.Dreamer) <-chan runOutcome {
	out := make(chan runOutcome, 1)
	go func() {
		res, err := run(d, dream.Request{})
		out <- runOutcome{res, err}
	}()
	return out
}

// TestARenewedLeaseOutlastsItsTime: a dream that runs three times longer
// than its lease keeps its scope, renewing the lease, and commits.
func TestARenewedLeaseOutlastsItsTime(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	h := newHeldModel(t)
	d, ticks, renewed := leasedDreamer(f, h, goodOps(s))
	out := start(d)
	<-h.entered
	for range 4 {
		f.advance(8 * time.Second)
		ticks <- time.Time{}
		if err := <-renewed; err != nil {
			t.Fatalf("renewal: %v", err)
		}
	}
	// 32 s in: the lease taken at 0 for 10 s is held until 42 s.
	st := f.state()
	if until := time.UnixMilli(st.LeaseUntil).UTC(); !until.Equal(now.Add(42 * time.Second)) {
		t.Errorf("lease held until %v, want %v", until, now.Add(42*time.Second))
	}
	if _, err := f.store.AcquireDreamLease(f.ctx, "nori", "p", "another-dream", time.Minute); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Errorf("another dream 32 s into a dream with a 10 s lease: got %v, want busy", err)
	}
	if _, err := run(d, dream.Request{Force: true}); agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Errorf("a second dream of the scope: got %v, want busy", err)
	}
	h.let()
	got := <-out
	if got.err != nil || got.res.Status != agentmem.DreamStatusDreamed || got.res.Dream.Created != 2 {
		t.Fatalf("the dream: %+v, %v; want it committed", got.res, got.err)
	}
	if e := f.diary("2026-11-22"); len(e) != 1 || e[0].Status != agentmem.DreamCommitted {
		t.Errorf("diary: %+v", e)
	}
	if st := f.state(); st.LeaseOwner != "" || st.Committing != "" {
		t.Errorf("state after the dream: %+v; want the lease given back", st)
	}
	f.countersConsistent()
}

// TestALeaseTakenMidDreamStopsIt: a dream whose lease ran out while it
// could not renew it, and which another dream took, commits nothing,
// whether a renewal finds the lease taken (the model calls in flight are
// cancelled) or the check right before the commit does; the other dream
// keeps its lease.
func TestALeaseTakenMidDreamStopsIt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		renew bool // a renewal comes after the lease was taken
	}{
		{"a renewal finds it taken", true},
		{"the check before the commit finds it taken", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			s := f.seed()
			before := f.core()
			h := newHeldModel(t)
			d, ticks, renewed := leasedDreamer(f, h, goodOps(s))
			out := start(d)
			<-h.entered
			f.advance(11 * time.Second)
			if _, err := f.store.AcquireDreamLease(f.ctx, "nori", "p", "another-dream", time.Minute); err != nil {
				t.Fatalf("the expired lease: %v", err)
			}
			if tt.renew {
				ticks <- time.Time{}
				if err := <-renewed; agentmem.ErrorCode(err) != agentmem.EBusy {
					t.Fatalf("renewal of a taken lease: got %v, want busy", err)
				}
				// The model call is cancelled: the dream ends while the
				// model still holds its answer.
			} else {
				h.let()
			}
			got := <-out
			if agentmem.ErrorCode(got.err) != agentmem.EBusy || !strings.Contains(agentmem.ErrorMessage(got.err), "lost its lease") {
				t.Fatalf("got %+v, %v; want busy: lost its lease", got.res, got.err)
			}
			if !reflect.DeepEqual(f.core(), before) {
				t.Error("the core changed")
			}
			st := f.state()
			if n := len(f.diary("2026-11-22")); n != 0 || st.Committing != "" || st.LastHash != "" || !st.Pending() {
				t.Errorf("%d diary entries, state %+v; want nothing recorded and the scope still pending", n, st)
			}
			if st.LeaseOwner != "another-dream" {
				t.Errorf("lease held by %q, want the other dream's untouched", st.LeaseOwner)
			}
		})
	}
}
