package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"time"

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
	// State lists the memories that left the scope instead of its live
	// ones: agentmem.StateSuperseded or agentmem.StateRetired ("": live).
	State string
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
	if o.State != "" {
		q.Set("state", o.State)
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

// CreateMemory stores a memory (POST .../memories; source "manual") and
// returns it; when the scope already holds a repeat of it, that memory
// (CreateMemoryResult tells which happened). The call carries an
// idempotency key (in.ClientToken, or a fresh one), so that its retries
// never store the memory twice.
func (c *Client) CreateMemory(ctx context.Context, agent string, in agentmem.MemoryInput) (agentmem.Memory, error) {
	r, err := c.CreateMemoryResult(ctx, agent, in)
	return r.Memory, err
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
// (DELETE .../memories?projectId=) and returns the job that does it: done
// with what it removed, or running on in the background when the scope
// was too large for one request (GetJob, WaitJob follow it).
func (c *Client) DeleteMemories(ctx context.Context, agent, project string) (agentmem.Job, error) {
	var j agentmem.Job
	err := c.Do(ctx, Call{Method: http.MethodDelete, Path: AgentPath(agent, "memories"),
		Query: url.Values{"projectId": {project}}}, &j)
	return j, err
}

// GetJob returns how far a background job got (GET .../jobs/{jobId}): a
// bulk delete, or a dream.
func (c *Client) GetJob(ctx context.Context, agent, id string) (agentmem.Job, error) {
	var j agentmem.Job
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "jobs", id)}, &j)
	return j, err
}

// jobPoll is the wait between two reads of a running job.
const jobPoll = 500 * time.Millisecond

// WaitJob reads a job until it is over (done or failed) or ctx ends, and
// returns it as last read.
func (c *Client) WaitJob(ctx context.Context, agent, id string) (agentmem.Job, error) {
	return c.FollowJob(ctx, agent, id, nil)
}

// FollowJob is WaitJob telling seen each reading of the job (nil: none),
// e.g. to show a dream job's progress.
func (c *Client) FollowJob(ctx context.Context, agent, id string, seen func(agentmem.Job)) (agentmem.Job, error) {
	for {
		j, err := c.GetJob(ctx, agent, id)
		if err == nil && seen != nil {
			seen(j)
		}
		if err != nil || j.Status != agentmem.JobRunning {
			return j, err
		}
		select {
		case <-ctx.Done():
			return j, ctx.Err()
		case <-time.After(jobPoll):
		}
	}
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
