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

// Error is a non-2xx answer of the API. Code is the domain error code of
// the body {"error":{"code","message"}} (see package agentmem); answers
// that do not come from agentmem's handlers (API Gateway's own 403 for a
// refused signature, a proxy's 502) get a code derived from the status.
type Error struct {
	Status  int
	Code    string
	Message string
	Method  string
	Path    string
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
	return fmt.Sprintf("%s %s: %d %s: %s", e.Method, e.Path, e.Status, e.Code, e.Message)
}

// Unwrap exposes the answer as a domain error, so that agentmem.ErrorCode
// and errors.As(err, **agentmem.Error) work on client errors too.
func (e *Error) Unwrap() error { return &agentmem.Error{Code: e.Code, Message: e.Message} }

// IsNotFound reports whether err is an API answer with code not_found.
func IsNotFound(err error) bool { return HasCode(err, agentmem.ENotFound) }

// HasCode reports whether err is an API answer with the given code.
func HasCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// decodeError turns a non-2xx answer into *Error.
func decodeError(call Call, resp *Response) *Error {
	e := &Error{Status: resp.Status, Method: call.Method, Path: call.Path}
	var body struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		// API Gateway's own errors: {"message":"Forbidden"}.
		Message string `json:"message"`
	}
	if json.Unmarshal(resp.Body, &body) == nil {
		if body.Error != nil && body.Error.Code != "" {
			e.Code, e.Message = body.Error.Code, body.Error.Message
			return e
		}
		e.Message = body.Message
	}
	switch {
	case resp.Status == http.StatusForbidden:
		e.Code = CodeForbidden
	case resp.Status == http.StatusUnauthorized:
		e.Code = CodeUnauthorized
	case resp.Status == http.StatusTooManyRequests:
		e.Code = CodeThrottled
	case resp.Status == http.StatusBadGateway || resp.Status == http.StatusServiceUnavailable || resp.Status == http.StatusGatewayTimeout:
		e.Code = CodeUnavailable
	default:
		e.Code = CodeHTTP
	}
	if e.Message == "" {
		e.Message = snippet(resp.Body)
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.Status)
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
