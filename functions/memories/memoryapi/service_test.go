package memoryapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/openapi"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	up := newAPITest(t)
	resp := up.do("GET", "/api/health", "")
	h := decode[agentmem.Health](t, resp)
	if resp.StatusCode != http.StatusOK || h.Status != agentmem.HealthOK || len(h.Tables) != 3 || h.Error != nil {
		t.Errorf("store up: got %d %s, want 200 ok with 3 tables", resp.StatusCode, resp.Body)
	}

	// The tables of a store that were never created.
	awsCfg, err := awsconfig.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h2, err := memoryapi.New(lambdamain.Deps{Store: dynamostore.New(awsCfg, dynamotest.Config(t)), Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	down := &apiTest{t: t, h: h2}
	resp = down.do("GET", "/api/health", "")
	h = decode[agentmem.Health](t, resp)
	switch {
	case resp.StatusCode != http.StatusServiceUnavailable || h.Status != agentmem.HealthUnavailable:
		t.Errorf("tables missing: got %d %s, want 503 unavailable", resp.StatusCode, resp.Body)
	case h.Error == nil || h.Error.Code != agentmem.EUnavailable || !strings.Contains(h.Error.Message, "does not exist"):
		t.Errorf("tables missing: error %+v, want code unavailable saying the tables do not exist", h.Error)
	case resp.Headers["Content-Type"] != "application/json":
		t.Errorf("Content-Type %q", resp.Headers["Content-Type"])
	}
}

func TestOpenAPIRouteServesTheDocument(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	resp := a.do("GET", "/api/openapi.json", "")
	if resp.StatusCode != http.StatusOK || resp.Body != string(openapi.Document()) || resp.Headers["Content-Type"] != "application/json" {
		t.Errorf("got %d %s (%d bytes), want 200 and the generated document", resp.StatusCode, resp.Headers["Content-Type"], len(resp.Body))
	}
}

func TestListSessionContext(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	for i := range 3 {
		resp := a.do("PUT", fmt.Sprintf("/api/projects/p/sessions/run-1/context/k%d", i), `{"value":"v"}`)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("put: %d %s", resp.StatusCode, resp.Body)
		}
	}
	resp := a.do("GET", "/api/projects/p/sessions/run-1/context?limit=2", "")
	page := decode[agentmem.SessionKeyPage](t, resp)
	if resp.StatusCode != http.StatusOK || len(page.Keys) != 2 || page.NextCursor == "" || page.Keys[0].Key != "k0" || page.Keys[0].Bytes != 1 {
		t.Fatalf("first page: got %d %s", resp.StatusCode, resp.Body)
	}
	resp = a.do("GET", "/api/projects/p/sessions/run-1/context?limit=2&cursor="+page.NextCursor, "")
	page = decode[agentmem.SessionKeyPage](t, resp)
	if len(page.Keys) != 1 || page.Keys[0].Key != "k2" || page.NextCursor != "" {
		t.Errorf("second page: got %s", resp.Body)
	}
	for _, target := range []string{
		"/api/projects/p/sessions/run-1/context?limit=0",
		"/api/projects/p/sessions/run-1/context?limit=1001",
		"/api/projects/p/sessions/run-1/context?cursor=%21",
		"/api/projects/p%23q/sessions/run-1/context",
	} {
		if resp := a.do("GET", target, ""); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("GET %s: got %d %s, want 400", target, resp.StatusCode, resp.Body)
		}
	}
}
