package agentmem_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// validators are the name rule's entry points, with their field names
// and limits.
var validators = []struct {
	field    string
	max      int
	validate func(string) error
}{
	{"agentName", agentmem.MaxAgentNameLen, agentmem.ValidateAgentName},
	{"projectId", agentmem.MaxProjectIDLen, agentmem.ValidateProjectID},
	{"runId", agentmem.MaxRunIDLen, agentmem.ValidateRunID},
	{"sessionId", agentmem.MaxSessionIDLen, agentmem.ValidateSessionID},
	{"key", agentmem.MaxKeyLen, agentmem.ValidateKey},
}

func TestNameRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// wantMsg is a part of the error's message; "" when valid.
		wantMsg string
	}{
		{".", "dot segment"},
		{"..", "dot segment"},
		{"", "is required"},
		{"a#b", "may only contain"},
		{"a/b", "may only contain"},
		{"./", "may only contain"},
		{"%2e", "may only contain"},
		{"...", ""},
		{"....", ""},
		{"v1.2", ""},
		{"a..b", ""},
		{".hidden", ""},
		{".a", ""},
		{"a.", ""},
		{"..a", ""},
		{"a..", ""},
		{"._", ""},
		{"-.", ""},
		{"a", ""},
		{"_", ""},
		{"checkout-service", ""},
	}
	for _, v := range validators {
		for _, tt := range tests {
			err := v.validate(tt.name)
			if tt.wantMsg == "" {
				if err != nil {
					t.Errorf("%s %q: got %v, want valid", v.field, tt.name, err)
				}
				continue
			}
			if got, want := agentmem.ErrorCode(err), agentmem.EInvalid; got != want {
				t.Errorf("%s %q: code %q (%v), want %q", v.field, tt.name, got, err, want)
				continue
			}
			msg := agentmem.ErrorMessage(err)
			if !strings.Contains(msg, tt.wantMsg) || !strings.Contains(msg, v.field) {
				t.Errorf("%s %q: message %q, want it to name the field and say %q", v.field, tt.name, msg, tt.wantMsg)
			}
			if tt.wantMsg == "dot segment" && !strings.Contains(msg, "normalise") {
				t.Errorf("%s %q: message %q, want it to say why (clients normalise paths)", v.field, tt.name, msg)
			}
		}
		if err := v.validate(strings.Repeat(".", v.max)); err != nil {
			t.Errorf("%s of %d dots: %v, want valid", v.field, v.max, err)
		}
		if err := v.validate(strings.Repeat("a", v.max+1)); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("%s of %d characters: %v, want invalid", v.field, v.max+1, err)
		}
	}
}

func TestIsDotSegment(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s    string
		want bool
	}{{".", true}, {"..", true}, {"", false}, {"...", false}, {".a", false}, {"a.", false}} {
		if got := agentmem.IsDotSegment(tt.s); got != tt.want {
			t.Errorf("IsDotSegment(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestNamePatternIsTheRule: NamePattern accepts exactly what the
// validators accept, on every string of up to 4 characters over an
// alphabet of name and other characters, and around the length limits.
func TestNamePatternIsTheRule(t *testing.T) {
	t.Parallel()
	alphabet := []string{".", "a", "-", "_", "Z", "9", "#", "/", " ", "é"}
	samples := []string{""}
	for n, last := 0, []string{""}; n < 4; n++ {
		var next []string
		for _, s := range last {
			for _, c := range alphabet {
				next = append(next, s+c)
			}
		}
		samples = append(samples, next...)
		last = next
	}
	for _, v := range validators {
		re := regexp.MustCompile(agentmem.NamePattern(v.max))
		list := append(samples, strings.Repeat(".", v.max), strings.Repeat(".", v.max+1),
			strings.Repeat("x", v.max), strings.Repeat("x", v.max+1), "."+strings.Repeat("x", v.max-1))
		for _, s := range list {
			if got, want := re.MatchString(s), v.validate(s) == nil; got != want {
				t.Errorf("%s: NamePattern(%d) on %q matches %v, the validator accepts %v", v.field, v.max, s, got, want)
			}
		}
	}
}
