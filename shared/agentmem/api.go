package agentmem

// The request and response bodies of the REST API, shared by the function
// handlers that produce them and by package apiclient that consumes them,
// so that the two cannot drift apart and the client links no adapter code.
// Each has this one definition and this one name: no package gives them
// another (layout_test.go keeps apiclient importing only this package).
// The error body is ErrorEnvelope (errors.go).

// MemoryPage is one page of memories, newest first (GET .../memories).
type MemoryPage struct {
	Memories []Memory `json:"memories"`
	// NextCursor is set when older memories remain.
	NextCursor string `json:"nextCursor,omitempty"`
}

// CreateResult is the answer of POST .../memories: the memory stored
// (201), or, when the scope already holds a repeat of it (and
// allowDuplicate was not set), that memory with Duplicate set and nothing
// stored (200).
type CreateResult struct {
	Memory
	// Duplicate is true when nothing was stored because Memory repeats
	// the memory sent.
	Duplicate bool `json:"duplicate,omitempty"`
	// DuplicateOf is the id of that memory (Memory.ID), for callers that
	// read only the flag's neighbours.
	DuplicateOf string `json:"duplicateOf,omitempty"`
	// Match says how: "same" (the same text once case, spacing,
	// punctuation, quotes and backticks are set aside) or "near" (a
	// near duplicate).
	Match string `json:"match,omitempty"`
	// Superseded is the memory the new one replaced (replaces), as it
	// was: it left the scope and stays in its history.
	Superseded *Memory `json:"superseded,omitempty"`
}

// Bootstrap is everything `agentmem inject` needs, in one round trip
// (GET .../bootstrap).
type Bootstrap struct {
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
	// Personality is null when the agent has none.
	Personality *Personality `json:"personality"`
	// PersonalitySection is the delimited "# Personality" section to
	// prepend to CLAUDE.md; empty without a personality.
	PersonalitySection string `json:"personalitySection"`
	// MemoryFile is the content of .claude/memory/MEMORY.md; empty when
	// there are no memories (no file is written then).
	MemoryFile  string `json:"memoryFile"`
	MemoryCount int    `json:"memoryCount"`
	// SuggestedPatterns are the high-confidence patterns relevant to the
	// task query parameter, best first (also appended to MemoryFile as a
	// "## Suggested patterns" section); empty without a task.
	SuggestedPatterns []ScoredMemory `json:"suggestedPatterns"`
}

// ScoredMemory is a memory with its relevance score for one query. Scores
// are comparable within one answer only: BM25 for lexical search, cosine
// similarity for semantic, fused reciprocal ranks for hybrid, relevance ×
// confidence for pattern suggestions.
type ScoredMemory struct {
	Memory
	Score float64 `json:"score"`
}

// SearchResult is the answer of GET .../memories/search.
type SearchResult struct {
	Query string `json:"query"`
	// Mode is how the memories were ranked: lexical (BM25), semantic
	// (cosine similarity of embeddings), hybrid (both, fused by
	// reciprocal rank), or none (the query has no searchable words and no
	// embedder is configured).
	Mode string `json:"mode"`
	// Searched is how many memories of the scope (of the type asked for)
	// were ranked.
	Searched int            `json:"searched"`
	Results  []ScoredMemory `json:"results"`
}

// Suggestions is the answer of GET .../patterns/suggest.
type Suggestions struct {
	Task          string         `json:"task"`
	MinConfidence float64        `json:"minConfidence"`
	Patterns      []ScoredMemory `json:"patterns"`
}

// ForgetInput is the body of POST .../memories/forget.
type ForgetInput struct {
	ProjectID string `json:"projectId"`
	// OlderThan is an age in whole hours, days or weeks: "12h", "30d",
	// "2w" (ParseAge).
	OlderThan string `json:"olderThan"`
	// IncludePinned forgets pinned memories too.
	IncludePinned bool `json:"includePinned,omitempty"`
}

// Forgotten is the answer of POST .../memories/forget: 200 when it
// finished, 202 when the rest continues in the background as the job
// JobID (GET .../jobs/{jobId} tells how far it got).
type Forgotten struct {
	// Removed counts the memories removed so far.
	Removed int64 `json:"removed"`
	// Cutoff is the creation time before which memories are removed.
	Cutoff string `json:"cutoff"`
	// Status is JobDone or JobRunning.
	Status JobStatus `json:"status"`
	// JobID names the background job of a 202.
	JobID string `json:"jobId,omitempty"`
}

// JobKind is what a job does.
type JobKind string

// Job kinds.
const (
	JobDeleteScope JobKind = "delete" // DELETE .../memories: every memory of the scope
	JobForget      JobKind = "forget" // POST .../memories/forget: those older than a cutoff
	JobDream       JobKind = "dream"  // POST .../dreams: a dream too large to wait for
)

// JobStatus is where a job stands.
type JobStatus string

// Job statuses.
const (
	JobRunning JobStatus = "running"
	JobDone    JobStatus = "done"
	JobFailed  JobStatus = "failed"
)

// Job is work on a scope that goes on in the background: a bulk delete
// of any size (the answer of DELETE .../memories, 200 done, 202 running;
// Removed counts what is gone so far, exactly), or a dream whose review
// takes more model calls than a request can wait for (POST .../dreams
// answered 202). GET .../jobs/{jobId} tells where it stands.
type Job struct {
	ID        string    `json:"id" dynamo:"id"`
	AgentName string    `json:"agentName" dynamo:"agentName"`
	ProjectID string    `json:"projectId" dynamo:"projectId"`
	Kind      JobKind   `json:"kind" dynamo:"kind"`
	Status    JobStatus `json:"status" dynamo:"status"`
	// Removed counts the memories removed so far (kept by the store
	// beside the record, not in it).
	Removed int64 `json:"removed" dynamo:"-"`
	// Cutoff and IncludePinned are a forget job's selection.
	Cutoff        string `json:"cutoff,omitempty" dynamo:"cutoff,omitempty"`
	IncludePinned bool   `json:"includePinned,omitempty" dynamo:"includePinned,omitempty"`
	CreatedAt     string `json:"createdAt" dynamo:"createdAt"`
	UpdatedAt     string `json:"updatedAt" dynamo:"updatedAt"`
	FinishedAt    string `json:"finishedAt,omitempty" dynamo:"finishedAt,omitempty"`
	// Error says why a failed job stopped.
	Error string `json:"error,omitempty" dynamo:"error,omitempty"`

	// DreamInput is a dream job's request.
	DreamInput *CreateDreamInput `json:"dreamInput,omitempty" dynamo:"dreamInput,omitempty"`
	// Phase is where a running dream job stands: queued until a worker
	// runs it, then review, verify, compress and commit.
	Phase DreamPhase `json:"phase,omitempty" dynamo:"phase,omitempty"`
	// Calls counts a dream job's model answers so far; PlannedCalls the
	// calls its review was split into (a part whose answer was cut off
	// takes two more, the verifier's and the compression's come after).
	Calls        int `json:"calls,omitempty" dynamo:"calls,omitempty"`
	PlannedCalls int `json:"plannedCalls,omitempty" dynamo:"plannedCalls,omitempty"`
	// DreamResult is what a done dream job's dream did: dreamed, with its
	// diary entry (without its list of operations: GET .../dreams/{date}
	// has it), or skipped, with the reason. A failed dream job says why
	// in Error; a dream that failed on the model has its diary entry too.
	DreamResult *DreamResult `json:"dreamResult,omitempty" dynamo:"dreamResult,omitempty"`
}

// RecountInput is the body of POST /api/admin/recount: the scope whose
// counters to rebuild from its memories.
type RecountInput struct {
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
}

// Recount is the answer of POST /api/admin/recount: a scope's counters as
// they were and as rebuilt from its memories, and the drift repaired
// (after minus before; zero counters left out).
type Recount struct {
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
	Before    Counts `json:"before"`
	After     Counts `json:"after"`
	Drift     Counts `json:"drift"`
	// Drifted is true when the counters were wrong and were repaired.
	Drifted bool `json:"drifted"`
}

// PersonalityPage is one page of personalities by agent name
// (GET /api/personalities).
type PersonalityPage struct {
	Personalities []Personality `json:"personalities"`
	// NextCursor is set when more personalities remain.
	NextCursor string `json:"nextCursor,omitempty"`
}

// Counts are memory counters: how many memories, their stored size, and
// how many of each type and source.
type Counts struct {
	Total int64 `json:"total"`
	// Bytes approximates the memories' stored size (attribute names plus
	// values, as DynamoDB counts item size).
	Bytes     int64            `json:"bytes"`
	ByType    map[Type]int64   `json:"byType"`
	BySource  map[Source]int64 `json:"bySource"`
	UpdatedAt string           `json:"updatedAt,omitempty"`
}

// NewCounts returns zero counters with their maps made.
func NewCounts() Counts {
	return Counts{ByType: map[Type]int64{}, BySource: map[Source]int64{}}
}

// Add accumulates o into c; UpdatedAt becomes the later of the two. c's
// maps must have been made (NewCounts).
func (c *Counts) Add(o Counts) {
	c.Total += o.Total
	c.Bytes += o.Bytes
	for k, v := range o.ByType {
		c.ByType[k] += v
	}
	for k, v := range o.BySource {
		c.BySource[k] += v
	}
	c.UpdatedAt = max(c.UpdatedAt, o.UpdatedAt)
}

// ScopeCounts are the running counters of one agent+project scope.
type ScopeCounts struct {
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
	Counts
	// ChangedAt is when a memory of the scope was last created, deleted
	// or rewritten; a mere lastAccessedAt update leaves it.
	ChangedAt string `json:"changedAt,omitempty"`
	// Version grows with every write that creates, deletes or rewrites a
	// memory of the scope (never with a lastAccessedAt update): search
	// caches key on it.
	Version int64 `json:"version"`
}

// Usage is how many items a scope holds and their stored size.
type Usage struct {
	Total int64 `json:"total"`
	Bytes int64 `json:"bytes"`
}

// SessionUsage is what a project's live session context holds.
type SessionUsage struct {
	// Sessions counts the sessions with at least one live key.
	Sessions int `json:"sessions"`
	Usage
}

// ScopeUsage breaks a project's usage down by scope: the agent's
// long-term memories in the project and the project's session context.
type ScopeUsage struct {
	// Project is the agent's long-term memories in the project.
	Project Usage `json:"project"`
	// Session is the project's session-scoped context (key/values that
	// expire with the session), shared by the project's agents.
	Session SessionUsage `json:"session"`
}

// Stats is the answer of GET .../stats: the scope's counters (its
// memories: total, bytes, by type and by source), broken down by scope,
// and the eviction limit.
type Stats struct {
	ScopeCounts
	ByScope ScopeUsage `json:"byScope"`
	// Limit is how many memories the scope keeps before the least
	// recently used are evicted.
	Limit int `json:"limit"`
	// Dream is where the scope stands with Deep Dream.
	Dream DreamStatus `json:"dream"`
}

// DreamStatus is where a scope stands with Deep Dream: whether daily
// content waits for a dream, when the last daily record came and when the
// last dream committed.
type DreamStatus struct {
	// Pending is true while daily content no dream has consumed waits
	// (the nightly schedule dreams every pending scope).
	Pending bool `json:"pending"`
	// PendingSince is when the oldest waiting content was appended.
	PendingSince string `json:"pendingSince,omitempty"`
	// LastAppendAt is when the scope's latest daily record was appended
	// (its day is the latest day of the daily log).
	LastAppendAt string `json:"lastAppendAt,omitempty"`
	// LastDreamAt is when the scope's last dream committed.
	LastDreamAt string `json:"lastDreamAt,omitempty"`
}

// Totals are the counters summed over every scope.
type Totals struct {
	// Scopes counts the scopes holding at least one memory.
	Scopes int64 `json:"scopes"`
	Counts
}

// ScopeCountsPage is one page of scopes with their counters.
type ScopeCountsPage struct {
	Scopes []ScopeCounts `json:"scopes"`
	// NextCursor is set when more scopes remain.
	NextCursor string `json:"nextCursor,omitempty"`
}

// AllStats is the answer of GET /api/stats: the totals over every scope
// and one page of the scopes holding memories.
type AllStats struct {
	Totals Totals `json:"totals"`
	ScopeCountsPage
}

// DailyDay is the JSON answer of GET .../daily.
type DailyDay struct {
	AgentName string        `json:"agentName"`
	ProjectID string        `json:"projectId"`
	Date      string        `json:"date"`
	Records   []DailyRecord `json:"records"`
}

// EndedSession is the answer of DELETE .../sessions/{sessionId}.
type EndedSession struct {
	ProjectID string `json:"projectId"`
	SessionID string `json:"sessionId"`
	// Deleted counts the live keys the end removed.
	Deleted int `json:"deleted"`
}

// CreateDreamInput is the body of POST .../dreams.
type CreateDreamInput struct {
	ProjectID string `json:"projectId" dynamo:"projectId"`
	// LookbackDays is the window of daily records (default 3, at most 30).
	LookbackDays *int `json:"lookbackDays,omitempty" dynamo:"lookbackDays,omitempty"`
	// KeepManual keeps manual memories as they are (default true).
	KeepManual *bool `json:"keepManual,omitempty" dynamo:"keepManual,omitempty"`
	// Force dreams even when the daily content is unchanged.
	Force bool `json:"force,omitempty" dynamo:"force,omitempty"`
	// CompressAfterDays compresses memories older than this (default 7;
	// 0 disables compression for this dream).
	CompressAfterDays *int `json:"compressAfterDays,omitempty" dynamo:"compressAfterDays,omitempty"`
}

// Dream result statuses.
const (
	DreamStatusDreamed = "dreamed"
	DreamStatusSkipped = "skipped"
	// DreamStatusQueued: the dream runs in the background as the job
	// JobID (POST .../dreams answered 202).
	DreamStatusQueued = "queued"
)

// DreamResult is the answer of POST .../dreams when the dream did not
// fail: 201 dreamed, 200 skipped, 202 queued (a scope whose review takes
// more model calls than a request can wait for dreams in the background:
// GET .../jobs/{jobId} follows it and holds this result when it is done).
type DreamResult struct {
	Status string `json:"status" dynamo:"status"`
	// Reason says why a dream was skipped, or why it was queued.
	Reason string `json:"reason,omitempty" dynamo:"reason,omitempty"`
	// Dream is the diary entry of a dream that ran.
	Dream *Dream `json:"dream,omitempty" dynamo:"dream,omitempty"`
	// RolledForward names a commit of an earlier, interrupted run that
	// this run finished first ("<date>#<id>").
	RolledForward string `json:"rolledForward,omitempty" dynamo:"rolledForward,omitempty"`
	// JobID names the job of a queued dream.
	JobID string `json:"jobId,omitempty" dynamo:"jobId,omitempty"`
}

// DreamPage is a page of diary entries, newest first (GET .../dreams).
type DreamPage struct {
	Dreams     []Dream `json:"dreams"`
	NextCursor string  `json:"nextCursor,omitempty"`
}

// DreamDay is the JSON answer of GET .../dreams/{date}.
type DreamDay struct {
	AgentName string      `json:"agentName"`
	ProjectID string      `json:"projectId"`
	Date      string      `json:"date"`
	Dreams    []DreamView `json:"dreams"`
}

// DreamView is a diary entry and, with ?plan=true, what it wrote (the
// memories it added, and the new versions of those it updated), the
// memories as they were before it changed them (updated, retired, or
// deleted by a dream from before operations: what a revert puts back),
// and the texts of the sources its operations cite.
type DreamView struct {
	Dream
	Written  []Memory      `json:"written,omitempty"`
	Replaced []Memory      `json:"replaced,omitempty"`
	Sources  []DreamSource `json:"sources,omitempty"`
}

// DreamSource is a source a dream's operation cites: a memory or a daily
// record, its text cut to a few hundred bytes.
type DreamSource struct {
	ID string `json:"id"`
	// Kind is "memory" or "daily".
	Kind  string `json:"kind"`
	Title string `json:"title,omitempty"`
	At    string `json:"at,omitempty"`
	Type  Type   `json:"type,omitempty"`
	Text  string `json:"text"`
}

// SkippedLearning is a learning an extraction did not save, and why.
type SkippedLearning struct {
	Content string `json:"content"`
	Reason  string `json:"reason"`
}

// ExtractionResult is the answer of POST .../extractions (200): the
// memories saved, the stored patterns reinforced, the learnings skipped
// and why, and the run's summary with its daily log record. A retry of the
// same runId gets the same answer with Replayed set.
type ExtractionResult struct {
	RunID string   `json:"runId"`
	Saved []Memory `json:"saved"`
	// Reinforced are stored patterns this run's patterns matched: their
	// confidence was raised instead of a copy being saved.
	Reinforced []Memory `json:"reinforced,omitempty"`
	// Superseded are the memories this run's learnings replaced (a
	// learning's replaces): they left the scope, each with SupersededBy
	// set, and stay in their history.
	Superseded []Memory `json:"superseded,omitempty"`
	// Notes say what the caller should know of a learning saved not quite
	// as it asked: a replaces that named no live memory of the scope, a
	// pinned one, one it has no word in common with, or one that changed
	// meanwhile (the learning is saved beside it).
	Notes   []string          `json:"notes,omitempty"`
	Skipped []SkippedLearning `json:"skipped"`
	Summary string            `json:"summary"`
	Success bool              `json:"success"`
	// Daily is the daily log record of the run's summary (nil when the
	// run had no summary or the record could not be written; the
	// learnings are saved either way).
	Daily *DailyRecord `json:"daily,omitempty"`
	// Model and Prompt name the LLM and prompt version that extracted
	// (empty for client-extracted learnings); Truncated says the output
	// was cut to its tail.
	Model     string `json:"model,omitempty"`
	Prompt    string `json:"prompt,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	Replayed  bool   `json:"replayed,omitempty"`
}

// Learning is one learning as the extraction answer format and the
// extraction route's learnings body carry it: a memory type, the content
// and the fields of that type (rationale, status, trigger, context,
// solution, confidence).
type Learning struct {
	Type       Type     `json:"type"`
	Content    string   `json:"content"`
	Rationale  string   `json:"rationale,omitempty"`  // decision
	Status     string   `json:"status,omitempty"`     // blocker: open | resolved
	Trigger    string   `json:"trigger,omitempty"`    // pattern
	Context    string   `json:"context,omitempty"`    // pattern
	Solution   string   `json:"solution,omitempty"`   // pattern
	Confidence *float64 `json:"confidence,omitempty"` // pattern, 0..1
	// Replaces names a memory of the scope that this learning replaces
	// (it is out of date, or this one corrects it: the two share at least
	// one word of what they say). In a model's answer it is a short
	// reference of the prompt ("m3"); on the wire of the extraction route
	// it is the memory's id.
	Replaces string `json:"replaces,omitempty"`
}

// Input returns the memory input that saves l in projectID for runID,
// normalized (defaults filled); call Validate on it before saving.
// Replaces is left out: the extraction resolves it against the scope.
func (l Learning) Input(projectID, runID string) MemoryInput {
	in := MemoryInput{
		ProjectID: projectID, RunID: runID,
		Type: l.Type, Content: l.Content,
		Rationale: l.Rationale, Status: l.Status,
		Trigger: l.Trigger, Context: l.Context, Solution: l.Solution, Confidence: l.Confidence,
	}
	in.Normalize()
	return in
}

// Validate checks l against the domain's memory rules.
func (l Learning) Validate() error {
	in := l.Input("validation", "")
	return in.Validate()
}

// ExtractionInput is the body of POST .../extractions, in one of two
// forms: Output (the server asks its LLM for the learnings) or Learnings,
// Summary and Success (the caller already extracted them, e.g. with the
// claude CLI in the agent's container). Both are idempotent per RunID.
// The absence of a field is meaningful, so that the server can tell the
// forms apart and refuse a body that mixes them: Output is a pointer (an
// empty output is not a missing one) and Learnings is sent whenever it is
// not nil, an empty list too (a run that taught nothing still records its
// summary); JSON null counts as absent.
type ExtractionInput struct {
	ProjectID string `json:"projectId"`
	RunID     string `json:"runId"`
	// Output is the run's output; the server keeps its tail for the
	// prompt.
	Output *string `json:"output,omitempty"`
	// Learnings are learnings extracted by the client, each valid by the
	// memory rules.
	Learnings []Learning `json:"learnings,omitzero"`
	Summary   string     `json:"summary,omitempty"`
	// Success says whether the run achieved its goal (learnings form
	// only); the patterns of successful runs are captured.
	Success *bool `json:"success,omitempty"`
}

// Health statuses.
const (
	HealthOK          = "ok"
	HealthUnavailable = "unavailable"
)

// Health is the answer of GET /api/health: 200 with status ok when every
// table answered a read, else 503 with status unavailable and the domain
// error (code unavailable) beside the tables' findings, so that the body
// is also an error envelope.
type Health struct {
	Status string        `json:"status"`
	Tables []TableHealth `json:"tables"`
	// Error is set when a table could not be read (503).
	Error *Error `json:"error,omitempty"`
}

// TableHealth is what one table answered a health read.
type TableHealth struct {
	// Table is the role of the table: memories, personalities or journal.
	Table string `json:"table"`
	// Name is the table's name in DynamoDB.
	Name   string `json:"name"`
	Status string `json:"status"`
	// Millis is how long the read took, in milliseconds.
	Millis float64 `json:"ms"`
	// Error says why the table could not be read.
	Error string `json:"error,omitempty"`
}
