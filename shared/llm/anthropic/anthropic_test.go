package anthropic_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/anthropic"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

// anthropicServer answers like the Anthropic Messages API: a message
// object on success, {"type":"error","error":{"type","message"}} with the
// documented status on failure. It records the request.
func anthropicServer(t *testing.T, status int, header map[string]string, contentType, body string, got *map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			t.Errorf("got %s %s, want POST /v1/messages", r.Method, r.URL.Path)
		}
		if got != nil {
			*got = llmtest.RecordRequest(t, r, "X-Api-Key", "Anthropic-Version", "Content-Type", "Authorization")
		}
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Request-Id", "req_011CSHoEeqs5C35K2UUqR7Fy")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newAnthropic(t *testing.T, endpoint string, timeout time.Duration) *anthropic.Client {
	t.Helper()
	c, err := anthropic.New(llm.Config{Provider: llm.ProviderAnthropic, Model: "claude-haiku-4-5", APIKey: "sk-ant-test", Endpoint: endpoint, MaxTokens: 300, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAnthropicMessagesSendsAndParsesTheWireFormat(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-env") // must not be used
	var got map[string]any
	srv := anthropicServer(t, 200, nil, "application/json", `{
	  "id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
	  "content": [{"type": "text", "text": "{\"learnings\":"}, {"type": "text", "text": "[]}"}],
	  "stop_reason": "end_turn", "stop_sequence": null,
	  "usage": {"input_tokens": 42, "output_tokens": 7}
	}`, &got)
	resp, err := newAnthropic(t, srv.URL, 0).Complete(context.Background(), llm.Request{System: "be brief", Prompt: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"learnings":[]}` || resp.InputTokens != 42 || resp.OutputTokens != 7 || resp.StopReason != "end_turn" || resp.Model != "claude-haiku-4-5-20251001" {
		t.Errorf("got %+v", resp)
	}
	if got["X-Api-Key"] != "sk-ant-test" || got["Anthropic-Version"] != "2023-06-01" || got["Content-Type"] != "application/json" || got["Authorization"] != "" {
		t.Errorf("headers: got key %v, version %v, content-type %v, authorization %v", got["X-Api-Key"], got["Anthropic-Version"], got["Content-Type"], got["Authorization"])
	}
	want := map[string]any{
		"model":       "claude-haiku-4-5",
		"max_tokens":  300,
		"temperature": 0,
		"system":      []any{map[string]any{"type": "text", "text": "be brief"}},
		"messages":    []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hello"}}}},
	}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != llmtest.MustJSON(t, v) {
			t.Errorf("request %s: got %s, want %s", k, g, llmtest.MustJSON(t, v))
		}
	}
}

func anthropicErrorBody(typ, msg string) string {
	return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`
}

func TestAnthropicFailuresAreClassified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		header      map[string]string
		contentType string
		body        string
		kind        llm.Kind
		retryAfter  time.Duration
	}{
		{"rate limited", 429, map[string]string{"Retry-After": "7"}, "application/json", anthropicErrorBody("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), llm.KindThrottled, 7 * time.Second},
		{"overloaded", 529, nil, "application/json", anthropicErrorBody("overloaded_error", "Overloaded"), llm.KindServer, 0},
		{"overloaded, retry after", 529, map[string]string{"Retry-After": "4"}, "application/json", anthropicErrorBody("overloaded_error", "Overloaded"), llm.KindServer, 4 * time.Second},
		{"an error message of a megabyte", 400, nil, "application/json", anthropicErrorBody("invalid_request_error", strings.Repeat("é", 512<<10)), llm.KindBadRequest, 0},
		{"api error", 500, nil, "application/json", anthropicErrorBody("api_error", "Internal server error"), llm.KindServer, 0},
		{"authentication", 401, nil, "application/json", anthropicErrorBody("authentication_error", "invalid x-api-key"), llm.KindAuth, 0},
		{"permission", 403, nil, "application/json", anthropicErrorBody("permission_error", "Your API key does not have permission to use the specified resource."), llm.KindAuth, 0},
		{"invalid request", 400, nil, "application/json", anthropicErrorBody("invalid_request_error", "max_tokens: Field required"), llm.KindBadRequest, 0},
		{"unknown model", 404, nil, "application/json", anthropicErrorBody("not_found_error", "model: claude-9"), llm.KindBadRequest, 0},
		{"too large", 413, nil, "application/json", anthropicErrorBody("request_too_large", "Request exceeds the maximum allowed number of bytes."), llm.KindBadRequest, 0},
		{"gateway html", 502, nil, "text/html", `<html>bad gateway</html>`, llm.KindServer, 0},
		{"no text", 200, nil, "application/json", `{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":0}}`, llm.KindEmpty, 0},
		{"refusal", 200, nil, "application/json", `{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[],"stop_reason":"refusal","usage":{"input_tokens":3,"output_tokens":0}}`, llm.KindEmpty, 0},
		{"not json", 200, nil, "application/json", `{"id":`, llm.KindMalformed, 0},
		{"html", 200, nil, "text/html", `<html>captive portal</html>`, llm.KindMalformed, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := anthropicServer(t, tt.status, tt.header, tt.contentType, tt.body, nil)
			_, err := newAnthropic(t, srv.URL, 0).Complete(context.Background(), llm.Request{Prompt: "x"})
			llmtest.CheckFailure(t, err, llm.ProviderAnthropic, tt.kind, tt.status, tt.retryAfter)
			llmtest.CheckMessageBounded(t, err)
		})
	}
}

func TestNewAnthropicNeedsModelKeyAndURL(t *testing.T) {
	t.Parallel()
	for _, cfg := range []llm.Config{
		{APIKey: "k"},
		{Model: "claude-haiku-4-5"},
		{Model: "claude-haiku-4-5", APIKey: "k", Endpoint: "api.anthropic.com"},
	} {
		if _, err := anthropic.New(cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
