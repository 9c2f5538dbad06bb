package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// ListPersonalities returns every personality in agent name order,
// following the pages of GET /api/personalities.
func (c *Client) ListPersonalities(ctx context.Context) ([]agentmem.Personality, error) {
	all := []agentmem.Personality{}
	cursor := ""
	for {
		page, err := c.PersonalitiesPage(ctx, 0, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Personalities...)
		if page.NextCursor == "" || page.NextCursor == cursor {
			return all, nil
		}
		cursor = page.NextCursor
	}
}

// PersonalitiesPage returns one page of personalities (GET
// /api/personalities); limit 0 keeps the server's default, cursor
// continues a previous page.
func (c *Client) PersonalitiesPage(ctx context.Context, limit int, cursor string) (agentmem.PersonalityPage, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", formatInt(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var page agentmem.PersonalityPage
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: "/api/personalities", Query: q}, &page)
	return page, err
}

// GetPersonality returns agent's personality; an *Error with code
// not_found when it has none.
func (c *Client) GetPersonality(ctx context.Context, agent string) (agentmem.Personality, error) {
	var p agentmem.Personality
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: AgentPath(agent, "personality")}, &p)
	return p, err
}

// PutPersonality creates or replaces agent's personality. With in.Version
// set, the write fails with code conflict if someone else wrote since that
// version (0: it must not exist yet). created tells a create from a
// replace. The call carries an idempotency key (in.ClientToken, or a fresh
// one), so that a retry after a lost answer gets the first answer back
// rather than a conflict or a second version.
func (c *Client) PutPersonality(ctx context.Context, agent string, in agentmem.PersonalityInput) (p agentmem.Personality, created bool, err error) {
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodPut, Path: AgentPath(agent, "personality"), Body: in, IdempotencyKey: keyFor(in.ClientToken)})
	if err != nil {
		return p, false, err
	}
	if err := decodeJSON(resp, &p); err != nil {
		return p, false, err
	}
	return p, resp.Status == http.StatusCreated, nil
}

// DeletePersonality deletes agent's personality; an *Error with code
// not_found when it has none.
func (c *Client) DeletePersonality(ctx context.Context, agent string) error {
	return c.Do(ctx, Call{Method: http.MethodDelete, Path: AgentPath(agent, "personality")}, nil)
}
