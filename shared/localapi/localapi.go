// Package localapi serves agentmem's Lambda handlers over plain HTTP, the
// way API Gateway would: each request becomes an API Gateway HTTP API v2
// event (with an IAM authorizer context, as with IAM auth) and goes to the
// function the route table names (an httpapi.LambdaFunc). cmd/devserver
// and functions/apitest use it; it is a development adapter, which no
// function's own code imports.
package localapi

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// Server routes HTTP requests to Lambda handlers.
type Server struct {
	handlers map[routes.Function]httpapi.LambdaFunc
	log      *slog.Logger
}

// New returns a server for the given functions. Routes of a function
// without a handler answer 501.
func New(handlers map[routes.Function]httpapi.LambdaFunc, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	return &Server{handlers: handlers, log: log}
}

// maxReadBytes bounds how much of a body is read; the handlers reject
// anything over agentmem.MaxBodyBytes with a 413.
const maxReadBytes = 4 * agentmem.MaxBodyBytes

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resp := s.serve(r)
	for k, v := range resp.Headers {
		w.Header().Set(k, v)
	}
	body := []byte(resp.Body)
	if resp.IsBase64Encoded {
		if b, err := base64.StdEncoding.DecodeString(resp.Body); err == nil {
			body = b
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
	// The function handlers log each request (method, path, status, ms).
}

func (s *Server) serve(r *http.Request) httpapi.Response {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxReadBytes+1))
	if err != nil {
		return httpapi.ErrorResponse(agentmem.Errorf(agentmem.EInvalid, "read body: %v", err))
	}
	if len(body) > maxReadBytes {
		return httpapi.ErrorResponse(agentmem.Errorf(agentmem.ETooLarge, "request body is over %d bytes", agentmem.MaxBodyBytes))
	}
	ev := Event(r, body)
	route, _, known := routes.Match(ev.RequestContext.HTTP.Method, ev.RawPath)
	fn := route.Function
	if !known || route.Name == "" {
		// Let any function answer the 404 or 405 in the API's own words.
		fn = routes.Memories
	}
	h := s.handlers[fn]
	if h == nil {
		return httpapi.JSON(http.StatusNotImplemented, agentmem.ErrorEnvelope{Error: agentmem.Errorf(
			"not_implemented", "the %s function is not served here", fn)})
	}
	// Each request gets its function's deadline, as Lambda and API
	// Gateway give it (leases and budgets are bounded by it).
	ctx, cancel := context.WithTimeout(r.Context(), routes.RequestTimeout(fn))
	defer cancel()
	resp, err := h(ctx, ev)
	if err != nil {
		s.log.Error("handler error", "function", fn, "err", err)
		return httpapi.ErrorResponse(err)
	}
	if resp.StatusCode == 0 {
		resp.StatusCode = http.StatusOK
	}
	return httpapi.Response(resp)
}

// Event builds the API Gateway HTTP API v2 event for r, as API Gateway does
// with IAM authorization on a $default stage.
func Event(r *http.Request, body []byte) events.APIGatewayV2HTTPRequest {
	headers := map[string]string{}
	for k, v := range r.Header {
		headers[strings.ToLower(k)] = strings.Join(v, ",")
	}
	query := map[string]string{}
	for k, v := range r.URL.Query() {
		query[k] = strings.Join(v, ",")
	}
	route, params, _ := routes.Match(r.Method, r.URL.EscapedPath())
	routeKey := "$default"
	if route.Name != "" {
		routeKey = route.Key()
	}
	now := time.Now()
	ev := events.APIGatewayV2HTTPRequest{
		Version:               "2.0",
		RouteKey:              routeKey,
		RawPath:               r.URL.EscapedPath(),
		RawQueryString:        r.URL.RawQuery,
		Headers:               headers,
		QueryStringParameters: query,
		PathParameters:        params,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey:   routeKey,
			AccountID:  "000000000000",
			Stage:      "$default",
			RequestID:  fmt.Sprintf("local-%d", now.UnixNano()),
			APIID:      "local",
			Time:       now.UTC().Format("02/Jan/2006:15:04:05 -0700"),
			TimeEpoch:  now.UnixMilli(),
			DomainName: r.Host,
			Authorizer: &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{
				IAM: &events.APIGatewayV2HTTPRequestContextAuthorizerIAMDescription{
					AccessKey: "LOCALDEVKEY", AccountID: "000000000000", CallerID: "LOCALDEV",
					UserARN: "arn:aws:iam::000000000000:user/local-dev", UserID: "LOCALDEV",
				},
			},
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method: r.Method, Path: r.URL.Path, Protocol: r.Proto,
				SourceIP: strings.Split(r.RemoteAddr, ":")[0], UserAgent: r.UserAgent(),
			},
		},
	}
	if len(body) > 0 {
		if utf8.Valid(body) {
			ev.Body = string(body)
		} else {
			ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
		}
	}
	return ev
}
