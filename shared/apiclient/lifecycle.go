package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// ForgetMemories deletes the scope's memories older than in.OlderThan
// ("12h", "30d", "2w"; pinned ones kept unless in.IncludePinned)
// (POST .../memories/forget). When the scope is too large for one request,
// the answer's Status is running and its JobID names the job that goes on
// (GetJob, WaitJob).
func (c *Client) ForgetMemories(ctx context.Context, agent string, in agentmem.ForgetInput) (agentmem.Forgotten, error) {
	var out agentmem.Forgotten
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "memories", "forget"), Body: in, Idempotent: true}, &out)
	return out, err
}

// GetStats returns the scope's counters: total, bytes, by type, by source
// and by scope (project memories, the project's session context), and its
// eviction limit (GET .../stats).
func (c *Client) GetStats(ctx context.Context, agent, project string) (agentmem.Stats, error) {
	var out agentmem.Stats
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "stats"), Query: url.Values{"projectId": {project}}}, &out)
	return out, err
}

// GetAllStats returns the totals over every scope and one page of the
// scopes (GET /api/stats); limit 0 keeps the server's default, cursor
// continues a previous page.
func (c *Client) GetAllStats(ctx context.Context, limit int, cursor string) (agentmem.AllStats, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", formatInt(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var out agentmem.AllStats
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: "/api/stats", Query: q}, &out)
	return out, err
}

// Recount rebuilds the counters of agent+project from its memories and
// returns them before and after, with the drift repaired
// (POST /api/admin/recount; an operator's call).
func (c *Client) Recount(ctx context.Context, agent, project string) (agentmem.Recount, error) {
	var out agentmem.Recount
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: "/api/admin/recount",
		Body: agentmem.RecountInput{AgentName: agent, ProjectID: project}, Idempotent: true}, &out)
	return out, err
}
