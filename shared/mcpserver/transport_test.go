package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/mcpserver"
)

// TestTransportAnswersWhatTheSDKCannot sends the server, piped line by
// line, JSON-RPC messages that the SDK alone would end the session for or
// answer under another id: batches where the protocol version has none or
// with an id twice, numeric ids that are not integers it can keep, and
// messages nesting deeper than it reads.
// Each gets its JSON-RPC error, every other request its answer under the
// id it was sent with, and the session goes on to its end.
func TestTransportAnswersWhatTheSDKCannot(t *testing.T) {
	t.Parallel()
	const ping = `"method":"ping"}`
	init := func(version string) string {
		return `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"sh","version":"0"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`
	}
	tests := []struct {
		name    string
		version string
		line    string
		want    string // the answer line: its id, or "error:<code>" for an error with id null
	}{
		{"a batch in 2025-06-18", "2025-06-18", `[{"jsonrpc":"2.0","id":10,` + ping + `,{"jsonrpc":"2.0","id":11,` + ping + `]`, "error:-32600"},
		{"a batch in 2025-11-25", "2025-11-25", `[{"jsonrpc":"2.0","id":10,` + ping + `]`, "error:-32600"},
		{"a batch in a version the server does not have", "2024-01-01", `[{"jsonrpc":"2.0","id":10,` + ping + `]`, "error:-32600"},
		{"a batch in 2025-03-26", "2025-03-26", `[{"jsonrpc":"2.0","id":10,` + ping + `,{"jsonrpc":"2.0","id":"b",` + ping + `]`, `[10,"b"]`},
		{"a batch with an id twice", "2025-03-26", `[{"jsonrpc":"2.0","id":10,` + ping + `,{"jsonrpc":"2.0","id":10,` + ping + `]`, "error:-32600"},
		{"a fractional id", "2025-06-18", `{"jsonrpc":"2.0","id":1.5,` + ping, "error:-32600"},
		{"an id over 2^63", "2025-06-18", `{"jsonrpc":"2.0","id":12345678901234567890,` + ping, "error:-32600"},
		{"an id over 2^53", "2025-06-18", `{"jsonrpc":"2.0","id":9007199254740993,` + ping, "error:-32600"},
		{"an id of 2^53", "2025-06-18", `{"jsonrpc":"2.0","id":-9007199254740992,` + ping, "-9007199254740992"},
		{"an integer written as a fraction", "2025-06-18", `{"jsonrpc":"2.0","id":7.0,` + ping, "7"},
		{"arguments nested deeper than the SDK reads", "2025-06-18", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"memory_store","arguments":{"scope":"project","content":"x","tags":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}}`, "error:-32600@8"},
		{"nested 999 deep, in reach of the SDK", "2025-06-18", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"x":` + strings.Repeat("[", 996) + strings.Repeat("]", 996) + `}}}`, "9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api, err := apiclient.New(context.Background(), apiclient.Config{URL: "http://127.0.0.1:1", Auth: apiclient.AuthNone})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mcpserver.New(api, config())
			if err != nil {
				t.Fatal(err)
			}
			script := init(tt.version) + "\n" + tt.line + "\n" + `{"jsonrpc":"2.0","id":"last",` + ping + "\n"
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := srv.Run(ctx, mcpserver.Transport(strings.NewReader(script), &out, 10*time.Second)); err != nil {
				t.Errorf("the session ended with %v, want it served to the end of its input", err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 3 {
				t.Fatalf("answers %q, want 3 (initialize, the line, the last ping)", out.String())
			}
			// Refusals are written as the line is read, answers as they
			// are computed: their order is free.
			var got []string
			for _, line := range lines {
				got = append(got, describeAnswer(t, line))
			}
			want := []string{`"init"`, tt.want, `"last"`}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("answers %q, want %q:\n%s", got, want, out.String())
			}
		})
	}
}

// describeAnswer reads a response line: "error:<code>" for an error with
// id null ("error:<code>@<id>" with one), the id of a result, or the ids
// of a batch of results.
func describeAnswer(t *testing.T, line string) string {
	t.Helper()
	type response struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if strings.HasPrefix(line, "[") {
		var batch []response
		if err := json.Unmarshal([]byte(line), &batch); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		var ids []string
		for _, r := range batch {
			if r.JSONRPC != "2.0" || r.Result == nil {
				t.Errorf("batch answer %s: want results", line)
			}
			ids = append(ids, string(r.ID))
		}
		return "[" + strings.Join(ids, ",") + "]"
	}
	var r response
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.JSONRPC != "2.0" {
		t.Fatalf("answer %q is no JSON-RPC response: %v", line, err)
	}
	if r.Error != nil {
		if r.Error.Message == "" {
			t.Errorf("error %s: want a message", line)
		}
		if string(r.ID) != "null" {
			return "error:" + strconv.Itoa(r.Error.Code) + "@" + string(r.ID)
		}
		return "error:" + strconv.Itoa(r.Error.Code)
	}
	return string(r.ID)
}
