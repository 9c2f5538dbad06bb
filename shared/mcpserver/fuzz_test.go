package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzToolArguments sends arbitrary JSON arguments to every tool of a
// server whose API is unreachable: whatever the arguments, the answer is a
// tool error naming the tool (bad arguments, or the API being down), never
// a protocol error, a panic or a success.
func FuzzToolArguments(f *testing.F) {
	seeds := []struct {
		tool int
		args string
	}{
		{0, `{"scope":"session","key":"auth-patterns","value":"JWT"}`},
		{0, `{"scope":"project","type":"pattern","content":"x","trigger":"t","solution":"s","confidence":0.9,"tags":["a"]}`},
		{0, `{"scope":"session","key":"k","value":null,"ttl_seconds":1e9}`},
		{1, `{"key":"auth-patterns","scope":"session"}`},
		{2, `{"query":"webhook retries","type":"finding","limit":5}`},
		{2, `{"query":"\u0000","limit":-1}`},
		{3, `{"older_than":"30d","include_pinned":true}`},
		{3, `{"older_than":"99999999999w"}`},
		{4, `{"scope":"all"}`},
		{5, `{"task":"fix webhooks","min_confidence":0.7,"limit":50}`},
		{5, `[]`},
		{1, `null`},
	}
	for _, s := range seeds {
		f.Add(uint8(s.tool), []byte(s.args))
	}
	stopped := httptest.NewServer(http.NotFoundHandler())
	stopped.Close()
	cs, _ := connect(f, stopped.URL, config())
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		if !json.Valid(args) {
			return // the client cannot send it
		}
		name := mcpserver.Tools[int(tool)%len(mcpserver.Tools)]
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			if strings.Contains(err.Error(), "connection closed") {
				t.Fatalf("%s %s: the server closed the connection: %v", name, args, err)
			}
			// The client itself refuses arguments that are not an object.
			return
		}
		text := textOf(res)
		if !res.IsError || !strings.HasPrefix(text, name+": ") {
			t.Fatalf("%s %s: result %q (error %v), want a tool error naming the tool", name, args, text, res.IsError)
		}
	})
}
