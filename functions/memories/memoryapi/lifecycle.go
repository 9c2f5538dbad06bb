package memoryapi

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// ForgetInput is the body of ForgetMemories.
type ForgetInput struct {
	ProjectID string `json:"projectId"`
	// OlderThan is an age in whole hours, days or weeks: "12h", "30d",
	// "2w" (agentmem.ParseAge).
	OlderThan string `json:"olderThan"`
	// IncludePinned forgets pinned memories too.
	IncludePinned bool `json:"includePinned,omitempty"`
}

// Forgotten is the answer of ForgetMemories.
type Forgotten struct {
	Removed int `json:"removed"`
	// Cutoff is the creation time before which memories were removed.
	Cutoff string `json:"cutoff"`
}

func (a *API) forget(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in ForgetInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	if err := agentmem.ValidateProjectID(in.ProjectID); err != nil {
		return httpapi.Response{}, err
	}
	if in.OlderThan == "" {
		return httpapi.Response{}, agentmem.Errorf(agentmem.EInvalid, "olderThan is required, e.g. \"30d\"")
	}
	age, err := agentmem.ParseAge(in.OlderThan)
	if err != nil {
		return httpapi.Response{}, err
	}
	cutoff := agentmem.FormatTime(a.Store.Now().Add(-age))
	n, err := a.Store.DeleteMatching(ctx, agent, in.ProjectID, func(m agentmem.Memory) bool {
		return m.CreatedAt < cutoff && (in.IncludePinned || !m.Pinned)
	})
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "forgot memories", "agent", agent, "project", in.ProjectID, "olderThan", in.OlderThan,
		"includePinned", in.IncludePinned, "removed", n)
	return httpapi.JSON(http.StatusOK, Forgotten{Removed: n, Cutoff: cutoff}), nil
}

// Usage is how many memories a scope holds and their stored size.
type Usage struct {
	Total int64 `json:"total"`
	Bytes int64 `json:"bytes"`
}

// ScopeUsage breaks a project's usage down by the scopes of seed 003.
type ScopeUsage struct {
	// Project is the agent's long-term memories in the project.
	Project Usage `json:"project"`
	// Session is the project's session-scoped context (key/values that
	// expire with the session). It is null: the session context store
	// does not keep counters yet.
	Session *Usage `json:"session"`
}

// Stats is the answer of GetStats: the scope's counters (its memories:
// total, bytes, by type and by source), broken down by scope, and the
// eviction limit.
type Stats struct {
	dynamostore.ScopeCounts
	ByScope ScopeUsage `json:"byScope"`
	// Limit is how many memories the scope keeps before the least
	// recently used are evicted.
	Limit int `json:"limit"`
}

func (a *API) stats(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	c, err := a.Store.GetScopeCounts(ctx, agent, project)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, Stats{
		ScopeCounts: c, ByScope: ScopeUsage{Project: Usage{Total: c.Total, Bytes: c.Bytes}}, Limit: a.Store.ScopeLimit(),
	}), nil
}

// AllStats is the answer of GetAllStats: the totals over every scope and
// one page of the scopes holding memories.
type AllStats struct {
	Totals dynamostore.Totals `json:"totals"`
	dynamostore.ScopeCountsPage
}

func (a *API) allStats(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	limit, err := r.IntQuery("limit", dynamostore.DefaultScopesPage, 1, dynamostore.MaxScopesPage)
	if err != nil {
		return httpapi.Response{}, err
	}
	page, err := a.Store.ListScopeCounts(ctx, r.Query.Get("cursor"), limit)
	if err != nil {
		return httpapi.Response{}, err
	}
	totals, err := a.Store.GetTotals(ctx)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, AllStats{Totals: totals, ScopeCountsPage: page}), nil
}
