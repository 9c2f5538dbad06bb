package memoryapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// calls records the DynamoDB calls of the handlers under test (their
// stores'); TestMain fails the run when the function's role may not make
// one of them.
var calls = dynamotest.NewRecorder(routes.Memories)

func TestMain(m *testing.M) { os.Exit(calls.Main(m)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// apiTest is a memories handler over fresh tables. handler is the
// handler's store, whose calls are recorded (calls); store is the test's
// own, over the same tables, to seed and check them.
type apiTest struct {
	t       testing.TB
	store   *dynamostore.Store
	handler *dynamostore.Store
	h       *httpapi.Handler
}

func newAPITest(t testing.TB) *apiTest {
	rec, st := calls.Stores(t)
	h, err := memoryapi.New(lambdamain.Deps{Store: rec, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return &apiTest{t: t, store: st, handler: rec, h: h}
}

// setNow sets the clock of both stores.
func (a *apiTest) setNow(now func() time.Time) { a.store.Now, a.handler.Now = now, now }

// do sends one request through the Lambda handler, as API Gateway would.
func (a *apiTest) do(method, target, body string) events.APIGatewayV2HTTPResponse {
	a.t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	resp, err := a.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
	if err != nil {
		a.t.Fatalf("%s %s: handler returned error %v", method, target, err)
	}
	openapitest.Check(a.t, method, r.URL.EscapedPath(), resp.StatusCode, resp.Headers, resp.Body)
	return resp
}

func decode[T any](t testing.TB, resp events.APIGatewayV2HTTPResponse) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(resp.Body), &v); err != nil {
		t.Fatalf("decode %q: %v", resp.Body, err)
	}
	return v
}

// Seed 000, scenario by scenario.

func TestSeedCreateMemoryReturns201Manual(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	resp := a.do("POST", "/api/agents/nori/memories", `{"projectId":"p1","content":"Webhooks are retried 3 times"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("got status %d (%s), want 201", resp.StatusCode, resp.Body)
	}
	m := decode[agentmem.Memory](t, resp)
	if m.Source != agentmem.SourceManual || m.AgentName != "nori" || m.ProjectID != "p1" || m.Type != agentmem.TypeNote {
		t.Errorf("got %+v", m)
	}
	if got, want := resp.Headers["Location"], "/api/agents/nori/memories/"+m.ID; got != want {
		t.Errorf("Location: got %q, want %q", got, want)
	}
	got := decode[agentmem.Memory](t, a.do("GET", "/api/agents/nori/memories/"+m.ID, ""))
	if got.Content != m.Content {
		t.Errorf("get: got %q, want %q", got.Content, m.Content)
	}
}

func TestSeedListReturnsThe50MostRecent(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	for i := range 55 {
		resp := a.do("POST", "/api/agents/nori/memories", fmt.Sprintf(`{"projectId":"p1","content":"memory %02d"}`, i))
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create %d: %d %s", i, resp.StatusCode, resp.Body)
		}
	}
	resp := a.do("GET", "/api/agents/nori/memories?projectId=p1", "")
	page := decode[agentmem.MemoryPage](t, resp)
	if got, want := len(page.Memories), 50; got != want {
		t.Fatalf("got %d memories, want %d", got, want)
	}
	for i, m := range page.Memories {
		if want := fmt.Sprintf("memory %02d", 54-i); m.Content != want {
			t.Fatalf("position %d: got %q, want %q (newest first)", i, m.Content, want)
		}
	}
	md := a.do("GET", "/api/agents/nori/memory.md?projectId=p1", "")
	if md.StatusCode != 200 || strings.Count(md.Body, "\n- ") != 50 || strings.Contains(md.Body, "memory 04") {
		t.Errorf("memory.md: status %d, %d bullets, want 200 and the 50 newest", md.StatusCode, strings.Count(md.Body, "\n- "))
	}
	older := decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/nori/memories?projectId=p1&cursor="+page.NextCursor, ""))
	if len(older.Memories) != 5 {
		t.Errorf("older page: got %d, want 5", len(older.Memories))
	}
}

func TestSeedDeleteOneReturns204AndDeleteAllReportsWhatItRemoved(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	var ids []string
	for i := range 3 {
		m := decode[agentmem.Memory](t, a.do("POST", "/api/agents/koji/memories", fmt.Sprintf(`{"projectId":"p","content":"m%d"}`, i)))
		ids = append(ids, m.ID)
	}
	if resp := a.do("DELETE", "/api/agents/toro/memories/"+ids[0], ""); resp.StatusCode != 404 {
		t.Errorf("delete as another agent: got %d, want 404", resp.StatusCode)
	}
	if resp := a.do("DELETE", "/api/agents/koji/memories/"+ids[0], ""); resp.StatusCode != 204 {
		t.Errorf("delete one: got %d (%s), want 204", resp.StatusCode, resp.Body)
	}
	if resp := a.do("DELETE", "/api/agents/koji/memories/"+ids[0], ""); resp.StatusCode != 404 {
		t.Errorf("delete again: got %d, want 404", resp.StatusCode)
	}
	if resp := a.do("DELETE", "/api/agents/koji/memories?projectId=p", ""); resp.StatusCode != 200 {
		t.Errorf("delete all: got %d, want 200", resp.StatusCode)
	} else if j := decode[agentmem.Job](t, resp); j.Status != agentmem.JobDone || j.Removed != int64(len(ids)-1) || j.Kind != agentmem.JobDeleteScope {
		t.Errorf("delete all: got %+v, want done with %d removed", j, len(ids)-1)
	}
	page := decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/koji/memories?projectId=p", ""))
	if len(page.Memories) != 0 {
		t.Errorf("after delete all: %d memories left", len(page.Memories))
	}
	if resp := a.do("GET", "/api/agents/koji/memory.md?projectId=p", ""); resp.StatusCode != 404 {
		t.Errorf("memory.md with no memories: got %d, want 404", resp.StatusCode)
	}
}

func TestTypedMemoriesRenderUnderHeadings(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	for _, body := range []string{
		`{"projectId":"p","type":"decision","content":"Use sqlc","rationale":"typed queries"}`,
		`{"projectId":"p","type":"blocker","content":"CI runner out of disk"}`,
		`{"projectId":"p","type":"pattern","content":"Flaky e2e test","trigger":"timeout in checkout e2e","solution":"wait for the network idle event","confidence":0.8}`,
		`{"projectId":"p","type":"finding","content":"The cart service caches prices for 60 s","tags":["cart"],"pinned":true}`,
	} {
		if resp := a.do("POST", "/api/agents/miso/memories", body); resp.StatusCode != 201 {
			t.Fatalf("create %s: %d %s", body, resp.StatusCode, resp.Body)
		}
	}
	md := a.do("GET", "/api/agents/miso/memory.md?projectId=p", "")
	if got := md.Headers["Content-Type"]; !strings.HasPrefix(got, "text/markdown") {
		t.Errorf("Content-Type: got %q", got)
	}
	for _, want := range []string{"## Patterns\n- Flaky e2e test\n  When: timeout in checkout e2e", "## Decisions\n- Use sqlc (why: typed queries)", "## Blockers\n- [ ] CI runner out of disk", "## Findings\n- 📌 The cart service"} {
		if !strings.Contains(md.Body, want) {
			t.Errorf("memory.md lacks %q:\n%s", want, md.Body)
		}
	}
	decisions := decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/miso/memories?projectId=p&type=decision", ""))
	if len(decisions.Memories) != 1 || decisions.Memories[0].Rationale != "typed queries" {
		t.Errorf("type filter: got %+v", decisions.Memories)
	}
}

func TestBootstrapOneRoundTrip(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	empty := decode[agentmem.Bootstrap](t, a.do("GET", "/api/agents/nori/bootstrap?projectId=p", ""))
	if empty.Personality != nil || empty.MemoryFile != "" || empty.PersonalitySection != "" {
		t.Errorf("empty bootstrap: got %+v", empty)
	}
	if _, _, err := a.store.PutPersonality(context.Background(), agentmem.Personality{AgentName: "nori", DisplayName: "Nori", Voice: "terse"}, nil); err != nil {
		t.Fatal(err)
	}
	a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"Run make test before pushing"}`)
	b := decode[agentmem.Bootstrap](t, a.do("GET", "/api/agents/nori/bootstrap?projectId=p", ""))
	if b.Personality == nil || b.Personality.DisplayName != "Nori" || b.MemoryCount != 1 {
		t.Fatalf("got %+v", b)
	}
	if !strings.Contains(b.PersonalitySection, "# Personality") || !strings.Contains(b.MemoryFile, "- Run make test before pushing") {
		t.Errorf("rendering: section %q, file %q", b.PersonalitySection, b.MemoryFile)
	}
}

// TestBadInputIs4xxAndWritesNothing covers the input rules of the service
// core issue: every case gets a JSON error with a 4xx and nothing is stored.
func TestBadInputIs4xxAndWritesNothing(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	big := strings.Repeat("x", agentmem.MaxContentBytes+1)
	huge := strings.Repeat("x", agentmem.MaxBodyBytes+1)
	tests := []struct {
		name, method, target, body string
		status                     int
		code                       string
	}{
		{"malformed JSON", "POST", "/api/agents/nori/memories", `{"projectId":"p",`, 400, "invalid"},
		{"not an object", "POST", "/api/agents/nori/memories", `["x"]`, 400, "invalid"},
		{"two objects", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"a"}{}`, 400, "invalid"},
		{"empty body", "POST", "/api/agents/nori/memories", ``, 400, "invalid"},
		{"unknown field", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"a","colour":"red"}`, 400, "invalid"},
		{"wrong type", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":42}`, 400, "invalid"},
		{"missing projectId", "POST", "/api/agents/nori/memories", `{"content":"a"}`, 400, "invalid"},
		{"projectId with #", "POST", "/api/agents/nori/memories", `{"projectId":"a#b","content":"a"}`, 400, "invalid"},
		{"agent with #", "POST", "/api/agents/no%23ri/memories", `{"projectId":"p","content":"a"}`, 400, "invalid"},
		{"agent with space", "POST", "/api/agents/no%20ri/memories", `{"projectId":"p","content":"a"}`, 400, "invalid"},
		{"agent too long", "POST", "/api/agents/" + strings.Repeat("a", 65) + "/memories", `{"projectId":"p","content":"a"}`, 400, "invalid"},
		{"blank content", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"  \n"}`, 400, "invalid"},
		{"oversized content", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"` + big + `"}`, 400, "invalid"},
		{"oversized body", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"` + huge + `"}`, 413, "payload_too_large"},
		{"unknown type", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"a","type":"poem"}`, 400, "invalid"},
		{"rationale on a note", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"a","rationale":"b"}`, 400, "invalid"},
		{"bad blocker status", "POST", "/api/agents/nori/memories", `{"projectId":"p","type":"blocker","content":"a","status":"stuck"}`, 400, "invalid"},
		{"confidence out of range", "POST", "/api/agents/nori/memories", `{"projectId":"p","type":"pattern","content":"a","confidence":1.5}`, 400, "invalid"},
		{"bad tag", "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"a","tags":["no spaces"]}`, 400, "invalid"},
		{"list without projectId", "GET", "/api/agents/nori/memories", ``, 400, "invalid"},
		{"limit too high", "GET", "/api/agents/nori/memories?projectId=p&limit=51", ``, 400, "invalid"},
		{"limit not a number", "GET", "/api/agents/nori/memories?projectId=p&limit=ten", ``, 400, "invalid"},
		{"bad type filter", "GET", "/api/agents/nori/memories?projectId=p&type=poem", ``, 400, "invalid"},
		{"bad cursor", "GET", "/api/agents/nori/memories?projectId=p&cursor=%21%21", ``, 400, "invalid"},
		{"bad id", "GET", "/api/agents/nori/memories/not-a-ulid", ``, 400, "invalid"},
		{"unknown id", "GET", "/api/agents/nori/memories/01JD5Q8Z3K7M2N4P6R8T0V2X4Y", ``, 404, "not_found"},
		{"delete all without projectId", "DELETE", "/api/agents/nori/memories", ``, 400, "invalid"},
		{"unsupported method", "PATCH", "/api/agents/nori/memories", `{}`, 405, "method_not_allowed"},
		{"unknown route", "GET", "/api/agents/nori/memoirs", ``, 404, "no_route"},
		{"xml body", "POST", "/api/agents/nori/memories", `<memory/>`, 415, "unsupported_media"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.name == "xml body" {
				r.Header.Set("Content-Type", "application/xml")
			}
			resp, _ := a.h.Handle(context.Background(), localapi.Event(r, []byte(tt.body)))
			if resp.StatusCode != tt.status {
				t.Fatalf("got status %d (%s), want %d", resp.StatusCode, resp.Body, tt.status)
			}
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(resp.Body), &e); err != nil || e.Error.Code != tt.code || e.Error.Message == "" {
				t.Errorf("got body %s, want error code %q with a message", resp.Body, tt.code)
			}
		})
	}
	page, err := a.store.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: "nori", ProjectID: "p"})
	if err != nil || len(page.Memories) != 0 {
		t.Fatalf("bad input wrote %d memories (err %v)", len(page.Memories), err)
	}
}
