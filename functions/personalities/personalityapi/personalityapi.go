// Package personalityapi is the personalities function: personality CRUD.
// The Lambda main and cmd/devserver both serve it.
package personalityapi

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/routes"
)

// API serves the personalities function's routes.
type API struct {
	Store *dynamostore.Store
}

// New returns the Lambda handler of the personalities function.
func New(deps lambdamain.Deps) (*httpapi.Handler, error) {
	a := &API{Store: deps.Store}
	return httpapi.NewPersonalitiesHandler(a, deps.Log)
}

// ListPersonalities serves GET /api/personalities: a page in agent name
// order (limit, cursor).
func (a *API) ListPersonalities(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	limit, err := r.IntQuery("limit", dynamostore.DefaultPersonalitiesPage, 1, dynamostore.MaxPersonalitiesPage)
	if err != nil {
		return httpapi.Response{}, err
	}
	page, err := a.Store.ListPersonalities(ctx, limit, r.Query.Get("cursor"))
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, page), nil
}

// GetPersonality serves GET /api/agents/{agentName}/personality.
func (a *API) GetPersonality(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	p, err := a.Store.GetPersonality(ctx, agent)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, p), nil
}

// PutPersonality serves PUT /api/agents/{agentName}/personality.
func (a *API) PutPersonality(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.PersonalityInput
	if err := r.Decode(&in); err != nil {
		return httpapi.Response{}, err
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		return httpapi.Response{}, err
	}
	key, err := r.IdempotencyKey(in.ClientToken)
	if err != nil {
		return httpapi.Response{}, err
	}
	in.ClientToken = ""
	once, err := dynamostore.NewOnce(key, string(routes.PutPersonality), agent, in)
	if err != nil {
		return httpapi.Response{}, err
	}
	p, created, replayed, err := a.Store.PutPersonalityOnce(ctx, in.Personality(agent), in.Version, once)
	if err != nil {
		return httpapi.Response{}, err
	}
	resp := httpapi.JSON(http.StatusOK, p)
	if created {
		resp = httpapi.JSON(http.StatusCreated, p)
		resp.Headers["Location"] = "/api/agents/" + agent + "/personality"
	}
	if replayed {
		resp.Headers[agentmem.ReplayedHeader] = "true"
	}
	return resp, nil
}

// DeletePersonality serves DELETE /api/agents/{agentName}/personality.
func (a *API) DeletePersonality(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	if err := a.Store.DeletePersonality(ctx, agent); err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.NoContent(), nil
}
