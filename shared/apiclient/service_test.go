package apiclient_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// TestServiceRoutes: health, the OpenAPI document and the listing of a
// session's keys through the client, against the real handlers.
func TestServiceRoutes(t *testing.T) {
	t.Parallel()
	srv := apitest.New(t, nil)
	c, err := apiclient.New(context.Background(), apiclient.Config{URL: srv.URL, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := c.Health(ctx)
	if err != nil || h.Status != agentmem.HealthOK || len(h.Tables) != 3 {
		t.Errorf("Health: %+v, %v", h, err)
	}
	doc, err := c.OpenAPI(ctx)
	if err != nil || len(doc) < 1000 || string(doc[:1]) != "{" {
		t.Errorf("OpenAPI: %d bytes, %v", len(doc), err)
	}
	for i := range 3 {
		if _, _, err := c.PutSessionContext(ctx, "p", "run-9", fmt.Sprintf("k%d", i), "v", 0); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	for cursor, first := "", true; first || cursor != ""; first = false {
		page, err := c.ListSessionContext(ctx, "p", "run-9", 2, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range page.Keys {
			keys = append(keys, k.Key)
		}
		cursor = page.NextCursor
	}
	if fmt.Sprint(keys) != "[k0 k1 k2]" {
		t.Errorf("keys %v, want k0 k1 k2", keys)
	}
	// A path the API does not have is no_route, not not_found.
	err = c.Do(ctx, apiclient.Call{Method: http.MethodGet, Path: "/api/nothing"}, nil)
	if apiclient.IsNotFound(err) || !apiclient.HasCode(err, agentmem.ENoRoute) {
		t.Errorf("unknown path: got %v, want code no_route", err)
	}
}
