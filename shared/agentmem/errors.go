// Package agentmem holds the domain of the agentmem service: memories,
// personalities, their validation rules and the error codes every adapter
// (HTTP, DynamoDB, CLI) speaks. It imports nothing from the adapters.
package agentmem

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Error codes. Each adapter translates its own failures into one of these;
// the HTTP adapter maps each code to exactly one status (see httpapi).
const (
	EInvalid             = "invalid"              // bad input: 400
	ENotFound            = "not_found"            // no such thing in this scope: 404
	EConflict            = "conflict"             // version mismatch or concurrent change: 409
	EMethodNotAllowed    = "method_not_allowed"   // route exists, method does not: 405
	ETooLarge            = "payload_too_large"    // body over the cap: 413
	EUnsupportedMedia    = "unsupported_media"    // body not JSON: 415
	ELLMUnavailable      = "llm_unavailable"      // no LLM configured: 503
	ELLMFailed           = "llm_failed"           // the LLM failed, timed out or answered garbage: 502
	EBusy                = "busy"                 // a lease is held by someone else (dreams, extraction runs): 409
	ENoRoute             = "no_route"             // no route has this method and path (a wrong base URL?): 404
	EForbidden           = "forbidden"            // the caller's identity may not act for this agent, or is an agent's task on a route for people: 403
	EIdempotencyMismatch = "idempotency_mismatch" // an idempotency key reused with another request: 422
	EUnavailable         = "unavailable"          // the store is unreachable, throttled or too slow: 503
	EInternal            = "internal"             // anything else: 500
)

// Error is a domain error: a code from the list above, a message meant
// for the caller and, optionally, the internal cause. The cause is for logs
// and for errors.Is/As (an *llm.Error's kind, a store failure); it never
// reaches a caller: ErrorMessage and the JSON error envelope carry Code and
// Message only.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Err is the internal cause, if any.
	Err error `json:"-"`
	// RetryAfter, when set, tells the caller how long to wait before
	// trying again (a held lease, a restarting database); the HTTP
	// adapter sends it as Retry-After.
	RetryAfter time.Duration `json:"-"`
}

// Error implements the error interface; the text includes the cause, for
// logs (once: a message made with %w already shows it).
func (e *Error) Error() string {
	if e.Err != nil && !strings.Contains(e.Message, e.Err.Error()) {
		return fmt.Sprintf("agentmem %s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("agentmem %s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
// An error argument formatted with %w becomes the cause as well (its text
// is then part of the message, as with fmt.Errorf); to keep a cause out of
// the message, use Wrap.
func Errorf(code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	e := &Error{Code: code, Message: err.Error()}
	switch w := err.(type) {
	case interface{ Unwrap() error }:
		e.Err = w.Unwrap()
	case interface{ Unwrap() []error }:
		e.Err = errors.Join(w.Unwrap()...)
	}
	return e
}

// Wrap returns an *Error with the given code, a formatted message for the
// caller and cause as its internal cause, which the message does not
// show.
func Wrap(code string, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// ErrorEnvelope is the JSON body of every error answer of the API,
// {"error":{"code","message"}}: the HTTP adapter writes it, the Go client
// reads it.
type ErrorEnvelope struct {
	Error *Error `json:"error"`
}

// Envelope returns the envelope of err: its code and caller-facing message
// (ErrorCode, ErrorMessage), never its internal cause.
func Envelope(err error) ErrorEnvelope {
	return ErrorEnvelope{Error: &Error{Code: ErrorCode(err), Message: ErrorMessage(err)}}
}

// ErrorCode returns the code of the first *Error in err's chain, EInternal
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// RetryAfterOf returns the RetryAfter of the first *Error in err's chain
// that sets one, or 0.
func RetryAfterOf(err error) time.Duration {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return 0
		}
		if e.RetryAfter > 0 {
			return e.RetryAfter
		}
		err = e.Err
	}
	return 0
}

// ErrorMessage returns the caller-facing message of err: the message of the
// first *Error in its chain, or a generic text for internal errors so that
// nothing internal leaks.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
