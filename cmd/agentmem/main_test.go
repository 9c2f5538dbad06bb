package main_test

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/agentmem/agentmem/shared/markdown"
)

var binary string

func TestMain(m *testing.M) { os.Exit(apitest.MainWithBinary(m, ".", &binary)) }

type result struct {
	stdout, stderr string
	code           int
}

// agentmem runs the built binary with a clean environment plus env.
func agentmem(t *testing.T, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AGENTMEM_AUTH=none"}, env...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{stdout.String(), stderr.String(), code}
}

func TestBinaryIsStatic(t *testing.T) {
	t.Parallel()
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	cgo := ""
	for _, s := range info.Settings {
		if s.Key == "CGO_ENABLED" {
			cgo = s.Value
		}
	}
	if cgo != "0" {
		t.Errorf("CGO_ENABLED=%q, want 0", cgo)
	}
	if f, err := elf.Open(binary); err == nil {
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("the binary needs a dynamic loader")
			}
		}
	}
}

// TestBinaryWithTheAPIStopped: the pipeline commands warn once on stderr
// and exit 0, or exit 1 with --strict; nothing is written.
func TestBinaryWithTheAPIStopped(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	stopped := srv.URL
	srv.Close()
	ws := t.TempDir()
	role := "# Coder\n"
	if err := os.WriteFile(filepath.Join(ws, "CLAUDE.md"), []byte(role), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"AGENTMEM_API_URL=" + stopped}
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"inject", []string{"inject", "--agent", "nori", "--project", "checkout", "--workspace", ws, "--git"}, ""},
		{"extract", []string{"extract", "--agent", "nori", "--project", "checkout", "--run-id", "run-1"}, "the run's output\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := agentmem(t, strings.NewReader(tt.stdin), env, tt.args...)
			want := "agentmem: warning: " + tt.name + " failed, "
			if r.code != 0 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, want) || !strings.Contains(r.stderr, "cannot reach "+stopped) {
				t.Errorf("got code %d, stdout %q, stderr %q; want 0 and one warning line", r.code, r.stdout, r.stderr)
			}
			r = agentmem(t, strings.NewReader(tt.stdin), env, append(tt.args, "--strict")...)
			if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "agentmem: "+tt.name+": ") {
				t.Errorf("--strict: got code %d, stderr %q; want 1 and one error line", r.code, r.stderr)
			}
		})
	}
	entries, _ := os.ReadDir(ws)
	if b, _ := os.ReadFile(filepath.Join(ws, "CLAUDE.md")); string(b) != role || len(entries) != 1 {
		t.Errorf("the workspace changed: %q, %d entries", b, len(entries))
	}
}

// TestBinaryAgainstTheAPI runs the binary against the real handlers:
// inject writes the workspace, and clear refuses without a terminal.
func TestBinaryAgainstTheAPI(t *testing.T) {
	t.Parallel()
	srv := apitest.New(t, nil)
	store := srv.Store
	env := []string{"AGENTMEM_API_URL=" + srv.URL}

	if r := agentmem(t, nil, env, "personality", "set", "nori", "--display-name", "Nori"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := agentmem(t, nil, env, "add", "checkout", "nori", "finding", "Webhooks retry 3 times"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	ws := t.TempDir()
	if r := agentmem(t, nil, env, "inject", "--agent", "nori", "--project", "checkout", "--workspace", ws); r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Fatalf("inject: %d %q", r.code, r.stderr)
	}
	p, err := store.GetPersonality(context.Background(), "nori")
	if err != nil {
		t.Fatal(err)
	}
	page, err := store.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: "nori", ProjectID: "checkout"})
	if err != nil {
		t.Fatal(err)
	}
	wantClaude := markdown.PersonalitySection(p) + markdown.MemoryImportBegin + "\n" + markdown.MemoryImport + "\n" + markdown.MemoryImportEnd + "\n"
	if b, _ := os.ReadFile(filepath.Join(ws, "CLAUDE.md")); string(b) != wantClaude {
		t.Errorf("CLAUDE.md:\n%s\nwant\n%s", b, wantClaude)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".claude/memory/MEMORY.md")); string(b) != markdown.MemoryFile("nori", "checkout", page.Memories) {
		t.Errorf("MEMORY.md:\n%s", b)
	}

	// clear with standard input a pipe (no terminal) and without --yes.
	r := agentmem(t, strings.NewReader("y\n"), env, "clear", "checkout", "nori")
	if r.code != 4 || !strings.Contains(r.stderr, "refusing to delete every memory of agent nori in project checkout without confirmation") {
		t.Errorf("clear without a terminal: code %d, stderr %q", r.code, r.stderr)
	}
	if page, _ := store.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: "nori", ProjectID: "checkout"}); len(page.Memories) != 1 {
		t.Errorf("clear deleted memories without confirmation")
	}
	if r := agentmem(t, nil, env, "clear", "checkout", "nori", "--yes"); r.code != 0 {
		t.Errorf("clear --yes: %d %q", r.code, r.stderr)
	}
	if r := agentmem(t, nil, env, "rm", "--agent", "nori", page.Memories[0].ID); r.code != 3 {
		t.Errorf("rm a cleared memory: code %d, want 3", r.code)
	}
	if r := agentmem(t, nil, nil, "help"); r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") {
		t.Errorf("help: %d", r.code)
	}
}

// TestBinaryThreeTiersSearchAndDreams runs the built binary through a
// command of each group added for the three tiers, search and lifecycle,
// against the real API whose model is the real OpenAI-compatible client
// talking to a chat completions stand-in. The server's clock is real, so
// days come from the records written, never from "today".
func TestBinaryThreeTiersSearchAndDreams(t *testing.T) {
	t.Parallel()
	chat := llmtest.NewChat(t, llmtest.Fixed(`{"operations": [{"op": "add", "type": "finding", "content": "The payment provider retries webhooks 3 times", "cite": ["r1"]}], "dream": "The provider retries webhooks."}`))
	srv := apitest.Start(t, apitest.Options{LLM: chat.Client(t, 5*time.Second)})
	claude, err := filepath.Abs("cli/testdata/fake-claude")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"AGENTMEM_API_URL=" + srv.URL, "AGENTMEM_AGENT=nori", "AGENTMEM_PROJECT=checkout", "AGENTMEM_SESSION_ID=run-42"}
	fixture := filepath.Join("..", "..", "shared", "transcript", "testdata", "session.jsonl")

	r := agentmem(t, nil, env, "daily", "add", "checkout", "nori", "--title", "run-41", "The payment provider retries webhooks 3 times.", "--json")
	var rec struct{ At string }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rec) != nil || len(rec.At) < 10 {
		t.Fatalf("daily add: %d %q %q", r.code, r.stdout, r.stderr)
	}
	day := rec.At[:10]
	r = agentmem(t, nil, env, "context", "flush", "--transcript", fixture, "--print-summary")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "## Trimmed Context (") || strings.Contains(r.stdout, "run-41") || !strings.Contains(r.stderr, "appended \"Trimmed Context (") {
		t.Errorf("context flush: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := agentmem(t, nil, env, "daily", "show", "checkout", "nori", "--date", day); r.code != 0 || !strings.Contains(r.stdout, "## run-41 (") || !strings.Contains(r.stdout, "Request: Fix the webhook retries") {
		t.Errorf("daily show: %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	if r := agentmem(t, nil, env, "dream", "run", "checkout", "nori"); r.code != 0 || !strings.HasPrefix(r.stdout, "dreamed nori in checkout: 1 memory added") {
		t.Errorf("dream run: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := agentmem(t, nil, env, "dream", "show", "checkout", "nori"); r.code != 0 || !strings.HasPrefix(r.stdout, "# Dream Diary: ") {
		t.Errorf("dream show: %d %q %q", r.code, r.stdout, r.stderr)
	}

	value := "JWT with refresh tokens\n"
	if r := agentmem(t, strings.NewReader(value), env, "session-context", "set", "auth-pattern"); r.code != 0 {
		t.Errorf("session-context set: %d %q", r.code, r.stderr)
	}
	if r := agentmem(t, nil, env, "session-context", "get", "auth-pattern"); r.code != 0 || r.stdout != value {
		t.Errorf("session-context get: %d %q %q", r.code, r.stdout, r.stderr)
	}

	r = agentmem(t, strings.NewReader("The run fixed the webhook handler.\n"), append(env, "AGENTMEM_CLAUDE_COMMAND="+claude, "FAKE_CLAUDE_MODE=learnings"),
		"extract", "--llm", "claude", "--run-id", "run-42")
	if r.code != 0 || r.stderr != "agentmem: extract: run run-42: saved 2 learnings, skipped 1 (1 no content)\n" {
		t.Errorf("extract --llm claude: %d %q", r.code, r.stderr)
	}

	if r := agentmem(t, nil, env, "search", "checkout", "nori", "webhook", "retries"); r.code != 0 || !strings.HasPrefix(r.stdout, "SCORE") || !strings.Contains(r.stdout, "The payment provider retries webhooks 3 times") {
		t.Errorf("search: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := agentmem(t, nil, env, "stats"); r.code != 0 || !strings.HasPrefix(r.stdout, "scopes:    1\n") {
		t.Errorf("stats: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := agentmem(t, strings.NewReader("y\n"), env, "forget", "checkout", "nori", "--older-than", "30d"); r.code != 4 {
		t.Errorf("forget without a terminal: code %d, want 4", r.code)
	}
	r = agentmem(t, nil, nil, "help")
	for _, group := range []string{"Pipeline", "Memories", "Search, patterns and lifecycle", "Daily log, session context and Deep Dream", "Personalities"} {
		if !strings.Contains(r.stdout, "\n"+group) {
			t.Errorf("help lacks the group %q", group)
		}
	}
}

// TestBinaryVersion: --version and version print the same line; a plain
// build reports the commit Go recorded (or says it is unknown), and a
// release build's -ldflags -X main.version, main.commit and main.date
// reach it.
func TestBinaryVersion(t *testing.T) {
	t.Parallel()
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	wantCommit := "commit unknown"
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			wantCommit = "commit " + s.Value
		}
	}
	flag, word := agentmem(t, nil, nil, "--version"), agentmem(t, nil, nil, "version")
	if flag.code != 0 || flag.stdout != word.stdout || !strings.HasPrefix(flag.stdout, "agentmem ") || !strings.Contains(flag.stdout, wantCommit) || flag.stderr != "" {
		t.Errorf("--version: code %d, %q; version: %q; want the same line with %q", flag.code, flag.stdout, word.stdout, wantCommit)
	}

	release := filepath.Join(t.TempDir(), "agentmem")
	build := exec.Command("go", "build", "-trimpath", "-o", release,
		"-ldflags", "-X main.version=v1.2.0 -X main.commit=0123456789abcdef -X main.date=2026-03-02T08:00:00Z", ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(release, "--version").Output()
	if want := "agentmem v1.2.0 (commit 0123456789abcdef, built 2026-03-02T08:00:00Z, go"; err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("release build: %q, %v; want %q...", out, err, want)
	}
}
