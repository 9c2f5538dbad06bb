// Package agentmem holds the domain of the agentmem service: memories,
// personalities, their validation rules and the error codes every adapter
// (HTTP, DynamoDB, CLI) speaks. It imports nothing from the adapters.
package agentmem

import (
	"errors"
	"fmt"
)

// Error codes. Each adapter translates its own failures into one of these;
// the HTTP adapter maps each code to exactly one status (see httpapi).
const (
	EInvalid          = "invalid"            // bad input: 400
	ENotFound         = "not_found"          // no such thing in this scope: 404
	EConflict         = "conflict"           // version mismatch or concurrent change: 409
	EMethodNotAllowed = "method_not_allowed" // route exists, method does not: 405
	ETooLarge         = "payload_too_large"  // body over the cap: 413
	EUnsupportedMedia = "unsupported_media"  // body not JSON: 415
	ELLMUnavailable   = "llm_unavailable"    // no LLM configured: 503
	ELLMFailed        = "llm_failed"         // the LLM failed, timed out or answered garbage: 502
	EBusy             = "busy"               // a lease is held by someone else (dreams): 409
	EInternal         = "internal"           // anything else: 500
)

// Error is a domain error: a code from the list above and a message meant
// for the caller. Internal details stay in wrapped errors and logs.
type Error struct {
	Code    string
	Message string
}

// Error implements the error interface.
func (e *Error) Error() string { return fmt.Sprintf("agentmem %s: %s", e.Code, e.Message) }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
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
