package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// sessionPath is /api/projects/{project}/sessions/{session}[/context/{key}].
func sessionPath(project, session string, key ...string) string {
	p := "/api/projects/" + url.PathEscape(project) + "/sessions/" + url.PathEscape(session)
	if len(key) > 0 {
		p += "/context/" + url.PathEscape(key[0])
	}
	return p
}

// PutSessionContext stores a key of a pipeline run's shared context
// (PUT /api/projects/{p}/sessions/{s}/context/{key}); ttlSeconds 0 keeps
// the server's default (24 h). created tells a new key from a replaced one.
func (c *Client) PutSessionContext(ctx context.Context, project, session, key, value string, ttlSeconds int) (e agentmem.SessionEntry, created bool, err error) {
	in := agentmem.SessionInput{Value: &value}
	if ttlSeconds > 0 {
		in.TTLSeconds = &ttlSeconds
	}
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodPut, Path: sessionPath(project, session, key), Body: in})
	if err != nil {
		return e, false, err
	}
	if err := decodeJSON(resp, &e); err != nil {
		return e, false, err
	}
	return e, resp.Status == http.StatusCreated, nil
}

// GetSessionContext returns a key of a session's context (and marks it
// accessed); an *Error with code not_found when it is absent or expired.
func (c *Client) GetSessionContext(ctx context.Context, project, session, key string) (agentmem.SessionEntry, error) {
	var e agentmem.SessionEntry
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: sessionPath(project, session, key)}, &e)
	return e, err
}

// DeleteSessionContext deletes one key of a session's context.
func (c *Client) DeleteSessionContext(ctx context.Context, project, session, key string) error {
	return c.Do(ctx, Call{Method: http.MethodDelete, Path: sessionPath(project, session, key)}, nil)
}

// EndSession deletes every key of a session at once
// (DELETE /api/projects/{p}/sessions/{s}).
func (c *Client) EndSession(ctx context.Context, project, session string) (agentmem.EndedSession, error) {
	var out agentmem.EndedSession
	err := c.Do(ctx, Call{Method: http.MethodDelete, Path: sessionPath(project, session)}, &out)
	return out, err
}

// ListSessionContext returns a page of a session's live keys, in key
// order and without their values (GET .../sessions/{s}/context); limit 0
// leaves the server's default, cursor continues a previous page.
func (c *Client) ListSessionContext(ctx context.Context, project, session string, limit int, cursor string) (agentmem.SessionKeyPage, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", formatInt(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var out agentmem.SessionKeyPage
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: sessionPath(project, session) + "/context", Query: q}, &out)
	return out, err
}
