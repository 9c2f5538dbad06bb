package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// ListOptions select a page of an agent's memories in a project.
type ListOptions struct {
	ProjectID string
	// Limit is the page size, 1..50; 0 leaves the server's default (50).
	Limit int
	// Type keeps only memories of that type when set.
	Type agentmem.Type
	// Cursor continues after a previous page (agentmem.MemoryPage.NextCursor).
	Cursor string
}

func (o ListOptions) query() url.Values {
	q := url.Values{"projectId": {o.ProjectID}}
	if o.Limit > 0 {
		q.Set("limit", formatInt(o.Limit))
	}
	if o.Type != "" {
		q.Set("type", string(o.Type))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	return q
}

// ListMemories returns one page of memories (GET .../memories).
func (c *Client) ListMemories(ctx context.Context, agent string, opt ListOptions) (agentmem.MemoryPage, error) {
	var page agentmem.MemoryPage
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "memories"), Query: opt.query()}, &page)
	return page, err
}

// EachMemory calls fn for every memory that opt selects, newest first,
// following the cursor page by page (opt.Limit is the page size). fn
// returning an error stops the walk and EachMemory returns it.
func (c *Client) EachMemory(ctx context.Context, agent string, opt ListOptions, fn func(agentmem.Memory) error) error {
	for {
		page, err := c.ListMemories(ctx, agent, opt)
		if err != nil {
			return err
		}
		for _, m := range page.Memories {
			if err := fn(m); err != nil {
				return err
			}
		}
		if page.NextCursor == "" || page.NextCursor == opt.Cursor {
			return nil
		}
		opt.Cursor = page.NextCursor
	}
}

// AllMemories returns every memory that opt selects, newest first.
func (c *Client) AllMemories(ctx context.Context, agent string, opt ListOptions) ([]agentmem.Memory, error) {
	var all []agentmem.Memory
	err := c.EachMemory(ctx, agent, opt, func(m agentmem.Memory) error {
		all = append(all, m)
		return nil
	})
	return all, err
}

// CreateMemory stores a memory (POST .../memories; source "manual").
func (c *Client) CreateMemory(ctx context.Context, agent string, in agentmem.MemoryInput) (agentmem.Memory, error) {
	var m agentmem.Memory
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "memories"), Body: in}, &m)
	return m, err
}

// GetMemory returns one memory of agent (GET .../memories/{id}).
func (c *Client) GetMemory(ctx context.Context, agent, id string) (agentmem.Memory, error) {
	var m agentmem.Memory
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "memories", id)}, &m)
	return m, err
}

// DeleteMemory deletes one memory of agent (DELETE .../memories/{id}).
func (c *Client) DeleteMemory(ctx context.Context, agent, id string) error {
	return c.Do(ctx, Call{Method: http.MethodDelete, Path: AgentPath(agent, "memories", id)}, nil)
}

// DeleteMemories deletes every memory of agent in project
// (DELETE .../memories?projectId=).
func (c *Client) DeleteMemories(ctx context.Context, agent, project string) error {
	return c.Do(ctx, Call{Method: http.MethodDelete, Path: AgentPath(agent, "memories"),
		Query: url.Values{"projectId": {project}}}, nil)
}

// MemoryMarkdown returns the rendered MEMORY.md (GET .../memory.md); an
// *Error with code not_found when there are no memories.
func (c *Client) MemoryMarkdown(ctx context.Context, agent, project string) (string, error) {
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "memory.md"),
		Query: url.Values{"projectId": {project}}, Accept: "text/markdown"})
	if err != nil {
		return "", err
	}
	return string(resp.Body), nil
}
