package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// BootstrapOptions select what the bootstrap route returns.
type BootstrapOptions struct {
	ProjectID string
	// Task, when set, is the run's task; the server adds the relevant
	// patterns to the memory file.
	Task string
}

// Bootstrap returns the agent's personality and rendered memory for a
// project (GET .../bootstrap?projectId=&task=).
func (c *Client) Bootstrap(ctx context.Context, agent string, opt BootstrapOptions) (agentmem.Bootstrap, error) {
	q := url.Values{"projectId": {opt.ProjectID}}
	if opt.Task != "" {
		q.Set("task", opt.Task)
	}
	var b agentmem.Bootstrap
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "bootstrap"), Query: q}, &b)
	return b, err
}
