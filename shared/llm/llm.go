// Package llm is agentmem's one small interface to a language model, with
// real providers behind it: an OpenAI-compatible chat completions endpoint
// (OpenAI, Ollama, vLLM), Amazon Bedrock Converse, the Anthropic Messages
// API and the `claude` CLI. Which one is used is configuration
// (AGENTMEM_LLM); callers only see Client, Request, Response and *Error.
package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/backoff"
)

// Client completes one prompt. Implementations are safe for concurrent use.
type Client interface {
	// Complete sends req and returns the model's answer. Every failure is
	// an *Error whose Kind tells the caller what happened.
	Complete(ctx context.Context, req Request) (Response, error)
	// Name identifies the provider and model for logs, e.g.
	// "openai:llama3.1:8b".
	Name() string
}

// Request is one single-turn completion.
type Request struct {
	// System is the system prompt (instructions); may be empty.
	System string
	// Prompt is the user message.
	Prompt string
	// MaxTokens caps the answer; 0 means the client's configured default.
	MaxTokens int
	// Temperature is the sampling temperature; agentmem's prompts want
	// deterministic answers, so 0 is a sensible value and the default.
	Temperature float64
}

// Response is the model's answer.
type Response struct {
	Text         string
	Model        string
	InputTokens  int
	OutputTokens int
	// StopReason is the provider's reason for stopping ("stop",
	// "end_turn", "max_tokens", "length", ...), as sent.
	StopReason string
}

// Kind classifies a failure so that callers can decide what to do (retry,
// report a configuration problem, give up).
type Kind string

// Failure kinds.
const (
	KindNotConfigured Kind = "not_configured" // AGENTMEM_LLM=none or missing settings
	KindTimeout       Kind = "timeout"        // the deadline passed
	KindThrottled     Kind = "throttled"      // 429 or the provider's throttling error
	KindAuth          Kind = "auth"           // credentials refused (401, 403)
	KindBadRequest    Kind = "bad_request"    // the provider refused the request (400, 404, 422)
	KindServer        Kind = "server"         // 5xx, overloaded, or a transport failure
	KindEmpty         Kind = "empty"          // a well-formed answer with no text
	KindMalformed     Kind = "malformed"      // an answer that does not follow the provider's format
)

// Error is every failure a Client returns.
type Error struct {
	Kind     Kind
	Provider string
	// Status is the HTTP status when there was one.
	Status int
	// RetryAfter is the provider's hint for throttled requests (0: none).
	RetryAfter time.Duration
	Message    string
	Err        error
}

// Error implements error.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "llm %s: %s", e.Provider, e.Kind)
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Temporary reports whether retrying the same request later may succeed.
func (e *Error) Temporary() bool {
	return e.Kind == KindThrottled || e.Kind == KindServer || e.Kind == KindTimeout
}

// KindOf returns the Kind of err's *Error, or "" when it has none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// ErrNotConfigured is returned by the Disabled client.
var ErrNotConfigured = &Error{Kind: KindNotConfigured, Provider: "none", Message: "no LLM configured (set AGENTMEM_LLM to bedrock, anthropic, openai or claude)"}

// Disabled is the client of AGENTMEM_LLM=none: every call fails with
// ErrNotConfigured.
type Disabled struct{}

// Complete implements Client.
func (Disabled) Complete(context.Context, Request) (Response, error) {
	return Response{}, ErrNotConfigured
}

// Name implements Client.
func (Disabled) Name() string { return "none" }

var _ Client = Disabled{}

// ContextError turns a context failure into a timeout *Error, or returns
// nil when ctx is fine.
func ContextError(provider string, ctx context.Context, err error) *Error {
	if ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return &Error{Kind: KindTimeout, Provider: provider, Message: "no answer before the deadline", Err: err}
}

// StatusKind classifies an HTTP status the provider gave no better reason
// for.
func StatusKind(status int) Kind {
	switch {
	case status == http.StatusTooManyRequests:
		return KindThrottled
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return KindTimeout
	case status >= 500 || status == 0:
		return KindServer
	}
	return KindBadRequest
}

// MaxAnswerBytes bounds how much of a provider's answer is read.
const MaxAnswerBytes = 4 << 20

// HTTPError classifies a provider's non-2xx answer: 429 is throttled,
// 401 and 403 auth, 408 and 504 timeout, other 5xx server, the rest bad
// request. The answer's Retry-After is kept for the failures Retry
// retries (throttled, and server: a 503 "overloaded" asks for it too).
func HTTPError(provider string, resp *http.Response, msg string) *Error {
	e := &Error{Kind: StatusKind(resp.StatusCode), Provider: provider, Status: resp.StatusCode, Message: msg}
	if e.Kind == KindThrottled || e.Kind == KindServer {
		e.RetryAfter = backoff.RetryAfter(resp.Header)
	}
	return e
}

// MaxMessageBytes bounds the provider's message an *Error carries: an
// error body may be megabytes, and the message goes into logs, answers
// and the dream diary (a DynamoDB item of at most 400 KB).
const MaxMessageBytes = 1 << 10

// Snippet returns the start of a body, for an error message.
func Snippet(b []byte) string {
	return clip(strings.TrimSpace(string(b)), 200)
}

// ClipMessage bounds a provider's error message to MaxMessageBytes, cut
// on a rune boundary.
func ClipMessage(s string) string {
	return clip(s, MaxMessageBytes)
}

// clip cuts s to at most max bytes on a rune boundary, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
