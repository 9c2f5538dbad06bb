package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
)

// listed is list --json's answer.
type listed struct {
	Memories   []agentmem.Memory `json:"memories"`
	More       bool              `json:"more"`
	NextCursor string            `json:"nextCursor"`
}

func decodeList(t *testing.T, r result) listed {
	t.Helper()
	var l listed
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &l) != nil {
		t.Fatalf("code %d, stderr %q, stdout not JSON:\n%.500s", r.code, r.stderr, r.stdout)
	}
	return l
}

// TestListScripting: list --json pages with nextCursor and --cursor, --all
// streams every page as one JSON document, --output json is --json.
func TestListScripting(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	const total = 120 // three pages of the API's 50
	for i := range total {
		a.memory("nori", "checkout", agentmem.MemoryInput{Content: fmt.Sprintf("memory %03d", i)})
	}
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}}

	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		args := []string{"list", "--limit", "70", "--json"}
		if cursor != "" {
			args = append(args, "--cursor", cursor)
		}
		l := decodeList(t, run(t, o, args...))
		pages++
		for _, m := range l.Memories {
			if seen[m.ID] {
				t.Fatalf("page %d repeats %s", pages, m.ID)
			}
			seen[m.ID] = true
		}
		if l.More != (l.NextCursor != "") {
			t.Errorf("page %d: more %v with nextCursor %q", pages, l.More, l.NextCursor)
		}
		if !l.More {
			break
		}
		cursor = l.NextCursor
	}
	if len(seen) != total || pages != 2 {
		t.Errorf("--limit 70 pages: %d memories in %d pages, want %d in 2", len(seen), pages, total)
	}

	all := decodeList(t, run(t, o, "list", "--all", "--output", "json"))
	if len(all.Memories) != total || all.More || all.NextCursor != "" || all.Memories[0].Content != "memory 119" || all.Memories[total-1].Content != "memory 000" {
		t.Errorf("--all --output json: %d memories, more %v, first %q", len(all.Memories), all.More, all.Memories[0].Content)
	}
	if r := run(t, o, "list", "--all"); r.code != 0 || len(lines(r.stdout)) != total+1 || r.stderr != "" {
		t.Errorf("--all as a table: code %d, %d lines, stderr %q", r.code, len(lines(r.stdout)), r.stderr)
	}
	// An empty scope is an empty list, as JSON too.
	empty := decodeList(t, run(t, opts{url: a.URL}, "list", "--agent", "nori", "--project", "empty", "--json"))
	if empty.Memories == nil || len(empty.Memories) != 0 || empty.More {
		t.Errorf("empty scope: %+v", empty)
	}
	// A cursor that is not one is the API's 400: a failure, not "not found".
	if r := run(t, o, "list", "--cursor", "!!", "--json"); r.code != cli.ExitFailure || !strings.Contains(r.stderr, "cursor") {
		t.Errorf("bad cursor: code %d, stderr %q", r.code, r.stderr)
	}
}

// TestJSONListsEndWithANewline: every --json answer is one JSON document
// followed by a newline.
func TestJSONListsEndWithANewline(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	a.memory("nori", "checkout", agentmem.MemoryInput{Content: "webhooks retry"})
	a.personality("nori", agentmem.PersonalityInput{DisplayName: "Nori"})
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout", "AGENTMEM_SESSION_ID": "run-1"}}
	if r := run(t, o, "session-context", "set", "k", "v"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := run(t, o, "daily", "add", "a record"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, args := range [][]string{
		{"list", "--json"}, {"search", "webhooks", "--json"}, {"patterns", "--task", "x", "--json"},
		{"stats", "--json"}, {"stats", "--agent", "nori", "--project", "checkout", "--json"},
		{"dream", "ls", "--json"}, {"personality", "ls", "--json"}, {"personality", "get", "--json"},
		{"session-context", "ls", "--json"}, {"session-context", "get", "k", "--json"}, {"show", "--json"},
		{"daily", "show", "--json"},
	} {
		r := run(t, o, args...)
		var v any
		if r.code != 0 || !strings.HasSuffix(r.stdout, "}\n") || json.Unmarshal([]byte(r.stdout), &v) != nil {
			t.Errorf("%v: code %d, stderr %q, stdout %q", args, r.code, r.stderr, r.stdout)
		}
	}
	for _, args := range [][]string{{"show"}, {"daily", "show"}, {"session-context", "get", "k"}} {
		if r := run(t, o, args...); r.code != 0 || !strings.HasSuffix(r.stdout, "\n") {
			t.Errorf("%v: code %d, stdout %q does not end with a newline", args, r.code, r.stdout)
		}
	}
}

// TestOtherListsScripting: dream ls, stats and session-context ls page
// with --cursor and say nextCursor in JSON.
func TestOtherListsScripting(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	for i := range 5 {
		a.memory(fmt.Sprintf("agent-%d", i), "checkout", agentmem.MemoryInput{Content: "x"})
	}
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_PROJECT": "checkout", "AGENTMEM_SESSION_ID": "run-1"}}
	for i := range 5 {
		if r := run(t, o, "session-context", "set", fmt.Sprintf("key-%d", i), "v"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	type page struct {
		Scopes     []json.RawMessage `json:"scopes"`
		Keys       []json.RawMessage `json:"keys"`
		More       bool              `json:"more"`
		NextCursor string            `json:"nextCursor"`
	}
	for _, tt := range []struct {
		name string
		args []string
		n    func(page) int
	}{
		{"stats", []string{"stats", "--limit", "2", "--json"}, func(p page) int { return len(p.Scopes) }},
		{"session-context ls", []string{"session-context", "ls", "--limit", "2", "--json"}, func(p page) int { return len(p.Keys) }},
	} {
		total, cursor := 0, ""
		for range 10 {
			args := tt.args
			if cursor != "" {
				args = append(append([]string{}, args...), "--cursor", cursor)
			}
			r := run(t, o, args...)
			var p page
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &p) != nil {
				t.Fatalf("%s: code %d, stderr %q, stdout %q", tt.name, r.code, r.stderr, r.stdout)
			}
			total += tt.n(p)
			if !p.More {
				break
			}
			cursor = p.NextCursor
		}
		if total != 5 {
			t.Errorf("%s: %d items over the pages, want 5", tt.name, total)
		}
	}
	r := run(t, o, "session-context", "ls")
	if r.code != 0 || len(lines(r.stdout)) != 6 || !strings.HasPrefix(r.stdout, "KEY ") || !strings.Contains(r.stdout, "key-4  1 ") {
		t.Errorf("session-context ls: code %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, o, "session-context", "ls", "--session", "run-none"); r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "has no live keys") {
		t.Errorf("an empty session: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestAddPattern: a pattern with its fields, found by patterns.
func TestAddPattern(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}}
	r := run(t, o, "add", "pattern", "Deduplicate webhook deliveries", "--trigger", "duplicate webhook deliveries",
		"--context", "payment webhooks", "--solution", "conditional put on the event id", "--confidence", "0.85", "--json")
	var m agentmem.Memory
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &m) != nil {
		t.Fatalf("add pattern: code %d, stderr %q", r.code, r.stderr)
	}
	if m.Type != agentmem.TypePattern || m.Trigger != "duplicate webhook deliveries" || m.Context != "payment webhooks" ||
		m.Solution != "conditional put on the event id" || m.Confidence == nil || *m.Confidence != 0.85 {
		t.Errorf("stored %+v", m)
	}
	if r := run(t, o, "patterns", "--task", "handle duplicate webhook deliveries", "--json"); r.code != 0 || !strings.Contains(r.stdout, m.ID) {
		t.Errorf("patterns does not suggest it: %d %s %s", r.code, r.stdout, r.stderr)
	}
	// Without --confidence the server's default applies.
	if r := run(t, o, "add", "checkout", "nori", "pattern", "Retry with jitter", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"confidence": 0.5`) {
		t.Errorf("default confidence: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// TestWrongAPIURL: a base URL that reaches something other than the API
// as meant fails with exit 1 and says what to fix; only a real missing
// thing is exit 3.
func TestWrongAPIURL(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	notAgentmem := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/memories/") {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<html><body>It works!</body></html>")
	}))
	t.Cleanup(notAgentmem.Close)
	tests := []struct {
		name, url string
		args      []string
		code      int
		want      string
	}{
		{"a base URL ending in /api", a.URL + "/api", []string{"list", "checkout", "nori"}, cli.ExitFailure, "without /api (try " + a.URL + ")"},
		{"a base URL ending in /api/", a.URL + "/api/", []string{"rm", "--agent", "nori", "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"}, cli.ExitFailure, "without /api"},
		{"another path prefix", a.URL + "/prod", []string{"show", "checkout", "nori"}, cli.ExitFailure, "the API has no such route"},
		{"a server that is not agentmem, 404", notAgentmem.URL, []string{"rm", "--agent", "nori", "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"}, cli.ExitFailure, "answered 404 without an agentmem error: is it the agentmem API?"},
		{"a server that is not agentmem, 200", notAgentmem.URL, []string{"list", "checkout", "nori"}, cli.ExitFailure, "the answer is not agentmem's JSON: is " + notAgentmem.URL + " the agentmem API?"},
		{"a real missing memory", a.URL, []string{"rm", "--agent", "nori", "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"}, cli.ExitNotFound, "404 not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, opts{url: tt.url}, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("code %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}
}

// TestShowExplainsAnEmptyScope: show of a scope without memories says
// why on stderr, and warns about a name the API has never seen.
func TestShowExplainsAnEmptyScope(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	a.memory("nori", "checkout", agentmem.MemoryInput{Content: "x"})
	a.personality("koji", agentmem.PersonalityInput{DisplayName: "Koji"})
	tests := []struct {
		agent, project string
		want           string
	}{
		{"nroi", "checkout", `warning: agent "nroi" has no memories in any project and no personality: is the name right? (did you mean "nori"?`},
		{"zzzzzz", "checkout", `warning: agent "zzzzzz" has no memories in any project and no personality: is the name right? (agentmem stats lists`},
		{"nori", "billing", "nori has no memories in billing (it has some in checkout)"},
		{"koji", "checkout", "koji has no memories in checkout yet"},
	}
	for _, tt := range tests {
		r := run(t, opts{url: a.URL}, "show", tt.project, tt.agent)
		if r.code != 0 || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stdout, "agent: "+tt.agent) {
			t.Errorf("show %s %s: code %d, stderr %q; want 0 and %q", tt.project, tt.agent, r.code, r.stderr, tt.want)
		}
	}
	if r := run(t, opts{url: a.URL}, "show", "checkout", "nori"); r.code != 0 || r.stderr != "" {
		t.Errorf("show of a scope with memories: code %d, stderr %q", r.code, r.stderr)
	}
}

// signalWriter is a standard error that closes seen when a line holding
// want is written.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestStillWaiting: a command for people says on stderr that it is still
// waiting for a slow API, and then finishes when the API answers; a
// pipeline command says so only to a terminal, never on stdout.
func TestStillWaiting(t *testing.T) {
	t.Parallel()
	const slowAfter = 20 * time.Millisecond
	const notice = "still waiting for "

	// The API answers once the notice was written, or after 2 s.
	stderr := &signalWriter{want: notice, seen: make(chan struct{})}
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stderr.seen:
		case <-time.After(2 * time.Second):
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"memories":[]}`)
	}))
	t.Cleanup(slow.Close)
	env := envMap{"AGENTMEM_API_URL": slow.URL, "AGENTMEM_AUTH": "none"}
	var stdout bytes.Buffer
	code := cli.Main(context.Background(), []string{"list", "checkout", "nori", "--json"}, cli.Env{SlowAfter: slowAfter,
		Stdout: &stdout, Stderr: stderr, Getenv: env.get, Now: func() time.Time { return cliNow },
	})
	if code != 0 || !strings.Contains(stderr.String(), notice+strings.TrimPrefix(slow.URL, "http://")+" to answer GET /api/agents/nori/memories") ||
		strings.Count(stderr.String(), notice) != 1 || strings.Contains(stdout.String(), notice) {
		t.Errorf("list against a slow API: code %d, stderr %q, stdout %q", code, stderr.String(), stdout.String())
	}

	// A pipeline command: no notice without a terminal, however slow the
	// answer (100 ms, five times the notice's delay)...
	slowPipeline := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-time.After(100 * time.Millisecond)
		http.Error(w, `{"error":{"code":"internal","message":"x"}}`, 500)
	}))
	t.Cleanup(slowPipeline.Close)
	inject := []string{"inject", "--agent", "nori", "--project", "checkout", "--workspace", t.TempDir()}
	var out, errOut bytes.Buffer
	code = cli.Main(context.Background(), inject, cli.Env{SlowAfter: slowAfter,
		Stdout: &out, Stderr: &errOut, Getenv: envMap{"AGENTMEM_API_URL": slowPipeline.URL, "AGENTMEM_AUTH": "none"}.get,
	})
	if code != 0 || out.Len() != 0 || strings.Contains(errOut.String(), notice) {
		t.Errorf("inject, no terminal: code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	// ...and one on a terminal (the API answers once it is written).
	stderr = &signalWriter{want: notice, seen: make(chan struct{})}
	waiting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stderr.seen:
		case <-time.After(2 * time.Second):
		}
		http.Error(w, `{"error":{"code":"internal","message":"x"}}`, 500)
	}))
	t.Cleanup(waiting.Close)
	out.Reset()
	code = cli.Main(context.Background(), inject, cli.Env{SlowAfter: slowAfter,
		Stdout: &out, Stderr: stderr, Getenv: envMap{"AGENTMEM_API_URL": waiting.URL, "AGENTMEM_AUTH": "none"}.get,
		StderrIsTerminal: func() bool { return true },
	})
	if code != 0 || out.Len() != 0 || !strings.Contains(stderr.String(), notice) {
		t.Errorf("inject, a terminal: code %d, stdout %q, stderr %q", code, out.String(), stderr.String())
	}
}

// TestEveryCommandSpeaksJSON: every command that works on the API, and
// version, takes --json (help, completion and the servers, mcp and
// console, print no data of their own).
func TestEveryCommandSpeaksJSON(t *testing.T) {
	t.Parallel()
	skip := map[string]bool{"help": true, "completion": true}
	for _, c := range cli.Commands() {
		skip[c.Name] = skip[c.Name] || c.Server
	}
	for _, c := range cli.Commands() {
		paths := [][]string{{c.Name}}
		if len(c.Subcommands) > 0 {
			paths = nil
			for _, s := range c.Subcommands {
				paths = append(paths, []string{c.Name, s.Name})
			}
		}
		for _, p := range paths {
			if skip[p[0]] {
				continue
			}
			r := run(t, opts{}, append(p, "--help")...)
			if !strings.Contains(r.stdout, "\n  --json ") {
				t.Errorf("agentmem %s has no --json", strings.Join(p, " "))
			}
		}
	}

	a := newAPI(t)
	m := a.memory("nori", "checkout", agentmem.MemoryInput{Content: "x"})
	o := opts{url: a.URL}
	var rm struct {
		Removed, NotFound []string
	}
	r := run(t, o, "rm", "--agent", "nori", m.ID, "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", "--json")
	if r.code != cli.ExitNotFound || json.Unmarshal([]byte(r.stdout), &rm) != nil || len(rm.Removed) != 1 || rm.Removed[0] != m.ID || len(rm.NotFound) != 1 {
		t.Errorf("rm --json: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	var v struct{ Version, Go string }
	if r := run(t, o, "version", "--json"); r.code != 0 || json.Unmarshal([]byte(r.stdout), &v) != nil || v.Version == "" || !strings.HasPrefix(v.Go, "go") {
		t.Errorf("version --json: code %d, stdout %q", r.code, r.stdout)
	}
	var inj cli.InjectResult
	r = run(t, o, "inject", "--agent", "nori", "--project", "checkout", "--workspace", t.TempDir(), "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &inj) != nil || inj.Changed == nil || r.stderr != "" {
		t.Errorf("inject --json: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
