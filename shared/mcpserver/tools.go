package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Scopes of memory_store and memory_stats (seed 003).
const (
	ScopeSession = "session"
	ScopeProject = "project"
	ScopeAll     = "all"
)

// StoreInput is the arguments of memory_store.
type StoreInput struct {
	Scope string `json:"scope" jsonschema:"where to store: \"session\" (a key/value shared with the other agents of this pipeline run, gone when the session ends) or \"project\" (a long-term memory that future runs get)"`
	// Session scope.
	Key        string  `json:"key,omitempty" jsonschema:"scope session: the key, e.g. auth-patterns (letters, digits, '.', '_', '-'); storing a key again replaces its value"`
	Value      *string `json:"value,omitempty" jsonschema:"scope session: the value (text; JSON is fine)"`
	TTLSeconds int     `json:"ttl_seconds,omitempty" jsonschema:"scope session: seconds the key lives unless the session ends first (default 86400: 24 h)"`
	// Project scope.
	Type       string   `json:"type,omitempty" jsonschema:"scope project: the kind of memory (default note): decision (a choice, with rationale), finding (a fact learned), blocker (with status), pattern (a reusable approach: trigger, context, solution, confidence), learning, note, session (notes for the session log)"`
	Content    string   `json:"content,omitempty" jsonschema:"scope project (required): the memory itself, one self-contained statement that makes sense without this conversation"`
	Rationale  string   `json:"rationale,omitempty" jsonschema:"type decision: why it was decided"`
	Status     string   `json:"status,omitempty" jsonschema:"type blocker: open (default) or resolved"`
	Trigger    string   `json:"trigger,omitempty" jsonschema:"type pattern: when to apply it"`
	Context    string   `json:"context,omitempty" jsonschema:"type pattern: prerequisites and where it applies"`
	Solution   string   `json:"solution,omitempty" jsonschema:"type pattern: the approach that worked"`
	Confidence *float64 `json:"confidence,omitempty" jsonschema:"type pattern: how sure, from 0 to 1 (default 0.5); memory_suggest_patterns suggests patterns above 0.7"`
	Tags       []string `json:"tags,omitempty" jsonschema:"scope project: labels, e.g. payments or api:v2"`
	Pinned     bool     `json:"pinned,omitempty" jsonschema:"scope project: keep it through forgetting, eviction and Deep Dream consolidation"`
	Replaces   string   `json:"replaces,omitempty" jsonschema:"scope project: the id of a memory this one replaces (out of date or wrong): it leaves MEMORY.md and search, and its history keeps it"`
	// AllowDuplicate stores the memory even when one already says it.
	AllowDuplicate bool `json:"allow_duplicate,omitempty" jsonschema:"scope project: store it even when a memory already says the same (by default a repeat is not stored and the existing memory is named)"`
}

// RecallInput is the arguments of memory_recall.
type RecallInput struct {
	Key   string `json:"key" jsonschema:"the key a memory_store call with scope session used"`
	Scope string `json:"scope,omitempty" jsonschema:"session, the only scope recall reads (long-term memories are found with memory_search)"`
}

// SearchInput is the arguments of memory_search.
type SearchInput struct {
	Query string `json:"query" jsonschema:"what you are looking for, in words, e.g. how to handle authentication errors"`
	Type  string `json:"type,omitempty" jsonschema:"search only memories of this type"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results, best first"`
}

// ForgetInput is the arguments of memory_forget.
type ForgetInput struct {
	OlderThan     string `json:"older_than" jsonschema:"age of the memories to delete: a whole number of hours, days or weeks, e.g. 12h, 30d, 2w"`
	IncludePinned bool   `json:"include_pinned,omitempty" jsonschema:"delete pinned memories too (default false: pinned ones are kept)"`
}

// StatsInput is the arguments of memory_stats.
type StatsInput struct {
	Scope string `json:"scope,omitempty" jsonschema:"project: the long-term memories; session: the project's live session context; all: both"`
}

// SuggestInput is the arguments of memory_suggest_patterns.
type SuggestInput struct {
	Task          string   `json:"task" jsonschema:"the task or sub-task at hand, in words"`
	MinConfidence *float64 `json:"min_confidence,omitempty" jsonschema:"keep patterns with a confidence above this (default 0.7)"`
	Limit         int      `json:"limit,omitempty" jsonschema:"at most this many patterns, best first"`
}

func ptr[T any](v T) *T { return &v }

// enum lists values for a schema's enum.
func enum[T ~string](vals ...T) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

// inputSchema infers T's schema (property names and descriptions from the
// struct tags) and lets edit add the bounds.
func inputSchema[T any](edit func(prop func(name string) *jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	edit(func(name string) *jsonschema.Schema {
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("mcpserver: %T has no property %q", *new(T), name))
		}
		return p
	})
	return s
}

// typed makes a pointer or slice property a plain type (no null).
func typed(p *jsonschema.Schema, typ string) *jsonschema.Schema {
	p.Types, p.Type = nil, typ
	return p
}

// keyPattern is the name rule of a session context key
// (agentmem.ValidateKey), so that a client can check a key before calling.
var keyPattern = agentmem.NamePattern(agentmem.MaxKeyLen)

func (s *server) addTools(srv *mcp.Server) {
	closed := ptr(false)
	session := "no session is configured (start agentmem mcp with --session or AGENTMEM_SESSION_ID), so scope session fails"
	if s.cfg.Session != "" {
		session = "session " + s.cfg.Session
	}
	scope := fmt.Sprintf("agent %s in project %s", s.cfg.Agent, s.cfg.Project)

	mcp.AddTool(srv, &mcp.Tool{
		Name:  ToolStore,
		Title: "Store a memory",
		Description: fmt.Sprintf(`Save something worth remembering.
- scope "session" (%s): a key/value shared with the other agents of this pipeline run, e.g. a hand-over note for the next step (decisions in progress, file paths, what is left). Give key and value; it expires with the session (24 h unless ttl_seconds says otherwise). Storing a key again replaces its value. memory_recall reads it back.
- scope "project": a long-term memory of %s that future runs get in MEMORY.md and find with memory_search. Give content and type, with the fields of that type: decision + rationale; blocker + status (open, resolved); pattern + trigger, context, solution, confidence (0..1). Store one fact per call, worded to make sense without this conversation; do not store secrets.
Returns the stored entry (a memory's id, a key's expiry).`, session, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Store a memory", DestructiveHint: ptr(true), OpenWorldHint: closed},
		InputSchema: inputSchema[StoreInput](func(prop func(string) *jsonschema.Schema) {
			prop("scope").Enum = enum(ScopeSession, ScopeProject)
			k := prop("key")
			k.MinLength, k.MaxLength, k.Pattern = ptr(1), ptr(agentmem.MaxKeyLen), keyPattern
			typed(prop("value"), "string").MaxLength = ptr(agentmem.MaxSessionValueBytes)
			ttl := prop("ttl_seconds")
			ttl.Minimum, ttl.Maximum = ptr(agentmem.MinSessionTTL.Seconds()), ptr(agentmem.MaxSessionTTL.Seconds())
			prop("type").Enum = enum(agentmem.Types...)
			prop("content").MaxLength = ptr(agentmem.MaxContentBytes)
			for _, f := range []string{"rationale", "trigger", "context", "solution"} {
				prop(f).MaxLength = ptr(agentmem.MaxFieldBytes)
			}
			prop("status").Enum = enum(agentmem.StatusOpen, agentmem.StatusResolved)
			c := typed(prop("confidence"), "number")
			c.Minimum, c.Maximum = ptr(0.0), ptr(1.0)
			tags := typed(prop("tags"), "array")
			tags.MaxItems = ptr(agentmem.MaxTags)
			tags.Items.MinLength, tags.Items.MaxLength, tags.Items.Pattern = ptr(1), ptr(agentmem.MaxTagLen), `^[A-Za-z0-9._:/-]+$`
			prop("replaces").Pattern = idPattern
		}),
	}, handler(s, ToolStore, s.store))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolRecall,
		Title:       "Recall a session value",
		Description: fmt.Sprintf(`Read a value that an agent of this pipeline run stored with memory_store scope "session" (%s), by its key. Returns the value and when it was stored, last updated and expires; reading records the access. A key never stored, expired or whose session ended is an error: then go on without it. For long-term knowledge of the project use memory_search.`, session),
		Annotations: &mcp.ToolAnnotations{Title: "Recall a session value", ReadOnlyHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[RecallInput](func(prop func(string) *jsonschema.Schema) {
			k := prop("key")
			k.MinLength, k.MaxLength, k.Pattern = ptr(1), ptr(agentmem.MaxKeyLen), keyPattern
			sc := prop("scope")
			sc.Enum, sc.Default = enum(ScopeSession), json.RawMessage(`"session"`)
		}),
	}, handler(s, ToolRecall, s.recall))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolSearch,
		Title:       "Search long-term memory",
		Description: fmt.Sprintf(`Search the long-term memories of %s (decisions, findings, blockers, patterns, learnings, notes, session logs) for the ones relevant to a question. Use it before deciding something that may have been decided before, or when stuck on a problem that may have been met before. Ranked lexically (BM25 over content and typed fields; code identifiers like snake_case and camelCase are split), and also semantically when the server has an embeddings model. Returns the best matches first, each with its score, type, content, typed fields and id; an empty list means nothing matched (try other words or no type).`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Search long-term memory", ReadOnlyHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[SearchInput](func(prop func(string) *jsonschema.Schema) {
			q := prop("query")
			q.MinLength, q.MaxLength = ptr(1), ptr(agentmem.MaxQueryBytes)
			prop("type").Enum = enum(agentmem.Types...)
			l := prop("limit")
			l.Minimum, l.Maximum, l.Default = ptr(1.0), ptr(float64(agentmem.MaxSearchLimit)), json.RawMessage(fmt.Sprint(agentmem.DefaultSearchLimit))
		}),
	}, handler(s, ToolSearch, s.search))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolForget,
		Title:       "Forget old memories",
		Description: fmt.Sprintf(`Delete the long-term memories of %s created more than older_than ago (e.g. 30d); pinned memories are kept unless include_pinned is true. This cannot be undone: use it only when asked to clean up old memory, never to tidy up in the middle of a task. Returns how many memories were removed and the cutoff time.`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Forget old memories", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[ForgetInput](func(prop func(string) *jsonschema.Schema) {
			prop("older_than").Pattern = `^[0-9]{1,11}[hdw]$`
		}),
	}, handler(s, ToolForget, s.forget))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolStats,
		Title:       "Memory statistics",
		Description: fmt.Sprintf(`How much memory %s has. scope "project": the long-term memories: total, storage bytes, counts by type and by source, and the limit past which the least recently used are evicted. scope "session": the project's live session context (all sessions): sessions, keys and bytes. "all" (default): both. Use it to see what memory exists before searching it or cleaning it up.`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Memory statistics", ReadOnlyHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[StatsInput](func(prop func(string) *jsonschema.Schema) {
			sc := prop("scope")
			sc.Enum, sc.Default = enum(ScopeProject, ScopeSession, ScopeAll), json.RawMessage(`"all"`)
		}),
	}, handler(s, ToolStats, s.stats))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolSuggestPatterns,
		Title:       "Suggest proven patterns",
		Description: fmt.Sprintf(`Find the proven approaches (pattern memories of %s: a trigger saying when to apply it, its context, the solution, a confidence) relevant to a task, keeping those with a confidence above min_confidence (default 0.7). Call it when you start a task or a new sub-task, with the task in a sentence; apply a suggested solution when its trigger matches your situation. Returns the patterns best first, scored by relevance times confidence; none means no confident pattern is known yet.`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Suggest proven patterns", ReadOnlyHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[SuggestInput](func(prop func(string) *jsonschema.Schema) {
			t := prop("task")
			t.MinLength, t.MaxLength = ptr(1), ptr(agentmem.MaxQueryBytes)
			c := typed(prop("min_confidence"), "number")
			c.ExclusiveMinimum, c.Maximum = ptr(0.0), ptr(1.0)
			l := prop("limit")
			l.Minimum, l.Maximum, l.Default = ptr(1.0), ptr(float64(agentmem.MaxSearchLimit)), json.RawMessage("5")
		}),
	}, handler(s, ToolSuggestPatterns, s.suggest))

	s.addHistoryTools(srv)
}

// handler adapts fn to the SDK: it bounds the call by the timeout, turns
// its error into a tool error and answers its text, the one content block
// of the result. A result has no structuredContent (and a tool no output
// schema): Claude Code (2.1.330, checked end to end) hands the model a
// result's structuredContent as JSON instead of its text when there is
// one, so the summary line and the formatting would never reach it. The
// text carries every field the agent can use: ids, types, typed fields,
// scores, counts.
func handler[In any](s *server, tool string, fn func(context.Context, In) (string, error)) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		ctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
		defer cancel()
		text, err := fn(ctx, in)
		if err != nil {
			return nil, nil, s.apiFailure(tool, err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	}
}

// noSession is the error of a session-scope call without a session.
func noSession(tool string) *toolError {
	return &toolError{msg: tool + `: no session is configured: agentmem mcp was started without --session, AGENTMEM_SESSION_ID or AGENTMEM_RUN_ID, so the session scope is unavailable. Use memory_store scope "project" for what should outlast this run, or go on without it.`}
}

// given lists the names of the arguments that are set.
func given(fields map[string]bool) []string {
	var names []string
	for name, set := range fields {
		if set {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func (s *server) store(ctx context.Context, in StoreInput) (string, error) {
	switch in.Scope {
	case ScopeSession:
		return s.storeSession(ctx, in)
	case ScopeProject:
		return s.storeProject(ctx, in)
	}
	return "", invalidf(ToolStore, `scope must be "session" or "project"`)
}

func (s *server) storeSession(ctx context.Context, in StoreInput) (string, error) {
	if extra := given(map[string]bool{
		"type": in.Type != "", "content": in.Content != "", "rationale": in.Rationale != "", "status": in.Status != "",
		"trigger": in.Trigger != "", "context": in.Context != "", "solution": in.Solution != "",
		"confidence": in.Confidence != nil, "tags": len(in.Tags) > 0, "pinned": in.Pinned,
		"replaces": in.Replaces != "", "allow_duplicate": in.AllowDuplicate,
	}); len(extra) > 0 {
		return "", invalidf(ToolStore, `%s apply to scope "project"; scope "session" takes key and value (and ttl_seconds)`, strings.Join(extra, ", "))
	}
	if s.cfg.Session == "" {
		return "", noSession(ToolStore)
	}
	if in.Key == "" || in.Value == nil {
		return "", invalidf(ToolStore, `scope "session" needs key and value`)
	}
	if err := agentmem.ValidateKey(in.Key); err != nil {
		return "", invalidf(ToolStore, "%s", agentmem.ErrorMessage(err))
	}
	si := agentmem.SessionInput{Value: in.Value}
	if in.TTLSeconds != 0 {
		si.TTLSeconds = &in.TTLSeconds
	}
	if err := si.Validate(); err != nil {
		return "", invalidf(ToolStore, "%s", strings.Replace(agentmem.ErrorMessage(err), "ttlSeconds", "ttl_seconds", 1))
	}
	e, created, err := s.api.PutSessionContext(ctx, s.cfg.Project, s.cfg.Session, in.Key, *in.Value, in.TTLSeconds)
	if err != nil {
		return "", err
	}
	verb := "Stored new"
	if !created {
		verb = "Replaced the value of"
	}
	text := fmt.Sprintf("%s key %q in session %s of project %s (%d bytes); it expires at %s unless the session ends first. memory_recall with key %q reads it.",
		verb, e.Key, e.SessionID, e.ProjectID, len(e.Value), e.ExpiresAt, e.Key)
	return text, nil
}

func (s *server) storeProject(ctx context.Context, in StoreInput) (string, error) {
	if extra := given(map[string]bool{"key": in.Key != "", "value": in.Value != nil, "ttl_seconds": in.TTLSeconds != 0}); len(extra) > 0 {
		return "", invalidf(ToolStore, `%s apply to scope "session"; scope "project" takes content and type (and the type's fields)`, strings.Join(extra, ", "))
	}
	mi := agentmem.MemoryInput{
		ProjectID: s.cfg.Project, Content: in.Content, Type: agentmem.Type(in.Type),
		Rationale: in.Rationale, Status: in.Status, Trigger: in.Trigger, Context: in.Context, Solution: in.Solution,
		Confidence: in.Confidence, Tags: in.Tags, Pinned: in.Pinned, RunID: s.cfg.Session,
		Replaces: in.Replaces, AllowDuplicate: in.AllowDuplicate,
	}
	mi.Normalize()
	if err := mi.Validate(); err != nil {
		return "", invalidf(ToolStore, "%s", agentmem.ErrorMessage(err))
	}
	r, err := s.api.CreateMemoryResult(ctx, s.cfg.Agent, mi)
	if err != nil {
		if in.Replaces != "" {
			return "", conflict(ToolStore, in.Replaces, err)
		}
		return "", err
	}
	m := r.Memory
	if r.Duplicate {
		return fmt.Sprintf("Not stored: memory %s already says this (%s duplicate), so future runs already get it. To correct it use memory_update; to store it anyway, allow_duplicate.\n%s",
			m.ID, r.Match, formatMemory(m, "")), nil
	}
	text := fmt.Sprintf("Stored %s memory %s for agent %s in project %s; future runs get it in MEMORY.md and memory_search finds it.\n%s",
		m.Type, m.ID, m.AgentName, m.ProjectID, formatMemory(m, ""))
	if r.Superseded != nil {
		text += fmt.Sprintf("\nIt replaces memory %s, which left MEMORY.md and search; memory_restore brings it back.", r.Superseded.ID)
	}
	return text, nil
}

func (s *server) recall(ctx context.Context, in RecallInput) (string, error) {
	if in.Scope != "" && in.Scope != ScopeSession {
		return "", invalidf(ToolRecall, `scope must be "session": long-term memories are found with memory_search`)
	}
	if s.cfg.Session == "" {
		return "", noSession(ToolRecall)
	}
	if err := agentmem.ValidateKey(in.Key); err != nil {
		return "", invalidf(ToolRecall, "%s", agentmem.ErrorMessage(err))
	}
	e, err := s.api.GetSessionContext(ctx, s.cfg.Project, s.cfg.Session, in.Key)
	if apiclient.IsNotFound(err) {
		return "", &toolError{cause: err, msg: fmt.Sprintf(
			`%s: no value for key %q in session %s of project %s: it was never stored, it expired, or the session ended. Go on without it, or store it first with memory_store scope "session".`,
			ToolRecall, in.Key, s.cfg.Session, s.cfg.Project)}
	}
	if err != nil {
		return "", err
	}
	text := fmt.Sprintf("%s\n\n(key %q of session %s: stored %s, updated %s, expires %s)", e.Value, e.Key, e.SessionID, e.CreatedAt, e.UpdatedAt, e.ExpiresAt)
	return text, nil
}

// query checks a free-text argument: not blank, at most MaxQueryBytes.
func query(tool, name, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", invalidf(tool, "%s must not be blank", name)
	case len(s) > agentmem.MaxQueryBytes:
		return "", invalidf(tool, "%s is %d bytes; the limit is %d", name, len(s), agentmem.MaxQueryBytes)
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		return "", invalidf(tool, "%s is not valid UTF-8 text", name)
	}
	return s, nil
}

func (s *server) search(ctx context.Context, in SearchInput) (string, error) {
	q, err := query(ToolSearch, "query", in.Query)
	if err != nil {
		return "", err
	}
	if in.Type != "" && !agentmem.Type(in.Type).Valid() {
		return "", invalidf(ToolSearch, "type %q is not a memory type", in.Type)
	}
	res, err := s.api.SearchMemories(ctx, s.cfg.Agent, apiclient.SearchOptions{ProjectID: s.cfg.Project, Query: q, Type: agentmem.Type(in.Type), Limit: in.Limit})
	if err != nil {
		return "", err
	}
	what := "memories"
	if in.Type != "" {
		what = in.Type + " memories"
	}
	var b strings.Builder
	if len(res.Results) == 0 {
		fmt.Fprintf(&b, "No memory matches %q (%d %s searched, %s ranking). Try other words", q, res.Searched, what, res.Mode)
		if in.Type != "" {
			b.WriteString(", or no type")
		}
		b.WriteString(".")
		return b.String(), nil
	}
	fmt.Fprintf(&b, "%d of %d %s match %q (%s ranking), best first:", len(res.Results), res.Searched, what, q, res.Mode)
	for i, m := range res.Results {
		fmt.Fprintf(&b, "\n%d. %s", i+1, formatMemory(m.Memory, fmt.Sprintf("score %.3g", m.Score)))
	}
	return b.String(), nil
}

func (s *server) forget(ctx context.Context, in ForgetInput) (string, error) {
	if _, err := agentmem.ParseAge(in.OlderThan); err != nil {
		return "", invalidf(ToolForget, "%s", strings.Replace(agentmem.ErrorMessage(err), "olderThan", "older_than", 1))
	}
	out, err := s.api.ForgetMemories(ctx, s.cfg.Agent, agentmem.ForgetInput{ProjectID: s.cfg.Project, OlderThan: in.OlderThan, IncludePinned: in.IncludePinned})
	if err != nil {
		return "", err
	}
	pinned := "pinned ones kept"
	if in.IncludePinned {
		pinned = "pinned ones included"
	}
	return fmt.Sprintf("Forgot %s of agent %s in project %s created before %s (%s).", count(int64(out.Removed), "memory", "memories"), s.cfg.Agent, s.cfg.Project, out.Cutoff, pinned), nil
}

func (s *server) stats(ctx context.Context, in StatsInput) (string, error) {
	scope := in.Scope
	if scope == "" {
		scope = ScopeAll
	}
	if scope != ScopeProject && scope != ScopeSession && scope != ScopeAll {
		return "", invalidf(ToolStats, `scope must be "project", "session" or "all"`)
	}
	st, err := s.api.GetStats(ctx, s.cfg.Agent, s.cfg.Project)
	if err != nil {
		return "", err
	}
	var lines []string
	if scope != ScopeSession {
		counts := st.Counts
		lines = append(lines, fmt.Sprintf("Project memory of agent %s in %s: %s, %s (limit %d; past it the least recently used are evicted).",
			s.cfg.Agent, s.cfg.Project, count(counts.Total, "memory", "memories"), bytesText(counts.Bytes), st.Limit))
		if len(counts.ByType) > 0 {
			lines = append(lines, "By type: "+countList(agentmem.Types, counts.ByType)+".")
		}
		if len(counts.BySource) > 0 {
			lines = append(lines, "By source: "+countList([]agentmem.Source{agentmem.SourceManual, agentmem.SourceExtraction, agentmem.SourceSystem}, counts.BySource)+".")
		}
	}
	if scope != ScopeProject {
		u := st.ByScope.Session
		lines = append(lines, fmt.Sprintf("Session context of project %s: %s in %s, %s.", s.cfg.Project, count(u.Total, "live key", "live keys"), count(int64(u.Sessions), "session", "sessions"), bytesText(u.Bytes)))
	}
	return strings.Join(lines, "\n"), nil
}

func (s *server) suggest(ctx context.Context, in SuggestInput) (string, error) {
	task, err := query(ToolSuggestPatterns, "task", in.Task)
	if err != nil {
		return "", err
	}
	minConf := 0.0
	if in.MinConfidence != nil {
		if c := *in.MinConfidence; !(c > 0 && c <= 1) {
			return "", invalidf(ToolSuggestPatterns, "min_confidence must be above 0 and at most 1")
		}
		minConf = *in.MinConfidence
	}
	res, err := s.api.SuggestPatterns(ctx, s.cfg.Agent, s.cfg.Project, task, minConf, in.Limit)
	if err != nil {
		return "", err
	}
	if len(res.Patterns) == 0 {
		return fmt.Sprintf("No pattern with a confidence above %g matches this task yet. Go on with your own approach; if it works, store it with memory_store scope \"project\" type \"pattern\".", res.MinConfidence), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s with a confidence above %g for this task, best first:", count(int64(len(res.Patterns)), "pattern", "patterns"), res.MinConfidence)
	for i, p := range res.Patterns {
		fmt.Fprintf(&b, "\n%d. %s", i+1, formatMemory(p.Memory, fmt.Sprintf("score %.3g", p.Score)))
	}
	return b.String(), nil
}

// formatMemory renders a memory for the agent: its type and content, then
// its typed fields and identity, indented.
func formatMemory(m agentmem.Memory, score string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s", m.Type, oneLine(m.Content))
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, "\n   %s: %s", name, oneLine(v))
		}
	}
	field("rationale", m.Rationale)
	field("status", m.Status)
	field("trigger", m.Trigger)
	field("context", m.Context)
	field("solution", m.Solution)
	var meta []string
	if score != "" {
		meta = append(meta, score)
	}
	if m.Confidence != nil {
		meta = append(meta, fmt.Sprintf("confidence %g", *m.Confidence))
	}
	meta = append(meta, "id "+m.ID)
	if m.Version > 0 {
		meta = append(meta, fmt.Sprintf("version %d", m.Version))
	}
	meta = append(meta, "created "+m.CreatedAt, "source "+string(m.Source))
	if m.State != "" {
		meta = append(meta, m.State)
	}
	if len(m.Tags) > 0 {
		meta = append(meta, "tags "+strings.Join(m.Tags, ", "))
	}
	if m.Pinned {
		meta = append(meta, "pinned")
	}
	fmt.Fprintf(&b, "\n   (%s)", strings.Join(meta, "; "))
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// countList renders counts in the order of keys, skipping zeros.
func countList[K ~string](keys []K, counts map[K]int64) string {
	var parts []string
	for _, k := range keys {
		if n := counts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	var others []K
	for k, n := range counts {
		if n > 0 && !slices.Contains(keys, k) {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// count renders n with the singular or plural noun.
func count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// bytesText renders a byte count for people.
func bytesText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
