package apiclient

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Health reads GET /api/health: every table answered a read. A store
// that cannot be read is an *Error with status 503 and code unavailable,
// whose message names the tables and why.
func (c *Client) Health(ctx context.Context) (agentmem.Health, error) {
	var h agentmem.Health
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: "/api/health"}, &h)
	return h, err
}

// OpenAPI returns the API's OpenAPI document (GET /api/openapi.json).
func (c *Client) OpenAPI(ctx context.Context) ([]byte, error) {
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodGet, Path: "/api/openapi.json"})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}
