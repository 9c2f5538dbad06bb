package localapi_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// TestRequestsGetTheirFunctionsDeadline: as in Lambda behind API Gateway,
// each request runs with its function's deadline, so that leases and
// budgets bounded by it (an extraction's claim on its run, a bulk
// delete's inline work) are bounded under make dev too.
func TestRequestsGetTheirFunctionsDeadline(t *testing.T) {
	t.Parallel()
	got := map[routes.Function]time.Duration{}
	handlers := map[routes.Function]httpapi.LambdaFunc{}
	for _, fn := range routes.Functions {
		handlers[fn] = func(ctx context.Context, _ events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
			if d, ok := ctx.Deadline(); ok {
				got[fn] = time.Until(d)
			}
			return events.APIGatewayV2HTTPResponse{StatusCode: 204}, nil
		}
	}
	srv := localapi.New(handlers, nil)
	for fn, path := range map[routes.Function]string{
		routes.Memories: "/api/agents/nori/memories?projectId=p", routes.Extraction: "/api/agents/nori/extractions",
		routes.Personalities: "/api/personalities", routes.Dream: "/api/agents/nori/dreams?projectId=p",
	} {
		method := "GET"
		if fn == routes.Extraction {
			method = "POST"
		}
		srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, path, nil))
		want := routes.RequestTimeout(fn)
		if got[fn] <= 0 || got[fn] > want || got[fn] < want-time.Second {
			t.Errorf("%s: deadline in %v, want %v", fn, got[fn], want)
		}
	}
	if routes.RequestTimeout(routes.Dream) != routes.APIGatewayTimeout {
		t.Errorf("the dream function's requests: %v, want API Gateway's %v", routes.RequestTimeout(routes.Dream), routes.APIGatewayTimeout)
	}
}
