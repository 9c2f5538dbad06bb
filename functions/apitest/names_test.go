package apitest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

// call sends a request to the API as written: Go's client sends the path
// as given, without resolving dot segments, as a raw HTTP client would.
func call(t *testing.T, api *apitest.Server, method, path, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, api.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// items lists the keys of every item of the store's three tables.
func items(t *testing.T, api *apitest.Server) []string {
	t.Helper()
	cfg := api.Store.Config()
	var keys []string
	for _, table := range []string{cfg.MemoriesTable, cfg.PersonalitiesTable, cfg.JournalTable} {
		var all []map[string]any
		if err := api.Store.DB().Table(table).Scan().Consistent(true).All(context.Background(), &all); err != nil {
			t.Fatalf("scan %s: %v", table, err)
		}
		for _, it := range all {
			keys = append(keys, fmt.Sprintf("%s %v %v %v", table, it["pk"], it["agentName"], it["createdAt"]))
		}
	}
	sort.Strings(keys)
	return keys
}

// nameRequests are requests naming each kind of name (agent, project,
// session, context key, run id) in each place a route takes it, writes
// and reads; %s is the name.
var nameRequests = []struct {
	kind, method, path, body string
}{
	{"agent", "POST", "/api/agents/%s/memories", `{"projectId":"p","content":"Run make test"}`},
	{"agent", "PUT", "/api/agents/%s/personality", `{"displayName":"Nori"}`},
	{"agent", "POST", "/api/agents/%s/daily", `{"projectId":"p","title":"t","content":"c"}`},
	{"agent", "POST", "/api/agents/%s/extractions", `{"projectId":"p","runId":"r1","learnings":[{"type":"note","content":"c"}]}`},
	{"agent", "GET", "/api/agents/%s/memories?projectId=p", ``},
	{"agent", "GET", "/api/agents/%s/personality", ``},
	{"agent", "GET", "/api/agents/%s/bootstrap?projectId=p", ``},
	{"agent", "GET", "/api/agents/%s/stats?projectId=p", ``},
	{"agent", "DELETE", "/api/agents/%s/memories?projectId=p", ``},
	{"agent", "DELETE", "/api/agents/%s/personality", ``},
	{"project", "PUT", "/api/projects/%s/sessions/s/context/k", `{"value":"v"}`},
	{"project", "GET", "/api/projects/%s/sessions/s/context/k", ``},
	{"project", "GET", "/api/projects/%s/sessions/s/context", ``},
	{"project", "DELETE", "/api/projects/%s/sessions/s", ``},
	{"session", "PUT", "/api/projects/p/sessions/%s/context/k", `{"value":"v"}`},
	{"session", "GET", "/api/projects/p/sessions/%s/context/k", ``},
	{"session", "GET", "/api/projects/p/sessions/%s/context", ``},
	{"session", "DELETE", "/api/projects/p/sessions/%s", ``},
	{"key", "PUT", "/api/projects/p/sessions/s/context/%s", `{"value":"v"}`},
	{"key", "GET", "/api/projects/p/sessions/s/context/%s", ``},
	{"key", "DELETE", "/api/projects/p/sessions/s/context/%s", ``},
}

// bodyRequests name a project or a run id in a JSON body or a query
// string (%s is the name).
var bodyRequests = []struct {
	kind, method, path, body string
}{
	{"project", "POST", "/api/agents/nori/memories", `{"projectId":"%s","content":"Run make test"}`},
	{"project", "POST", "/api/agents/nori/daily", `{"projectId":"%s","title":"t","content":"c"}`},
	{"project", "POST", "/api/agents/nori/extractions", `{"projectId":"%s","runId":"r1","learnings":[{"type":"note","content":"c"}]}`},
	{"project", "GET", "/api/agents/nori/memories?projectId=%s", ``},
	{"project", "GET", "/api/agents/nori/bootstrap?projectId=%s", ``},
	{"project", "DELETE", "/api/agents/nori/memories?projectId=%s", ``},
	{"run", "POST", "/api/agents/nori/extractions", `{"projectId":"p","runId":"%s","learnings":[{"type":"note","content":"c"}]}`},
}

// TestDotSegmentNamesAreRefused: "." and ".." are no agent name, project
// id, session id, context key or run id, written as such or
// percent-encoded, on every route that takes one, writing or reading:
// each is a 400 invalid that says why, and nothing is stored.
func TestDotSegmentNamesAreRefused(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	before := items(t, api)
	type request struct{ name, method, path, body string }
	var reqs []request
	for _, seg := range []string{".", "..", "%2E", "%2e%2E", ".%2E"} {
		for _, r := range nameRequests {
			reqs = append(reqs, request{r.kind + " " + seg, r.method, fmt.Sprintf(r.path, seg), r.body})
		}
	}
	for _, name := range []string{".", ".."} {
		for _, r := range bodyRequests {
			path, body := r.path, r.body
			if strings.Contains(path, "%s") {
				path = fmt.Sprintf(path, name)
			} else {
				body = fmt.Sprintf(body, name)
			}
			reqs = append(reqs, request{r.kind + " " + name, r.method, path, body})
		}
	}
	for _, r := range reqs {
		t.Run(r.name+" "+r.method+" "+r.path, func(t *testing.T) {
			status, body := call(t, api, r.method, r.path, r.body)
			if status != http.StatusBadRequest {
				t.Fatalf("got %d %s, want 400", status, body)
			}
			var e agentmem.ErrorEnvelope
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == nil {
				t.Fatalf("got body %s, want a JSON error (%v)", body, err)
			}
			if got, want := e.Error.Code, agentmem.EInvalid; got != want {
				t.Errorf("got code %q, want %q", got, want)
			}
			if msg := e.Error.Message; !strings.Contains(msg, "dot segment") || !strings.Contains(msg, "normalise") {
				t.Errorf("got message %q, want it to say that dot segments are no names and why", msg)
			}
		})
	}
	if after := items(t, api); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("refused requests wrote items:\nbefore %q\nafter  %q", before, after)
	}
}

// TestDottedNamesStayValid: names that hold dots beside other characters,
// or three dots, are names like any other, written and read back.
func TestDottedNamesStayValid(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	for _, name := range []string{"v1.2", "a..b", ".hidden", "...", "a.", "..a", "._"} {
		t.Run(name, func(t *testing.T) {
			steps := []struct {
				method, path, body string
				want               int
			}{
				{"POST", "/api/agents/" + name + "/memories", `{"projectId":"` + name + `","content":"Run make test"}`, http.StatusCreated},
				{"GET", "/api/agents/" + name + "/memories?projectId=" + name, ``, http.StatusOK},
				{"PUT", "/api/agents/" + name + "/personality", `{"displayName":"Nori"}`, http.StatusCreated},
				{"GET", "/api/agents/" + name + "/personality", ``, http.StatusOK},
				{"POST", "/api/agents/" + name + "/extractions", `{"projectId":"` + name + `","runId":"` + name + `","learnings":[{"type":"finding","content":"The cache is per process"}]}`, http.StatusOK},
				{"PUT", "/api/projects/" + name + "/sessions/" + name + "/context/" + name, `{"value":"v"}`, http.StatusCreated},
				{"GET", "/api/projects/" + name + "/sessions/" + name + "/context/" + name, ``, http.StatusOK},
				{"GET", "/api/projects/" + name + "/sessions/" + name + "/context", ``, http.StatusOK},
			}
			for _, s := range steps {
				if status, body := call(t, api, s.method, s.path, s.body); status != s.want {
					t.Errorf("%s %s: got %d %s, want %d", s.method, s.path, status, body, s.want)
				}
			}
		})
	}
}
