package memoryapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/routes"
)

// AppendDaily serves POST /api/agents/{agentName}/daily.
func (a *API) AppendDaily(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.DailyInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	in.Normalize()
	now := a.Store.Now().UTC()
	if err := in.Validate(now); err != nil {
		return httpapi.Response{}, err
	}
	key, err := r.IdempotencyKey(in.ClientToken)
	if err != nil {
		return httpapi.Response{}, err
	}
	in.ClientToken = ""
	once, err := dynamostore.NewOnce(key, string(routes.AppendDaily), agent, in)
	if err != nil {
		return httpapi.Response{}, err
	}
	rec, replayed, err := a.Store.AppendDailyOnce(ctx, in.Record(agent, now), once)
	if err != nil {
		return httpapi.Response{}, err
	}
	resp := httpapi.JSON(http.StatusCreated, rec)
	resp.Headers["Location"] = fmt.Sprintf("/api/agents/%s/daily?projectId=%s&date=%s", agent, url.QueryEscape(rec.ProjectID), rec.Date())
	markReplayed(resp, replayed)
	return resp, nil
}

// GetDaily serves GET /api/agents/{agentName}/daily.
func (a *API) GetDaily(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	date := r.Query.Get("date")
	if date == "" {
		date = a.Store.Now().UTC().Format(agentmem.DateLayout)
	}
	records, err := a.Store.DailyDay(ctx, agent, project, date)
	if err != nil {
		return httpapi.Response{}, err
	}
	if len(records) == 0 {
		return httpapi.Response{}, agentmem.Errorf(agentmem.ENotFound, "agent %s has no daily records in project %s on %s", agent, project, date)
	}
	if r.Accepts("text/markdown") {
		return httpapi.Markdown(http.StatusOK, markdown.DailyFile(date, records)), nil
	}
	return httpapi.JSON(http.StatusOK, agentmem.DailyDay{AgentName: agent, ProjectID: project, Date: date, Records: records}), nil
}
