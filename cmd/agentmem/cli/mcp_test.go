package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer is an io.Writer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveMCP runs `agentmem mcp args...` in-process with env, its standard
// input and output piped to an SDK client. stop closes the client and
// returns the exit status and standard error once Main returned.
func serveMCP(t *testing.T, env map[string]string, args ...string) (cs *mcp.ClientSession, stop func() (int, string)) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		code := cli.Main(context.Background(), append([]string{"mcp"}, args...), cli.Env{
			Stdin: inR, Stdout: outW, Stderr: stderr, Getenv: func(k string) string { return env[k] },
		})
		outW.Close()
		done <- code
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %q)", err, stderr.String())
	}
	return cs, func() (int, string) {
		cs.Close()
		select {
		case code := <-done:
			return code, stderr.String()
		case <-time.After(30 * time.Second):
			t.Fatalf("agentmem mcp still runs 30s after the client closed its standard input; stderr %q", stderr.String())
			return 0, ""
		}
	}
}

// TestMCPSessionID: the session scope uses --session, else
// AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID.
func TestMCPSessionID(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	tests := []struct {
		name        string
		args        []string
		env         map[string]string
		wantSession string
	}{
		{"flag first", []string{"--session", "s-flag", "--agent", "nori", "--project", "checkout"}, map[string]string{"AGENTMEM_SESSION_ID": "s-env", "AGENTMEM_RUN_ID": "run-1"}, "s-flag"},
		{"AGENTMEM_SESSION_ID before AGENTMEM_RUN_ID", nil, map[string]string{"AGENTMEM_SESSION_ID": "s-env", "AGENTMEM_RUN_ID": "run-1"}, "s-env"},
		{"AGENTMEM_RUN_ID", nil, map[string]string{"AGENTMEM_RUN_ID": "run-1"}, "run-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"AGENTMEM_API_URL": a.URL, "AGENTMEM_AUTH": "none", "AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}
			for k, v := range tt.env {
				env[k] = v
			}
			cs, stop := serveMCP(t, env, tt.args...)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolStore,
				Arguments: map[string]any{"scope": "session", "key": "who", "value": tt.name}})
			if err != nil || res.IsError {
				t.Fatalf("memory_store: %v %+v", err, res)
			}
			e, err := a.Store.GetSessionValue(context.Background(), "checkout", tt.wantSession, "who")
			if err != nil || e.Value != tt.name {
				t.Errorf("session %s key who = %+v, %v; want the value just stored", tt.wantSession, e, err)
			}
			code, stderr := stop()
			if code != 0 {
				t.Errorf("exit status %d, want 0 when the client closes; stderr %q", code, stderr)
			}
			for _, want := range []string{"serving memory tools on stdio", "session=" + tt.wantSession, "client closed the connection"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q, want %q", stderr, want)
				}
			}
		})
	}
}

func TestMCPCommandLine(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	env := map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}
	tests := []struct {
		name       string
		url        string
		env        map[string]string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr []string
	}{
		{"help", a.URL, nil, []string{"mcp", "--help"}, 0, `{"mcpServers":{"agentmem":{"command":"agentmem","args":["mcp"]`, nil},
		{"no agent or project", a.URL, nil, []string{"mcp"}, cli.ExitUsage, "", []string{"--agent and --project are required"}},
		{"a bad session id", a.URL, env, []string{"mcp", "--session", "run 42"}, cli.ExitUsage, "", []string{"--session: sessionId", "see agentmem mcp --help"}},
		{"an argument", a.URL, env, []string{"mcp", "extra"}, cli.ExitUsage, "", []string{`unexpected argument "extra"`}},
		{"no API URL", "", env, []string{"mcp"}, cli.ExitFailure, "", []string{"AGENTMEM_API_URL is not set"}},
		{"standard input closed at once", a.URL, env, []string{"mcp"}, 0, "", []string{"serving memory tools", "session=\"none (session-scope calls will fail)\"", "client closed the connection"}},
		{"--timeout bounds each call", a.URL, env, []string{"mcp", "--timeout", "5s"}, 0, "", []string{"callTimeout=5s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, opts{url: tt.url, env: tt.env}, tt.args...)
			if r.code != tt.wantCode {
				t.Errorf("exit status %d, want %d; stderr %q", r.code, tt.wantCode, r.stderr)
			}
			if !strings.Contains(r.stdout, tt.wantStdout) || (tt.wantStdout == "" && r.stdout != "") {
				t.Errorf("stdout %q, want %q (standard output is the protocol)", r.stdout, tt.wantStdout)
			}
			for _, want := range tt.wantStderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr %q, want %q", r.stderr, want)
				}
			}
		})
	}
}

// TestMCPPipedRequests: a client that writes its requests and closes its
// end at once (printf ... | agentmem mcp) gets every answer.
func TestMCPPipedRequests(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	script := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_store","arguments":{"scope":"project","type":"decision","content":"Use idempotency keys on every payment POST","rationale":"the provider retries"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_stats","arguments":{"scope":"session"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":""}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	}, "\n") + "\n"
	r := run(t, opts{url: a.URL, stdin: script, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}}, "mcp")
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr %q", r.code, r.stderr)
	}
	answers := map[string]map[string]any{}
	for _, line := range lines(r.stdout) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout line %q is not JSON: %v", line, err)
		}
		answers[fmt.Sprint(m["id"])] = m
	}
	for _, id := range []string{"1", "list", "2", "3", "4", "5"} {
		if answers[id] == nil || answers[id]["error"] != nil {
			t.Errorf("answer to request %s: %v, want a result", id, answers[id])
		}
	}
	if res, _ := answers["4"]["result"].(map[string]any); res == nil || res["isError"] != true {
		t.Errorf("blank query: %v, want a tool error", answers["4"])
	}
	if got := a.memories("nori", "checkout"); len(got) != 1 || got[0].RunID != "" {
		t.Errorf("memories %+v, want the decision, without a run", got)
	}
}
