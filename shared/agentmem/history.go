package agentmem

import (
	"slices"
	"strings"
)

// Versions, history and supersession (issue 11).
//
// Every memory has a Version, 1 when it is created and one more with each
// change: an edit (PATCH .../memories/{id}), a restore of an earlier
// version, its supersession by another memory, its retirement. Each
// version is kept in the memory's history (GET .../memories/{id}/history)
// with who made it (ChangeBy) and what changed. A memory that another
// replaces, or that a dream retires, leaves the scope's live memories
// (lists, MEMORY.md, search, suggestions, dreams, counters) but not its
// history, from which a person restores it. Deleting a memory deletes its
// history too: delete is for what must go for good.

// ChangeKind says what a version of a memory did.
type ChangeKind string

// Change kinds.
const (
	ChangeCreated    ChangeKind = "created"
	ChangeUpdated    ChangeKind = "updated"
	ChangeSuperseded ChangeKind = "superseded" // replaced by another memory (SupersededBy)
	ChangeRetired    ChangeKind = "retired"    // removed with a reason (a dream's retire), restorable
	ChangeRestored   ChangeKind = "restored"   // an earlier version put back (RestoredFrom)
)

// Actor kinds: who made a change.
const (
	ByManual     = "manual"     // a person or a program through the API, the CLI, the console or MCP
	ByExtraction = "extraction" // an extraction run (RunID)
	ByDream      = "dream"      // a Deep Dream (DreamID, Citations)
	BySystem     = "system"     // the service itself (a dream's plan replayed or reverted)
)

// MaxNoteBytes bounds the note a change may carry.
const MaxNoteBytes = 500

// MaxCitations bounds the citations of one change.
const MaxCitations = 50

// ChangeBy says who made a change to a memory and why.
type ChangeBy struct {
	// Kind is ByManual, ByExtraction, ByDream or BySystem.
	Kind string `json:"kind" dynamo:"kind"`
	// RunID is the extraction run (or the runId a manual write carried).
	RunID string `json:"runId,omitempty" dynamo:"runId,omitempty"`
	// DreamID is the dream that made the change.
	DreamID string `json:"dreamId,omitempty" dynamo:"dreamId,omitempty"`
	// Principal is the caller's identity as API Gateway's IAM authorizer
	// reports it (a role or user ARN), when known.
	Principal string `json:"principal,omitempty" dynamo:"principal,omitempty"`
	// Citations are the ids (memories, daily records) that support a
	// dream's change.
	Citations []string `json:"citations,omitempty" dynamo:"citations,omitempty"`
	// Note says why, in a sentence.
	Note string `json:"note,omitempty" dynamo:"note,omitempty"`
}

// Validate checks the sizes of a change's description.
func (b ChangeBy) Validate() error {
	switch b.Kind {
	case ByManual, ByExtraction, ByDream, BySystem:
	default:
		return Errorf(EInvalid, "change kind %q is not %s, %s, %s or %s", b.Kind, ByManual, ByExtraction, ByDream, BySystem)
	}
	if err := validateText("note", b.Note, MaxNoteBytes, false); err != nil {
		return err
	}
	if len(b.Citations) > MaxCitations {
		return Errorf(EInvalid, "at most %d citations, got %d", MaxCitations, len(b.Citations))
	}
	return nil
}

// DefaultHistoryLimit and MaxHistoryLimit are the page sizes of a
// memory's history (GET .../memories/{id}/history).
const (
	DefaultHistoryLimit = 50
	MaxHistoryLimit     = 100
)

// Memory states: where a memory is now.
const (
	StateLive       = "live"       // one of the scope's memories
	StateSuperseded = "superseded" // replaced by SupersededBy
	StateRetired    = "retired"    // retired by a dream (or a person), restorable
)

// MemoryVersion is one version of a memory in its history.
type MemoryVersion struct {
	Version int        `json:"version" dynamo:"version"`
	Change  ChangeKind `json:"change" dynamo:"change"`
	// At is when the version was written (TimeLayout).
	At string   `json:"at" dynamo:"at"`
	By ChangeBy `json:"by" dynamo:"by"`
	// Changed names the fields that differ from the version before
	// (content, type, rationale, status, trigger, context, solution,
	// confidence, tags, pinned).
	Changed []string `json:"changed,omitempty" dynamo:"changed,omitempty"`
	// RestoredFrom is the version a restore put back.
	RestoredFrom int `json:"restoredFrom,omitempty" dynamo:"restoredFrom,omitempty"`
	// SupersededBy is the memory that replaced this one (change
	// superseded).
	SupersededBy string `json:"supersededBy,omitempty" dynamo:"supersededBy,omitempty"`
	// Memory is the memory as of this version (never its vector).
	Memory Memory `json:"memory" dynamo:"memory"`
}

// MemoryHistory is the answer of GET .../memories/{id}/history: the
// memory's versions, newest first.
type MemoryHistory struct {
	ID        string `json:"id"`
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
	// State is StateLive, StateSuperseded or StateRetired.
	State string `json:"state"`
	// SupersededBy is the memory that replaced this one.
	SupersededBy string `json:"supersededBy,omitempty"`
	// Current is the memory's current version number.
	Current    int             `json:"current"`
	Versions   []MemoryVersion `json:"versions"`
	NextCursor string          `json:"nextCursor,omitempty"`
}

// MemoryPatch is the body of PATCH .../memories/{id}: the version the
// caller read (required; optimistic concurrency: another version is 409
// conflict) and the fields to change. A field left out is unchanged; an
// empty string clears an optional text field, an empty list the tags.
// Changing the type drops the typed fields the new type does not take
// (the version before keeps them in the history). Note says why, for the
// history.
type MemoryPatch struct {
	Version    *int      `json:"version"`
	Content    *string   `json:"content,omitempty"`
	Type       *Type     `json:"type,omitempty"`
	Rationale  *string   `json:"rationale,omitempty"`
	Status     *string   `json:"status,omitempty"`
	Trigger    *string   `json:"trigger,omitempty"`
	Context    *string   `json:"context,omitempty"`
	Solution   *string   `json:"solution,omitempty"`
	Confidence *float64  `json:"confidence,omitempty"`
	Tags       *[]string `json:"tags,omitempty"`
	Pinned     *bool     `json:"pinned,omitempty"`
	Note       string    `json:"note,omitempty"`
}

// Empty reports whether p changes no field.
func (p MemoryPatch) Empty() bool {
	return p.Content == nil && p.Type == nil && p.Rationale == nil && p.Status == nil && p.Trigger == nil &&
		p.Context == nil && p.Solution == nil && p.Confidence == nil && p.Tags == nil && p.Pinned == nil
}

// Check validates what p can be checked for on its own: the version is
// given and positive, something changes, the note fits.
func (p MemoryPatch) Check() error {
	switch {
	case p.Version == nil:
		return Errorf(EInvalid, "version is required: the version of the memory you read (GET .../memories/{id} answers it), so that an edit made since is not overwritten")
	case *p.Version < 1:
		return Errorf(EInvalid, "version must be 1 or more")
	case p.Empty():
		return Errorf(EInvalid, "nothing to change: give at least one of content, type, rationale, status, trigger, context, solution, confidence, tags, pinned")
	}
	return validateText("note", p.Note, MaxNoteBytes, false)
}

// Apply returns m with p applied, normalized and valid by the memory
// rules, and the names of the fields that changed (none: p changes
// nothing that m does not already say).
func (p MemoryPatch) Apply(m Memory) (Memory, []string, error) {
	in := MemoryInput{
		ProjectID: m.ProjectID, Content: m.Content, Type: m.Type,
		Rationale: m.Rationale, Status: m.Status, Trigger: m.Trigger, Context: m.Context, Solution: m.Solution,
		Confidence: m.Confidence, Tags: m.Tags, Pinned: m.Pinned, RunID: m.RunID,
	}
	if in.Type == "" {
		in.Type = TypeNote
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	if p.Type != nil && *p.Type != in.Type {
		in.Type = *p.Type
		// The fields of the old type do not carry over.
		if in.Type != TypeDecision {
			in.Rationale = ""
		}
		if in.Type != TypeBlocker {
			in.Status = ""
		}
		if in.Type != TypePattern {
			in.Trigger, in.Context, in.Solution, in.Confidence = "", "", "", nil
		}
	}
	set(&in.Content, p.Content)
	set(&in.Rationale, p.Rationale)
	set(&in.Status, p.Status)
	set(&in.Trigger, p.Trigger)
	set(&in.Context, p.Context)
	set(&in.Solution, p.Solution)
	if p.Confidence != nil {
		c := *p.Confidence
		in.Confidence = &c
	}
	if p.Tags != nil {
		in.Tags = slices.Clone(*p.Tags)
		if len(in.Tags) == 0 {
			in.Tags = nil
		}
	}
	if p.Pinned != nil {
		in.Pinned = *p.Pinned
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		return m, nil, err
	}
	out := m
	out.Content, out.Type = in.Content, in.Type
	out.Rationale, out.Status, out.Trigger, out.Context, out.Solution = in.Rationale, in.Status, in.Trigger, in.Context, in.Solution
	out.Confidence, out.Tags, out.Pinned = in.Confidence, in.Tags, in.Pinned
	return out, ChangedFields(m, out), nil
}

// ChangedFields names the editable fields in which b differs from a.
func ChangedFields(a, b Memory) []string {
	var out []string
	if a.Content != b.Content {
		out = append(out, "content")
	}
	if typeOrNote(a.Type) != typeOrNote(b.Type) {
		out = append(out, "type")
	}
	for _, f := range []struct {
		name string
		a, b string
	}{{"rationale", a.Rationale, b.Rationale}, {"status", a.Status, b.Status}, {"trigger", a.Trigger, b.Trigger},
		{"context", a.Context, b.Context}, {"solution", a.Solution, b.Solution}} {
		if f.a != f.b {
			out = append(out, f.name)
		}
	}
	if (a.Confidence == nil) != (b.Confidence == nil) || a.Confidence != nil && *a.Confidence != *b.Confidence {
		out = append(out, "confidence")
	}
	if !slices.Equal(a.Tags, b.Tags) {
		out = append(out, "tags")
	}
	if a.Pinned != b.Pinned {
		out = append(out, "pinned")
	}
	return out
}

func typeOrNote(t Type) Type {
	if t == "" {
		return TypeNote
	}
	return t
}

// RestoreInput is the (optional) body of POST
// .../memories/{id}/history/{version}/restore: the memory's current
// version as the caller read it (when given, another one is 409 conflict)
// and a note for the history.
type RestoreInput struct {
	Version *int   `json:"version,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Validate checks the input.
func (in RestoreInput) Validate() error {
	if in.Version != nil && *in.Version < 1 {
		return Errorf(EInvalid, "version must be 1 or more")
	}
	return validateText("note", strings.TrimSpace(in.Note), MaxNoteBytes, false)
}
