package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// CreateMemoryResult stores a memory (POST .../memories) and returns the
// whole answer: the memory stored or, when the scope already holds a
// repeat of it (and in.AllowDuplicate is false), that memory with
// Duplicate set and nothing stored; Superseded when in.Replaces named one.
// Like CreateMemory it carries an idempotency key.
func (c *Client) CreateMemoryResult(ctx context.Context, agent string, in agentmem.MemoryInput) (agentmem.CreateResult, error) {
	var r agentmem.CreateResult
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "memories"), Body: in, IdempotencyKey: keyFor(in.ClientToken)}, &r)
	return r, err
}

// UpdateMemory edits a memory as its next version (PATCH
// .../memories/{id}); p.Version is the version read, and a memory changed
// since answers an *Error with code conflict. It is not retried: a retry
// of an edit that went through would find the version moved.
func (c *Client) UpdateMemory(ctx context.Context, agent, id string, p agentmem.MemoryPatch) (agentmem.Memory, error) {
	var m agentmem.Memory
	err := c.Do(ctx, Call{Method: http.MethodPatch, Path: AgentPath(agent, "memories", id), Body: p}, &m)
	return m, err
}

// MemoryHistory returns one page of a memory's versions, newest first
// (GET .../memories/{id}/history); limit 0 leaves the server's default,
// cursor continues a previous page.
func (c *Client) MemoryHistory(ctx context.Context, agent, id string, limit int, cursor string) (agentmem.MemoryHistory, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var h agentmem.MemoryHistory
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "memories", id, "history"), Query: q}, &h)
	return h, err
}

// RestoreMemoryVersion puts version back as the memory's next version, or
// brings a superseded or retired memory back (POST
// .../memories/{id}/history/{version}/restore). in.Version, when set, is
// the current version read. Retried like an idempotent call: restoring
// what the memory already holds changes nothing.
func (c *Client) RestoreMemoryVersion(ctx context.Context, agent, id string, version int, in agentmem.RestoreInput) (agentmem.Memory, error) {
	var m agentmem.Memory
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "memories", id, "history", strconv.Itoa(version), "restore"),
		Body: in, Idempotent: true}, &m)
	return m, err
}
