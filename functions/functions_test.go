package functions_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// TestEachFunctionServesExactlyItsRoutes: every function of the route
// table has a handler, built without error (httpapi.NewHandler refuses a
// map that misses a route of the function or holds another's), that takes
// each of the function's routes to a handler and refuses every other
// function's route. The generated per-function interfaces of httpapi make
// a missing handler method a compile error; this pins the wiring.
func TestEachFunctionServesExactlyItsRoutes(t *testing.T) {
	t.Parallel()
	if len(functions.API) != len(routes.Functions) {
		t.Errorf("functions.API has %d functions, the route table %d", len(functions.API), len(routes.Functions))
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	handlers, err := functions.Handlers(lambdamain.Deps{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range routes.Functions {
		t.Run(string(fn), func(t *testing.T) {
			t.Parallel()
			h := handlers[fn]
			if h == nil {
				t.Fatalf("function %s has no handler in functions.API", fn)
			}
			for _, r := range routes.All {
				// Whatever the handler answers (without parameters or a
				// store it refuses or fails), only the dispatcher's own
				// refusal says the route is not the function's.
				ev := events.APIGatewayV2HTTPRequest{RouteKey: r.Key(), RawPath: "/", RequestContext: events.APIGatewayV2HTTPRequestContext{
					RouteKey: r.Key(), HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: r.Method, Path: "/"}}}
				resp, err := h(context.Background(), ev)
				refused := resp.StatusCode == 404 && strings.Contains(resp.Body, "is not served by the "+string(fn)+" function")
				switch {
				case err != nil:
					t.Errorf("%s: %v", r.Name, err)
				case r.Function == fn && refused:
					t.Errorf("route %s of %s is not served: %d %s", r.Name, fn, resp.StatusCode, resp.Body)
				case r.Function != fn && !refused:
					t.Errorf("route %s of %s is served by %s: %d %s", r.Name, r.Function, fn, resp.StatusCode, resp.Body)
				}
			}
		})
	}
}
