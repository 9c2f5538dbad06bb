package apiclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Error is a non-2xx answer of the API: the call, the HTTP status and the
// domain error the answer carries. Err holds the code and message of the
// body {"error":{"code","message"}} (agentmem.ErrorEnvelope); answers that
// do not come from agentmem's handlers (API Gateway's own 403 for a
// refused signature, a proxy's 502) get a code derived from the status
// (the Code* constants) and the answer's text as the message.
type Error struct {
	Method string
	Path   string
	Status int
	// Err is the answer's domain error; never nil.
	Err *agentmem.Error
}

// Codes for answers that carry no agentmem error body.
const (
	CodeForbidden    = "forbidden"    // 403 from API Gateway: IAM refused the call
	CodeUnauthorized = "unauthorized" // 401
	CodeThrottled    = "throttled"    // 429
	CodeUnavailable  = "unavailable"  // 502, 503, 504 without an agentmem body
	CodeHTTP         = "http_error"   // anything else
)

// Error implements error: "GET /api/...: 404 not_found: no memory ...".
func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %d %s: %s", e.Method, e.Path, e.Status, e.Err.Code, e.Err.Message)
}

// Unwrap returns the answer's domain error, so that agentmem.ErrorCode,
// agentmem.ErrorMessage and errors.As(err, **agentmem.Error) work on
// client errors as on the server's.
func (e *Error) Unwrap() error { return e.Err }

// IsNotFound reports whether err is an API answer with code not_found.
func IsNotFound(err error) bool { return HasCode(err, agentmem.ENotFound) }

// HasCode reports whether err is an API answer with the given code.
func HasCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Err.Code == code
}

// decodeError turns a non-2xx answer into *Error.
func decodeError(call Call, resp *Response) *Error {
	return &Error{Method: call.Method, Path: call.Path, Status: resp.Status, Err: answerError(resp.Status, resp.Body)}
}

// answerError is the domain error of a non-2xx answer: the one in its
// agentmem error envelope, else one derived from the status and the body.
func answerError(status int, body []byte) *agentmem.Error {
	var env agentmem.ErrorEnvelope
	if json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Code != "" {
		return env.Error
	}
	e := &agentmem.Error{}
	// API Gateway's own errors: {"message":"Forbidden"}.
	var gateway struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &gateway) == nil {
		e.Message = gateway.Message
	}
	switch {
	case status == http.StatusForbidden:
		e.Code = CodeForbidden
	case status == http.StatusUnauthorized:
		e.Code = CodeUnauthorized
	case status == http.StatusTooManyRequests:
		e.Code = CodeThrottled
	case status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout:
		e.Code = CodeUnavailable
	default:
		e.Code = CodeHTTP
	}
	if e.Message == "" {
		e.Message = snippet(body)
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	if e.Code == CodeForbidden {
		e.Message += " (IAM refused the call: check the credentials, the signing region and that the role may invoke this route)"
	}
	return e
}

// snippet returns the start of a non-JSON body as one short line.
func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}
