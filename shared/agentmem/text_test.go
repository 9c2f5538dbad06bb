package agentmem_test

import (
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func TestNormalizeLineBreaks(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"a\nb", "a\nb"},
		{"a\r\nb", "a\nb"},
		{"a\rb", "a\nb"},
		{"a\r\r\nb", "a\n\nb"},
		{"a\u0085b\vc\fd", "a\nb\nc\nd"},
		{"a\u2028b\u2029c", "a\nb\nc"},
		{"no breaks", "no breaks"},
	}
	for _, tt := range tests {
		if got := agentmem.NormalizeLineBreaks(tt.in); got != tt.want {
			t.Errorf("NormalizeLineBreaks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWrittenTextHasOneKindOfLineBreak checks the write-time normalisation
// of every stored text field, and that a single-line field refuses every
// kind of line break, not only "\n".
func TestWrittenTextHasOneKindOfLineBreak(t *testing.T) {
	t.Parallel()
	m := agentmem.MemoryInput{ProjectID: "p", Type: agentmem.TypePattern, Content: " a\rb ", Trigger: "c\u2028d", Context: "e\r\nf", Solution: "g\u0085h"}
	m.Normalize()
	if m.Content != "a\nb" || m.Trigger != "c\nd" || m.Context != "e\nf" || m.Solution != "g\nh" {
		t.Errorf("memory after Normalize: %+v", m)
	}
	d := agentmem.MemoryInput{ProjectID: "p", Type: agentmem.TypeDecision, Content: "x", Rationale: "y\vz"}
	d.Normalize()
	if d.Rationale != "y\nz" {
		t.Errorf("rationale %q", d.Rationale)
	}
	p := agentmem.PersonalityInput{DisplayName: "Nori", Prompt: "one\u2029two", Voice: "v\rw", Traits: []string{"t\fu"}}
	p.Normalize()
	if p.Prompt != "one\ntwo" || p.Voice != "v\nw" || p.Traits[0] != "t\nu" {
		t.Errorf("personality after Normalize: %+v", p)
	}
	for _, name := range []string{"No\u2028ri", "No\rri", "No\u0085ri"} {
		p := agentmem.PersonalityInput{DisplayName: name}
		p.Normalize()
		if err := p.Validate(); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("displayName %q: got %v, want invalid (one line)", name, err)
		}
	}
	in := agentmem.DailyInput{ProjectID: "p", Title: "run\u2028# injected", Content: "x\ry"}
	in.Normalize()
	if in.Content != "x\ny" || in.Title != "run\n# injected" {
		t.Errorf("daily after Normalize: %+v", in)
	}
}
