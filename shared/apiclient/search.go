package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// SearchOptions select a search of one agent's memories in a project.
type SearchOptions struct {
	ProjectID string
	Query     string
	// Type searches only memories of that type when set.
	Type agentmem.Type
	// Limit is 1..50; 0 keeps the server's default (10).
	Limit int
}

// SearchMemories ranks the scope's memories against a query
// (GET .../memories/search): lexical, semantic or hybrid as the server is
// configured, each result with its score.
func (c *Client) SearchMemories(ctx context.Context, agent string, opt SearchOptions) (agentmem.SearchResult, error) {
	q := url.Values{"projectId": {opt.ProjectID}, "q": {opt.Query}}
	if opt.Type != "" {
		q.Set("type", string(opt.Type))
	}
	if opt.Limit > 0 {
		q.Set("limit", formatInt(opt.Limit))
	}
	var out agentmem.SearchResult
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "memories", "search"), Query: q}, &out)
	return out, err
}

// SuggestPatterns returns the patterns relevant to a task description
// above a confidence threshold (GET .../patterns/suggest); minConfidence
// and limit 0 keep the server's defaults (0.7 and 5).
func (c *Client) SuggestPatterns(ctx context.Context, agent, project, task string, minConfidence float64, limit int) (agentmem.Suggestions, error) {
	q := url.Values{"projectId": {project}, "task": {task}}
	if minConfidence > 0 {
		q.Set("minConfidence", strconv.FormatFloat(minConfidence, 'f', -1, 64))
	}
	if limit > 0 {
		q.Set("limit", formatInt(limit))
	}
	var out agentmem.Suggestions
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "patterns", "suggest"), Query: q}, &out)
	return out, err
}
