package claude_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/claude"
)

// newClaude returns a client running testdata/fake-claude in mode.
func newClaude(t *testing.T, mode string, cfg llm.Config) *claude.Client {
	t.Helper()
	t.Setenv("FAKE_CLAUDE_MODE", mode)
	cfg.Provider, cfg.Command = llm.ProviderClaude, "testdata/fake-claude"
	c, err := claude.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestClaudeRunsThePrintModeWithJSONOutput(t *testing.T) {
	rec := t.TempDir()
	t.Setenv("FAKE_CLAUDE_RECORD", rec)
	c := newClaude(t, "ok", llm.Config{Model: "haiku", MaxTokens: 500})
	prompt := strings.Repeat("run output line\n", 20000) // 320 KB: more than one argument may hold
	resp, err := c.Complete(context.Background(), llm.Request{System: "extract learnings", Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"learnings":[]}` || resp.InputTokens != 42 || resp.OutputTokens != 7 || resp.StopReason != "success" || resp.Model != "haiku" {
		t.Errorf("got %+v", resp)
	}
	if c.Name() != "claude:haiku" {
		t.Errorf("name: got %q", c.Name())
	}
	wantArgs := strings.Join([]string{"-p", "--output-format", "json", "--max-turns", "1", "--tools", "", "--safe-mode", "--no-session-persistence",
		"--model", "haiku", "--system-prompt", "extract learnings"}, "\n") + "\n"
	if got := readFile(t, filepath.Join(rec, "args")); got != wantArgs {
		t.Errorf("args:\ngot  %q\nwant %q", got, wantArgs)
	}
	if got := readFile(t, filepath.Join(rec, "stdin")); got != prompt {
		t.Errorf("stdin: got %d bytes, want the %d-byte prompt", len(got), len(prompt))
	}
	if got := readFile(t, filepath.Join(rec, "max_tokens")); got != "500" {
		t.Errorf("CLAUDE_CODE_MAX_OUTPUT_TOKENS: got %q, want 500", got)
	}
	// The CLI calls the API once (llm.Retry is the one retry policy) and
	// loads no CLAUDE.md, auto-memory or session of the user.
	wantEnv := "CLAUDE_CODE_DISABLE_AUTO_MEMORY=1\nCLAUDE_CODE_DISABLE_CLAUDE_MDS=1\nCLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1\nCLAUDE_CODE_MAX_OUTPUT_TOKENS=500\nCLAUDE_CODE_MAX_RETRIES=0\n"
	if got := readFile(t, filepath.Join(rec, "env")); got != wantEnv {
		t.Errorf("environment:\ngot  %q\nwant %q", got, wantEnv)
	}
	wd, _ := os.Getwd()
	dir := strings.TrimSpace(readFile(t, filepath.Join(rec, "pwd")))
	if dir == wd || dir == os.TempDir() {
		t.Errorf("ran in %s; want a directory of its own", dir)
	}
	if got := readFile(t, filepath.Join(rec, "ls")); got != "" {
		t.Errorf("the directory held %q; want it empty", got)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the directory %s was left behind", dir)
	}
}

// TestClaudeOverridesTheUsersRetrySetting checks that a
// CLAUDE_CODE_MAX_RETRIES in agentmem's environment does not reach the CLI.
func TestClaudeOverridesTheUsersRetrySetting(t *testing.T) {
	rec := t.TempDir()
	t.Setenv("FAKE_CLAUDE_RECORD", rec)
	t.Setenv("CLAUDE_CODE_MAX_RETRIES", "10")
	if _, err := newClaude(t, "ok", llm.Config{}).Complete(context.Background(), llm.Request{Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if env := readFile(t, filepath.Join(rec, "env")); !strings.Contains(env, "CLAUDE_CODE_MAX_RETRIES=0\n") || strings.Contains(env, "CLAUDE_CODE_MAX_RETRIES=10") {
		t.Errorf("environment %q; want CLAUDE_CODE_MAX_RETRIES=0 only", env)
	}
}

func TestClaudeWithoutModelOrSystemPassesNeither(t *testing.T) {
	rec := t.TempDir()
	t.Setenv("FAKE_CLAUDE_RECORD", rec)
	c := newClaude(t, "ok", llm.Config{})
	if _, err := c.Complete(context.Background(), llm.Request{Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	args := readFile(t, filepath.Join(rec, "args"))
	if strings.Contains(args, "--model") || strings.Contains(args, "--system-prompt") {
		t.Errorf("args %q", args)
	}
	if got := readFile(t, filepath.Join(rec, "max_tokens")); got != "1024" {
		t.Errorf("default token cap: got %q, want 1024", got)
	}
	if c.Name() != "claude" {
		t.Errorf("name: got %q", c.Name())
	}
}

func TestClaudeFailuresAreClassified(t *testing.T) {
	tests := []struct {
		mode      string
		kind      llm.Kind
		status    int
		temporary bool
	}{
		{"overloaded", llm.KindServer, 529, true},
		{"server", llm.KindServer, 500, true},
		{"rate_limited", llm.KindThrottled, 429, true},
		{"auth", llm.KindAuth, 401, false},
		{"too_long", llm.KindBadRequest, 400, false},
		{"misleading", llm.KindAuth, 403, false},
		{"connection", llm.KindServer, 0, true},
		{"not_logged_in", llm.KindNotConfigured, 0, false},
		{"max_turns", llm.KindMalformed, 0, false},
		{"empty", llm.KindEmpty, 0, false},
		{"garbage", llm.KindMalformed, 0, false},
		{"crash", llm.KindServer, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			_, err := newClaude(t, tt.mode, llm.Config{}).Complete(context.Background(), llm.Request{Prompt: "x"})
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *llm.Error", err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || e.Provider != llm.ProviderClaude || e.Temporary() != tt.temporary {
				t.Errorf("got kind %q status %d temporary %v (%v), want %q %d %v", e.Kind, e.Status, e.Temporary(), err, tt.kind, tt.status, tt.temporary)
			}
		})
	}
}

func TestClaudeTimeoutKillsTheCLI(t *testing.T) {
	c := newClaude(t, "hang", llm.Config{Timeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := c.Complete(context.Background(), llm.Request{Prompt: "x"})
	if got := llm.KindOf(err); got != llm.KindTimeout {
		t.Fatalf("got %v (kind %q), want a timeout", err, got)
	}
	// The fake sleeps 30 s; returning well before means it was killed.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("returned after %v: the CLI was not killed at the deadline", d)
	}
}

func TestNewClaudeNeedsTheCLI(t *testing.T) {
	t.Parallel()
	if _, err := claude.New(llm.Config{Command: "no-such-claude-cli"}); err == nil {
		t.Error("missing CLI: no error")
	}
	if _, err := claude.New(llm.Config{Command: "testdata"}); err == nil {
		t.Error("a directory: no error")
	}
}
