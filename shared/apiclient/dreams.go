package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// CreateDream runs a Deep Dream of agent's project now (POST .../dreams):
// Status "dreamed" with the diary entry, "skipped" with the reason, or
// "queued" with the JobID of the background job that dreams a scope too
// large for one request (FollowJob follows it; the job's DreamResult is
// the outcome). An *Error with code busy means another dream of the scope
// is running; llm_failed that the model failed (the diary records it).
func (c *Client) CreateDream(ctx context.Context, agent string, in agentmem.CreateDreamInput) (agentmem.DreamResult, error) {
	var out agentmem.DreamResult
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "dreams"), Body: in}, &out)
	return out, err
}

// ListDreams returns a page of the dream diary, newest first
// (GET .../dreams); limit 0 keeps the server's default, cursor continues a
// previous page.
func (c *Client) ListDreams(ctx context.Context, agent, project string, limit int, cursor string) (agentmem.DreamPage, error) {
	q := url.Values{"projectId": {project}}
	if limit > 0 {
		q.Set("limit", formatInt(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var out agentmem.DreamPage
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "dreams"), Query: q}, &out)
	return out, err
}

// GetDream returns the dreams of one day (GET .../dreams/{date}); withPlan
// adds what each wrote and the prior memories it replaced.
func (c *Client) GetDream(ctx context.Context, agent, project, date string, withPlan bool) (agentmem.DreamDay, error) {
	q := url.Values{"projectId": {project}}
	if withPlan {
		q.Set("plan", "true")
	}
	var out agentmem.DreamDay
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "dreams", date), Query: q}, &out)
	return out, err
}

// DreamMarkdown returns one day's dream diary as memory/dreams/YYYY-MM-DD.md.
func (c *Client) DreamMarkdown(ctx context.Context, agent, project, date string) (string, error) {
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "dreams", date),
		Query: url.Values{"projectId": {project}}, Accept: "text/markdown"})
	if err != nil {
		return "", err
	}
	return string(resp.Body), nil
}

// RevertDream restores the core a day's dream replaced
// (POST .../dreams/{date}/revert) and returns the diary entry of the revert.
func (c *Client) RevertDream(ctx context.Context, agent, project, date string) (agentmem.Dream, error) {
	var out agentmem.Dream
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "dreams", date, "revert"),
		Query: url.Values{"projectId": {project}}}, &out)
	return out, err
}
