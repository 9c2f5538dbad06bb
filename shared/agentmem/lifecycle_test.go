package agentmem_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func TestParseAge(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	good := []struct {
		in   string
		want time.Duration
	}{
		{"1h", time.Hour}, {"36h", 36 * time.Hour}, {"30d", 30 * day}, {"2w", 14 * day},
		{"007d", 7 * day}, {"5214w", 5214 * 7 * day}, {"36500d", 36500 * day},
	}
	for _, tt := range good {
		got, err := agentmem.ParseAge(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "d", "30", "30m", "30s", "30y", "1.5d", "-3d", "+3d", " 3d", "3d ", "3 d", "3D", "0d", "0h",
		"1h30m", "36501d", "5215w", "876001h", "99999999999d", "3dd", "٣d"} {
		if got, err := agentmem.ParseAge(in); err == nil || agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("ParseAge(%q) = %v, %v; want an invalid error", in, got, err)
		}
	}
	_, err := agentmem.ParseAge("30m")
	if msg := agentmem.ErrorMessage(err); !strings.Contains(msg, "h, d or w") {
		t.Errorf("message %q does not say which units are accepted", msg)
	}
}

// FuzzParseAge: whatever the input, ParseAge answers a duration of 1 h to
// a hundred years, or an invalid error; and what it accepts is exactly
// digits followed by h, d or w.
func FuzzParseAge(f *testing.F) {
	for _, s := range []string{"30d", "12h", "2w", "0d", "1.5d", "-1h", "9223372036854775807h", "30D", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := agentmem.ParseAge(s)
		if err != nil {
			if agentmem.ErrorCode(err) != agentmem.EInvalid || d != 0 {
				t.Fatalf("ParseAge(%q) = %v, %v; want 0 and an invalid error", s, d, err)
			}
			return
		}
		if d < time.Hour || d > agentmem.MaxAge {
			t.Fatalf("ParseAge(%q) = %v, out of range", s, d)
		}
		unit := s[len(s)-1]
		if strings.Trim(s[:len(s)-1], "0123456789") != "" || !strings.ContainsRune("hdw", rune(unit)) {
			t.Fatalf("ParseAge accepted %q", s)
		}
	})
}

func TestProtectedAndLastUsed(t *testing.T) {
	t.Parallel()
	c := func(v float64) *float64 { return &v }
	tests := []struct {
		m    agentmem.Memory
		want bool
	}{
		{agentmem.Memory{Type: agentmem.TypeNote}, false},
		{agentmem.Memory{Type: agentmem.TypeNote, Pinned: true}, true},
		{agentmem.Memory{Type: agentmem.TypePattern, Confidence: c(0.9)}, true},
		{agentmem.Memory{Type: agentmem.TypePattern, Confidence: c(0.89)}, false},
		{agentmem.Memory{Type: agentmem.TypePattern}, false},
	}
	for _, tt := range tests {
		if got := tt.m.Protected(); got != tt.want {
			t.Errorf("%+v: Protected() = %v, want %v", tt.m, got, tt.want)
		}
	}
	m := agentmem.Memory{CreatedAt: "2026-01-02T00:00:00.000000000Z"}
	if m.LastUsed() != m.CreatedAt {
		t.Errorf("never accessed: got %q", m.LastUsed())
	}
	m.LastAccessedAt = "2026-03-01T00:00:00.000000000Z"
	if m.LastUsed() != m.LastAccessedAt {
		t.Errorf("accessed: got %q", m.LastUsed())
	}
}
