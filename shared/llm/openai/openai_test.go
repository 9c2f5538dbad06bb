package openai_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/agentmem/agentmem/shared/llm/openai"
)

// openAIServer answers like an OpenAI-compatible chat completions endpoint
// and records the request it got.
func openAIServer(t *testing.T, status int, header map[string]string, body string, got *map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("got %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		}
		if got != nil {
			*got = llmtest.RecordRequest(t, r, "authorization", "content-type")
		}
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newOpenAI(t *testing.T, endpoint string) *openai.Client {
	t.Helper()
	c, err := openai.New(llm.Config{Provider: llm.ProviderOpenAI, Model: "llama3.1:8b", Endpoint: endpoint, APIKey: "sk-test", MaxTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOpenAICompleteSendsAndParsesTheWireFormat(t *testing.T) {
	t.Parallel()
	var got map[string]any
	srv := openAIServer(t, 200, nil, `{
	  "id": "chatcmpl-123", "object": "chat.completion", "created": 1795342500, "model": "llama3.1:8b",
	  "choices": [{"index": 0, "message": {"role": "assistant", "content": "[MEMORY]\n- a"}, "finish_reason": "stop"}],
	  "usage": {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49}
	}`, &got)
	resp, err := newOpenAI(t, srv.URL+"/v1").Complete(context.Background(), llm.Request{System: "be brief", Prompt: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "[MEMORY]\n- a" || resp.InputTokens != 42 || resp.OutputTokens != 7 || resp.StopReason != "stop" || resp.Model != "llama3.1:8b" {
		t.Errorf("got %+v", resp)
	}
	if got["model"] != "llama3.1:8b" || got["max_tokens"] != float64(300) || got["stream"] != false {
		t.Errorf("request: got %v", got)
	}
	msgs, _ := got["messages"].([]any)
	if len(msgs) != 2 {
		t.Fatalf("messages: got %v, want system and user", got["messages"])
	}
	if m := msgs[0].(map[string]any); m["role"] != "system" || m["content"] != "be brief" {
		t.Errorf("system message: got %v", m)
	}
	if m := msgs[1].(map[string]any); m["role"] != "user" || m["content"] != "hello" {
		t.Errorf("user message: got %v", m)
	}
	if got["authorization"] != "Bearer sk-test" || got["content-type"] != "application/json" {
		t.Errorf("headers: got %v %v", got["authorization"], got["content-type"])
	}
}

func TestOpenAIFailuresAreClassified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		kind       llm.Kind
		retryAfter time.Duration
	}{
		{"throttled", 429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, llm.KindThrottled, 7 * time.Second},
		{"auth", 401, nil, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, llm.KindAuth, 0},
		{"bad request", 400, nil, `{"error":{"message":"model not found","type":"invalid_request_error"}}`, llm.KindBadRequest, 0},
		{"ollama string error", 404, nil, `{"error":"model \"llama9\" not found, try pulling it first"}`, llm.KindBadRequest, 0},
		{"server", 503, nil, `upstream overloaded`, llm.KindServer, 0},
		{"overloaded, retry after", 503, map[string]string{"Retry-After": "3"}, `{"error":{"message":"The server is overloaded","type":"server_error"}}`, llm.KindServer, 3 * time.Second},
		{"an error message of a megabyte", 400, nil, `{"error":{"message":"` + strings.Repeat("é", 512<<10) + `"}}`, llm.KindBadRequest, 0},
		{"empty content", 200, nil, `{"choices":[{"message":{"role":"assistant","content":""},"finish_reason":"length"}]}`, llm.KindEmpty, 0},
		{"null content", 200, nil, `{"choices":[{"message":{"role":"assistant","content":null},"finish_reason":"content_filter"}]}`, llm.KindEmpty, 0},
		{"no choices", 200, nil, `{"choices":[]}`, llm.KindMalformed, 0},
		{"not json", 200, nil, `<html>proxy error</html>`, llm.KindMalformed, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := openAIServer(t, tt.status, tt.header, tt.body, nil)
			_, err := newOpenAI(t, srv.URL+"/v1").Complete(context.Background(), llm.Request{Prompt: "x"})
			llmtest.CheckFailure(t, err, llm.ProviderOpenAI, tt.kind, tt.status, tt.retryAfter)
			llmtest.CheckMessageBounded(t, err)
		})
	}
}

func TestChatCompletionsURL(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                          "https://api.openai.com/v1/chat/completions",
		"http://localhost:11434":    "http://localhost:11434/v1/chat/completions",
		"http://localhost:11434/":   "http://localhost:11434/v1/chat/completions",
		"http://localhost:8000/v1/": "http://localhost:8000/v1/chat/completions",
		"https://x.example/openai/v1/chat/completions": "https://x.example/openai/v1/chat/completions",
	}
	for in, want := range tests {
		got, err := openai.ChatCompletionsURL(in)
		if err != nil || got != want {
			t.Errorf("ChatCompletionsURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"localhost:11434", "ftp://x", "http://"} {
		if _, err := openai.ChatCompletionsURL(bad); err == nil {
			t.Errorf("ChatCompletionsURL(%q): no error", bad)
		}
	}
}
