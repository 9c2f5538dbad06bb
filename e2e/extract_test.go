package e2e_test

import (
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/e2e/anthropictest"
	"github.com/agentmem/agentmem/shared/agentmem"
)

// extractionAnswer is the model's answer to the extraction prompt.
const extractionAnswer = "```json\n" + `{"success": true, "summary": "E2E-SUMMARY Added webhook retries.",
 "learnings": [
  {"type": "finding", "content": "E2E-FINDING The payment provider retries webhooks 3 times"},
  {"type": "decision", "content": "E2E-DECISION Use idempotency keys on payment POSTs", "rationale": "retries must not charge twice"}
 ]}` + "\n```"

// plantUserContext writes what the user's own Claude Code set-up would add
// to any call: ~/.claude/CLAUDE.md, an auto-memory for every directory the
// CLI could run in, a CLAUDE.md in the temporary directory's root and a
// SessionStart hook.
func (e *env) plantUserContext() {
	e.t.Helper()
	write(e.t, filepath.Join(e.home, ".claude", "CLAUDE.md"), "E2E-USER-CLAUDE-MD\n")
	write(e.t, filepath.Join(e.root, "tmp", "CLAUDE.md"), "E2E-TMP-CLAUDE-MD\n")
	write(e.t, filepath.Join(e.home, ".claude", "settings.json"),
		`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo E2E-USER-HOOK"}]}]}}`)
	for _, dir := range []string{e.workspace, filepath.Join(e.root, "tmp")} {
		project := strings.ReplaceAll(dir, "/", "-")
		write(e.t, filepath.Join(e.home, ".claude", "projects", project, "memory", "MEMORY.md"), "E2E-AUTO-MEMORY\n")
	}
}

// TestExtractWithTheRealClaude: agentmem extract --llm claude runs the real
// CLI once, isolated from the user's CLAUDE.md files, auto-memory and
// hooks, and saves the learnings it answers.
func TestExtractWithTheRealClaude(t *testing.T) {
	t.Parallel()
	e := newEnv(t, anthropictest.Say(extractionAnswer))
	e.plantUserContext()
	e.extra = append(e.extra, "AGENTMEM_CLAUDE_COMMAND="+claudeBin, "CLAUDE_CODE_MAX_RETRIES=9")
	write(t, filepath.Join(e.root, "run.log"), "=== RUN TestWebhookRetries\nE2E-RUN-OUTPUT the provider retried 3 times\n--- PASS\n")

	r := e.agentmem("extract", "--llm", "claude", "--run-id", "run-e2e", "--input", filepath.Join(e.root, "run.log"), "--strict")
	if want := "saved 2 learnings"; !strings.Contains(r.stderr, want) {
		t.Errorf("extract said %q, want %q", r.stderr, want)
	}
	ms := e.model.Messages()
	if len(ms) != 1 {
		t.Fatalf("the CLI sent %d messages requests, want 1", len(ms))
	}
	text := ms[0].Text()
	if !strings.Contains(text, "E2E-RUN-OUTPUT") || !strings.Contains(ms[0].SystemText(), "learnings") {
		t.Errorf("the request lacks the run output or the extraction prompt:\n%.2000s", text)
	}
	for _, leak := range []string{"E2E-USER-CLAUDE-MD", "E2E-TMP-CLAUDE-MD", "E2E-AUTO-MEMORY", "E2E-USER-HOOK"} {
		if strings.Contains(text, leak) {
			t.Errorf("the extraction call carried the user's %s", leak)
		}
	}
	if len(ms[0].Tools) != 0 {
		t.Errorf("the extraction call offered %d tools, want none", len(ms[0].Tools))
	}
	var got []string
	for _, m := range e.memories() {
		if m.Source != agentmem.SourceExtraction || m.RunID != "run-e2e" {
			t.Errorf("memory %+v: want source extraction, run run-e2e", m)
		}
		got = append(got, string(m.Type)+": "+m.Content)
	}
	slices.Sort(got)
	want := []string{"decision: E2E-DECISION Use idempotency keys on payment POSTs", "finding: E2E-FINDING The payment provider retries webhooks 3 times"}
	if !slices.Equal(got, want) {
		t.Errorf("saved %q, want %q", got, want)
	}
}

// TestExtractWithTheRealClaudeFailures: an API error reaches agentmem as
// the CLI's api_error_status, at once: a 4xx is tried once, an overloaded
// API three times (the CLI's own retries are off).
func TestExtractWithTheRealClaudeFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reply    anthropictest.Reply
		want     string
		requests int
	}{
		{"a refused key", anthropictest.Reply{Status: http.StatusUnauthorized, ErrorType: "authentication_error", Text: "invalid x-api-key"}, "auth (HTTP 401)", 1},
		{"a prompt too long", anthropictest.Reply{Status: http.StatusBadRequest, ErrorType: "invalid_request_error", Text: "prompt is too long: 250000 tokens > 200000 maximum"}, "bad_request (HTTP 400)", 1},
		{"an overloaded API", anthropictest.Reply{Status: 529, ErrorType: "overloaded_error", Text: "Overloaded"}, "server (HTTP 529)", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(*anthropictest.MessagesRequest) anthropictest.Reply { return tt.reply })
			e.extra = append(e.extra, "AGENTMEM_CLAUDE_COMMAND="+claudeBin)
			write(t, filepath.Join(e.root, "run.log"), "E2E-RUN-OUTPUT\n")
			r := e.exec(agentmemBin, "extract", "--llm", "claude", "--run-id", "run-e2e", "--input", filepath.Join(e.root, "run.log"), "--strict")
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("extract: exit %d, stderr %q; want 1 and %q", r.code, r.stderr, tt.want)
			}
			if got := len(e.model.Messages()); got != tt.requests {
				t.Errorf("%d messages requests, want %d", got, tt.requests)
			}
			if got := e.memories(); len(got) != 0 {
				t.Errorf("a failed extraction saved %d memories", len(got))
			}
		})
	}
}
