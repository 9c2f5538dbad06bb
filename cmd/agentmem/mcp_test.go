package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPOverStdio starts the built binary as an MCP client would (Claude
// Code's .mcp.json: command agentmem, args mcp, the configuration in the
// environment) and uses the memory tools over its standard input and output.
func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(binary, "mcp", "--verbose")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AGENTMEM_AUTH=none", "AGENTMEM_API_URL=" + api.URL,
		"AGENTMEM_AGENT=nori", "AGENTMEM_PROJECT=checkout-service", "AGENTMEM_RUN_ID=run-7"}
	// stderr is read once the process has exited: a failed Connect and
	// cs.Close both wait for it.
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr %q", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() }) // stops the server when the test fails half-way
	if got := cs.InitializeResult().ServerInfo.Name; got != "agentmem" {
		t.Errorf("server name %q, want agentmem", got)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "agent nori in project checkout-service") {
		t.Errorf("instructions %q, want the configured scope", cs.InitializeResult().Instructions)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if len(names) != len(mcpserver.Tools) {
		t.Errorf("tools %v, want %v", names, mcpserver.Tools)
	}

	calls := []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{mcpserver.ToolStore, map[string]any{"scope": "session", "key": "auth-patterns", "value": "JWT with refresh tokens"}, false, "in session run-7"},
		{mcpserver.ToolRecall, map[string]any{"key": "auth-patterns"}, false, "JWT with refresh tokens"},
		{mcpserver.ToolStore, map[string]any{"scope": "project", "type": "decision", "content": "Use idempotency keys on every payment POST", "rationale": "the provider retries"}, false, "Stored decision memory"},
		{mcpserver.ToolSearch, map[string]any{"query": "idempotency payment"}, false, "1. [decision] Use idempotency keys"},
		{mcpserver.ToolStats, map[string]any{"scope": "project"}, false, "checkout-service: 1 memory,"},
		{mcpserver.ToolSearch, map[string]any{"query": "x", "limit": 500}, true, "limit: maximum: 500 is greater than 50"},
		{mcpserver.ToolRecall, map[string]any{"key": "never-stored"}, true, `no value for key "never-stored"`},
	}
	for _, c := range calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: protocol error %v", c.tool, err)
		}
		var text strings.Builder
		for _, content := range res.Content {
			if tc, ok := content.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if res.IsError != c.isError || !strings.Contains(text.String(), c.want) {
			t.Errorf("%s %v: error %v %q, want error %v and %q", c.tool, c.args, res.IsError, text.String(), c.isError, c.want)
		}
		if res.StructuredContent != nil {
			t.Errorf("%s: structured content %v, want text only (Claude Code would show the model the JSON instead)", c.tool, res.StructuredContent)
		}
	}

	// What the tools wrote is in the store: the memory records the run.
	page, err := api.Store.ListMemories(ctx, dynamostore.ListOptions{AgentName: "nori", ProjectID: "checkout-service"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Memories) != 1 || page.Memories[0].Type != "decision" || page.Memories[0].RunID != "run-7" {
		t.Errorf("stored memories %+v, want the decision of run-7", page.Memories)
	}

	// Closing the client closes the server's standard input: it exits 0.
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("process state %v, want exit status 0; stderr %q", cmd.ProcessState, stderr.String())
	}
	logs := stderr.String()
	for _, want := range []string{"serving memory tools on stdio", "session=run-7", "tool=memory_search", "level=WARN msg=\"tool error\" component=agentmem-mcp tool=memory_recall", "client closed the connection"} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr %q, want %q", logs, want)
		}
	}
}
