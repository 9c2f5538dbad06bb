package cli

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func TestParseTTL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"1m", 60, true},
		{"30m", 1800, true},
		{"24h", 86400, true},
		{" 2d ", 172800, true},
		{"7d", 604800, true},
		{"1h30m", 5400, true},
		{"59s", 0, false},
		{"8d", 0, false},
		{"168h1s", 0, false},
		{"1.5s", 0, false},
		{"90500ms", 0, false},
		{"106751991167300d", 0, false},
		{"d", 0, false},
		{"-1d", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, err := parseTTL(tt.in)
		var usage *UsageError
		if got != tt.want || (err == nil) != tt.ok || (err != nil && !errors.As(err, &usage)) {
			t.Errorf("parseTTL(%q): got %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// FuzzParseTTL: what parseTTL accepts is whole seconds within the session
// context's bounds, and it reads its own rendering back the same.
func FuzzParseTTL(f *testing.F) {
	for _, s := range []string{"30m", "7d", "1h30m", "0d", "99999999999d", "1e3h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseTTL(s)
		if err != nil {
			var usage *UsageError
			if !errors.As(err, &usage) {
				t.Fatalf("parseTTL(%q): %v is not a usage error", s, err)
			}
			return
		}
		if n < int(agentmem.MinSessionTTL.Seconds()) || n > int(agentmem.MaxSessionTTL.Seconds()) {
			t.Fatalf("parseTTL(%q) = %d, out of bounds", s, n)
		}
		if again, err := parseTTL(strconv.Itoa(n) + "s"); err != nil || again != n {
			t.Fatalf("parseTTL(%q) = %d, but %ds reads as %d, %v", s, n, n, again, err)
		}
	})
}

// FuzzDayArg: a --date that is accepted is a valid day.
func FuzzDayArg(f *testing.F) {
	for _, s := range []string{"today", "Yesterday", "2026-03-01", "2026-02-30", "2026-3-1", ""} {
		f.Add(s)
	}
	in := &Invocation{Env: Env{Now: func() time.Time { return time.Date(2026, 3, 1, 0, 30, 0, 0, time.FixedZone("x", 3600)) }}}
	f.Fuzz(func(t *testing.T, s string) {
		day, err := dayArg(in, s)
		if err != nil {
			return
		}
		if _, err := time.Parse(agentmem.DateLayout, day); err != nil {
			t.Fatalf("dayArg(%q) = %q, not a day", s, day)
		}
	})
}

func TestDayArgIsUTC(t *testing.T) {
	t.Parallel()
	// 00:30 at UTC+1 is still the day before in UTC.
	in := &Invocation{Env: Env{Now: func() time.Time { return time.Date(2026, 3, 1, 0, 30, 0, 0, time.FixedZone("x", 3600)) }}}
	for s, want := range map[string]string{"today": "2026-02-28", "yesterday": "2026-02-27", "2026-01-31": "2026-01-31"} {
		if got, err := dayArg(in, s); got != want || err != nil {
			t.Errorf("dayArg(%q) = %q, %v; want %q", s, got, err, want)
		}
	}
}
