package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// echo answers with the route it was called for and its parameters.
func echo(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	return httpapi.JSON(http.StatusOK, map[string]any{"route": r.Route.Name, "params": r.Params}), nil
}

// personalities is a handler of the personalities function whose routes
// echo, except that PutPersonality fails with a domain error that has an
// internal cause.
func personalities(t *testing.T, log *slog.Logger) *httpapi.Handler {
	t.Helper()
	h, err := httpapi.NewHandler(routes.Personalities, map[routes.Name]httpapi.HandlerFunc{
		routes.ListPersonalities: echo,
		routes.GetPersonality:    echo,
		routes.DeletePersonality: echo,
		routes.PutPersonality: func(context.Context, *httpapi.Request) (httpapi.Response, error) {
			return httpapi.Response{}, agentmem.Wrap(agentmem.EConflict, errors.New("ConditionalCheckFailedException: secret-table"), "personality nori changed; read it again")
		},
	}, log)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// event is an API Gateway v2 event for method and rawPath with routeKey.
func event(method, rawPath, routeKey string, params map[string]string) events.APIGatewayV2HTTPRequest {
	return events.APIGatewayV2HTTPRequest{
		RouteKey: routeKey, RawPath: rawPath, PathParameters: params,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey: routeKey,
			HTTP:     events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: rawPath},
		},
	}
}

func TestHandleDispatchesByRouteKey(t *testing.T) {
	t.Parallel()
	get := routes.Route{Method: "GET", Path: "/api/agents/{agentName}/personality"}.Key()
	tests := []struct {
		name       string
		ev         events.APIGatewayV2HTTPRequest
		status     int
		route      routes.Name
		params     map[string]string
		inBody     string
		allow      string
		notInBody  string
		wantLogErr bool
	}{
		{name: "route key names the route", ev: event("GET", "/api/agents/nori/personality", get, map[string]string{"agentName": "nori"}),
			status: 200, route: routes.GetPersonality, params: map[string]string{"agentName": "nori"}},
		{name: "route key wins over a path of another route",
			ev:     event("GET", "/api/personalities", get, map[string]string{"agentName": "koji"}),
			status: 200, route: routes.GetPersonality, params: map[string]string{"agentName": "koji"}},
		{name: "named stage: the path carries a prefix, the parameters come from API Gateway",
			ev:     event("DELETE", "/prod/api/agents/nori/personality", "DELETE /api/agents/{agentName}/personality", map[string]string{"agentName": "nori"}),
			status: 200, route: routes.DeletePersonality, params: map[string]string{"agentName": "nori"}},
		{name: "parameters from the path are decoded as the table decodes them",
			ev:     event("GET", "/api/agents/no%23ri/personality", get, map[string]string{"agentName": "no%23ri"}),
			status: 200, route: routes.GetPersonality, params: map[string]string{"agentName": "no#ri"}},
		{name: "route key of another function",
			ev:     event("GET", "/api/agents/nori/memories", "GET /api/agents/{agentName}/memories", map[string]string{"agentName": "nori"}),
			status: 404, inBody: "not served by the personalities function"},
		{name: "$default: matched by path",
			ev:     event("GET", "/api/agents/nori/personality", "$default", nil),
			status: 200, route: routes.GetPersonality, params: map[string]string{"agentName": "nori"}},
		{name: "no route key: matched by path",
			ev:     event("GET", "/api/personalities", "", nil),
			status: 200, route: routes.ListPersonalities, params: map[string]string{}},
		{name: "$default: unknown path is 404",
			ev:     event("GET", "/api/agents/nori/nothing", "$default", nil),
			status: 404, inBody: `"code":"no_route"`},
		{name: "$default: wrong method is 405 with Allow",
			ev:     event("PATCH", "/api/agents/nori/personality", "$default", nil),
			status: 405, inBody: `"code":"method_not_allowed"`, allow: "GET, PUT, DELETE"},
		{name: "$default: a route of another function is 404",
			ev:     event("GET", "/api/agents/nori/memories", "$default", nil),
			status: 404, inBody: "not served by the personalities function"},
		{name: "a route key that names no route falls back to the path",
			ev:     event("GET", "/api/personalities", "ANY /{proxy+}", nil),
			status: 200, route: routes.ListPersonalities, params: map[string]string{}},
		{name: "a domain error's cause is logged, never answered",
			ev:     event("PUT", "/api/agents/nori/personality", "PUT /api/agents/{agentName}/personality", map[string]string{"agentName": "nori"}),
			status: 409, inBody: "personality nori changed; read it again", notInBody: "secret-table", wantLogErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs bytes.Buffer
			h := personalities(t, slog.New(slog.NewJSONHandler(&logs, nil)))
			resp, err := h.Handle(context.Background(), tt.ev)
			if err != nil {
				t.Fatalf("Handle returned an error: %v", err)
			}
			if resp.StatusCode != tt.status {
				t.Fatalf("status: got %d %s, want %d", resp.StatusCode, resp.Body, tt.status)
			}
			if tt.route != "" {
				var got struct {
					Route  routes.Name       `json:"route"`
					Params map[string]string `json:"params"`
				}
				if err := json.Unmarshal([]byte(resp.Body), &got); err != nil {
					t.Fatal(err)
				}
				if got.Route != tt.route || len(got.Params) != len(tt.params) {
					t.Errorf("served %s %v, want %s %v", got.Route, got.Params, tt.route, tt.params)
				}
				for k, v := range tt.params {
					if got.Params[k] != v {
						t.Errorf("param %s: got %q, want %q", k, got.Params[k], v)
					}
				}
			}
			if !strings.Contains(resp.Body, tt.inBody) {
				t.Errorf("body %s does not contain %s", resp.Body, tt.inBody)
			}
			if tt.notInBody != "" && strings.Contains(resp.Body, tt.notInBody) {
				t.Errorf("body %s leaks %s", resp.Body, tt.notInBody)
			}
			if got := resp.Headers["Allow"]; got != tt.allow {
				t.Errorf("Allow: got %q, want %q", got, tt.allow)
			}
			if logged := strings.Contains(logs.String(), "secret-table"); logged != tt.wantLogErr {
				t.Errorf("cause in the log: got %v, want %v; log %s", logged, tt.wantLogErr, logs.String())
			}
		})
	}
}

func TestNewHandlerWantsExactlyTheFunctionsRoutes(t *testing.T) {
	t.Parallel()
	all := map[routes.Name]httpapi.HandlerFunc{}
	for _, r := range routes.For(routes.Personalities) {
		all[r.Name] = echo
	}
	h, err := httpapi.NewHandler(routes.Personalities, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Each route of the table goes to its own handler when it is the
	// function's, and is refused when it is another function's.
	for _, r := range routes.All {
		resp, _ := h.Handle(context.Background(), event(r.Method, "/x", r.Key(), map[string]string{}))
		var got struct {
			Route routes.Name `json:"route"`
		}
		_ = json.Unmarshal([]byte(resp.Body), &got)
		switch {
		case r.Function == routes.Personalities && (resp.StatusCode != 200 || got.Route != r.Name):
			t.Errorf("%s: got %d %s, want its handler", r.Name, resp.StatusCode, resp.Body)
		case r.Function != routes.Personalities && (resp.StatusCode != 404 || !strings.Contains(resp.Body, "not served by the personalities function")):
			t.Errorf("%s of %s: got %d %s, want 404 not served", r.Name, r.Function, resp.StatusCode, resp.Body)
		}
	}

	missing := map[routes.Name]httpapi.HandlerFunc{routes.ListPersonalities: echo}
	if _, err := httpapi.NewHandler(routes.Personalities, missing, nil); err == nil || !strings.Contains(err.Error(), string(routes.GetPersonality)) {
		t.Errorf("a missing handler: got %v, want an error naming %s", err, routes.GetPersonality)
	}
	extra := map[routes.Name]httpapi.HandlerFunc{routes.GetMemory: echo}
	for k, v := range all {
		extra[k] = v
	}
	if _, err := httpapi.NewHandler(routes.Personalities, extra, nil); err == nil || !strings.Contains(err.Error(), string(routes.GetMemory)) {
		t.Errorf("a handler of another function: got %v, want an error naming %s", err, routes.GetMemory)
	}
}

func TestErrorResponseIsTheEnvelope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err    error
		status int
		body   string
	}{
		{agentmem.Errorf(agentmem.EInvalid, "limit must be from 1 to 50"), 400, `{"error":{"code":"invalid","message":"limit must be from 1 to 50"}}`},
		{agentmem.Wrap(agentmem.ELLMFailed, errors.New("HTTP 529 from api.example"), "the LLM failed"), 502, `{"error":{"code":"llm_failed","message":"the LLM failed"}}`},
		{errors.New("dynamodb: table agent-memories: throttled"), 500, `{"error":{"code":"internal","message":"internal error"}}`},
	}
	for _, tt := range tests {
		resp := httpapi.ErrorResponse(tt.err)
		if resp.StatusCode != tt.status || resp.Body != tt.body || resp.Headers["Content-Type"] != "application/json" {
			t.Errorf("ErrorResponse(%v): got %d %s %v, want %d %s", tt.err, resp.StatusCode, resp.Body, resp.Headers, tt.status, tt.body)
		}
	}
	// A value JSON cannot encode is a bug: still the envelope, as a 500.
	if resp := httpapi.JSON(200, map[string]any{"x": make(chan int)}); resp.StatusCode != 500 || resp.Body != `{"error":{"code":"internal","message":"internal error"}}` {
		t.Errorf("unencodable: got %d %s", resp.StatusCode, resp.Body)
	}
}

// TestQueryErrorsNameTheFirstParameter: a query string with several faults
// gets the same answer every time, about the first parameter in name
// order, not one picked by map iteration.
func TestQueryErrorsNameTheFirstParameter(t *testing.T) {
	t.Parallel()
	h := personalities(t, slog.New(slog.NewTextHandler(io.Discard, nil)))
	tests := []struct{ query, want string }{
		{"zeta=1&beta=2&alpha=3&limit=5", `unknown query parameter \"alpha\"`},
		{"zeta=1&zeta=2&beta=1&beta=2", `query parameter \"beta\" is given 2 times`},
	}
	for _, tt := range tests {
		for range 20 {
			ev := event("GET", "/api/personalities", "GET /api/personalities", nil)
			ev.RawQueryString = tt.query
			resp, _ := h.Handle(context.Background(), ev)
			if resp.StatusCode != 400 || !strings.Contains(resp.Body, tt.want) {
				t.Fatalf("?%s: got %d %s, want 400 with %s", tt.query, resp.StatusCode, resp.Body, tt.want)
			}
		}
	}
}
