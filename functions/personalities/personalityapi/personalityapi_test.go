package personalityapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/personalities/personalityapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// calls records the DynamoDB calls of the handler under test; TestMain
// fails the run when the function's role may not make one of them.
var calls = dynamotest.NewRecorder(routes.Personalities)

func TestMain(m *testing.M) { os.Exit(calls.Main(m)) }

// newHandler is the personalities function over fresh tables, its
// DynamoDB calls recorded; the function it returns sends one request (with
// an idempotency key unless idem is "") and checks the answer against the
// OpenAPI document.
func newHandler(t *testing.T) func(method, target, body, idem string) events.APIGatewayV2HTTPResponse {
	t.Helper()
	st, _ := calls.Stores(t)
	h, err := personalityapi.New(lambdamain.Deps{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return func(method, target, body, idem string) events.APIGatewayV2HTTPResponse {
		t.Helper()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if idem != "" {
			r.Header.Set(agentmem.IdempotencyHeader, idem)
		}
		resp, err := h.Handle(context.Background(), localapi.Event(r, []byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		openapitest.Check(t, method, r.URL.EscapedPath(), resp.StatusCode, resp.Headers, resp.Body)
		return resp
	}
}

func TestPersonalityCRUD(t *testing.T) {
	t.Parallel()
	do := newHandler(t)
	steps := []struct {
		name, method, target, body string
		status                     int
		inBody                     string
	}{
		{"get absent", "GET", "/api/agents/miso/personality", "", 404, `"not_found"`},
		{"delete absent", "DELETE", "/api/agents/miso/personality", "", 404, `"not_found"`},
		{"empty list", "GET", "/api/personalities", "", 200, `{"personalities":[]}`},
		{"create", "PUT", "/api/agents/miso/personality", `{"displayName":"Miso","voice":"calm","traits":["thorough"],"gitEmail":"miso@agents.example.com"}`, 201, `"version":1`},
		{"replace", "PUT", "/api/agents/miso/personality", `{"displayName":"Miso","voice":"calmer"}`, 200, `"version":2`},
		{"stale version", "PUT", "/api/agents/miso/personality", `{"displayName":"Miso","version":1}`, 409, `"conflict"`},
		{"current version", "PUT", "/api/agents/miso/personality", `{"displayName":"Miso","prompt":"Design first.","version":2}`, 200, `"version":3`},
		{"create-only on existing", "PUT", "/api/agents/miso/personality", `{"displayName":"Miso","version":0}`, 409, `"conflict"`},
		{"get", "GET", "/api/agents/miso/personality", "", 200, `"prompt":"Design first."`},
		{"list", "GET", "/api/personalities", "", 200, `"agentName":"miso"`},
		{"nothing to show", "PUT", "/api/agents/miso/personality", `{"voice":"x"}`, 400, "displayName or a prompt"},
		{"bad email", "PUT", "/api/agents/miso/personality", `{"displayName":"M","gitEmail":"not an email"}`, 400, "gitEmail"},
		{"multi-line name", "PUT", "/api/agents/miso/personality", `{"displayName":"M\nX"}`, 400, "single line"},
		{"unknown field", "PUT", "/api/agents/miso/personality", `{"displayName":"M","mood":"x"}`, 400, `unknown field`},
		{"bad agent", "PUT", "/api/agents/mi%23so/personality", `{"displayName":"M"}`, 400, `agentName`},
		{"method", "POST", "/api/agents/miso/personality", `{}`, 405, `method_not_allowed`},
		{"delete", "DELETE", "/api/agents/miso/personality", "", 204, ""},
		{"gone", "GET", "/api/agents/miso/personality", "", 404, `"not_found"`},
	}
	for _, s := range steps {
		resp := do(s.method, s.target, s.body, "")
		if resp.StatusCode != s.status || !strings.Contains(resp.Body, s.inBody) {
			t.Errorf("%s: got %d %s, want %d containing %s", s.name, resp.StatusCode, resp.Body, s.status, s.inBody)
		}
		if resp.StatusCode >= 400 {
			var e struct {
				Error struct{ Code, Message string }
			}
			if json.Unmarshal([]byte(resp.Body), &e) != nil || e.Error.Code == "" {
				t.Errorf("%s: error body %q is not {\"error\":{code,message}}", s.name, resp.Body)
			}
		}
	}
	if got := agentmem.ErrorCode(nil); got != "" {
		t.Errorf("ErrorCode(nil) = %q", got)
	}
}

// TestPersonalityRetriesAndPages: a PUT retried with its idempotency key
// answers as the first did, and a listing pages with a cursor; both keep
// their records in the journal, where the function's role is confined to
// the idempotency and configuration keys (calls checks it).
func TestPersonalityRetriesAndPages(t *testing.T) {
	t.Parallel()
	do := newHandler(t)
	steps := []struct {
		name, method, target, body, idem string
		status                           int
		inBody                           string
	}{
		{"create", "PUT", "/api/agents/aki/personality", `{"displayName":"Aki"}`, "put-aki-1", 201, `"version":1`},
		{"retry", "PUT", "/api/agents/aki/personality", `{"displayName":"Aki"}`, "put-aki-1", 201, `"version":1`},
		{"second", "PUT", "/api/agents/ben/personality", `{"displayName":"Ben"}`, "", 201, `"version":1`},
		{"third", "PUT", "/api/agents/cal/personality", `{"displayName":"Cal"}`, "", 201, `"version":1`},
	}
	for _, s := range steps {
		if resp := do(s.method, s.target, s.body, s.idem); resp.StatusCode != s.status || !strings.Contains(resp.Body, s.inBody) {
			t.Errorf("%s: got %d %s, want %d containing %s", s.name, resp.StatusCode, resp.Body, s.status, s.inBody)
		}
	}
	var got []string
	target := "/api/personalities?limit=2"
	for range 3 {
		resp := do("GET", target, "", "")
		var page agentmem.PersonalityPage
		if err := json.Unmarshal([]byte(resp.Body), &page); err != nil || resp.StatusCode != 200 {
			t.Fatalf("list %s: got %d %s", target, resp.StatusCode, resp.Body)
		}
		for _, p := range page.Personalities {
			got = append(got, p.AgentName)
		}
		if page.NextCursor == "" {
			break
		}
		target = "/api/personalities?limit=2&cursor=" + url.QueryEscape(page.NextCursor)
	}
	if want := []string{"aki", "ben", "cal"}; !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
}
