package backoff_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/backoff"
)

func TestDelayIsExponentialWithJitterUnderTheCap(t *testing.T) {
	t.Parallel()
	p := backoff.Policy{Base: 100 * time.Millisecond, Max: time.Second}
	tests := []struct {
		n      int
		lo, hi time.Duration
	}{
		{0, 50 * time.Millisecond, 100 * time.Millisecond},
		{1, 50 * time.Millisecond, 100 * time.Millisecond},
		{2, 100 * time.Millisecond, 200 * time.Millisecond},
		{3, 200 * time.Millisecond, 400 * time.Millisecond},
		{4, 400 * time.Millisecond, 800 * time.Millisecond},
		{5, 500 * time.Millisecond, time.Second},
		{60, 500 * time.Millisecond, time.Second},
	}
	for _, tt := range tests {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := p.Delay(tt.n)
			if d < tt.lo || d > tt.hi {
				t.Fatalf("Delay(%d) = %v, want within [%v, %v]", tt.n, d, tt.lo, tt.hi)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Errorf("Delay(%d): %d distinct waits in 200, want jitter", tt.n, len(seen))
		}
	}
	if got := (backoff.Policy{}).Delay(3); got != 0 {
		t.Errorf("zero policy: got %v, want no wait", got)
	}
	if got := (backoff.Policy{Base: time.Millisecond}).Delay(80); got < 30*time.Minute {
		t.Errorf("uncapped, retry 80: got %v, want a long wait and no overflow", got)
	}
}

func TestWait(t *testing.T) {
	t.Parallel()
	p := backoff.Policy{Base: time.Millisecond, Max: 50 * time.Millisecond}
	deadline := func(d time.Duration) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		t.Cleanup(cancel)
		return ctx
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		retryAfter time.Duration
		want       bool
		atOnce     bool
	}{
		{"computed wait", context.Background(), 0, true, false},
		{"retry-after within the cap", context.Background(), 20 * time.Millisecond, true, false},
		{"retry-after over the cap", context.Background(), time.Minute, false, true},
		{"wait past the deadline", deadline(10 * time.Millisecond), 30 * time.Millisecond, false, true},
		{"wait within the deadline", deadline(time.Minute), 5 * time.Millisecond, true, false},
		{"context done", canceled, 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			if got := p.Wait(tt.ctx, 1, tt.retryAfter); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			took := time.Since(start)
			if tt.atOnce && took > 5*time.Millisecond {
				t.Errorf("declined after %v, want at once", took)
			}
			if tt.want && took < tt.retryAfter {
				t.Errorf("waited %v, want at least the Retry-After %v", took, tt.retryAfter)
			}
		})
	}
}

var errTemporary = errors.New("temporary")

func TestDo(t *testing.T) {
	t.Parallel()
	p := backoff.Policy{Attempts: 3, Base: time.Millisecond, Max: 10 * time.Millisecond}
	classify := func(err error) (bool, time.Duration) { return errors.Is(err, errTemporary), 0 }
	tests := []struct {
		name  string
		fails []error
		calls int
		err   error
	}{
		{"first call succeeds", nil, 1, nil},
		{"temporary then ok", []error{errTemporary}, 2, nil},
		{"gives up after the attempts", []error{errTemporary, errTemporary, errTemporary, errTemporary}, 3, errTemporary},
		{"final error is not retried", []error{errors.ErrUnsupported}, 1, errors.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			err := p.Do(context.Background(), func() error {
				calls++
				if calls <= len(tt.fails) {
					return tt.fails[calls-1]
				}
				return nil
			}, classify)
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) || calls != tt.calls {
				t.Errorf("got %v after %d calls, want %v after %d", err, calls, tt.err, tt.calls)
			}
		})
	}
	calls := 0
	_ = backoff.Policy{}.Do(context.Background(), func() error { calls++; return errTemporary }, classify)
	if calls != 1 {
		t.Errorf("zero policy: got %d calls, want 1", calls)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		in     string
		lo, hi time.Duration
	}{
		{"", 0, 0},
		{"0", 0, 0},
		{"7", 7 * time.Second, 7 * time.Second},
		{" 2 ", 2 * time.Second, 2 * time.Second},
		{"-3", 0, 0},
		{"soon", 0, 0},
		{"1.5", 0, 0},
		{future, 80 * time.Second, 90 * time.Second},
		{past, 0, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		h.Set("Retry-After", tt.in)
		if got := backoff.RetryAfter(h); got < tt.lo || got > tt.hi {
			t.Errorf("Retry-After %q: got %v, want within [%v, %v]", tt.in, got, tt.lo, tt.hi)
		}
	}
}
