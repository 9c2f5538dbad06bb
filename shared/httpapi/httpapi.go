// Package httpapi adapts API Gateway HTTP API (v2) events to agentmem's
// handlers: it dispatches each event to the route API Gateway named in its
// routeKey (matching the path against the table in package routes only
// for "$default" events), decodes JSON bodies strictly, maps domain error
// codes to HTTP statuses in one table, and writes every error as the
// domain's envelope {"error":{"code","message"}} (agentmem.ErrorEnvelope).
//
// handlers_gen.go, generated from the route table, gives each function an
// interface with one method per route (MemoriesHandlers, ...) and a
// constructor that registers those methods under the route names
// (NewMemoriesHandler, ...), so that a route without a handler does not
// compile.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// statusByCode is the one mapping from domain error codes to HTTP statuses.
var statusByCode = map[string]int{
	agentmem.EInvalid:             http.StatusBadRequest,
	agentmem.ENotFound:            http.StatusNotFound,
	agentmem.EConflict:            http.StatusConflict,
	agentmem.EBusy:                http.StatusConflict,
	agentmem.ENoRoute:             http.StatusNotFound,
	agentmem.EForbidden:           http.StatusForbidden,
	agentmem.EIdempotencyMismatch: http.StatusUnprocessableEntity,
	agentmem.EUnavailable:         http.StatusServiceUnavailable,
	agentmem.EMethodNotAllowed:    http.StatusMethodNotAllowed,
	agentmem.ETooLarge:            http.StatusRequestEntityTooLarge,
	agentmem.EUnsupportedMedia:    http.StatusUnsupportedMediaType,
	agentmem.ELLMUnavailable:      http.StatusServiceUnavailable,
	agentmem.ELLMFailed:           http.StatusBadGateway,
	agentmem.EInternal:            http.StatusInternalServerError,
}

// StatusFor returns the HTTP status for a domain error code.
func StatusFor(code string) int {
	if s, ok := statusByCode[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Codes returns every domain error code the API answers, sorted.
func Codes() []string {
	codes := make([]string, 0, len(statusByCode))
	for c := range statusByCode {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// Response is what a handler returns: the fields of an API Gateway v2
// response, which Handler.Handle hands to Lambda.
type Response events.APIGatewayV2HTTPResponse

// HandlerFunc serves one route. A returned error becomes the JSON error
// response for its code; the response is then ignored.
type HandlerFunc func(ctx context.Context, r *Request) (Response, error)

// LambdaFunc is the Lambda entry point of an API function (Handler.Handle):
// an API Gateway HTTP API v2 request in, its response out. cmd/devserver
// and the tests serve such functions over plain HTTP (package localapi).
type LambdaFunc func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// Handler serves the routes of one Lambda function.
type Handler struct {
	fn       routes.Function
	handlers map[routes.Name]HandlerFunc
	log      *slog.Logger
	access   AgentAccess
}

// AgentAccess decides whether the caller (the IAM ARN API Gateway's
// authorizer reports) may act for an agent, and whether it may use the
// operators' routes; *agentaccess.Map is one.
type AgentAccess interface {
	Check(callerARN, agentName string) error
	CheckOperator(callerARN, route string) error
}

// RestrictAgents makes the handler refuse, with the error a returns, every
// request on a route with an {agentName} whose caller a does not allow
// (agentaccess: a task role mapped to other agents), and every request on
// a route agents' tasks are not granted (routes.Route's Agent false:
// deletes, dreams, personalities, /api/stats, /api/admin/recount, ...)
// whose caller is an agent's task role. nil restricts nobody.
func (h *Handler) RestrictAgents(a AgentAccess) { h.access = a }

var _ LambdaFunc = (*Handler)(nil).Handle

// NewHandler returns the handler for fn. handlers maps route names to their
// functions; it must cover exactly the routes the table gives fn, so that a
// route can neither be forgotten nor served by the wrong function. The
// generated New<Function>Handler constructors (handlers_gen.go) build the
// map from a value with one method per route, so that a missing handler
// fails to compile.
func NewHandler(fn routes.Function, handlers map[routes.Name]HandlerFunc, log *slog.Logger) (*Handler, error) {
	want := map[routes.Name]bool{}
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

// Handle is the Lambda entry point (a LambdaFunc). It never returns an
// error to Lambda; failures become JSON error responses so that API
// Gateway passes them on unchanged.
//
// The route is the one API Gateway names in the event's routeKey; only a
// "$default" (or missing) route key, as a catch-all route or a local
// server sends, makes Handle match the method and path against the table
// (answering 404 or 405 for what matches nothing).
func (h *Handler) Handle(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (resp events.APIGatewayV2HTTPResponse, _ error) {
	start := time.Now()
	method := strings.ToUpper(ev.RequestContext.HTTP.Method)
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	var cause error
	defer func() {
		if p := recover(); p != nil {
			h.log.ErrorContext(ctx, "panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = events.APIGatewayV2HTTPResponse(ErrorResponse(agentmem.Errorf(agentmem.EInternal, "internal error")))
		}
		level := slog.LevelInfo
		if resp.StatusCode >= 500 {
			level = slog.LevelError
		}
		attrs := []any{"function", h.fn, "method", method, "path", path,
			"status", resp.StatusCode, "ms", float64(time.Since(start).Microseconds()) / 1000,
			"requestId", ev.RequestContext.RequestID}
		if cause != nil {
			attrs = append(attrs, "err", cause)
		}
		h.log.Log(ctx, level, "request", attrs...)
	}()
	r, err := h.serve(ctx, ev, method, path)
	if err != nil && errors.Unwrap(err) != nil {
		// A domain error with an internal cause: the caller gets the
		// message, the log the cause.
		cause = err
	}
	return events.APIGatewayV2HTTPResponse(r), nil
}

// serve answers the event; the error is the handler's, for the log.
func (h *Handler) serve(ctx context.Context, ev events.APIGatewayV2HTTPRequest, method, path string) (Response, error) {
	route, params, resp, ok := h.route(ev, method, path)
	if !ok {
		return resp, nil
	}
	req, err := newRequest(ev, route, params)
	if err != nil {
		return ErrorResponse(err), nil
	}
	if err := h.checkAgent(ev, route, params); err != nil {
		return ErrorResponse(err), err
	}
	resp, err = h.handlers[route.Name](ctx, req)
	if err != nil {
		if agentmem.ErrorCode(err) == agentmem.EInternal {
			h.log.ErrorContext(ctx, "handler failed", "route", route.Name, "err", err)
			return ErrorResponse(err), nil
		}
		return ErrorResponse(err), err
	}
	return resp, nil
}

// checkAgent applies the agent restriction: an agent's task role may use
// what its IAM grant gives it in per-agent mode, the agent routes of its
// own agents (routes.Route's Agent) and the routes of a project's
// sessions, which a project's agents share.
func (h *Handler) checkAgent(ev events.APIGatewayV2HTTPRequest, route routes.Route, params map[string]string) error {
	if h.access == nil {
		return nil
	}
	caller := ""
	if a := ev.RequestContext.Authorizer; a != nil && a.IAM != nil {
		caller = a.IAM.UserARN
	}
	if agent, scoped := params["agentName"]; scoped {
		if err := h.access.Check(caller, agent); err != nil {
			return err
		}
	}
	if !route.Agent {
		return h.access.CheckOperator(caller, route.Key())
	}
	return nil
}

// route finds the event's route and path parameters; when there is none
// it returns the error response instead (ok false).
func (h *Handler) route(ev events.APIGatewayV2HTTPRequest, method, path string) (route routes.Route, params map[string]string, _ Response, ok bool) {
	key := ev.RequestContext.RouteKey
	if key == "" {
		key = ev.RouteKey
	}
	if r, named := routes.ByKey(key); named {
		if r.Function != h.fn {
			return r, nil, ErrorResponse(agentmem.Errorf(agentmem.ENoRoute, "%s %s is not served by the %s function", method, path, h.fn)), false
		}
		// The parameters as the table decodes them; API Gateway's own
		// when the path carries a prefix (a named stage).
		if p, matched := r.Params(path); matched {
			return r, p, Response{}, true
		}
		return r, ev.PathParameters, Response{}, true
	}
	route, params, known := routes.Match(method, path)
	switch {
	case !known:
		return route, nil, ErrorResponse(agentmem.Errorf(agentmem.ENoRoute, "no route for %s %s", method, path)), false
	case route.Name == "":
		resp := ErrorResponse(agentmem.Errorf(agentmem.EMethodNotAllowed, "%s is not allowed on %s", method, path))
		resp.Headers["Allow"] = strings.Join(routes.Allowed(path), ", ")
		return route, nil, resp, false
	case route.Function != h.fn:
		return route, nil, ErrorResponse(agentmem.Errorf(agentmem.ENoRoute, "%s %s is not served by the %s function", method, path, h.fn)), false
	}
	return route, params, Response{}, true
}

// ErrorResponse renders err as {"error":{"code","message"}}
// (agentmem.Envelope: the caller-facing code and message, never the
// internal cause) with the status its code maps to.
func ErrorResponse(err error) Response {
	env := agentmem.Envelope(err)
	resp := JSON(StatusFor(env.Error.Code), env)
	if d := agentmem.RetryAfterOf(err); d > 0 {
		resp.Headers["Retry-After"] = strconv.Itoa(int(math.Ceil(d.Seconds())))
	}
	return resp
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
		status = http.StatusInternalServerError
		body, _ = json.Marshal(agentmem.Envelope(agentmem.Errorf(agentmem.EInternal, "internal error")))
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
