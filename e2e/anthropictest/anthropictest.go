// Package anthropictest is a stand-in for the Anthropic Messages API that
// the real Claude Code talks to in the end-to-end tests
// (ANTHROPIC_BASE_URL pointed at it): it records every request as Claude
// Code sent it, so a test can assert exactly what reached the model, and
// answers POST /v1/messages from a script, as JSON or as the server-sent
// event stream Claude Code asks for ("stream": true), with text or a
// tool_use block. Other paths (token counting, anything else Claude Code
// may call) are recorded and answered so that the client goes on.
package anthropictest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Request is one request the stand-in received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
	// Messages is the decoded body of a POST /v1/messages (nil otherwise).
	Messages *MessagesRequest
}

// MessagesRequest is the body of POST /v1/messages, as far as the tests
// read it.
type MessagesRequest struct {
	Model     string          `json:"model"`
	MaxTokens int             `json:"max_tokens"`
	Stream    bool            `json:"stream"`
	System    json.RawMessage `json:"system"`
	Messages  []Message       `json:"messages"`
	Tools     []Tool          `json:"tools"`
}

// Message is one message of a request.
type Message struct {
	Role string `json:"role"`
	// Content is a string or a list of content blocks.
	Content json.RawMessage `json:"content"`
}

// Tool is one tool the request offers the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Block is a content block of a message or of the system prompt.
type Block struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result: Content is a string or a list of blocks.
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// blocks decodes a string-or-blocks value into blocks.
func blocks(raw json.RawMessage) []Block {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var bs []Block
	_ = json.Unmarshal(raw, &bs)
	return bs
}

// SystemText is the system prompt's text, its blocks joined by newlines.
func (m *MessagesRequest) SystemText() string { return joinText(blocks(m.System)) }

// Blocks returns the content blocks of message i.
func (m *MessagesRequest) Blocks(i int) []Block { return blocks(m.Messages[i].Content) }

// ToolResults returns the tool_result blocks of every message.
func (m *MessagesRequest) ToolResults() []Block {
	var out []Block
	for i := range m.Messages {
		for _, b := range m.Blocks(i) {
			if b.Type == "tool_result" {
				out = append(out, b)
			}
		}
	}
	return out
}

// ResultText is a tool_result block's text.
func (b Block) ResultText() string { return joinText(blocks(b.Content)) }

// Text is everything the request shows the model as text: the system
// prompt, every message's text blocks and tool results, and the tool
// definitions, joined by newlines.
func (m *MessagesRequest) Text() string {
	parts := []string{m.SystemText()}
	for i := range m.Messages {
		for _, b := range m.Blocks(i) {
			switch b.Type {
			case "tool_result":
				parts = append(parts, b.ResultText())
			case "tool_use":
				parts = append(parts, string(b.Input))
			default:
				parts = append(parts, b.Text)
			}
		}
	}
	for _, t := range m.Tools {
		parts = append(parts, t.Name, t.Description, string(t.InputSchema))
	}
	return strings.Join(parts, "\n")
}

// LastUserText is the text of the last user message.
func (m *MessagesRequest) LastUserText() string {
	for i := len(m.Messages) - 1; i >= 0; i-- {
		if m.Messages[i].Role == "user" {
			return joinText(m.Blocks(i))
		}
	}
	return ""
}

// HasTool reports whether the request offers the model a tool of that name.
func (m *MessagesRequest) HasTool(name string) bool {
	for _, t := range m.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

func joinText(bs []Block) string {
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Reply is the stand-in's answer to one messages request.
type Reply struct {
	// Text is the assistant's text.
	Text string
	// ToolUse, when set, follows the text as a tool_use block, and the
	// stop reason is "tool_use".
	ToolUse *ToolUse
	// Status, when not 0 or 200, answers with that HTTP status and an
	// Anthropic error body of ErrorType ("api_error" when empty) and Text
	// as its message.
	Status    int
	ErrorType string
}

// ToolUse is a tool call the model makes.
type ToolUse struct {
	ID    string
	Name  string
	Input any
}

// Script decides the reply to a messages request.
type Script func(req *MessagesRequest) Reply

// Say answers every messages request with text.
func Say(text string) Script { return func(*MessagesRequest) Reply { return Reply{Text: text} } }

// Server is the stand-in.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	requests []Request
	script   Script
}

// New starts a stand-in answering with script, closed when the test ends.
func New(t testing.TB, script Script) *Server {
	s := &Server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Messages returns the decoded messages requests received so far.
func (s *Server) Messages() []*MessagesRequest {
	var out []*MessagesRequest
	for _, r := range s.Requests() {
		if r.Messages != nil {
			out = append(out, r.Messages)
		}
	}
	return out
}

// Seen reports whether any request body received so far contains text.
func (s *Server) Seen(text string) bool {
	for _, r := range s.Requests() {
		if strings.Contains(string(r.Body), text) {
			return true
		}
	}
	return false
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	isMessages := r.Method == http.MethodPost && r.URL.Path == "/v1/messages"
	if isMessages {
		var m MessagesRequest
		if err := json.Unmarshal(body, &m); err == nil {
			rec.Messages = &m
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	script := s.script
	s.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": len(body) / 4})
	case isMessages && rec.Messages == nil:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "the body is not a messages request")
	case isMessages:
		reply := script(rec.Messages)
		switch {
		case reply.Status != 0 && reply.Status != http.StatusOK:
			typ := reply.ErrorType
			if typ == "" {
				typ = "api_error"
			}
			writeError(w, reply.Status, typ, reply.Text)
		case rec.Messages.Stream:
			stream(w, rec.Messages.Model, reply)
		default:
			writeJSON(w, http.StatusOK, message(rec.Messages.Model, reply))
		}
	default:
		// Anything else Claude Code may ask for: an empty success.
		writeJSON(w, http.StatusOK, map[string]any{})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("request-id", "req_standin")
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

// content returns the reply's content blocks and stop reason.
func content(reply Reply) ([]map[string]any, string) {
	var out []map[string]any
	if reply.Text != "" || reply.ToolUse == nil {
		out = append(out, map[string]any{"type": "text", "text": reply.Text})
	}
	if tu := reply.ToolUse; tu != nil {
		input := tu.Input
		if input == nil {
			input = map[string]any{}
		}
		out = append(out, map[string]any{"type": "tool_use", "id": tu.ID, "name": tu.Name, "input": input})
		return out, "tool_use"
	}
	return out, "end_turn"
}

var ids struct {
	sync.Mutex
	n int
}

func nextID() string {
	ids.Lock()
	defer ids.Unlock()
	ids.n++
	return fmt.Sprintf("msg_standin_%d", ids.n)
}

func usage(output int) map[string]any {
	return map[string]any{"input_tokens": 100, "output_tokens": output, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// message is the non-streaming answer.
func message(model string, reply Reply) map[string]any {
	blocks, stop := content(reply)
	return map[string]any{
		"id": nextID(), "type": "message", "role": "assistant", "model": model,
		"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage(len(reply.Text)/4 + 1),
	}
}

// stream writes the answer as the Messages API's server-sent events.
func stream(w http.ResponseWriter, model string, reply Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	blocks, stop := content(reply)
	event("message_start", map[string]any{"message": map[string]any{
		"id": nextID(), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(1),
	}})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			if text, _ := b["text"].(string); text != "" {
				event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": text}})
			}
		case "tool_use":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			input, _ := json.Marshal(b["input"])
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": len(reply.Text)/4 + 1}})
	event("message_stop", map[string]any{})
}
