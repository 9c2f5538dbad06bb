package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

const (
	agent   = "nori"
	project = "checkout-service"
	session = "run-42"
)

// logBuffer collects the server's log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// connect serves the memory tools for cfg against the API at url and
// returns an SDK client session over an in-memory transport.
func connect(t testing.TB, url string, cfg mcpserver.Config) (*mcp.ClientSession, *logBuffer) {
	t.Helper()
	ctx := context.Background()
	api, err := apiclient.New(ctx, apiclient.Config{URL: url, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := mcpserver.New(api, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, logs
}

// config is the server configuration of most tests.
func config() mcpserver.Config {
	return mcpserver.Config{Agent: agent, Project: project, Session: session}
}

// call calls a tool and fails the test on a protocol error: every failure
// must come back as a tool result.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v, want a tool result", tool, args, err)
	}
	return res
}

// ok calls a tool that must succeed and returns its text. A result is
// text only, with no structured content: Claude Code forwards a result's
// structuredContent to the model instead of its text, so the text is all
// a tool answers.
func ok(t *testing.T, cs *mcp.ClientSession, tool string, args any) string {
	t.Helper()
	res := call(t, cs, tool, args)
	text := textOf(res)
	if res.IsError {
		t.Fatalf("%s %v: tool error %q", tool, args, text)
	}
	if res.StructuredContent != nil || len(res.Content) != 1 {
		t.Errorf("%s: structured content %v, %d content blocks: want one text block only", tool, res.StructuredContent, len(res.Content))
	}
	return text
}

// memoryByContent returns the stored memory with that content.
func memoryByContent(t *testing.T, st *dynamostore.Store, content string) agentmem.Memory {
	t.Helper()
	for _, m := range memories(t, st) {
		if m.Content == content {
			return m
		}
	}
	t.Fatalf("no memory %q in the store", content)
	return agentmem.Memory{}
}

// textOf joins a result's text content.
func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func containsAll(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s = %q, want it to contain %q", what, got, w)
		}
	}
}

func memories(t *testing.T, st *dynamostore.Store) []agentmem.Memory {
	t.Helper()
	page, err := st.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: agent, ProjectID: project})
	if err != nil {
		t.Fatal(err)
	}
	return page.Memories
}

// schemaOf decodes a tool's schema as the client received it.
func schemaOf(t *testing.T, s any) map[string]any {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestListTools(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	cs, _ := connect(t, api.URL, config())
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	var names []string
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(mcpserver.Tools))
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	required := map[string][]string{
		mcpserver.ToolStore: {"scope"}, mcpserver.ToolRecall: {"key"}, mcpserver.ToolSearch: {"query"},
		mcpserver.ToolForget: {"older_than"}, mcpserver.ToolStats: nil, mcpserver.ToolSuggestPatterns: {"task"},
		mcpserver.ToolUpdate: {"id"}, mcpserver.ToolHistory: {"id"}, mcpserver.ToolRestore: {"id", "version"},
	}
	for name, tool := range tools {
		t.Run(name, func(t *testing.T) {
			if len(tool.Description) < 200 {
				t.Errorf("description is %d characters, want one an agent can act on: %q", len(tool.Description), tool.Description)
			}
			if name != mcpserver.ToolRecall {
				containsAll(t, "description", tool.Description, agent, project)
			}
			if tool.Annotations == nil || tool.Annotations.Title == "" || tool.Title == "" {
				t.Errorf("annotations %+v, title %q: want a title", tool.Annotations, tool.Title)
			}
			in := schemaOf(t, tool.InputSchema)
			if in["type"] != "object" || in["additionalProperties"] == nil {
				t.Errorf("input schema type %v, additionalProperties %v: want a closed object", in["type"], in["additionalProperties"])
			}
			var gotRequired []string
			reqs, _ := in["required"].([]any)
			for _, r := range reqs {
				gotRequired = append(gotRequired, r.(string))
			}
			if !slices.Equal(gotRequired, required[name]) {
				t.Errorf("required = %v, want %v", gotRequired, required[name])
			}
			props := in["properties"].(map[string]any)
			for pname, p := range props {
				if d, _ := p.(map[string]any)["description"].(string); len(d) < 15 {
					t.Errorf("property %s: description %q, want one", pname, d)
				}
			}
			if tool.OutputSchema != nil {
				t.Errorf("output schema %v: want none (results are text)", tool.OutputSchema)
			}
		})
	}
	if tools[mcpserver.ToolForget].Annotations.DestructiveHint == nil || !*tools[mcpserver.ToolForget].Annotations.DestructiveHint {
		t.Errorf("memory_forget is not marked destructive")
	}
	for _, name := range []string{mcpserver.ToolRecall, mcpserver.ToolSearch, mcpserver.ToolStats, mcpserver.ToolSuggestPatterns, mcpserver.ToolHistory} {
		if !tools[name].Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", name)
		}
	}

	// The bounds the API enforces are in the schemas, so that a client
	// can check its arguments before calling.
	bounds := []struct {
		tool, prop, key string
		want            any
	}{
		{mcpserver.ToolStore, "scope", "enum", []any{"session", "project"}},
		{mcpserver.ToolStore, "key", "maxLength", 128.0},
		{mcpserver.ToolStore, "key", "pattern", agentmem.NamePattern(agentmem.MaxKeyLen)},
		{mcpserver.ToolStore, "value", "type", "string"},
		{mcpserver.ToolStore, "ttl_seconds", "minimum", 60.0},
		{mcpserver.ToolStore, "ttl_seconds", "maximum", 604800.0},
		{mcpserver.ToolStore, "type", "enum", []any{"pattern", "decision", "blocker", "finding", "learning", "note", "session"}},
		{mcpserver.ToolStore, "content", "maxLength", 8192.0},
		{mcpserver.ToolStore, "rationale", "maxLength", 2048.0},
		{mcpserver.ToolStore, "status", "enum", []any{"open", "resolved"}},
		{mcpserver.ToolStore, "confidence", "minimum", 0.0},
		{mcpserver.ToolStore, "confidence", "maximum", 1.0},
		{mcpserver.ToolStore, "tags", "maxItems", 20.0},
		{mcpserver.ToolRecall, "scope", "default", "session"},
		{mcpserver.ToolSearch, "query", "minLength", 1.0},
		{mcpserver.ToolSearch, "query", "maxLength", 2048.0},
		{mcpserver.ToolSearch, "limit", "minimum", 1.0},
		{mcpserver.ToolSearch, "limit", "maximum", 50.0},
		{mcpserver.ToolSearch, "limit", "default", 10.0},
		{mcpserver.ToolForget, "older_than", "pattern", "^[0-9]{1,11}[hdw]$"},
		{mcpserver.ToolForget, "include_pinned", "type", "boolean"},
		{mcpserver.ToolStats, "scope", "enum", []any{"project", "session", "all"}},
		{mcpserver.ToolStats, "scope", "default", "all"},
		{mcpserver.ToolSuggestPatterns, "min_confidence", "exclusiveMinimum", 0.0},
		{mcpserver.ToolSuggestPatterns, "min_confidence", "maximum", 1.0},
		{mcpserver.ToolSuggestPatterns, "limit", "maximum", 50.0},
	}
	for _, b := range bounds {
		props := schemaOf(t, tools[b.tool].InputSchema)["properties"].(map[string]any)
		p, _ := props[b.prop].(map[string]any)
		if got := p[b.key]; !equalJSON(got, b.want) {
			t.Errorf("%s.%s %s = %v, want %v", b.tool, b.prop, b.key, got, b.want)
		}
	}
	// The key pattern refuses the dot segments and nothing else the API
	// takes.
	for _, tool := range []string{mcpserver.ToolStore, mcpserver.ToolRecall} {
		p, _ := schemaOf(t, tools[tool].InputSchema)["properties"].(map[string]any)["key"].(map[string]any)
		pat, _ := p["pattern"].(string)
		re, err := regexp.Compile(pat)
		if err != nil {
			t.Fatalf("%s.key pattern %q: %v", tool, pat, err)
		}
		for _, key := range []string{".", "..", "...", "v1.2", "a..b", ".hidden", "a.", "auth-patterns", "a#b", "a/b"} {
			if got, want := re.MatchString(key), agentmem.ValidateKey(key) == nil; got != want {
				t.Errorf("%s.key pattern %s on %q: matches %v, the API accepts %v", tool, pat, key, got, want)
			}
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestTools walks an agent's run through every tool against the real API.
func TestTools(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	cs, _ := connect(t, api.URL, config())
	ctx := context.Background()

	t.Run("store and recall a session value", func(t *testing.T) {
		text := ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "session", "key": "auth-patterns", "value": "JWT with refresh tokens"})
		containsAll(t, "text", text, "Stored new key", "auth-patterns", session, project)

		text = ok(t, cs, mcpserver.ToolRecall, map[string]any{"scope": "session", "key": "auth-patterns"})
		if !strings.HasPrefix(text, "JWT with refresh tokens\n") {
			t.Errorf("recall text = %q, want the value first", text)
		}
		containsAll(t, "recall text", text, `key "auth-patterns" of session `+session, "stored ", "expires ")
		text = ok(t, cs, mcpserver.ToolRecall, map[string]any{"key": "auth-patterns"})
		containsAll(t, "recall text", text, "JWT with refresh tokens")

		text = ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "session", "key": "auth-patterns", "value": "", "ttl_seconds": 3600})
		containsAll(t, "text", text, "Replaced the value", "(0 bytes)")
	})

	t.Run("a key of an ended session is gone", func(t *testing.T) {
		ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "session", "key": "handover", "value": "step 2 left the retry test failing"})
		c, err := apiclient.New(ctx, apiclient.Config{URL: api.URL, Auth: apiclient.AuthNone})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.EndSession(ctx, project, session); err != nil {
			t.Fatal(err)
		}
		res := call(t, cs, mcpserver.ToolRecall, map[string]any{"key": "handover"})
		if !res.IsError {
			t.Fatalf("recall after the session ended: %q, want a tool error", textOf(res))
		}
		containsAll(t, "error", textOf(res), "memory_recall:", `no value for key "handover"`, "Go on without it")
	})

	var decision agentmem.Memory
	t.Run("store project memories", func(t *testing.T) {
		text := ok(t, cs, mcpserver.ToolStore, map[string]any{
			"scope": "project", "type": "decision", "content": "Use sqlc for the payments queries",
			"rationale": "typed queries, no ORM magic", "tags": []string{"payments", "db:postgres"}, "pinned": true,
		})
		decision = memoryByContent(t, api.Store, "Use sqlc for the payments queries")
		if decision.Rationale != "typed queries, no ORM magic" || !decision.Pinned || len(decision.Tags) != 2 {
			t.Fatalf("stored %+v", decision)
		}
		containsAll(t, "text", text, "Stored decision memory "+decision.ID, "[decision] Use sqlc", "rationale: typed queries", "tags payments, db:postgres", "pinned")
		if decision.RunID != session || decision.Source != agentmem.SourceManual || decision.AgentName != agent {
			t.Errorf("memory runId %q source %q agent %q, want the session, manual, the agent", decision.RunID, decision.Source, decision.AgentName)
		}
		ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "The payment provider retries webhooks 3 times with exponential backoff"})
		ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "blocker", "content": "CI has no Docker daemon"})
		text = ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "content": "The staging database is reset every Monday"})
		if note := memoryByContent(t, api.Store, "The staging database is reset every Monday"); note.Type != agentmem.TypeNote {
			t.Errorf("default type = %q, want note", note.Type)
		}
		containsAll(t, "text", text, "Stored note memory")
		ok(t, cs, mcpserver.ToolStore, map[string]any{
			"scope": "project", "type": "pattern", "content": "Retry webhook handlers idempotently",
			"trigger": "a webhook handler fails on duplicate deliveries", "context": "payment provider webhooks",
			"solution": "store the event id with a conditional put and skip repeats", "confidence": 0.9,
		})
		if c := memoryByContent(t, api.Store, "Retry webhook handlers idempotently").Confidence; c == nil || *c != 0.9 {
			t.Errorf("pattern confidence = %v, want 0.9", c)
		}
		ok(t, cs, mcpserver.ToolStore, map[string]any{
			"scope": "project", "type": "pattern", "content": "Guess webhook payload shapes", "trigger": "a webhook payload is undocumented",
			"solution": "log a sample and guess", "confidence": 0.3,
		})
		if got := len(memories(t, api.Store)); got != 6 {
			t.Errorf("the store holds %d memories, want 6", got)
		}
	})

	t.Run("search", func(t *testing.T) {
		text := ok(t, cs, mcpserver.ToolSearch, map[string]any{"query": "webhook retries backoff"})
		containsAll(t, "text", text, "of 6 memories match", "(lexical ranking), best first:", "\n1. [finding] The payment provider retries webhooks", "score ", "id ", "source manual")

		text = ok(t, cs, mcpserver.ToolSearch, map[string]any{"query": "webhook", "limit": 1})
		if !strings.HasPrefix(text, "1 of 6 memories match") || strings.Contains(text, "\n2. ") {
			t.Errorf("limit 1: %q", text)
		}
		text = ok(t, cs, mcpserver.ToolSearch, map[string]any{"query": "sqlc queries", "type": "decision"})
		containsAll(t, "type decision", text, "1 of 1 decision memories match", "id "+decision.ID)
		text = ok(t, cs, mcpserver.ToolSearch, map[string]any{"query": "kubernetes helm", "type": "blocker"})
		containsAll(t, "text", text, `No memory matches "kubernetes helm"`, "or no type")
	})

	t.Run("suggest patterns", func(t *testing.T) {
		text := ok(t, cs, mcpserver.ToolSuggestPatterns, map[string]any{"task": "fix duplicate webhook deliveries in the payment handler"})
		containsAll(t, "text", text, "1 pattern with a confidence above 0.7", "Retry webhook handlers idempotently", "trigger: a webhook handler fails", "solution: store the event id", "confidence 0.9")
		if strings.Contains(text, "Guess webhook") {
			t.Errorf("the unconfident pattern was suggested: %q", text)
		}
		text = ok(t, cs, mcpserver.ToolSuggestPatterns, map[string]any{"task": "undocumented webhook payload", "min_confidence": 0.2, "limit": 5})
		containsAll(t, "min_confidence 0.2", text, "2 patterns with a confidence above 0.2")
		text = ok(t, cs, mcpserver.ToolSuggestPatterns, map[string]any{"task": "tune the kubernetes autoscaler"})
		containsAll(t, "text", text, "No pattern with a confidence above 0.7", `type "pattern"`)
	})

	t.Run("stats", func(t *testing.T) {
		ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "session", "key": "next-step", "value": "write the retry test"})
		tests := []struct {
			scope                    any
			wantProject, wantSession bool
			wantText                 []string
		}{
			{nil, true, true, []string{"6 memories", "By type: pattern 2, decision 1, blocker 1, finding 1, note 1", "By source: manual 6", "1 live key in 1 session"}},
			{"all", true, true, []string{"6 memories", "Session context"}},
			{"project", true, false, []string{"Project memory of agent nori in checkout-service: 6 memories", "limit 1000"}},
			{"session", false, true, []string{"Session context of project checkout-service: 1 live key"}},
		}
		for _, tt := range tests {
			args := map[string]any{}
			if tt.scope != nil {
				args["scope"] = tt.scope
			}
			text := ok(t, cs, mcpserver.ToolStats, args)
			if strings.Contains(text, "Project memory") != tt.wantProject || strings.Contains(text, "Session context") != tt.wantSession {
				t.Errorf("scope %v: %q", tt.scope, text)
			}
			containsAll(t, "text", text, tt.wantText...)
		}
		// "arguments": null is no arguments: the defaults apply.
		if text := ok(t, cs, mcpserver.ToolStats, json.RawMessage("null")); !strings.Contains(text, "Project memory") || !strings.Contains(text, "Session context") {
			t.Errorf("null arguments: %q, want the default scope all", text)
		}
	})

	t.Run("forget", func(t *testing.T) {
		old := func(content string, pinned bool) {
			_, err := api.Store.CreateMemory(ctx, agentmem.Memory{AgentName: agent, ProjectID: project, Type: agentmem.TypeNote,
				Source: agentmem.SourceManual, Content: content, Pinned: pinned, CreatedAt: agentmem.FormatTime(time.Now().Add(-40 * 24 * time.Hour))})
			if err != nil {
				t.Fatal(err)
			}
		}
		old("an old note", false)
		old("an old pinned note", true)
		text := ok(t, cs, mcpserver.ToolForget, map[string]any{"older_than": "30d"})
		containsAll(t, "text", text, "Forgot 1 memory", "pinned ones kept")
		text = ok(t, cs, mcpserver.ToolForget, map[string]any{"older_than": "4w", "include_pinned": true})
		containsAll(t, "text", text, "Forgot 1 memory", "pinned ones included")
		if got := len(memories(t, api.Store)); got != 6 {
			t.Errorf("%d memories left, want the 6 recent ones", got)
		}
	})
}

// TestBadArguments: every bad argument is a tool error that names the
// tool and the problem, and nothing is written.
func TestBadArguments(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	cs, logs := connect(t, api.URL, config())
	long := strings.Repeat("é", agentmem.MaxQueryBytes/2+1) // under maxLength in characters, over the limit in bytes
	tests := []struct {
		name string
		tool string
		args any
		want []string
	}{
		{"store without scope", mcpserver.ToolStore, map[string]any{"content": "x"}, []string{"missing properties", "scope"}},
		{"store with an unknown scope", mcpserver.ToolStore, map[string]any{"scope": "global", "content": "x"}, []string{"scope: enum", "global"}},
		{"store with an unknown argument", mcpserver.ToolStore, map[string]any{"scope": "project", "content": "x", "colour": "red"}, []string{"colour"}},
		{"store session without value", mcpserver.ToolStore, map[string]any{"scope": "session", "key": "k"}, []string{`scope "session" needs key and value`}},
		{"store session without key", mcpserver.ToolStore, map[string]any{"scope": "session", "value": "v"}, []string{`needs key and value`}},
		{"store session with project fields", mcpserver.ToolStore, map[string]any{"scope": "session", "key": "k", "value": "v", "type": "note", "pinned": true}, []string{`pinned, type apply to scope "project"`}},
		{"store session with a bad key", mcpserver.ToolStore, map[string]any{"scope": "session", "key": "a/b", "value": "v"}, []string{"key: pattern"}},
		{"store session with a short ttl", mcpserver.ToolStore, map[string]any{"scope": "session", "key": "k", "value": "v", "ttl_seconds": 5}, []string{"ttl_seconds: minimum: 5 is less than 60"}},
		{"store session with a value of the wrong type", mcpserver.ToolStore, map[string]any{"scope": "session", "key": "k", "value": 42}, []string{"value: type"}},
		{"store project with session fields", mcpserver.ToolStore, map[string]any{"scope": "project", "content": "x", "key": "k"}, []string{`key apply to scope "session"`}},
		{"store project without content", mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding"}, []string{"content is required"}},
		{"store project with blank content", mcpserver.ToolStore, map[string]any{"scope": "project", "content": "   "}, []string{"content is required"}},
		{"store rationale on a note", mcpserver.ToolStore, map[string]any{"scope": "project", "content": "x", "rationale": "because"}, []string{`rationale does not apply to a memory of type "note"`}},
		{"store confidence on a finding", mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "x", "confidence": 0.5}, []string{"confidence does not apply"}},
		{"store confidence over 1", mcpserver.ToolStore, map[string]any{"scope": "project", "type": "pattern", "content": "x", "confidence": 2}, []string{"confidence: maximum: 2 is greater than 1"}},
		{"store an unknown type", mcpserver.ToolStore, map[string]any{"scope": "project", "type": "idea", "content": "x"}, []string{"type: enum"}},
		{"store a bad tag", mcpserver.ToolStore, map[string]any{"scope": "project", "content": "x", "tags": []string{"has space"}}, []string{`tags items: pattern: "has space" does not match`}},
		{"store content over the byte limit", mcpserver.ToolStore, map[string]any{"scope": "project", "content": strings.Repeat("é", agentmem.MaxContentBytes/2+1)}, []string{"content is 8194 bytes; the limit is 8192"}},
		{"recall without key", mcpserver.ToolRecall, map[string]any{}, []string{"missing properties", "key"}},
		{"recall with null arguments", mcpserver.ToolRecall, json.RawMessage("null"), []string{"missing properties", "key"}},
		// Held to the API's strict JSON: nothing the last key or U+FFFD would decide.
		{"store with a key twice", mcpserver.ToolStore, json.RawMessage(`{"scope":"project","content":"use pgx","content":"use sqlc"}`), []string{`field "content" is given twice`}},
		{"store with a key twice, once escaped", mcpserver.ToolStore, json.RawMessage(`{"scope":"project","content":"x","tags":["a"],"sc\u006fpe":"session"}`), []string{`field "scope" is given twice`}},
		{"store with a lone surrogate", mcpserver.ToolStore, json.RawMessage(`{"scope":"project","content":"bad \udc00 text"}`), []string{"lone UTF-16 surrogate (\\udc00"}},
		{"search with a lone surrogate", mcpserver.ToolSearch, json.RawMessage(`{"query":"\ud800"}`), []string{"lone UTF-16 surrogate"}},
		{"recall with a null scope", mcpserver.ToolRecall, json.RawMessage(`{"key":"k","scope":null}`), []string{`scope: type: null has type "null", want "string"`}},
		{"recall project scope", mcpserver.ToolRecall, map[string]any{"key": "k", "scope": "project"}, []string{"scope: enum"}},
		{"search without query", mcpserver.ToolSearch, map[string]any{}, []string{"missing properties", "query"}},
		{"search a blank query", mcpserver.ToolSearch, map[string]any{"query": "  "}, []string{"query must not be blank"}},
		{"search a query over the byte limit", mcpserver.ToolSearch, map[string]any{"query": long}, []string{"query is 2050 bytes; the limit is 2048"}},
		{"search limit 0", mcpserver.ToolSearch, map[string]any{"query": "x", "limit": 0}, []string{"limit: minimum: 0 is less than 1"}},
		{"search limit 100", mcpserver.ToolSearch, map[string]any{"query": "x", "limit": 100}, []string{"limit: maximum: 100 is greater than 50"}},
		{"store 5000 tags", mcpserver.ToolStore, map[string]any{"scope": "project", "content": "x", "tags": slices.Repeat([]string{"t"}, 5000)}, []string{"tags: maxItems: array length 5000 is greater than 20"}},
		{"store content of 100000 characters", mcpserver.ToolStore, map[string]any{"scope": "project", "content": strings.Repeat("x", 100000)}, []string{"content: maxLength:", "contains 100000 Unicode code points, more than 8192"}},
		{"search limit 3000", mcpserver.ToolSearch, map[string]any{"query": "x", "limit": 3000}, []string{"limit: maximum: 3000 is greater than 50"}},
		{"search limit 2.5", mcpserver.ToolSearch, map[string]any{"query": "x", "limit": 2.5}, []string{"limit"}},
		{"search an unknown type", mcpserver.ToolSearch, map[string]any{"query": "x", "type": "patterns"}, []string{"type: enum"}},
		{"forget without older_than", mcpserver.ToolForget, map[string]any{}, []string{"missing properties", "older_than"}},
		{"forget 30 minutes", mcpserver.ToolForget, map[string]any{"older_than": "30m"}, []string{"older_than: pattern"}},
		{"forget 0 days", mcpserver.ToolForget, map[string]any{"older_than": "0d"}, []string{`older_than "0d" must be at least 1d`}},
		{"forget a thousand centuries", mcpserver.ToolForget, map[string]any{"older_than": "99999999w"}, []string{"more than a hundred years"}},
		{"stats of an unknown scope", mcpserver.ToolStats, map[string]any{"scope": "global"}, []string{"scope: enum"}},
		{"suggest without task", mcpserver.ToolSuggestPatterns, map[string]any{"min_confidence": 0.5}, []string{"missing properties", "task"}},
		{"suggest min_confidence 1.5", mcpserver.ToolSuggestPatterns, map[string]any{"task": "x", "min_confidence": 1.5}, []string{"min_confidence: maximum: 1.5 is greater than 1"}},
		{"suggest min_confidence 0", mcpserver.ToolSuggestPatterns, map[string]any{"task": "x", "min_confidence": 0}, []string{"min_confidence: exclusiveMinimum"}},
		{"suggest limit 51", mcpserver.ToolSuggestPatterns, map[string]any{"task": "x", "limit": 51}, []string{"limit: maximum: 51 is greater than 50"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, tt.tool, tt.args)
			text := textOf(res)
			if !res.IsError {
				t.Fatalf("result %q, want a tool error", text)
			}
			t.Log(text)
			if !strings.HasPrefix(text, tt.tool+": invalid arguments: ") || !strings.Contains(strings.ToLower(text), "call "+tt.tool+" again") {
				t.Errorf("error %q: want it to name the tool and say to call it again", text)
			}
			containsAll(t, "error", text, tt.want...)
			if len(text) > 1000 {
				t.Errorf("error of %d bytes: want the arguments quoted short, not echoed whole", len(text))
			}
			if strings.Contains(text, "validating") || strings.Contains(text, ".000000") || strings.Contains(text, "reflect") {
				t.Errorf("error %q: want the schema validator's wording cleaned up", text)
			}
			if res.StructuredContent != nil {
				t.Errorf("structured content %v on an error", res.StructuredContent)
			}
		})
	}
	if got := memories(t, api.Store); len(got) != 0 {
		t.Errorf("bad arguments wrote %d memories", len(got))
	}
	st, err := api.Store.SessionUsage(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 0 {
		t.Errorf("bad arguments wrote %d session keys", st.Total)
	}
	containsAll(t, "log", logs.String(), "tool error", "tool=memory_store")
}

// TestWithoutSession: without a session id the session scope explains
// itself; the project scope and session stats still work.
func TestWithoutSession(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	cfg := config()
	cfg.Session = ""
	cs, _ := connect(t, api.URL, cfg)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{mcpserver.ToolStore, map[string]any{"scope": "session", "key": "k", "value": "v"}},
		{mcpserver.ToolRecall, map[string]any{"key": "k"}},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError {
			t.Fatalf("%s: %q, want a tool error", tc.tool, textOf(res))
		}
		containsAll(t, tc.tool+" error", textOf(res), "no session is configured", "AGENTMEM_SESSION_ID", `scope "project"`)
	}
	ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "content": "a note without a run"})
	if m := memoryByContent(t, api.Store, "a note without a run"); m.RunID != "" {
		t.Errorf("runId %q without a session", m.RunID)
	}
	ok(t, cs, mcpserver.ToolStats, map[string]any{"scope": "session"})
}

// TestAPIFailures: an API that is down, slow or refusing gives tool errors
// that tell the agent to go on without memory.
func TestAPIFailures(t *testing.T) {
	t.Parallel()
	stopped := httptest.NewServer(http.NotFoundHandler())
	stopped.Close()
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); hung.Close() })
	// API Gateway's own answer to a refused signature, and a function's
	// internal error.
	answer := func(status int, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	tests := []struct {
		name    string
		url     string
		timeout time.Duration
		want    []string
	}{
		{"unreachable", stopped.URL, 0, []string{"cannot reach the agentmem API", "Go on with the task without it", "do not retry in a loop"}},
		{"no answer in time", hung.URL, 300 * time.Millisecond, []string{"did not answer within 300ms", "Go on with the task without it"}},
		{"refused by IAM", answer(403, `{"message":"Forbidden"}`), 0, []string{"refused this server's credentials", "not something to retry"}},
		{"internal error", answer(500, `{"error":{"code":"internal","message":"internal error"}}`), 0, []string{"the agentmem API failed (500 internal", "Try once more"}},
		{"throttled", answer(429, `{"message":"Too Many Requests"}`), 0, []string{"busy or unavailable (429 throttled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config()
			cfg.CallTimeout = tt.timeout
			cs, logs := connect(t, tt.url, cfg)
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{mcpserver.ToolSearch, map[string]any{"query": "webhooks"}},
				{mcpserver.ToolStore, map[string]any{"scope": "session", "key": "k", "value": "v"}},
				{mcpserver.ToolStats, map[string]any{}},
			} {
				res := call(t, cs, c.tool, c.args)
				if !res.IsError {
					t.Fatalf("%s: %q, want a tool error", c.tool, textOf(res))
				}
				t.Log(textOf(res))
				containsAll(t, c.tool+" error", textOf(res), append([]string{c.tool + ": "}, tt.want...)...)
			}
			containsAll(t, "log", logs.String(), "level=WARN", "tool error")
		})
	}
}

func TestNewValidatesConfig(t *testing.T) {
	t.Parallel()
	api, err := apiclient.New(context.Background(), apiclient.Config{URL: "http://127.0.0.1:1", Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  mcpserver.Config
		want string
	}{
		{"no agent", mcpserver.Config{Project: project}, "agent: agentName is required"},
		{"no project", mcpserver.Config{Agent: agent}, "project: projectId is required"},
		{"bad agent", mcpserver.Config{Agent: "no#pe", Project: project}, "agent: agentName"},
		{"bad session", mcpserver.Config{Agent: agent, Project: project, Session: "a b"}, "session: sessionId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mcpserver.New(api, tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New error = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := mcpserver.New(nil, config()); err == nil {
		t.Errorf("New without a client: no error")
	}
}
