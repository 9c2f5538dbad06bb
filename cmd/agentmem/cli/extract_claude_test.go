package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/prompts"
)

// fakeClaude points extract --llm claude at testdata/fake-claude in mode
// and returns the environment to run the CLI with and the directory
// where the fake records what it was given.
func fakeClaude(t *testing.T, mode string) (map[string]string, string) {
	t.Helper()
	path, err := filepath.Abs("testdata/fake-claude")
	if err != nil {
		t.Fatal(err)
	}
	record := t.TempDir()
	t.Setenv("FAKE_CLAUDE_MODE", mode) // the claude client passes the process environment on
	t.Setenv("FAKE_CLAUDE_RECORD", record)
	return map[string]string{"AGENTMEM_CLAUDE_COMMAND": path}, record
}

const runLog = "=== RUN TestWebhookRetries\n--- PASS: TestWebhookRetries (0.31s)\nThe payment provider retries webhooks 3 times with a 30 s backoff.\nok  \tcheckout/webhooks\t0.412s\n"

// TestExtractWithClaude: --llm claude runs the claude CLI with the shared
// extraction prompt, parses its answer defensively and saves the
// learnings through the real API, which has no LLM of its own.
func TestExtractWithClaude(t *testing.T) {
	a := newAPI(t)
	env, record := fakeClaude(t, "learnings")
	o := opts{url: a.URL, stdin: "\x1b[32m" + runLog + "\x1b[0m", env: env}

	r := run(t, o, extractArgs("--llm", "claude")...)
	want := "agentmem: extract: run run-42: saved 2 learnings, skipped 1 (1 no content)\n"
	if r.code != 0 || r.stdout != "" || r.stderr != want {
		t.Fatalf("got code %d, stdout %q, stderr %q; want 0 and %q", r.code, r.stdout, r.stderr, want)
	}

	// What claude was given: one print-mode turn without tools, the
	// extraction prompt as the system prompt, the cleaned output on stdin.
	args := lines(readFile(t, filepath.Join(record, "args")))
	for _, flag := range []string{"-p", "--output-format", "--max-turns", "--tools", "--system-prompt"} {
		if !slices.Contains(args, flag) {
			t.Errorf("claude args %q lack %s", args, flag)
		}
	}
	if got := readFile(t, filepath.Join(record, "args")); !strings.Contains(got, strings.SplitN(prompts.Must("extraction").Text, "\n", 2)[0]) {
		t.Errorf("the system prompt is not the extraction prompt: %.200q", got)
	}
	stdin := readFile(t, filepath.Join(record, "stdin"))
	if !strings.Contains(stdin, "<run_output>\n=== RUN TestWebhookRetries") || strings.Contains(stdin, "\x1b") {
		t.Errorf("claude's stdin: %q", stdin)
	}
	if got := readFile(t, filepath.Join(record, "max_tokens")); got != "1024" {
		t.Errorf("CLAUDE_CODE_MAX_OUTPUT_TOKENS=%q, want 1024", got)
	}

	saved := a.memories("nori", "checkout")
	if len(saved) != 2 {
		t.Fatalf("saved %d memories, want 2", len(saved))
	}
	byType := map[agentmem.Type]agentmem.Memory{}
	for _, m := range saved {
		byType[m.Type] = m
		if m.Source != agentmem.SourceExtraction || m.RunID != "run-42" {
			t.Errorf("memory %s: source %q, runId %q", m.ID, m.Source, m.RunID)
		}
	}
	if d := byType[agentmem.TypeDecision]; d.Content != "Use idempotency keys on every payment POST" || d.Rationale != "retried webhooks must not charge twice" {
		t.Errorf("decision: %+v", d)
	}

	// A retried run saves nothing twice; --json shows the first answer.
	r = run(t, o, extractArgs("--llm", "claude", "--json")...)
	var res agentmem.ExtractionResult
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("retry: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !res.Replayed || !res.Success || res.Summary != "Added retries to the webhook handler; the suite passes." || len(res.Saved) != 2 {
		t.Errorf("retry answer: %+v", res)
	}
	if got := len(a.memories("nori", "checkout")); got != 2 {
		t.Errorf("after a retry: %d memories, want 2", got)
	}
}

// TestExtractWithClaudeNoLearnings: a run that taught nothing sends an
// empty list, which the API accepts (it records the run).
func TestExtractWithClaudeNoLearnings(t *testing.T) {
	a := newAPI(t)
	env, _ := fakeClaude(t, "none")
	r := run(t, opts{url: a.URL, stdin: runLog, env: env}, extractArgs("--llm", "claude", "--strict", "--json")...)
	var res agentmem.ExtractionResult
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if len(res.Saved) != 0 || res.Success || res.Summary != "The run only read files." {
		t.Errorf("answer: %+v", res)
	}
}

// TestExtractWithClaudeFailures: whatever claude does wrong, extract warns
// once and exits 0 (1 with --strict), and nothing is saved.
func TestExtractWithClaudeFailures(t *testing.T) {
	a := newAPI(t)
	tests := []struct {
		name, mode string
		command    string // AGENTMEM_CLAUDE_COMMAND override
		extra      []string
		want       string
		calls      int // claude runs per extract: 3 for a failure that may pass, 1 for any other
	}{
		{"claude is not installed", "learnings", "/nonexistent/claude", nil, `the claude CLI "/nonexistent/claude" is not installed`, 0},
		{"a refused key", "auth", "", nil, "llm claude: auth (HTTP 401): Invalid API key", 1},
		{"a prompt too long is not retried", "too_long", "", nil, "llm claude: bad_request (HTTP 400): Prompt is too long", 1},
		{"an overloaded API is retried", "overloaded", "", nil, "llm claude: server (HTTP 529): API Error: 529 Overloaded", 3},
		{"an answer without JSON", "garbage", "", nil, "the model's answer holds no learnings JSON", 1},
		{"claude hangs", "hang", "", []string{"--timeout", "500ms"}, "timed out after 500ms", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, record := fakeClaude(t, tt.mode)
			if tt.command != "" {
				env["AGENTMEM_CLAUDE_COMMAND"] = tt.command
			}
			args := extractArgs(append([]string{"--llm", "claude"}, tt.extra...)...)
			r := run(t, opts{url: a.URL, stdin: runLog, env: env}, args...)
			if r.code != 0 || r.stdout != "" || len(lines(r.stderr)) != 1 ||
				!strings.HasPrefix(r.stderr, "agentmem: warning: extract failed, no learnings were saved from this run: ") || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("got code %d, stdout %q, stderr %q; want 0 and one warning with %q", r.code, r.stdout, r.stderr, tt.want)
			}
			calls := 0
			if b, err := os.ReadFile(filepath.Join(record, "calls")); err == nil {
				calls = len(lines(string(b)))
			}
			if calls != tt.calls {
				t.Errorf("claude ran %d times, want %d", calls, tt.calls)
			}
			r = run(t, opts{url: a.URL, stdin: runLog, env: env}, append(args, "--strict")...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("--strict: code %d, stderr %q", r.code, r.stderr)
			}
		})
	}
	if got := a.memories("nori", "checkout"); len(got) != 0 {
		t.Errorf("failed extractions saved %d memories", len(got))
	}
}

func TestFakeClaudeIsExecutable(t *testing.T) {
	t.Parallel()
	info, err := os.Stat("testdata/fake-claude")
	if err != nil || info.Mode().Perm()&0o111 == 0 {
		t.Fatalf("testdata/fake-claude must be executable: %v %v", info, err)
	}
}
