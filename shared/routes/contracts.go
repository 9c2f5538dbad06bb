package routes

import (
	"net/http"
	"reflect"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Contract is what a route takes and answers besides its method and path:
// the query parameters it reads, the Go type of its JSON request body, its
// success answers and the domain error codes it may answer. The OpenAPI
// document (package openapi, GET /api/openapi.json, docs/openapi.json) is
// generated from the contracts and the Go types they name; the response
// validation of the API tests (openapitest) holds the handlers to them.
type Contract struct {
	// Tag groups the route in the API's description (Tags lists them).
	Tag string
	// Query are the query parameters the route reads.
	Query []Param
	// Body is the Go type of the JSON request body; nil when the route
	// takes none.
	Body reflect.Type
	// OptionalBody says the route also accepts no body at all (Body then
	// describes the one it accepts).
	OptionalBody bool
	// Answers are the route's success answers (and any other answer whose
	// body is not the error envelope, such as health's 503).
	Answers []Answer
	// Errors are the domain error codes (agentmem.E*) the route answers
	// besides the ones every route may: invalid, payload_too_large,
	// unavailable and internal, and unsupported_media for a route with a
	// Body. Each code's status comes from httpapi's one code-to-status
	// table.
	Errors []string
	// Idempotent says the route takes an idempotency key
	// (agentmem.IdempotencyHeader, or the body's clientToken): a retry
	// with the key gets the first answer back (agentmem.ReplayedHeader),
	// another request with it is idempotency_mismatch.
	Idempotent bool
}

// Answer is one answer of a route.
type Answer struct {
	Status int
	// JSON is the Go type of the JSON body; nil when there is none (or
	// only Markdown).
	JSON reflect.Type
	// Markdown says the route answers text/markdown: always when JSON is
	// nil, else when the request's Accept header asks for text/markdown.
	Markdown bool
	// Location says the answer names what it created in a Location header.
	Location bool
	// Doc says when the route answers this.
	Doc string
}

// Param is one query parameter of a route.
type Param struct {
	Name     string
	Doc      string
	Required bool
	// Type is the Go type of the value: nil or string, int, float64, bool,
	// or a domain type whose values the description enumerates
	// (agentmem.Type).
	Type reflect.Type
	// Format is a JSON Schema format of a string: "date" (YYYY-MM-DD).
	Format string
	// Enum lists the values a string parameter may take (nil: any).
	Enum []string
	// MaxBytes bounds a free-text value (0: no bound).
	MaxBytes int
	// Min and Max bound a number when Bounded.
	Min, Max float64
	Bounded  bool
	// Default is the value the route uses when the parameter is absent
	// (nil: none, or one the server's configuration sets, which Doc says).
	Default any
}

// Tags are the groups of routes, in the order the API's description lists
// them, each with what its routes are for.
var Tags = []struct{ Name, Doc string }{
	{"memories", "An agent's long-term (core) memories in a project: create, list, read, delete, render as MEMORY.md, and everything `agentmem inject` needs in one round trip."},
	{"search", "Ranking memories against a query, suggesting patterns for a task, forgetting old memories."},
	{"stats", "Counts and sizes of one scope (agent and project) or of every scope."},
	{"personalities", "Agents' personas, shared by all their projects."},
	{"extraction", "Saving what a run learned, from its output (the server's LLM) or as extracted by the caller; idempotent per runId."},
	{"daily", "The daily log: the medium-term tier, append-only records per agent, project and UTC day."},
	{"sessions", "Session context: key/values the agents of one pipeline run share, gone when the session ends or their TTL passes."},
	{"dreams", "Deep Dream: consolidating the daily log into the core memory, the dream diary, reverting a dream."},
	{"service", "The service itself: health and this description."},
}

// Contracts holds the contract of every route of All, by name; a test
// keeps the two in step (and says what to add for a new route).
var Contracts = map[Name]Contract{
	ListMemories: {Tag: "memories",
		Query: []Param{projectIDParam, limitParam(agentmem.DefaultListLimit, agentmem.MaxListLimit, "memories"), typeParam, cursorParam,
			{Name: "state", Enum: []string{agentmem.StateLive, agentmem.StateSuperseded, agentmem.StateRetired}, Default: agentmem.StateLive,
				Doc: "live: the scope's memories; superseded or retired: those that left it (replaced by another, or retired by a dream or a person), restorable from their history"}},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.MemoryPage](), Doc: "a page of memories, newest first"}}},
	CreateMemory: {Tag: "memories", Body: typeOf[agentmem.MemoryInput](), Idempotent: true,
		Answers: []Answer{
			{Status: http.StatusCreated, JSON: typeOf[agentmem.CreateResult](), Location: true, Doc: "the memory, source manual, and the memory it replaced when replaces was given (the first answer again for a retry with its idempotency key)"},
			{Status: http.StatusOK, JSON: typeOf[agentmem.CreateResult](), Location: true, Doc: "nothing stored: the scope already holds a memory that says the same (duplicate, duplicateOf, match); allowDuplicate stores it anyway"},
		},
		Errors: []string{agentmem.ENotFound, agentmem.EConflict, agentmem.EIdempotencyMismatch}},
	DeleteMemories: {Tag: "memories", Query: []Param{projectIDParam},
		Answers: []Answer{
			{Status: http.StatusOK, JSON: typeOf[agentmem.Job](), Doc: "every memory of the agent in the project is deleted: the job, with how many it removed"},
			{Status: http.StatusAccepted, JSON: typeOf[agentmem.Job](), Location: true, Doc: "the scope was too large for one request: the job goes on in the background (GET .../jobs/{jobId}, the Location)"},
		}},
	GetMemory: {Tag: "memories",
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Memory](), Doc: "the memory"}},
		Errors:  []string{agentmem.ENotFound}},
	DeleteMemory: {Tag: "memories",
		Answers: []Answer{{Status: http.StatusNoContent, Doc: "the memory is deleted"}},
		Errors:  []string{agentmem.ENotFound, agentmem.EConflict}},
	UpdateMemory: {Tag: "memories", Body: typeOf[agentmem.MemoryPatch](),
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Memory](), Doc: "the memory as its next version (as it is, when the patch changes nothing)"}},
		Errors:  []string{agentmem.ENotFound, agentmem.EConflict}},
	GetMemoryHistory: {Tag: "memories",
		Query:   []Param{limitParam(agentmem.DefaultHistoryLimit, agentmem.MaxHistoryLimit, "versions"), cursorParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.MemoryHistory](), Doc: "the memory's versions, newest first"}},
		Errors:  []string{agentmem.ENotFound}},
	RestoreMemoryVersion: {Tag: "memories", Body: typeOf[agentmem.RestoreInput](), OptionalBody: true,
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Memory](), Doc: "the memory with the version put back as its next version (back in its scope, when it was superseded or retired)"}},
		Errors:  []string{agentmem.ENotFound, agentmem.EConflict}},
	RenderMemory: {Tag: "memories", Query: []Param{projectIDParam},
		Answers: []Answer{{Status: http.StatusOK, Markdown: true, Doc: "MEMORY.md as `agentmem inject` writes it"}},
		Errors:  []string{agentmem.ENotFound}},
	Bootstrap: {Tag: "memories",
		Query: []Param{projectIDParam, {Name: "task", MaxBytes: agentmem.MaxQueryBytes,
			Doc: "the run's task: the answer then suggests the patterns relevant to it"}},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Bootstrap](), Doc: "personality, memory file and suggested patterns"}}},

	ListPersonalities: {Tag: "personalities",
		Query:   []Param{limitParam(agentmem.DefaultPersonalitiesPage, agentmem.MaxPersonalitiesPage, "personalities"), cursorParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.PersonalityPage](), Doc: "a page of personalities in agent name order"}}},
	GetPersonality: {Tag: "personalities",
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Personality](), Doc: "the personality"}},
		Errors:  []string{agentmem.ENotFound}},
	PutPersonality: {Tag: "personalities", Body: typeOf[agentmem.PersonalityInput](), Idempotent: true,
		Answers: []Answer{
			{Status: http.StatusOK, JSON: typeOf[agentmem.Personality](), Doc: "the personality was replaced"},
			{Status: http.StatusCreated, JSON: typeOf[agentmem.Personality](), Location: true, Doc: "the personality was created"},
		},
		Errors: []string{agentmem.EConflict, agentmem.EIdempotencyMismatch}},
	DeletePersonality: {Tag: "personalities",
		Answers: []Answer{{Status: http.StatusNoContent, Doc: "the personality is deleted"}},
		Errors:  []string{agentmem.ENotFound}},

	CreateExtraction: {Tag: "extraction", Body: typeOf[agentmem.ExtractionInput](),
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.ExtractionResult](), Doc: "what was saved, reinforced and skipped (replayed for a runId seen before)"}},
		Errors:  []string{agentmem.EBusy, agentmem.EConflict, agentmem.ELLMUnavailable, agentmem.ELLMFailed}},

	AppendDaily: {Tag: "daily", Body: typeOf[agentmem.DailyInput](), Idempotent: true,
		Answers: []Answer{{Status: http.StatusCreated, JSON: typeOf[agentmem.DailyRecord](), Location: true, Doc: "the record (the first answer again for a retry with its idempotency key)"}},
		Errors:  []string{agentmem.EIdempotencyMismatch}},
	GetDaily: {Tag: "daily",
		Query:   []Param{projectIDParam, {Name: "date", Format: "date", Doc: "the UTC day, YYYY-MM-DD (default: today)"}},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.DailyDay](), Markdown: true, Doc: "the day's records; memory/YYYY-MM-DD.md with Accept: text/markdown"}},
		Errors:  []string{agentmem.ENotFound}},

	PutSessionContext: {Tag: "sessions", Body: typeOf[agentmem.SessionInput](),
		Answers: []Answer{
			{Status: http.StatusOK, JSON: typeOf[agentmem.SessionEntry](), Doc: "the key was replaced"},
			{Status: http.StatusCreated, JSON: typeOf[agentmem.SessionEntry](), Doc: "the key was created"},
		},
		Errors: []string{agentmem.EConflict}},
	GetSessionContext: {Tag: "sessions",
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.SessionEntry](), Doc: "the key and its value"}},
		Errors:  []string{agentmem.ENotFound}},
	DeleteSessionContext: {Tag: "sessions",
		Answers: []Answer{{Status: http.StatusNoContent, Doc: "the key is deleted"}},
		Errors:  []string{agentmem.ENotFound}},
	EndSession: {Tag: "sessions",
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.EndedSession](), Doc: "how many live keys the end deleted"}}},
	ListSessionContext: {Tag: "sessions",
		Query:   []Param{limitParam(agentmem.DefaultSessionKeysPage, agentmem.MaxSessionKeysPage, "keys"), cursorParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.SessionKeyPage](), Doc: "a page of the session's live keys, in key order"}}},

	CreateDream: {Tag: "dreams", Body: typeOf[agentmem.CreateDreamInput](),
		Answers: []Answer{
			{Status: http.StatusOK, JSON: typeOf[agentmem.DreamResult](), Doc: "skipped: nothing new since the last dream (status skipped, with the reason)"},
			{Status: http.StatusCreated, JSON: typeOf[agentmem.DreamResult](), Location: true, Doc: "dreamed: the diary entry"},
			{Status: http.StatusAccepted, JSON: typeOf[agentmem.DreamResult](), Location: true, Doc: "queued: the scope's review takes more model calls than a request can wait for (more than one round of AGENTMEM_DREAM_CONCURRENCY calls, or a compression of old memories after it), so the dream runs in the background as the job jobId (GET .../jobs/{jobId}, the Location), with the function's whole timeout"},
		},
		Errors: []string{agentmem.EBusy, agentmem.EConflict, agentmem.ELLMUnavailable, agentmem.ELLMFailed}},
	ListDreams: {Tag: "dreams",
		Query:   []Param{projectIDParam, limitParam(agentmem.DefaultDreamsPage, agentmem.MaxListLimit, "entries"), cursorParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.DreamPage](), Doc: "a page of the dream diary, newest first"}}},
	GetDream: {Tag: "dreams",
		Query: []Param{projectIDParam, {Name: "plan", Type: typeOf[bool](), Default: false,
			Doc: "true adds what each dream wrote and the prior memories it replaced"}},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.DreamDay](), Markdown: true, Doc: "the day's diary entries; memory/dreams/YYYY-MM-DD.md with Accept: text/markdown"}},
		Errors:  []string{agentmem.ENotFound}},
	RevertDream: {Tag: "dreams", Query: []Param{projectIDParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Dream](), Doc: "the revert's diary entry"}},
		Errors:  []string{agentmem.ENotFound, agentmem.EConflict, agentmem.EBusy}},

	SearchMemories: {Tag: "search",
		Query: []Param{projectIDParam, {Name: "q", Required: true, MaxBytes: agentmem.MaxQueryBytes, Doc: "the words to search for"},
			typeParam, limitParam(agentmem.DefaultSearchLimit, agentmem.MaxSearchLimit, "results")},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.SearchResult](), Doc: "the memories ranked against the query, best first"}}},
	SuggestPatterns: {Tag: "search",
		Query: []Param{projectIDParam, {Name: "task", Required: true, MaxBytes: agentmem.MaxQueryBytes, Doc: "the task to find patterns for"},
			{Name: "minConfidence", Type: typeOf[float64](), Min: 0, Max: 1, Bounded: true,
				Doc: "only patterns with a confidence above this (default: the server's AGENTMEM_PATTERN_MIN_CONFIDENCE, 0.7)"},
			limitParam(agentmem.DefaultSuggestLimit, agentmem.MaxSearchLimit, "patterns")},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Suggestions](), Doc: "the relevant patterns, best first"}}},
	ForgetMemories: {Tag: "search", Body: typeOf[agentmem.ForgetInput](),
		Answers: []Answer{
			{Status: http.StatusOK, JSON: typeOf[agentmem.Forgotten](), Doc: "how many memories were removed"},
			{Status: http.StatusAccepted, JSON: typeOf[agentmem.Forgotten](), Location: true, Doc: "the scope was too large for one request: the rest goes on in the background as the job jobId (GET .../jobs/{jobId}, the Location)"},
		}},
	GetStats: {Tag: "stats", Query: []Param{projectIDParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Stats](), Doc: "the scope's counters"}}},
	GetAllStats: {Tag: "stats",
		Query:   []Param{limitParam(agentmem.DefaultScopesPage, agentmem.MaxScopesPage, "scopes"), cursorParam},
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.AllStats](), Doc: "the totals and a page of scopes"}}},

	GetHealth: {Tag: "service",
		Answers: []Answer{
			{Status: http.StatusOK, JSON: typeOf[agentmem.Health](), Doc: "every table answered a read"},
			{Status: http.StatusServiceUnavailable, JSON: typeOf[agentmem.Health](), Doc: "a table could not be read: the tables' findings and the error (code unavailable)"},
		}},
	GetOpenAPI: {Tag: "service",
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[map[string]any](), Doc: "this document"}}},

	GetJob: {Tag: "memories",
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Job](), Doc: "the job: running, done or failed; a bulk delete with how many memories it removed so far, a dream with its phase and model calls and, once done, its result"}},
		Errors:  []string{agentmem.ENotFound}},
	Recount: {Tag: "stats", Body: typeOf[agentmem.RecountInput](),
		Answers: []Answer{{Status: http.StatusOK, JSON: typeOf[agentmem.Recount](), Doc: "the scope's counters before and after, and the drift repaired"}},
		Errors:  []string{agentmem.EBusy}},
}

// ContractOf returns the contract of the route named name, and whether
// there is one.
func ContractOf(name Name) (Contract, bool) {
	c, ok := Contracts[name]
	return c, ok
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// The query parameters many routes share.
var (
	projectIDParam = Param{Name: "projectId", Required: true, Doc: "the project"}
	cursorParam    = Param{Name: "cursor", Doc: "the nextCursor of the previous page; absent for the first page"}
	typeParam      = Param{Name: "type", Type: typeOf[agentmem.Type](), Doc: "only memories of this type"}
)

// limitParam is the page size parameter "limit": 1 to max, def by default.
func limitParam(def, max int, what string) Param {
	return Param{Name: "limit", Type: typeOf[int](), Min: 1, Max: float64(max), Bounded: true, Default: def,
		Doc: "at most this many " + what}
}
