package dream_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/llm"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// reply is what the chat completions stand-in answers.
type reply struct {
	status int    // 0: 200
	text   string // the assistant message
	finish string // finish_reason, default "stop"
}

// chatServer is an OpenAI-compatible chat completions endpoint for tests:
// it decodes the request as the real API receives it and answers in the
// documented response format. Each prompt goes to answer.
type chatServer struct {
	mu      sync.Mutex
	prompts []string
	answer  func(ctx context.Context, prompt string) reply
}

func (c *chatServer) Prompts() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.prompts)
}

// newChat starts the stand-in and returns it with the real OpenAI client
// pointed at it.
func newChat(t testing.TB, answer func(ctx context.Context, prompt string) reply) (*chatServer, llm.Client) {
	t.Helper()
	return newChatTimeout(t, answer, 5*time.Second)
}

// newChatTimeout is newChat with the client's timeout.
func newChatTimeout(t testing.TB, answer func(ctx context.Context, prompt string) reply, timeout time.Duration) (*chatServer, llm.Client) {
	t.Helper()
	c := &chatServer{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) == 0 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		prompt := req.Messages[len(req.Messages)-1].Content
		c.mu.Lock()
		c.prompts = append(c.prompts, prompt)
		c.mu.Unlock()
		rep := c.answer(r.Context(), prompt)
		w.Header().Set("Content-Type", "application/json")
		if rep.status != 0 && rep.status != 200 {
			w.WriteHeader(rep.status)
			fmt.Fprintf(w, `{"error":{"message":%q,"type":"server_error"}}`, rep.text)
			return
		}
		if rep.finish == "" {
			rep.finish = "stop"
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1795402800, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": rep.text}, "finish_reason": rep.finish}},
			"usage":   map[string]int{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(rep.text) / 4, "total_tokens": (len(prompt) + len(rep.text)) / 4},
		})
	}))
	t.Cleanup(srv.Close)
	client, err := llm.NewOpenAI(llm.Config{Provider: llm.ProviderOpenAI, Model: "test-model", Endpoint: srv.URL + "/v1", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return c, client
}

// fixed answers every prompt with text.
func fixed(text string) func(context.Context, string) reply {
	return func(context.Context, string) reply { return reply{text: text} }
}

// now is the tests' clock: the dream runs at 03:00 UTC on 2026-11-22.
var now = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

// fixture is a scope with a core and daily records, on fresh tables.
type fixture struct {
	t     testing.TB
	store *dynamostore.Store
	ctx   context.Context
	clock time.Time
	mu    sync.Mutex
}

func newFixture(t testing.TB) *fixture {
	f := &fixture{t: t, store: dynamotest.NewStore(t), ctx: context.Background(), clock: now}
	f.store.Now = func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.clock }
	return f
}

func (f *fixture) advance(d time.Duration) { f.mu.Lock(); f.clock = f.clock.Add(d); f.mu.Unlock() }

func (f *fixture) dreamer(client llm.Client) *dream.Dreamer {
	return dream.New(f.store, client, quiet, dream.Config{})
}

// memory creates a memory in nori/p.
func (f *fixture) memory(m agentmem.Memory) agentmem.Memory {
	f.t.Helper()
	m.AgentName, m.ProjectID = "nori", "p"
	if m.Source == "" {
		m.Source = agentmem.SourceExtraction
	}
	got, err := f.store.CreateMemory(f.ctx, m)
	if err != nil {
		f.t.Fatal(err)
	}
	return got
}

// daily appends a record to nori/p at the given time.
func (f *fixture) daily(title, content, at string) {
	f.t.Helper()
	if _, err := f.store.AppendDaily(f.ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: title, Content: content, At: at}); err != nil {
		f.t.Fatal(err)
	}
}

// core returns the scope's memories by id.
func (f *fixture) core() map[string]agentmem.Memory {
	f.t.Helper()
	out := map[string]agentmem.Memory{}
	if err := f.store.EachMemory(f.ctx, "nori", "p", func(m agentmem.Memory) error {
		out[m.ID] = m
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// contents returns the sorted contents of the scope's memories.
func (f *fixture) contents() []string {
	var out []string
	for _, m := range f.core() {
		out = append(out, m.Content)
	}
	slices.Sort(out)
	return out
}

// countersConsistent fails the test when the scope counters differ from
// a recount.
func (f *fixture) countersConsistent() {
	f.t.Helper()
	got, err := f.store.GetScopeCounts(f.ctx, "nori", "p")
	if err != nil {
		f.t.Fatal(err)
	}
	want, err := f.store.RecountScope(f.ctx, "nori", "p")
	if err != nil {
		f.t.Fatal(err)
	}
	if got.Total != want.Total || got.Bytes != want.Bytes || fmt.Sprint(got.ByType) != fmt.Sprint(want.ByType) {
		f.t.Errorf("counters %+v drifted from the recount %+v", got, want)
	}
}

func (f *fixture) state() dynamostore.DreamState {
	st, err := f.store.GetDreamState(f.ctx, "nori", "p")
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

func (f *fixture) diary(date string) []agentmem.Dream {
	ds, err := f.store.DreamsOn(f.ctx, "nori", "p", date)
	if err != nil {
		f.t.Fatal(err)
	}
	return ds
}

func run(d *dream.Dreamer, req dream.Request) (dream.Result, error) {
	if req.AgentName == "" {
		req.AgentName, req.ProjectID = "nori", "p"
	}
	return d.Run(context.Background(), req)
}

// answer builds a dream answer from "## Heading" and "- bullet" lines.
func answer(lines ...string) string {
	return "[MEMORY]\n" + strings.Join(lines, "\n") + "\n\n[DREAM]\nI consolidated the records of the last days.\n"
}
