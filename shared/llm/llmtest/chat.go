package llmtest

// Chat is a scripted stand-in for an OpenAI-compatible chat completions
// endpoint, for the tests and benchmarks of everything that asks a model
// (extraction, Deep Dream, the CLI and API client tests) and, through
// Handler, the tools/fakellm development server: it decodes requests as
// the real API receives them and answers in the documented response
// format, so that the real openai.Client is what talks to it.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/openai"
)

// Reply is what the stand-in answers to one prompt.
type Reply struct {
	Status int    // HTTP status; 0 means 200
	Text   string // the assistant message (the error message for a failure)
	Finish string // finish_reason; "" means "stop"
}

// Answer decides the reply to a prompt; ctx ends when the client gives up.
type Answer func(ctx context.Context, prompt string) Reply

// Fixed answers every prompt with text.
func Fixed(text string) Answer {
	return func(context.Context, string) Reply { return Reply{Text: text} }
}

// Chat is the stand-in.
type Chat struct {
	*httptest.Server

	mu      sync.Mutex
	prompts []string
	answer  Answer
	usage   Usage
}

// Usage is what a stand-in served: calls, and tokens counted as the
// stand-in reports them (a token per 4 bytes), and the largest max_tokens
// a request asked for.
type Usage struct {
	Calls, InputTokens, OutputTokens, MaxTokens int
}

// NewChat starts a stand-in, closed when the test ends.
func NewChat(t testing.TB, answer Answer) *Chat {
	c := &Chat{answer: answer}
	c.Server = httptest.NewServer(handler(func(ctx context.Context, prompt string) Reply {
		c.mu.Lock()
		c.prompts = append(c.prompts, prompt)
		answer := c.answer
		c.mu.Unlock()
		return answer(ctx, prompt)
	}, func(in, out, maxTokens int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.usage.Calls++
		c.usage.InputTokens += in
		c.usage.OutputTokens += out
		c.usage.MaxTokens = max(c.usage.MaxTokens, maxTokens)
	}))
	t.Cleanup(c.Close)
	return c
}

// Client returns the real OpenAI-compatible client pointed at the
// stand-in, with the given timeout.
func (c *Chat) Client(t testing.TB, timeout time.Duration) llm.Client {
	t.Helper()
	client, err := openai.New(llm.Config{Provider: llm.ProviderOpenAI, Model: "test-model", Endpoint: c.URL + "/v1", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// SetAnswer replaces the answer function.
func (c *Chat) SetAnswer(a Answer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answer = a
}

// Usage returns what the stand-in served so far.
func (c *Chat) Usage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usage
}

// Prompts returns the prompts received so far.
func (c *Chat) Prompts() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.prompts)
}

// Handler serves POST /v1/chat/completions in the OpenAI wire format,
// answering the last message of each request with answer. As a real
// endpoint does, an answer longer than the request's max_tokens (counted
// as the usage is, a token per 4 bytes) is cut there with finish_reason
// "length". tools/fakellm serves it too.
func Handler(answer Answer) http.Handler { return handler(answer, nil) }

func handler(answer Answer, served func(in, out, maxTokens int)) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
			Stream    bool `json:"stream"`
			MaxTokens int  `json:"max_tokens"`
		}
		fail := func(status int, typ, msg string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": msg, "type": typ}})
		}
		switch {
		case r.Method != http.MethodPost:
			fail(http.StatusMethodNotAllowed, "invalid_request_error", "POST only")
			return
		case json.NewDecoder(io.LimitReader(r.Body, 16<<20)).Decode(&req) != nil || len(req.Messages) == 0:
			fail(http.StatusBadRequest, "invalid_request_error", "want {model, messages:[...]}")
			return
		case req.Stream:
			fail(http.StatusBadRequest, "invalid_request_error", "streaming is not supported")
			return
		}
		prompt := req.Messages[len(req.Messages)-1].Content
		rep := answer(r.Context(), prompt)
		if rep.Status != 0 && rep.Status != http.StatusOK {
			fail(rep.Status, "server_error", rep.Text)
			return
		}
		if rep.Finish == "" {
			rep.Finish = "stop"
		}
		if req.MaxTokens > 0 && len(rep.Text)/4 > req.MaxTokens {
			cut := req.MaxTokens * 4
			for cut > 0 && !utf8.RuneStart(rep.Text[cut]) {
				cut--
			}
			rep.Text, rep.Finish = rep.Text[:cut], "length"
		}
		if served != nil {
			served(len(prompt)/4, len(rep.Text)/4, req.MaxTokens)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", time.Now().UnixNano()), "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": rep.Text}, "finish_reason": rep.Finish}},
			"usage":   map[string]int{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(rep.Text) / 4, "total_tokens": (len(prompt) + len(rep.Text)) / 4},
		})
	})
	return mux
}
