package apiclient

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// ListPersonalities returns every personality (GET /api/personalities).
func (c *Client) ListPersonalities(ctx context.Context) ([]agentmem.Personality, error) {
	var out agentmem.PersonalityList
	err := c.Do(ctx, Call{Method: http.MethodGet, Path: "/api/personalities"}, &out)
	return out.Personalities, err
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
// replace.
func (c *Client) PutPersonality(ctx context.Context, agent string, in agentmem.PersonalityInput) (p agentmem.Personality, created bool, err error) {
	resp, err := c.DoRaw(ctx, Call{Method: http.MethodPut, Path: AgentPath(agent, "personality"), Body: in})
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
