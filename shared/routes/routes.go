// Package routes is the one table of the agentmem HTTP API: every route, the
// Lambda function that serves it, and whether the agent task role may call
// it. The function handlers, the local dev server, the sample events and the
// CDK stack (routes and the ECS task grant) are all derived from it.
package routes

import (
	"net/url"
	"strings"
	"time"
)

// Function names one Lambda function (a folder under functions/).
type Function string

// The functions.
const (
	Memories      Function = "memories"
	Personalities Function = "personalities"
	Extraction    Function = "extraction"
	Dream         Function = "dream"
)

// Functions lists the API-serving functions in a stable order.
var Functions = []Function{Memories, Personalities, Extraction, Dream}

// APIGatewayTimeout is how long API Gateway waits for a function's answer
// (its integration timeout); a route's request never runs longer.
const APIGatewayTimeout = 30 * time.Second

// Timeouts is how long each function may run on one event: its Lambda
// timeout, which the stack sets. The API functions answer well within
// APIGatewayTimeout; the dream function is also the SQS worker, so its
// timeout is the longest dream it runs. The dev server gives each request
// its function's timeout (at most APIGatewayTimeout) as its deadline, as
// Lambda and API Gateway would.
var Timeouts = map[Function]time.Duration{
	Memories:      15 * time.Second,
	Personalities: 10 * time.Second,
	Extraction:    29 * time.Second,
	Dream:         300 * time.Second,
}

// RequestTimeout is the deadline of one API request to fn: its timeout,
// at most APIGatewayTimeout.
func RequestTimeout(fn Function) time.Duration {
	return min(Timeouts[fn], APIGatewayTimeout)
}

// Name identifies a route to its handler and to its sample event
// (events/<function>/<name>.json). Handlers are registered under these
// constants, never under string literals.
type Name string

// The route names, one per route of All.
const (
	ListMemories         Name = "ListMemories"
	CreateMemory         Name = "CreateMemory"
	DeleteMemories       Name = "DeleteMemories"
	GetMemory            Name = "GetMemory"
	DeleteMemory         Name = "DeleteMemory"
	RenderMemory         Name = "RenderMemory"
	Bootstrap            Name = "Bootstrap"
	ListPersonalities    Name = "ListPersonalities"
	GetPersonality       Name = "GetPersonality"
	PutPersonality       Name = "PutPersonality"
	DeletePersonality    Name = "DeletePersonality"
	CreateExtraction     Name = "CreateExtraction"
	AppendDaily          Name = "AppendDaily"
	GetDaily             Name = "GetDaily"
	PutSessionContext    Name = "PutSessionContext"
	GetSessionContext    Name = "GetSessionContext"
	DeleteSessionContext Name = "DeleteSessionContext"
	EndSession           Name = "EndSession"
	CreateDream          Name = "CreateDream"
	ListDreams           Name = "ListDreams"
	GetDream             Name = "GetDream"
	RevertDream          Name = "RevertDream"
	SearchMemories       Name = "SearchMemories"
	SuggestPatterns      Name = "SuggestPatterns"
	ForgetMemories       Name = "ForgetMemories"
	GetStats             Name = "GetStats"
	GetAllStats          Name = "GetAllStats"
	ListSessionContext   Name = "ListSessionContext"
	GetHealth            Name = "GetHealth"
	GetOpenAPI           Name = "GetOpenAPI"
	GetJob               Name = "GetJob"
	Recount              Name = "Recount"
	UpdateMemory         Name = "UpdateMemory"
	GetMemoryHistory     Name = "GetMemoryHistory"
	RestoreMemoryVersion Name = "RestoreMemoryVersion"
)

// Route is one method and path of the API.
type Route struct {
	Name     Name
	Method   string
	Path     string // with {param} segments, as API Gateway writes them
	Function Function
	// Agent is true for the routes an agent task needs during a pipeline
	// run; the ECS task role is granted exactly these (BRIEF §8).
	Agent   bool
	Summary string
}

// Key is the API Gateway route key, "METHOD /path".
func (r Route) Key() string { return r.Method + " " + r.Path }

// All is every route of the API.
var All = []Route{
	// Memories: CRUD and rendering.
	{ListMemories, "GET", "/api/agents/{agentName}/memories", Memories, true, "list memories, newest first (limit, type, cursor; state=superseded or retired lists those that left)"},
	{CreateMemory, "POST", "/api/agents/{agentName}/memories", Memories, true, "create a memory (source manual); a repeat of one stored answers 200 with it and duplicate: true (allowDuplicate stores it anyway); replaces supersedes a memory"},
	{DeleteMemories, "DELETE", "/api/agents/{agentName}/memories", Memories, false, "delete every memory of agent+project"},
	{GetMemory, "GET", "/api/agents/{agentName}/memories/{id}", Memories, false, "get one memory"},
	{DeleteMemory, "DELETE", "/api/agents/{agentName}/memories/{id}", Memories, false, "delete one memory"},
	{RenderMemory, "GET", "/api/agents/{agentName}/memory.md", Memories, false, "the rendered MEMORY.md"},
	{Bootstrap, "GET", "/api/agents/{agentName}/bootstrap", Memories, true, "personality and rendered memory in one round trip"},

	// Updates and history (issue 11): memories function.
	{UpdateMemory, "PATCH", "/api/agents/{agentName}/memories/{id}", Memories, true, "edit a memory (content, type, typed fields, tags, pinned) as its next version; body version: the version read (409 when it moved)"},
	{GetMemoryHistory, "GET", "/api/agents/{agentName}/memories/{id}/history", Memories, true, "a memory's versions, newest first, with who changed what (limit, cursor); superseded and retired memories too"},
	{RestoreMemoryVersion, "POST", "/api/agents/{agentName}/memories/{id}/history/{version}/restore", Memories, true, "put an earlier version back as the next one; brings a superseded or retired memory back (body version: the current one, optional)"},

	// Personalities.
	{ListPersonalities, "GET", "/api/personalities", Personalities, false, "list personalities"},
	{GetPersonality, "GET", "/api/agents/{agentName}/personality", Personalities, false, "get a personality"},
	{PutPersonality, "PUT", "/api/agents/{agentName}/personality", Personalities, false, "create or replace a personality"},
	{DeletePersonality, "DELETE", "/api/agents/{agentName}/personality", Personalities, false, "delete a personality"},

	// Extraction (issue 3): extraction function.
	{CreateExtraction, "POST", "/api/agents/{agentName}/extractions", Extraction, true, "save a run's learnings (source extraction): from its output via the server's LLM, or as sent; idempotent per runId"},

	// Daily log (issue 4): memories function.
	{AppendDaily, "POST", "/api/agents/{agentName}/daily", Memories, true, "append a record to the daily log (title, content, at)"},
	{GetDaily, "GET", "/api/agents/{agentName}/daily", Memories, true, "one day of the daily log (date; Markdown with Accept: text/markdown)"},

	// Session context (issue 4): memories function.
	{PutSessionContext, "PUT", "/api/projects/{projectId}/sessions/{sessionId}/context/{key}", Memories, true, "set a session context key (ttlSeconds, default 24 h)"},
	{GetSessionContext, "GET", "/api/projects/{projectId}/sessions/{sessionId}/context/{key}", Memories, true, "read a session context key (records the access)"},
	{DeleteSessionContext, "DELETE", "/api/projects/{projectId}/sessions/{sessionId}/context/{key}", Memories, true, "delete a session context key"},
	{EndSession, "DELETE", "/api/projects/{projectId}/sessions/{sessionId}", Memories, true, "end a session: delete all its context keys"},

	// Deep Dream (issue 4): dream function.
	{CreateDream, "POST", "/api/agents/{agentName}/dreams", Dream, false, "run a Deep Dream now (lookbackDays, keepManual, force, compressAfterDays)"},
	{ListDreams, "GET", "/api/agents/{agentName}/dreams", Dream, false, "the dream diary, newest first (limit, cursor)"},
	{GetDream, "GET", "/api/agents/{agentName}/dreams/{date}", Dream, false, "one day of the dream diary (Markdown with Accept: text/markdown; plan=true)"},
	{RevertDream, "POST", "/api/agents/{agentName}/dreams/{date}/revert", Dream, false, "restore the core as it was before that day's last dream"},

	// Search and patterns (issue 5): memories function.
	{SearchMemories, "GET", "/api/agents/{agentName}/memories/search", Memories, true, "rank memories against a query q (type, limit): lexical, semantic or hybrid"},
	{SuggestPatterns, "GET", "/api/agents/{agentName}/patterns/suggest", Memories, true, "high-confidence patterns relevant to a task (minConfidence, limit)"},

	// Lifecycle and stats (issue 5): memories function.
	{ForgetMemories, "POST", "/api/agents/{agentName}/memories/forget", Memories, true, "delete memories older than olderThan (h, d, w); pinned kept unless includePinned (the MCP memory_forget tool)"},
	{GetStats, "GET", "/api/agents/{agentName}/stats", Memories, true, "counts and bytes of a scope, by type, source and scope; its Deep Dream status (pending, last record, last dream)"},
	{GetAllStats, "GET", "/api/stats", Memories, false, "totals over every scope and the scopes' counters, paginated (limit, cursor)"},

	// Issue 14: listing a session's keys, health and the API's own description.
	{ListSessionContext, "GET", "/api/projects/{projectId}/sessions/{sessionId}/context", Memories, true, "list a session's live context keys, without their values (limit, cursor)"},
	{GetHealth, "GET", "/api/health", Memories, false, "200 when every table answers a read, 503 when the store cannot be reached"},
	{GetOpenAPI, "GET", "/api/openapi.json", Memories, false, "this API's OpenAPI 3.1 document, generated from the route table and the domain types"},

	// Issue 12: bulk deletes that go on in the background, and operations
	// (not for agents).
	{GetJob, "GET", "/api/agents/{agentName}/jobs/{jobId}", Memories, true, "how far a background job got: a delete-all or forget, or a dream, that answered 202"},
	{Recount, "POST", "/api/admin/recount", Memories, false, "rebuild a scope's counters from its memories and report the drift repaired (agentName, projectId)"},
}

// For returns the routes served by fn, in table order.
func For(fn Function) []Route {
	var out []Route
	for _, r := range All {
		if r.Function == fn {
			out = append(out, r)
		}
	}
	return out
}

// ByKey returns the route whose API Gateway route key ("METHOD /path",
// Route.Key) is key. API Gateway names the matched route in every event's
// routeKey; "$default" (the catch-all of a local or proxy set-up) names
// none.
func ByKey(key string) (Route, bool) {
	r, ok := byKey[key]
	return r, ok
}

var byKey = func() map[string]Route {
	m := make(map[string]Route, len(All))
	for _, r := range All {
		m[r.Key()] = r
	}
	return m
}()

// Params returns the path parameters of path under r's pattern, and
// whether path matches the pattern at all.
func (r Route) Params(path string) (map[string]string, bool) {
	return matchPath(split(r.Path), split(path))
}

// Match finds the route for method and path. It returns the route, its path
// parameters, and whether the path matched any route at all (so that a
// caller can tell 405 from 404). Literal segments win over parameters, as in
// API Gateway.
func Match(method, path string) (route Route, params map[string]string, pathKnown bool) {
	segs := split(path)
	best := -1
	for i, r := range All {
		p, ok := matchPath(split(r.Path), segs)
		if !ok {
			continue
		}
		pathKnown = true
		if r.Method != method {
			continue
		}
		if best < 0 || literalCount(r.Path) > literalCount(All[best].Path) {
			best, params = i, p
		}
	}
	if best < 0 {
		return Route{}, nil, pathKnown
	}
	return All[best], params, true
}

// Allowed returns the methods the API accepts for path, for a 405's Allow
// header.
func Allowed(path string) []string {
	segs := split(path)
	var out []string
	for _, r := range All {
		if _, ok := matchPath(split(r.Path), segs); ok && !contains(out, r.Method) {
			out = append(out, r.Method)
		}
	}
	return out
}

func matchPath(pattern, segs []string) (map[string]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	params := map[string]string{}
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if segs[i] == "" {
				return nil, false
			}
			v, err := url.PathUnescape(segs[i])
			if err != nil {
				v = segs[i] // left as sent; validation rejects the '%'
			}
			params[p[1:len(p)-1]] = v
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func literalCount(path string) int {
	n := 0
	for _, s := range split(path) {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

func split(path string) []string {
	return strings.Split(strings.Trim(path, "/"), "/")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
