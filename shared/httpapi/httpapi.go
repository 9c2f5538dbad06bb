// Package httpapi adapts API Gateway HTTP API (v2) events to agentmem's
// handlers: it routes by the table in package routes, decodes JSON bodies
// strictly, maps domain error codes to HTTP statuses in one table, and
// writes every error as {"error":{"code","message"}}.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// statusByCode is the one mapping from domain error codes to HTTP statuses.
var statusByCode = map[string]int{
	agentmem.EInvalid:          http.StatusBadRequest,
	agentmem.ENotFound:         http.StatusNotFound,
	agentmem.EConflict:         http.StatusConflict,
	agentmem.EBusy:             http.StatusConflict,
	agentmem.EMethodNotAllowed: http.StatusMethodNotAllowed,
	agentmem.ETooLarge:         http.StatusRequestEntityTooLarge,
	agentmem.EUnsupportedMedia: http.StatusUnsupportedMediaType,
	agentmem.ELLMUnavailable:   http.StatusServiceUnavailable,
	agentmem.ELLMFailed:        http.StatusBadGateway,
	agentmem.EInternal:         http.StatusInternalServerError,
}

// StatusFor returns the HTTP status for a domain error code.
func StatusFor(code string) int {
	if s, ok := statusByCode[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Response is what a handler returns: an API Gateway v2 response.
type Response = events.APIGatewayV2HTTPResponse

// HandlerFunc serves one route. A returned error becomes the JSON error
// response for its code; the response is then ignored.
type HandlerFunc func(ctx context.Context, r *Request) (Response, error)

// Handler serves the routes of one Lambda function.
type Handler struct {
	fn       routes.Function
	handlers map[string]HandlerFunc
	log      *slog.Logger
}

// NewHandler returns the handler for fn. handlers maps route names to their
// functions; it must cover exactly the routes the table gives fn, so that a
// route can neither be forgotten nor served by the wrong function.
func NewHandler(fn routes.Function, handlers map[string]HandlerFunc, log *slog.Logger) (*Handler, error) {
	want := map[string]bool{}
	for _, r := range routes.For(fn) {
		want[r.Name] = true
		if handlers[r.Name] == nil {
			return nil, fmt.Errorf("function %s: no handler for route %s %s (%s)", fn, r.Method, r.Path, r.Name)
		}
	}
	for name := range handlers {
		if !want[name] {
			return nil, fmt.Errorf("function %s: handler %q is not a route of this function", fn, name)
		}
	}
	if log == nil {
		log = slog.Default()
	}
	return &Handler{fn: fn, handlers: handlers, log: log}, nil
}

// Handle is the Lambda entry point: func(ctx, TIn) (TOut, error). It never
// returns an error to Lambda; failures become JSON error responses so that
// API Gateway passes them on unchanged.
func (h *Handler) Handle(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (resp events.APIGatewayV2HTTPResponse, _ error) {
	start := time.Now()
	method := strings.ToUpper(ev.RequestContext.HTTP.Method)
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	defer func() {
		if p := recover(); p != nil {
			h.log.ErrorContext(ctx, "panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = ErrorResponse(agentmem.Errorf(agentmem.EInternal, "internal error"))
		}
		level := slog.LevelInfo
		if resp.StatusCode >= 500 {
			level = slog.LevelError
		}
		h.log.Log(ctx, level, "request", "function", h.fn, "method", method, "path", path,
			"status", resp.StatusCode, "ms", float64(time.Since(start).Microseconds())/1000,
			"requestId", ev.RequestContext.RequestID)
	}()

	route, params, known := routes.Match(method, path)
	switch {
	case !known:
		return ErrorResponse(agentmem.Errorf(agentmem.ENotFound, "no route for %s %s", method, path)), nil
	case route.Name == "":
		resp = ErrorResponse(agentmem.Errorf(agentmem.EMethodNotAllowed, "%s is not allowed on %s", method, path))
		resp.Headers["Allow"] = strings.Join(routes.Allowed(path), ", ")
		return resp, nil
	case route.Function != h.fn:
		return ErrorResponse(agentmem.Errorf(agentmem.ENotFound, "%s %s is not served by the %s function", method, path, h.fn)), nil
	}
	req, err := newRequest(ev, route, params)
	if err != nil {
		return ErrorResponse(err), nil
	}
	resp, err = h.handlers[route.Name](ctx, req)
	if err != nil {
		if agentmem.ErrorCode(err) == agentmem.EInternal {
			h.log.ErrorContext(ctx, "handler failed", "route", route.Name, "err", err)
		}
		return ErrorResponse(err), nil
	}
	return resp, nil
}

// errorBody is the JSON shape of every error response.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// ErrorResponse renders err as {"error":{"code","message"}} with the status
// its code maps to.
func ErrorResponse(err error) Response {
	var b errorBody
	b.Error.Code = agentmem.ErrorCode(err)
	b.Error.Message = agentmem.ErrorMessage(err)
	return JSON(StatusFor(b.Error.Code), b)
}

// JSON returns a response with v encoded as JSON.
func JSON(status int, v any) Response {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // Markdown in JSON stays readable
	err := enc.Encode(v)
	body := bytes.TrimRight(buf.Bytes(), "\n")
	if err != nil {
		// Only unencodable values (NaN, channels) get here: a bug.
		status, body = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	return Response{
		StatusCode: status,
		Headers:    map[string]string{"Content-Type": "application/json"},
		Body:       string(body),
	}
}

// Markdown returns a text/markdown response.
func Markdown(status int, doc string) Response {
	return Response{
		StatusCode: status,
		Headers:    map[string]string{"Content-Type": "text/markdown; charset=utf-8"},
		Body:       doc,
	}
}

// NoContent returns a 204 response.
func NoContent() Response {
	return Response{StatusCode: http.StatusNoContent, Headers: map[string]string{}}
}
