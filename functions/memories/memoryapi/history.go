package memoryapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// Updates and history (issue 11): PATCH .../memories/{id} edits a memory
// as its next version, with the version the caller read in the body
// (optimistic concurrency: another version is 409 conflict); GET
// .../memories/{id}/history lists its versions, newest first; POST
// .../memories/{id}/history/{version}/restore puts one back as the next
// version, and brings a superseded or retired memory back. Every change is
// recorded as made by "manual" with the caller's IAM identity.

// changeBy is who makes a change through the API: a person or a program,
// named by the IAM identity API Gateway reports, with the request's note.
func changeBy(r *httpapi.Request, note string) agentmem.ChangeBy {
	by := agentmem.ChangeBy{Kind: agentmem.ByManual, Note: note}
	if a := r.Event.RequestContext.Authorizer; a != nil && a.IAM != nil {
		by.Principal = a.IAM.UserARN
	}
	return by
}

// UpdateMemory serves PATCH /api/agents/{agentName}/memories/{id}.
func (a *API) UpdateMemory(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, id, err := memoryRef(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	var p agentmem.MemoryPatch
	if err := r.Decode(&p); err != nil {
		return httpapi.Response{}, err
	}
	if err := p.Check(); err != nil {
		return httpapi.Response{}, err
	}
	m, changed, err := a.Store.UpdateMemory(ctx, agent, id, p, changeBy(r, p.Note))
	if err != nil {
		return httpapi.Response{}, err
	}
	if changed {
		a.Log.InfoContext(ctx, "memory updated", "agent", agent, "project", m.ProjectID, "id", id, "version", m.Version)
	}
	return httpapi.JSON(http.StatusOK, m), nil
}

// GetMemoryHistory serves GET /api/agents/{agentName}/memories/{id}/history.
func (a *API) GetMemoryHistory(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, id, err := memoryRef(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	limit, err := r.IntQuery("limit", agentmem.DefaultHistoryLimit, 1, agentmem.MaxHistoryLimit)
	if err != nil {
		return httpapi.Response{}, err
	}
	h, err := a.Store.MemoryHistory(ctx, agent, id, limit, r.Query.Get("cursor"))
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, h), nil
}

// RestoreMemoryVersion serves POST
// /api/agents/{agentName}/memories/{id}/history/{version}/restore. The body
// is optional.
func (a *API) RestoreMemoryVersion(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, id, err := memoryRef(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	version, err := strconv.Atoi(r.Param("version"))
	if err != nil || version < 1 || fmt.Sprint(version) != r.Param("version") {
		return httpapi.Response{}, agentmem.Errorf(agentmem.EInvalid, "version %q is not a version number (1, 2, ...)", r.Param("version"))
	}
	var in agentmem.RestoreInput
	if r.HasBody() {
		if err := r.Decode(&in); err != nil {
			return httpapi.Response{}, err
		}
	}
	if err := in.Validate(); err != nil {
		return httpapi.Response{}, err
	}
	m, err := a.Store.RestoreVersion(ctx, agent, id, version, in.Version, changeBy(r, in.Note))
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "memory version restored", "agent", agent, "project", m.ProjectID, "id", id, "from", version, "version", m.Version)
	return httpapi.JSON(http.StatusOK, m), nil
}
