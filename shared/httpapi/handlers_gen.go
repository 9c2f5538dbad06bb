// Code generated from the route table (shared/routes) by
// TestGeneratedHandlersAreCurrent; DO NOT EDIT.
// Regenerate with: UPDATE_GENERATED=1 go test ./shared/httpapi

package httpapi

import (
	"context"
	"log/slog"

	"github.com/agentmem/agentmem/shared/routes"
)

// MemoriesHandlers serves the routes of the memories function, one method per
// route of the table.
type MemoriesHandlers interface {
	// ListMemories serves GET /api/agents/{agentName}/memories: list memories, newest first (limit, type, cursor; state=superseded or retired lists those that left).
	ListMemories(ctx context.Context, r *Request) (Response, error)
	// CreateMemory serves POST /api/agents/{agentName}/memories: create a memory (source manual); a repeat of one stored answers 200 with it and duplicate: true (allowDuplicate stores it anyway); replaces supersedes a memory.
	CreateMemory(ctx context.Context, r *Request) (Response, error)
	// DeleteMemories serves DELETE /api/agents/{agentName}/memories: delete every memory of agent+project.
	DeleteMemories(ctx context.Context, r *Request) (Response, error)
	// GetMemory serves GET /api/agents/{agentName}/memories/{id}: get one memory.
	GetMemory(ctx context.Context, r *Request) (Response, error)
	// DeleteMemory serves DELETE /api/agents/{agentName}/memories/{id}: delete one memory.
	DeleteMemory(ctx context.Context, r *Request) (Response, error)
	// RenderMemory serves GET /api/agents/{agentName}/memory.md: the rendered MEMORY.md.
	RenderMemory(ctx context.Context, r *Request) (Response, error)
	// Bootstrap serves GET /api/agents/{agentName}/bootstrap: personality and rendered memory in one round trip.
	Bootstrap(ctx context.Context, r *Request) (Response, error)
	// UpdateMemory serves PATCH /api/agents/{agentName}/memories/{id}: edit a memory (content, type, typed fields, tags, pinned) as its next version; body version: the version read (409 when it moved).
	UpdateMemory(ctx context.Context, r *Request) (Response, error)
	// GetMemoryHistory serves GET /api/agents/{agentName}/memories/{id}/history: a memory's versions, newest first, with who changed what (limit, cursor); superseded and retired memories too.
	GetMemoryHistory(ctx context.Context, r *Request) (Response, error)
	// RestoreMemoryVersion serves POST /api/agents/{agentName}/memories/{id}/history/{version}/restore: put an earlier version back as the next one; brings a superseded or retired memory back (body version: the current one, optional).
	RestoreMemoryVersion(ctx context.Context, r *Request) (Response, error)
	// AppendDaily serves POST /api/agents/{agentName}/daily: append a record to the daily log (title, content, at).
	AppendDaily(ctx context.Context, r *Request) (Response, error)
	// GetDaily serves GET /api/agents/{agentName}/daily: one day of the daily log (date; Markdown with Accept: text/markdown).
	GetDaily(ctx context.Context, r *Request) (Response, error)
	// PutSessionContext serves PUT /api/projects/{projectId}/sessions/{sessionId}/context/{key}: set a session context key (ttlSeconds, default 24 h).
	PutSessionContext(ctx context.Context, r *Request) (Response, error)
	// GetSessionContext serves GET /api/projects/{projectId}/sessions/{sessionId}/context/{key}: read a session context key (records the access).
	GetSessionContext(ctx context.Context, r *Request) (Response, error)
	// DeleteSessionContext serves DELETE /api/projects/{projectId}/sessions/{sessionId}/context/{key}: delete a session context key.
	DeleteSessionContext(ctx context.Context, r *Request) (Response, error)
	// EndSession serves DELETE /api/projects/{projectId}/sessions/{sessionId}: end a session: delete all its context keys.
	EndSession(ctx context.Context, r *Request) (Response, error)
	// SearchMemories serves GET /api/agents/{agentName}/memories/search: rank memories against a query q (type, limit): lexical, semantic or hybrid.
	SearchMemories(ctx context.Context, r *Request) (Response, error)
	// SuggestPatterns serves GET /api/agents/{agentName}/patterns/suggest: high-confidence patterns relevant to a task (minConfidence, limit).
	SuggestPatterns(ctx context.Context, r *Request) (Response, error)
	// ForgetMemories serves POST /api/agents/{agentName}/memories/forget: delete memories older than olderThan (h, d, w); pinned kept unless includePinned (the MCP memory_forget tool).
	ForgetMemories(ctx context.Context, r *Request) (Response, error)
	// GetStats serves GET /api/agents/{agentName}/stats: counts and bytes of a scope, by type, source and scope; its Deep Dream status (pending, last record, last dream).
	GetStats(ctx context.Context, r *Request) (Response, error)
	// GetAllStats serves GET /api/stats: totals over every scope and the scopes' counters, paginated (limit, cursor).
	GetAllStats(ctx context.Context, r *Request) (Response, error)
	// ListSessionContext serves GET /api/projects/{projectId}/sessions/{sessionId}/context: list a session's live context keys, without their values (limit, cursor).
	ListSessionContext(ctx context.Context, r *Request) (Response, error)
	// GetHealth serves GET /api/health: 200 when every table answers a read, 503 when the store cannot be reached.
	GetHealth(ctx context.Context, r *Request) (Response, error)
	// GetOpenAPI serves GET /api/openapi.json: this API's OpenAPI 3.1 document, generated from the route table and the domain types.
	GetOpenAPI(ctx context.Context, r *Request) (Response, error)
	// GetJob serves GET /api/agents/{agentName}/jobs/{jobId}: how far a background job got: a delete-all or forget, or a dream, that answered 202.
	GetJob(ctx context.Context, r *Request) (Response, error)
	// Recount serves POST /api/admin/recount: rebuild a scope's counters from its memories and report the drift repaired (agentName, projectId).
	Recount(ctx context.Context, r *Request) (Response, error)
}

// NewMemoriesHandler returns the handler of the memories function, serving
// each of its routes with h's method of the route's name. (Generic, so
// that h is never converted to an interface value.)
func NewMemoriesHandler[H MemoriesHandlers](h H, log *slog.Logger) (*Handler, error) {
	return NewHandler(routes.Memories, map[routes.Name]HandlerFunc{
		routes.ListMemories:         h.ListMemories,
		routes.CreateMemory:         h.CreateMemory,
		routes.DeleteMemories:       h.DeleteMemories,
		routes.GetMemory:            h.GetMemory,
		routes.DeleteMemory:         h.DeleteMemory,
		routes.RenderMemory:         h.RenderMemory,
		routes.Bootstrap:            h.Bootstrap,
		routes.UpdateMemory:         h.UpdateMemory,
		routes.GetMemoryHistory:     h.GetMemoryHistory,
		routes.RestoreMemoryVersion: h.RestoreMemoryVersion,
		routes.AppendDaily:          h.AppendDaily,
		routes.GetDaily:             h.GetDaily,
		routes.PutSessionContext:    h.PutSessionContext,
		routes.GetSessionContext:    h.GetSessionContext,
		routes.DeleteSessionContext: h.DeleteSessionContext,
		routes.EndSession:           h.EndSession,
		routes.SearchMemories:       h.SearchMemories,
		routes.SuggestPatterns:      h.SuggestPatterns,
		routes.ForgetMemories:       h.ForgetMemories,
		routes.GetStats:             h.GetStats,
		routes.GetAllStats:          h.GetAllStats,
		routes.ListSessionContext:   h.ListSessionContext,
		routes.GetHealth:            h.GetHealth,
		routes.GetOpenAPI:           h.GetOpenAPI,
		routes.GetJob:               h.GetJob,
		routes.Recount:              h.Recount,
	}, log)
}

// PersonalitiesHandlers serves the routes of the personalities function, one method per
// route of the table.
type PersonalitiesHandlers interface {
	// ListPersonalities serves GET /api/personalities: list personalities.
	ListPersonalities(ctx context.Context, r *Request) (Response, error)
	// GetPersonality serves GET /api/agents/{agentName}/personality: get a personality.
	GetPersonality(ctx context.Context, r *Request) (Response, error)
	// PutPersonality serves PUT /api/agents/{agentName}/personality: create or replace a personality.
	PutPersonality(ctx context.Context, r *Request) (Response, error)
	// DeletePersonality serves DELETE /api/agents/{agentName}/personality: delete a personality.
	DeletePersonality(ctx context.Context, r *Request) (Response, error)
}

// NewPersonalitiesHandler returns the handler of the personalities function, serving
// each of its routes with h's method of the route's name. (Generic, so
// that h is never converted to an interface value.)
func NewPersonalitiesHandler[H PersonalitiesHandlers](h H, log *slog.Logger) (*Handler, error) {
	return NewHandler(routes.Personalities, map[routes.Name]HandlerFunc{
		routes.ListPersonalities: h.ListPersonalities,
		routes.GetPersonality:    h.GetPersonality,
		routes.PutPersonality:    h.PutPersonality,
		routes.DeletePersonality: h.DeletePersonality,
	}, log)
}

// ExtractionHandlers serves the routes of the extraction function, one method per
// route of the table.
type ExtractionHandlers interface {
	// CreateExtraction serves POST /api/agents/{agentName}/extractions: save a run's learnings (source extraction): from its output via the server's LLM, or as sent; idempotent per runId.
	CreateExtraction(ctx context.Context, r *Request) (Response, error)
}

// NewExtractionHandler returns the handler of the extraction function, serving
// each of its routes with h's method of the route's name. (Generic, so
// that h is never converted to an interface value.)
func NewExtractionHandler[H ExtractionHandlers](h H, log *slog.Logger) (*Handler, error) {
	return NewHandler(routes.Extraction, map[routes.Name]HandlerFunc{
		routes.CreateExtraction: h.CreateExtraction,
	}, log)
}

// DreamHandlers serves the routes of the dream function, one method per
// route of the table.
type DreamHandlers interface {
	// CreateDream serves POST /api/agents/{agentName}/dreams: run a Deep Dream now (lookbackDays, keepManual, force, compressAfterDays).
	CreateDream(ctx context.Context, r *Request) (Response, error)
	// ListDreams serves GET /api/agents/{agentName}/dreams: the dream diary, newest first (limit, cursor).
	ListDreams(ctx context.Context, r *Request) (Response, error)
	// GetDream serves GET /api/agents/{agentName}/dreams/{date}: one day of the dream diary (Markdown with Accept: text/markdown; plan=true).
	GetDream(ctx context.Context, r *Request) (Response, error)
	// RevertDream serves POST /api/agents/{agentName}/dreams/{date}/revert: restore the core as it was before that day's last dream.
	RevertDream(ctx context.Context, r *Request) (Response, error)
}

// NewDreamHandler returns the handler of the dream function, serving
// each of its routes with h's method of the route's name. (Generic, so
// that h is never converted to an interface value.)
func NewDreamHandler[H DreamHandlers](h H, log *slog.Logger) (*Handler, error) {
	return NewHandler(routes.Dream, map[routes.Name]HandlerFunc{
		routes.CreateDream: h.CreateDream,
		routes.ListDreams:  h.ListDreams,
		routes.GetDream:    h.GetDream,
		routes.RevertDream: h.RevertDream,
	}, log)
}
