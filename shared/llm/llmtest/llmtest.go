// Package llmtest holds what the tests of LLM callers and providers share:
// Chat, a scripted chat-completions stand-in that the real OpenAI-compatible
// client talks to; checking that a failure is classified as expected; and
// recording the request a provider's stand-in server received.
package llmtest

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/llm"
)

// CheckFailure fails t unless err is an *llm.Error of provider with the
// wanted kind, HTTP status (when the answer was not a 200) and RetryAfter.
func CheckFailure(t *testing.T, err error, provider string, kind llm.Kind, status int, retryAfter time.Duration) {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *llm.Error", err)
	}
	if e.Kind != kind || e.RetryAfter != retryAfter || e.Provider != provider {
		t.Errorf("got %s kind %q retryAfter %v (%v), want %s %q %v", e.Provider, e.Kind, e.RetryAfter, err, provider, kind, retryAfter)
	}
	if status != 200 && e.Status != status {
		t.Errorf("status: got %d, want %d", e.Status, status)
	}
}

// CheckMessageBounded fails t unless err's *llm.Error carries a message of
// valid UTF-8 within llm.MaxMessageBytes (and the mark of a cut).
func CheckMessageBounded(t *testing.T, err error) {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *llm.Error", err)
	}
	if len(e.Message) > llm.MaxMessageBytes+len("…") || !utf8.ValidString(e.Message) {
		t.Errorf("message of %d bytes (valid UTF-8 %v), want at most %d", len(e.Message), utf8.ValidString(e.Message), llm.MaxMessageBytes)
	}
}

// RecordRequest returns the JSON body of r as a map, with the named
// headers added under the names given.
func RecordRequest(t *testing.T, r *http.Request, headers ...string) map[string]any {
	t.Helper()
	raw, _ := io.ReadAll(r.Body)
	m := map[string]any{}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Errorf("request body %q: %v", raw, err)
	}
	for _, h := range headers {
		m[h] = r.Header.Get(h)
	}
	return m
}

// MustJSON encodes v, failing t if it cannot.
func MustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
