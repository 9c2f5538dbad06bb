// Package dreamtest is a scripted stand-in for an OpenAI-compatible chat
// completions endpoint, for the tests and benchmarks of Deep Dream: it
// decodes requests as the real API receives them and answers in the
// documented response format, so that the real llm.OpenAI client is what
// talks to it.
package dreamtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
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
}

// NewChat starts a stand-in, closed when the test ends.
func NewChat(t testing.TB, answer Answer) *Chat {
	c := &Chat{answer: answer}
	c.Server = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.Close)
	return c
}

// Client returns the real OpenAI-compatible client pointed at the
// stand-in, with the given timeout.
func (c *Chat) Client(t testing.TB, timeout time.Duration) llm.Client {
	t.Helper()
	client, err := llm.NewOpenAI(llm.Config{Provider: llm.ProviderOpenAI, Model: "test-model", Endpoint: c.URL + "/v1", Timeout: timeout})
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

// Prompts returns the prompts received so far.
func (c *Chat) Prompts() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.prompts)
}

func (c *Chat) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) == 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`)
		return
	}
	prompt := req.Messages[len(req.Messages)-1].Content
	c.mu.Lock()
	c.prompts = append(c.prompts, prompt)
	answer := c.answer
	c.mu.Unlock()
	rep := answer(r.Context(), prompt)
	w.Header().Set("Content-Type", "application/json")
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.WriteHeader(rep.Status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"server_error"}}`, rep.Text)
		return
	}
	if rep.Finish == "" {
		rep.Finish = "stop"
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1795402800, "model": req.Model,
		"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": rep.Text}, "finish_reason": rep.Finish}},
		"usage":   map[string]int{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(rep.Text) / 4, "total_tokens": (len(prompt) + len(rep.Text)) / 4},
	})
}
