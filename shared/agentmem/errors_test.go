package agentmem_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// errSecret stands for an internal cause whose text must never reach a
// caller.
var errSecret = errors.New("dial tcp 10.0.0.7:443: connection refused")

func TestErrorCarriesItsCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		err         error
		code        string
		message     string
		cause       error // errors.Is(err, cause) must hold; nil: no cause
		leaksCause  bool  // the message shows the cause's text (the caller asked for it with %w)
		wantUnwraps bool
	}{
		{"Errorf without a cause", agentmem.Errorf(agentmem.EInvalid, "limit must be from %d to %d", 1, 50),
			agentmem.EInvalid, "limit must be from 1 to 50", nil, false, false},
		{"Errorf with %v keeps no cause", agentmem.Errorf(agentmem.EInvalid, "bad: %v", errSecret),
			agentmem.EInvalid, "bad: " + errSecret.Error(), nil, true, false},
		{"Errorf with %w keeps the cause", agentmem.Errorf(agentmem.ENotFound, "open %s: %w", "x", fs.ErrNotExist),
			agentmem.ENotFound, "open x: " + fs.ErrNotExist.Error(), fs.ErrNotExist, false, true},
		{"Errorf with two %w keeps both", agentmem.Errorf(agentmem.EConflict, "%w and %w", fs.ErrExist, errSecret),
			agentmem.EConflict, fs.ErrExist.Error() + " and " + errSecret.Error(), errSecret, true, true},
		{"Wrap keeps the cause out of the message", agentmem.Wrap(agentmem.ELLMFailed, errSecret, "the LLM (%s) failed", "openai"),
			agentmem.ELLMFailed, "the LLM (openai) failed", errSecret, false, true},
		{"Wrap of nil has no cause", agentmem.Wrap(agentmem.ELLMUnavailable, nil, "no LLM"),
			agentmem.ELLMUnavailable, "no LLM", nil, false, false},
		{"wrapped by context", fmt.Errorf("put memory %s: %w", "01J", agentmem.Wrap(agentmem.EConflict, errSecret, "taken")),
			agentmem.EConflict, "taken", errSecret, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := agentmem.ErrorCode(tt.err); got != tt.code {
				t.Errorf("code: got %q, want %q", got, tt.code)
			}
			if got := agentmem.ErrorMessage(tt.err); got != tt.message {
				t.Errorf("message: got %q, want %q", got, tt.message)
			}
			if tt.cause != nil && !errors.Is(tt.err, tt.cause) {
				t.Errorf("errors.Is(err, %v) = false", tt.cause)
			}
			if !tt.leaksCause && strings.Contains(agentmem.ErrorMessage(tt.err), errSecret.Error()) {
				t.Errorf("message %q shows the internal cause", agentmem.ErrorMessage(tt.err))
			}
			var e *agentmem.Error
			if !errors.As(tt.err, &e) {
				t.Fatal("not an *agentmem.Error")
			}
			if got := e.Unwrap() != nil; got != tt.wantUnwraps {
				t.Errorf("Unwrap() != nil: got %v, want %v", got, tt.wantUnwraps)
			}
			// The log text (Error) names the cause; the envelope never does.
			if tt.cause != nil && !strings.Contains(tt.err.Error(), tt.cause.Error()) {
				t.Errorf("Error() %q does not name the cause %q", tt.err.Error(), tt.cause)
			}
			body, err := json.Marshal(agentmem.Envelope(tt.err))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(map[string]map[string]string{"error": {"code": tt.code, "message": tt.message}})
			if string(body) != string(want) {
				t.Errorf("envelope: got %s, want %s", body, want)
			}
		})
	}
}

func TestEnvelopeOfOtherErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{errSecret, `{"error":{"code":"internal","message":"internal error"}}`},
		{fmt.Errorf("read: %w", errSecret), `{"error":{"code":"internal","message":"internal error"}}`},
		{agentmem.Errorf(agentmem.ETooLarge, "request body is %d bytes", 70000), `{"error":{"code":"payload_too_large","message":"request body is 70000 bytes"}}`},
	}
	for _, tt := range tests {
		body, err := json.Marshal(agentmem.Envelope(tt.err))
		if err != nil || string(body) != tt.want {
			t.Errorf("Envelope(%v): got %s, %v; want %s", tt.err, body, err, tt.want)
		}
	}
}

func TestEnvelopeDecodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body      string
		code, msg string
	}{
		{`{"error":{"code":"not_found","message":"no memory X"}}`, agentmem.ENotFound, "no memory X"},
		{`{"error":{"code":"busy","message":"a dream is running","detail":"ignored"}}`, agentmem.EBusy, "a dream is running"},
	}
	for _, tt := range tests {
		var env agentmem.ErrorEnvelope
		if err := json.Unmarshal([]byte(tt.body), &env); err != nil || env.Error == nil || env.Error.Code != tt.code || env.Error.Message != tt.msg || env.Error.Err != nil {
			t.Errorf("%s: got %+v, %v; want %s %q", tt.body, env.Error, err, tt.code, tt.msg)
		}
	}
}
