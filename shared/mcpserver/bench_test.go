package mcpserver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSearch compares memory_search through the MCP server (SDK
// client, in-memory transport, schema validation, the API client) with the
// same search straight through the API client, on a scope of 200
// memories in DynamoDB Local: the difference is what MCP adds to a call.
// mcp-round-trip is the protocol's cost alone.
func BenchmarkSearch(b *testing.B) {
	api := apitest.New(b, nil)
	ctx := context.Background()
	topics := []string{"webhook retries", "sqlc queries", "CI docker", "payment idempotency", "JWT refresh tokens"}
	for i := range 200 {
		_, err := api.Store.CreateMemory(ctx, agentmem.Memory{AgentName: agent, ProjectID: project, Type: agentmem.TypeFinding,
			Source: agentmem.SourceManual, Content: fmt.Sprintf("finding %d about %s in service %d", i, topics[i%len(topics)], i%7)})
		if err != nil {
			b.Fatal(err)
		}
	}
	client, err := apiclient.New(ctx, apiclient.Config{URL: api.URL, Auth: apiclient.AuthNone})
	if err != nil {
		b.Fatal(err)
	}
	cs, _ := connect(b, api.URL, config())
	b.Run("api-client", func(b *testing.B) {
		for b.Loop() {
			res, err := client.SearchMemories(ctx, agent, apiclient.SearchOptions{ProjectID: project, Query: "webhook retries payment"})
			if err != nil || len(res.Results) == 0 {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("mcp-tool", func(b *testing.B) {
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolSearch, Arguments: map[string]any{"query": "webhook retries payment"}})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
	// The protocol alone: a call the server answers without the API (a
	// blank query is refused before any request).
	b.Run("mcp-round-trip", func(b *testing.B) {
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolSearch, Arguments: map[string]any{"query": " "}})
			if err != nil || !res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
