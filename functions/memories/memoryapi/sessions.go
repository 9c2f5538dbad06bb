package memoryapi

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// session validates the {projectId} and {sessionId} path parameters.
func session(r *httpapi.Request) (project, sessionID string, err error) {
	project, sessionID = r.Param("projectId"), r.Param("sessionId")
	if err := agentmem.ValidateProjectID(project); err != nil {
		return "", "", err
	}
	if err := agentmem.ValidateSessionID(sessionID); err != nil {
		return "", "", err
	}
	return project, sessionID, nil
}

// sessionKey validates the path parameters of a context key route.
func sessionKey(r *httpapi.Request) (project, sessionID, key string, err error) {
	if project, sessionID, err = session(r); err != nil {
		return "", "", "", err
	}
	key = r.Param("key")
	return project, sessionID, key, agentmem.ValidateKey(key)
}

// PutSessionContext serves PUT /api/projects/{projectId}/sessions/{sessionId}/context/{key}.
func (a *API) PutSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, key, err := sessionKey(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.SessionInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	if err := in.Validate(); err != nil {
		return httpapi.Response{}, err
	}
	e, created, err := a.Store.PutSessionValue(ctx, project, sessionID, key, *in.Value, in.TTL())
	if err != nil {
		return httpapi.Response{}, err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return httpapi.JSON(status, e), nil
}

// GetSessionContext serves GET /api/projects/{projectId}/sessions/{sessionId}/context/{key}.
func (a *API) GetSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, key, err := sessionKey(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	e, err := a.Store.GetSessionValue(ctx, project, sessionID, key)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, e), nil
}

// DeleteSessionContext serves DELETE /api/projects/{projectId}/sessions/{sessionId}/context/{key}.
func (a *API) DeleteSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, key, err := sessionKey(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	if err := a.Store.DeleteSessionValue(ctx, project, sessionID, key); err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.NoContent(), nil
}

// EndSession serves DELETE /api/projects/{projectId}/sessions/{sessionId}.
func (a *API) EndSession(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, err := session(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	n, err := a.Store.EndSession(ctx, project, sessionID)
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "ended session", "project", project, "session", sessionID, "deleted", n)
	return httpapi.JSON(http.StatusOK, agentmem.EndedSession{ProjectID: project, SessionID: sessionID, Deleted: n}), nil
}

// ListSessionContext serves GET /api/projects/{projectId}/sessions/{sessionId}/context.
func (a *API) ListSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, err := session(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	limit, err := r.IntQuery("limit", agentmem.DefaultSessionKeysPage, 1, agentmem.MaxSessionKeysPage)
	if err != nil {
		return httpapi.Response{}, err
	}
	page, err := a.Store.ListSessionKeys(ctx, project, sessionID, limit, r.Query.Get("cursor"))
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, page), nil
}
