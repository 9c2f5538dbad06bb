package functions_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

// sampleMemoryID is the memory id the sample events use; the replay swaps
// in the id of a memory it created.
const sampleMemoryID = "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"

// wantStatus is the status each core route's sample event must get on the
// replay fixture. Routes not listed must answer below 500.
var wantStatus = map[routes.Name]int{
	routes.ListMemories: 200, routes.CreateMemory: 201, routes.DeleteMemories: 200, routes.GetMemory: 200,
	routes.DeleteMemory: 204, routes.RenderMemory: 200, routes.Bootstrap: 200,
	routes.ListPersonalities: 200, routes.GetPersonality: 200, routes.PutPersonality: 200, routes.DeletePersonality: 204,
	routes.CreateExtraction: 200,

	// Updates and history (issue 11): the seeded memory is at version 1.
	routes.UpdateMemory: 200, routes.GetMemoryHistory: 200, routes.RestoreMemoryVersion: 200,

	// Search, patterns, lifecycle and stats (issue 5).
	routes.SearchMemories: 200, routes.SuggestPatterns: 200, routes.ForgetMemories: 200, routes.GetStats: 200, routes.GetAllStats: 200,

	// Integrity (issue 12): the sample job does not exist; the recount
	// finds the replay's counters exact.
	routes.GetJob: 404, routes.Recount: 200,

	// Three tiers (issue 4): the session events run in table order.
	routes.AppendDaily: 201, routes.PutSessionContext: 201, routes.GetSessionContext: 200, routes.DeleteSessionContext: 204, routes.EndSession: 200,
	// AppendDaily gave the scope daily content; the replay has no LLM.
	routes.CreateDream: 503, routes.ListDreams: 200,

	// Issue 14.
	routes.ListSessionContext: 200, routes.GetHealth: 200, routes.GetOpenAPI: 200,
}

func loadEvent(t *testing.T, path string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ev
}

// TestEveryRouteHasAnEvent keeps events/ in step with the route table, and
// each event in step with its route, as API Gateway with IAM auth sends it.
func TestEveryRouteHasAnEvent(t *testing.T) {
	t.Parallel()
	for _, r := range routes.All {
		path := filepath.Join("..", "events", string(r.Function), string(r.Name)+".json")
		if _, err := os.Stat(path); err != nil {
			t.Errorf("route %s (%s) has no sample event %s", r.Name, r.Key(), path)
			continue
		}
		ev := loadEvent(t, path)
		if ev.RouteKey != r.Key() || ev.RequestContext.RouteKey != r.Key() {
			t.Errorf("%s: routeKey %q, want %q", path, ev.RouteKey, r.Key())
		}
		if got, _, _ := routes.Match(ev.RequestContext.HTTP.Method, ev.RawPath); got.Name != r.Name {
			t.Errorf("%s: %s %s matches route %q, want %q", path, ev.RequestContext.HTTP.Method, ev.RawPath, got.Name, r.Name)
		}
		if a := ev.RequestContext.Authorizer; a == nil || a.IAM == nil || a.IAM.UserARN == "" {
			t.Errorf("%s: no requestContext.authorizer.iam", path)
		}
	}
}

// TestReplayEvents sends every API event in events/ through its function's
// handler over DynamoDB Local, and checks each answer against the OpenAPI
// document; then again on fresh tables with every body base64-encoded, as
// API Gateway delivers a body it takes for binary (isBase64Encoded), which
// must get the same answers.
func TestReplayEvents(t *testing.T) {
	t.Parallel()
	for _, encoded := range []bool{false, true} {
		t.Run(map[bool]string{false: "as sent", true: "base64"}[encoded], func(t *testing.T) {
			t.Parallel()
			replayEvents(t, encoded)
		})
	}
}

func replayEvents(t *testing.T, base64Bodies bool) {
	v, err := openapitest.New()
	if err != nil {
		t.Fatal(err)
	}
	store := dynamotest.NewStore(t)
	handlers, err := functions.Handlers(lambdamain.Deps{Store: store, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), LLM: llm.Disabled{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, r := range routes.All {
		h := handlers[r.Function]
		if h == nil {
			t.Errorf("route %s: function %s is not in functions.API", r.Name, r.Function)
			continue
		}
		t.Run(string(r.Name), func(t *testing.T) {
			ev := loadEvent(t, filepath.Join("..", "events", string(r.Function), string(r.Name)+".json"))
			agent := ev.PathParameters["agentName"]
			if agent != "" {
				id := seed(t, store, agent)
				ev.RawPath = strings.ReplaceAll(ev.RawPath, sampleMemoryID, id)
				if ev.PathParameters["id"] == sampleMemoryID {
					ev.PathParameters["id"] = id
				}
			}
			if base64Bodies && ev.Body != "" {
				ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString([]byte(ev.Body)), true
			}
			resp, err := h(ctx, ev)
			if err != nil {
				t.Fatalf("handler error: %v", err)
			}
			want, listed := wantStatus[r.Name]
			switch {
			case listed && resp.StatusCode != want:
				t.Errorf("got %d %s, want %d", resp.StatusCode, resp.Body, want)
			case !listed && resp.StatusCode >= 500:
				t.Errorf("got %d %s, want < 500", resp.StatusCode, resp.Body)
			}
			header := http.Header{}
			for k, val := range resp.Headers {
				header.Set(k, val)
			}
			if err := v.Answer(r.Method, ev.RawPath, resp.StatusCode, header, []byte(resp.Body)); err != nil {
				t.Errorf("the answer does not match the OpenAPI document: %v", err)
			}
		})
	}
}

// seed gives agent a personality and a memory in the sample project, and
// returns the memory's id.
func seed(t *testing.T, st *dynamostore.Store, agent string) string {
	t.Helper()
	ctx := context.Background()
	if _, _, err := st.PutPersonality(ctx, agentmem.Personality{AgentName: agent, DisplayName: "Sample"}, nil); err != nil {
		t.Fatal(err)
	}
	m, err := st.CreateMemory(ctx, agentmem.Memory{AgentName: agent, ProjectID: "checkout-service", Content: "sample", Source: agentmem.SourceManual})
	if err != nil {
		t.Fatal(err)
	}
	return m.ID
}
