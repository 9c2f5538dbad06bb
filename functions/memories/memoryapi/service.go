package memoryapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/openapi"
)

// healthTimeout bounds the health route's reads, retries included, so
// that an unreachable store answers 503 well inside API Gateway's 30 s.
const healthTimeout = 2 * time.Second

// GetHealth serves GET /api/health: one read of an absent item per table.
func (a *API) GetHealth(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	tables, ok := a.Store.Health(ctx)
	h := agentmem.Health{Status: agentmem.HealthOK, Tables: tables}
	if ok {
		return httpapi.JSON(http.StatusOK, h), nil
	}
	var failed []string
	for _, t := range tables {
		if t.Status != agentmem.HealthOK {
			failed = append(failed, t.Table+" ("+t.Name+"): "+t.Error)
		}
	}
	h.Status = agentmem.HealthUnavailable
	h.Error = agentmem.Errorf(agentmem.EUnavailable, "the store cannot be read: %s", strings.Join(failed, "; "))
	a.Log.WarnContext(ctx, "health: store unavailable", "tables", failed)
	return httpapi.JSON(http.StatusServiceUnavailable, h), nil
}

// GetOpenAPI serves GET /api/openapi.json: the document generated from the
// route table and the domain types, readable by a viewer on any origin.
func (a *API) GetOpenAPI(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	return httpapi.Response{
		StatusCode: http.StatusOK,
		Headers:    map[string]string{"Content-Type": "application/json", "Access-Control-Allow-Origin": "*"},
		Body:       string(openapi.Document()),
	}, nil
}
