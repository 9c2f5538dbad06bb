package memoryapi

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// ForgetMemories serves POST /api/agents/{agentName}/memories/forget.
func (a *API) ForgetMemories(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.ForgetInput
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
	j, err := a.runJob(ctx, agentmem.Job{Kind: agentmem.JobForget, AgentName: agent, ProjectID: in.ProjectID,
		Cutoff: cutoff, IncludePinned: in.IncludePinned})
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "forget memories", "agent", agent, "project", in.ProjectID, "olderThan", in.OlderThan,
		"includePinned", in.IncludePinned, "job", j.ID, "status", j.Status, "removed", j.Removed)
	out := agentmem.Forgotten{Removed: j.Removed, Cutoff: cutoff, Status: j.Status}
	if j.Status == agentmem.JobRunning {
		out.JobID = j.ID
	}
	return jobResponse(j, out), nil
}

// GetStats serves GET /api/agents/{agentName}/stats.
func (a *API) GetStats(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	c, err := a.Store.GetScopeCounts(ctx, agent, project)
	if err != nil {
		return httpapi.Response{}, err
	}
	// The session scope belongs to the project (every agent of a
	// pipeline run shares it), so it is the project's live keys.
	sessions, err := a.Store.SessionUsage(ctx, project)
	if err != nil {
		return httpapi.Response{}, err
	}
	st, err := a.Store.GetDreamState(ctx, agent, project)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, agentmem.Stats{
		ScopeCounts: c, Limit: a.Store.ScopeLimit(),
		ByScope: agentmem.ScopeUsage{Project: agentmem.Usage{Total: c.Total, Bytes: c.Bytes}, Session: sessions},
		Dream:   agentmem.DreamStatus{Pending: st.Pending(), PendingSince: st.PendingSince, LastAppendAt: st.LastAppendAt, LastDreamAt: st.LastDreamAt},
	}), nil
}

// GetAllStats serves GET /api/stats.
func (a *API) GetAllStats(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
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
	return httpapi.JSON(http.StatusOK, agentmem.AllStats{Totals: totals, ScopeCountsPage: page}), nil
}
