// Package memoryapi is the memories function: memory CRUD, the rendered
// MEMORY.md, the bootstrap route that `agentmem inject` calls, search and
// pattern suggestion, forgetting and stats, the daily log and session
// context. The Lambda main and cmd/devserver both serve it.
package memoryapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/bulkjobs"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/agentmem/agentmem/shared/sqsqueue"
)

// API serves the memories function's routes.
type API struct {
	Store *dynamostore.Store
	Log   *slog.Logger
	// Embedder embeds search queries; nil: search is lexical.
	Embedder embeddings.Embedder
	// MinConfidence is the confidence a pattern must exceed to be
	// suggested (AGENTMEM_PATTERN_MIN_CONFIDENCE, default 0.7).
	MinConfidence float64
	// Jobs continues the bulk deletes a request could not finish: the
	// jobs queue (AGENTMEM_JOBS_QUEUE_URL) in AWS, goroutines otherwise.
	Jobs bulkjobs.Continuer
	// JobBudget is how long a request works on a bulk delete before it
	// answers 202 and leaves the rest to Jobs (at most until just before
	// its deadline); DefaultJobBudget when 0.
	JobBudget time.Duration

	cache *indexCache // nil: search reads the scope every time
}

// New returns the Lambda handler of the memories function. Settings:
// AGENTMEM_PATTERN_MIN_CONFIDENCE, the default threshold of pattern
// suggestions (0..1, default search.DefaultMinConfidence);
// AGENTMEM_SEARCH_CACHE, how many memories the in-process search cache
// holds over all scopes (default DefaultSearchCacheMemories; 0 turns it
// off); AGENTMEM_JOBS_QUEUE_URL, the queue that continues the bulk deletes
// a request cannot finish (unset: goroutines of this process).
func New(deps lambdamain.Deps) (*httpapi.Handler, error) {
	log := deps.Log
	if log == nil {
		log = slog.Default()
	}
	a := &API{Store: deps.Store, Log: log, Embedder: deps.Embedder, MinConfidence: search.DefaultMinConfidence}
	getenv := deps.Getenv
	if v := settings.PatternMinConfidence.Get(getenv); v != "" {
		c, err := parseConfidence(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", settings.PatternMinConfidence, err)
		}
		a.MinConfidence = c
	}
	cacheSize := DefaultSearchCacheMemories
	if v := settings.SearchCache.Get(getenv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s=%q: want a number of memories (0 turns the cache off)", settings.SearchCache, v)
		}
		cacheSize = n
	}
	if cacheSize > 0 {
		a.cache = newIndexCache(cacheSize)
	}
	if u := settings.JobsQueueURL.Get(getenv); u != "" {
		q, err := sqsqueue.New(deps.AWS, u, settings.SQSEndpoint.Get(getenv))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", settings.JobsQueueURL, err)
		}
		a.Jobs = &bulkjobs.Queue{Q: q}
	} else {
		a.Jobs = &bulkjobs.InProcess{Store: deps.Store, Log: log}
	}
	return httpapi.NewMemoriesHandler(a, log)
}

// scope validates the agent path parameter and the projectId query
// parameter that nearly every route needs.
func scope(r *httpapi.Request) (agent, project string, err error) { return r.Scope() }

// ListMemories serves GET /api/agents/{agentName}/memories.
func (a *API) ListMemories(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	limit, err := r.IntQuery("limit", agentmem.DefaultListLimit, 1, agentmem.MaxListLimit)
	if err != nil {
		return httpapi.Response{}, err
	}
	typ, err := typeFilter(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	opt := dynamostore.ListOptions{AgentName: agent, ProjectID: project, Limit: limit, Type: typ, Cursor: r.Query.Get("cursor")}
	var page agentmem.MemoryPage
	switch state := r.Query.Get("state"); state {
	case "", agentmem.StateLive:
		page, err = a.Store.ListMemories(ctx, opt)
	case agentmem.StateSuperseded, agentmem.StateRetired:
		page, err = a.Store.ListGone(ctx, opt, state)
	default:
		return httpapi.Response{}, agentmem.Errorf(agentmem.EInvalid, "state %q is not %s (the default), %s or %s", state, agentmem.StateLive, agentmem.StateSuperseded, agentmem.StateRetired)
	}
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, page), nil
}

// CreateMemory serves POST /api/agents/{agentName}/memories.
func (a *API) CreateMemory(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, err := r.AgentName()
	if err != nil {
		return httpapi.Response{}, err
	}
	var in agentmem.MemoryInput
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
	once, err := dynamostore.NewOnce(key, string(routes.CreateMemory), agent, in)
	if err != nil {
		return httpapi.Response{}, err
	}
	opt := dynamostore.CreateOptions{Once: once, Dedup: !in.AllowDuplicate, By: changeBy(r, "")}
	opt.By.RunID = in.RunID
	if in.Replaces != "" {
		opt.Supersedes = []string{in.Replaces}
	}
	c, err := a.Store.Create(ctx, in.Memory(agent, agentmem.SourceManual), opt)
	if err != nil {
		return httpapi.Response{}, err
	}
	m := c.Memory
	out := agentmem.CreateResult{Memory: m}
	status := http.StatusCreated
	if c.Duplicate {
		// Nothing stored: the scope's memory is the answer, as REST
		// callers expect from a create that finds the thing existing.
		status = http.StatusOK
		out.Duplicate, out.DuplicateOf, out.Match = true, m.ID, string(c.Match.Kind)
		a.Log.InfoContext(ctx, "duplicate not stored", "agent", agent, "project", in.ProjectID, "duplicateOf", m.ID, "match", c.Match.Kind)
	}
	if len(c.Superseded) > 0 {
		out.Superseded = &c.Superseded[0]
	}
	resp := httpapi.JSON(status, out)
	resp.Headers["Location"] = fmt.Sprintf("/api/agents/%s/memories/%s", agent, m.ID)
	markReplayed(resp, c.Replayed)
	return resp, nil
}

// markReplayed sets agentmem.ReplayedHeader on an answer replayed for an
// idempotency key.
func markReplayed(resp httpapi.Response, replayed bool) {
	if replayed {
		resp.Headers[agentmem.ReplayedHeader] = "true"
	}
}

// DeleteMemories serves DELETE /api/agents/{agentName}/memories: 200 with
// the finished job (what it removed), or 202 with the job going on in the
// background.
func (a *API) DeleteMemories(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	j, err := a.runJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: agent, ProjectID: project})
	if err != nil {
		return httpapi.Response{}, err
	}
	a.Log.InfoContext(ctx, "delete scope", "agent", agent, "project", project, "job", j.ID, "status", j.Status, "removed", j.Removed)
	return jobResponse(j, j), nil
}

// memoryRef reads the agent and the memory id of a .../memories/{id}
// route; a malformed id is invalid.
func memoryRef(r *httpapi.Request) (agent, id string, err error) {
	if agent, err = r.AgentName(); err != nil {
		return "", "", err
	}
	id = r.Param("id")
	if !agentmem.ValidID(id) {
		return "", "", agentmem.Errorf(agentmem.EInvalid, "memory id %q is not a ULID", id)
	}
	return agent, id, nil
}

// GetMemory serves GET /api/agents/{agentName}/memories/{id}.
func (a *API) GetMemory(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, id, err := memoryRef(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	m, err := a.Store.GetMemory(ctx, agent, id)
	if err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.JSON(http.StatusOK, m), nil
}

// DeleteMemory serves DELETE /api/agents/{agentName}/memories/{id}.
func (a *API) DeleteMemory(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, id, err := memoryRef(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	if err := a.Store.DeleteMemory(ctx, agent, id); err != nil {
		return httpapi.Response{}, err
	}
	return httpapi.NoContent(), nil
}

// RenderMemory serves GET /api/agents/{agentName}/memory.md.
func (a *API) RenderMemory(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	page, err := a.Store.ListMemories(ctx, dynamostore.ListOptions{AgentName: agent, ProjectID: project})
	if err != nil {
		return httpapi.Response{}, err
	}
	if len(page.Memories) == 0 {
		return httpapi.Response{}, agentmem.Errorf(agentmem.ENotFound, "agent %s has no memories in project %s", agent, project)
	}
	return httpapi.Markdown(http.StatusOK, markdown.MemoryFile(agent, project, page.Memories)), nil
}
