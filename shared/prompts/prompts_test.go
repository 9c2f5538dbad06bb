package prompts_test

import (
	"testing"

	"github.com/agentmem/agentmem/shared/prompts"
)

// TestEveryPromptLoads catches a prompt file without its version line.
func TestEveryPromptLoads(t *testing.T) {
	t.Parallel()
	names := prompts.Names()
	if len(names) == 0 {
		t.Fatal("no prompts embedded")
	}
	for _, name := range names {
		p, err := prompts.Get(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Version < 1 || p.Text == "" {
			t.Errorf("%s: got %+v", name, p)
		}
	}
}

func TestRender(t *testing.T) {
	t.Parallel()
	p := prompts.Prompt{Name: "t", Version: 2, Text: "a {{x}} b {{ y }} c"}
	got, err := p.Render(map[string]string{"x": "1", "y": "{{z}}"})
	if want := "a 1 b {{z}} c"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if _, err := p.Render(map[string]string{"x": "1"}); err == nil {
		t.Error("missing value: no error")
	}
	if _, err := (prompts.Prompt{Text: "a {{x"}).Render(nil); err == nil {
		t.Error("unclosed: no error")
	}
	if _, err := prompts.Get("no-such-prompt"); err == nil {
		t.Error("missing prompt: no error")
	}
	if got := p.ID(); got != "t@v2" {
		t.Errorf("ID: got %q", got)
	}
}
