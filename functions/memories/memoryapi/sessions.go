package memoryapi

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
)

// EndedSession is the answer of DELETE .../sessions/{sessionId}.
type EndedSession = agentmem.EndedSession

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

func (a *API) putSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
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

func (a *API) getSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
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

func (a *API) deleteSessionContext(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, key, err := sessionKey(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	if err := a.Store.DeleteSessionValue(ctx, project, sessionID, key); err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.NoContent(), nil
}

func (a *API) endSession(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	project, sessionID, err := session(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	n, err := a.Store.EndSession(ctx, project, sessionID)
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "ended session", "project", project, "session", sessionID, "deleted", n)
	return httpapi.JSON(http.StatusOK, EndedSession{ProjectID: project, SessionID: sessionID, Deleted: n}), nil
}
