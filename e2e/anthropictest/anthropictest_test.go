package anthropictest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/e2e/anthropictest"
	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// The stand-in is held to the Messages API's wire format by Anthropic's
// own Go SDK: what it answers, JSON or server-sent events, the SDK must
// decode as it decodes the real API's answers, or the e2e tests would
// prove things about a protocol Claude Code never speaks.

func client(s *anthropictest.Server) sdk.Client {
	return sdk.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(s.URL),
		option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

func params(prompt string) sdk.MessageNewParams {
	return sdk.MessageNewParams{
		Model: "claude-stand-in", MaxTokens: 256,
		System:   []sdk.TextBlockParam{{Text: "You are a test."}},
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(prompt))},
		Tools: []sdk.ToolUnionParam{{OfTool: &sdk.ToolParam{Name: "memory_search",
			InputSchema: sdk.ToolInputSchemaParam{Properties: map[string]any{"query": map[string]any{"type": "string"}}}}}},
	}
}

// script answers "search" with a tool call, anything else with text.
func script(req *anthropictest.MessagesRequest) anthropictest.Reply {
	if strings.Contains(req.LastUserText(), "search") {
		return anthropictest.Reply{Text: "Looking.", ToolUse: &anthropictest.ToolUse{ID: "toolu_1", Name: "memory_search", Input: map[string]any{"query": "webhooks"}}}
	}
	return anthropictest.Reply{Text: "The payment provider retries webhooks 3 times."}
}

// check asserts a decoded message carries what script answered to prompt.
func check(t *testing.T, msg sdk.Message, wantTool bool) {
	t.Helper()
	var text strings.Builder
	var tool *sdk.ToolUseBlock
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			tu := b.AsToolUse()
			tool = &tu
		}
	}
	if !wantTool {
		if got, want := text.String(), "The payment provider retries webhooks 3 times."; got != want {
			t.Errorf("text: got %q, want %q", got, want)
		}
		if got, want := msg.StopReason, sdk.StopReasonEndTurn; got != want {
			t.Errorf("stop reason: got %q, want %q", got, want)
		}
		if tool != nil {
			t.Errorf("unexpected tool_use %+v", tool)
		}
		return
	}
	if got, want := msg.StopReason, sdk.StopReasonToolUse; got != want {
		t.Errorf("stop reason: got %q, want %q", got, want)
	}
	if tool == nil {
		t.Fatalf("no tool_use block in %+v", msg.Content)
	}
	var input struct{ Query string }
	if err := json.Unmarshal(tool.Input, &input); err != nil || tool.Name != "memory_search" || tool.ID != "toolu_1" || input.Query != "webhooks" {
		t.Errorf("tool_use: got %s %s %s (%v), want toolu_1 memory_search {query: webhooks}", tool.ID, tool.Name, tool.Input, err)
	}
	if msg.Usage.OutputTokens < 1 {
		t.Errorf("usage: got %+v, want output tokens", msg.Usage)
	}
}

func TestSDKDecodesTheStandInsAnswers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		prompt string
		stream bool
		tool   bool
	}{
		{"json text", "what do you know?", false, false},
		{"json tool_use", "search your memory", false, true},
		{"stream text", "what do you know?", true, false},
		{"stream tool_use", "search your memory", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := anthropictest.New(t, script)
			c := client(s)
			ctx := context.Background()
			var msg sdk.Message
			if tt.stream {
				st := c.Messages.NewStreaming(ctx, params(tt.prompt))
				for st.Next() {
					if err := msg.Accumulate(st.Current()); err != nil {
						t.Fatalf("accumulate: %v", err)
					}
				}
				if err := st.Err(); err != nil {
					t.Fatalf("stream: %v", err)
				}
			} else {
				m, err := c.Messages.New(ctx, params(tt.prompt))
				if err != nil {
					t.Fatal(err)
				}
				msg = *m
			}
			check(t, msg, tt.tool)

			// What the SDK sent is what the stand-in recorded.
			reqs := s.Messages()
			if len(reqs) != 1 {
				t.Fatalf("recorded %d messages requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.SystemText() != "You are a test." || r.LastUserText() != tt.prompt || !r.HasTool("memory_search") || r.Stream != tt.stream {
				t.Errorf("recorded request: system %q, user %q, tool %v, stream %v", r.SystemText(), r.LastUserText(), r.HasTool("memory_search"), r.Stream)
			}
			if !s.Seen(tt.prompt) {
				t.Errorf("Seen(%q) = false", tt.prompt)
			}
		})
	}
}

func TestSDKReadsTheStandInsErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status  int
		errType string
	}{
		{http.StatusTooManyRequests, "rate_limit_error"},
		{529, "overloaded_error"},
		{http.StatusInternalServerError, ""},
	} {
		s := anthropictest.New(t, func(*anthropictest.MessagesRequest) anthropictest.Reply {
			return anthropictest.Reply{Status: tt.status, ErrorType: tt.errType, Text: "try later"}
		})
		c := client(s)
		_, err := c.Messages.New(context.Background(), params("hello"))
		var api *sdk.Error
		if !errors.As(err, &api) {
			t.Fatalf("status %d: got %v, want an *anthropic.Error", tt.status, err)
		}
		want := tt.errType
		if want == "" {
			want = "api_error"
		}
		if api.StatusCode != tt.status || string(api.Type()) != want || !strings.Contains(api.RawJSON(), "try later") {
			t.Errorf("status %d: got status %d type %q body %s", tt.status, api.StatusCode, api.Type(), api.RawJSON())
		}
	}
}

func TestMalformedRequestIsRefusedAsTheAPIDoes(t *testing.T) {
	t.Parallel()
	s := anthropictest.New(t, anthropictest.Say("unused"))
	resp, err := http.Post(s.URL+"/v1/messages", "application/json", strings.NewReader(`{"messages":`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Type  string
		Error struct{ Type, Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusBadRequest || body.Type != "error" || body.Error.Type != "invalid_request_error" {
		t.Errorf("got %d %+v, want 400 invalid_request_error", resp.StatusCode, body)
	}
}
