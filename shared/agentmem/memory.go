package agentmem

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on what callers may store. They bound item sizes well under
// DynamoDB's 400 KB and keep MEMORY.md small enough to inject.
const (
	MaxContentBytes  = 8 << 10  // one memory's content
	MaxFieldBytes    = 2 << 10  // rationale, trigger, context, solution
	MaxBodyBytes     = 64 << 10 // one request body
	MaxTags          = 20       // tags per memory
	MaxTagLen        = 64       // bytes per tag
	MaxListLimit     = 50       // memories per page (seed cap)
	DefaultListLimit = 50
)

// Type classifies a memory. The zero value is treated as TypeNote.
type Type string

// Memory types (BRIEF §3, seed 004).
const (
	TypeNote     Type = "note"
	TypeLearning Type = "learning"
	TypeFinding  Type = "finding"
	TypeDecision Type = "decision"
	TypeBlocker  Type = "blocker"
	TypePattern  Type = "pattern"
	TypeSession  Type = "session"
)

// Types lists every memory type in the order MEMORY.md renders them.
var Types = []Type{TypePattern, TypeDecision, TypeBlocker, TypeFinding, TypeLearning, TypeNote, TypeSession}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool {
	for _, v := range Types {
		if t == v {
			return true
		}
	}
	return false
}

// Source tells who wrote a memory.
type Source string

// Memory sources (seed 000).
const (
	SourceExtraction Source = "extraction"
	SourceManual     Source = "manual"
	SourceSystem     Source = "system"
)

// Sources lists every memory source.
var Sources = []Source{SourceExtraction, SourceManual, SourceSystem}

// Valid reports whether s is one of Sources.
func (s Source) Valid() bool {
	for _, v := range Sources {
		if s == v {
			return true
		}
	}
	return false
}

// Blocker statuses.
const (
	StatusOpen     = "open"
	StatusResolved = "resolved"
)

// Memory is one long-term (core) memory of an agent in a project.
type Memory struct {
	ID        string `json:"id" dynamo:"id" index:"id-index,hash"`
	AgentName string `json:"agentName" dynamo:"agentName"`
	ProjectID string `json:"projectId" dynamo:"projectId"`
	Content   string `json:"content" dynamo:"content"`
	Type      Type   `json:"type" dynamo:"type"`
	Source    Source `json:"source" dynamo:"source"`
	// CreatedAt is the sort key: RFC 3339 UTC with nanoseconds, fixed
	// width so that string order is time order. Unique per scope.
	CreatedAt string `json:"createdAt" dynamo:"createdAt,range"`

	Rationale  string   `json:"rationale,omitempty" dynamo:"rationale,omitempty"`   // decision
	Status     string   `json:"status,omitempty" dynamo:"status,omitempty"`         // blocker
	Trigger    string   `json:"trigger,omitempty" dynamo:"trigger,omitempty"`       // pattern
	Context    string   `json:"context,omitempty" dynamo:"context,omitempty"`       // pattern
	Solution   string   `json:"solution,omitempty" dynamo:"solution,omitempty"`     // pattern
	Confidence *float64 `json:"confidence,omitempty" dynamo:"confidence,omitempty"` // pattern, 0..1

	Tags           []string `json:"tags,omitempty" dynamo:"tags,omitempty"`
	Pinned         bool     `json:"pinned,omitempty" dynamo:"pinned,omitempty"`
	RunID          string   `json:"runId,omitempty" dynamo:"runId,omitempty"`
	LastAccessedAt string   `json:"lastAccessedAt,omitempty" dynamo:"lastAccessedAt,omitempty"`
	// SourceIDs records the memories a compressed or consolidated memory
	// was made from.
	SourceIDs []string `json:"sourceIds,omitempty" dynamo:"sourceIds,omitempty"`
	// Version is 1 when the memory is created and one more with each
	// change (an edit, a restore); its history keeps every version
	// (history.go). An edit sends the version it read.
	Version int `json:"version,omitempty" dynamo:"version,omitempty"`
	// UpdatedAt is when the current version was written (empty for a
	// memory never changed since it was created).
	UpdatedAt string `json:"updatedAt,omitempty" dynamo:"updatedAt,omitempty"`
	// Supersedes lists the memories this one replaced: they left the
	// scope and stay in their history.
	Supersedes []string `json:"supersedes,omitempty" dynamo:"supersedes,omitempty"`
	// State is StateSuperseded or StateRetired for a memory that left the
	// scope (as GET .../memories/{id} and listings with state= answer
	// it); empty for a live one.
	State string `json:"state,omitempty" dynamo:"-"`
	// SupersededBy is the memory that replaced a superseded one.
	SupersededBy string `json:"supersededBy,omitempty" dynamo:"-"`
	// Embedding is the memory's vector, stored compactly (see package
	// embeddings); never sent to API callers.
	Embedding []byte `json:"-" dynamo:"embedding,omitempty"`
}

// Scope is the partition key value of a memory: "agentName#projectId".
func Scope(agentName, projectID string) string { return agentName + "#" + projectID }

// TimeLayout is the layout of CreatedAt and every other stored timestamp.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// FormatTime renders t in TimeLayout (UTC).
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime parses any RFC 3339 timestamp, including TimeLayout.
func ParseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// MemoryInput is what a caller sends to create a memory. Fields that do not
// apply to the memory's type are rejected rather than silently dropped.
type MemoryInput struct {
	ProjectID  string   `json:"projectId"`
	Content    string   `json:"content"`
	Type       Type     `json:"type,omitempty"`
	Rationale  string   `json:"rationale,omitempty"`
	Status     string   `json:"status,omitempty"`
	Trigger    string   `json:"trigger,omitempty"`
	Context    string   `json:"context,omitempty"`
	Solution   string   `json:"solution,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Pinned     bool     `json:"pinned,omitempty"`
	RunID      string   `json:"runId,omitempty"`
	// ClientToken is an idempotency key (IdempotencyKey): a retry with
	// the same token and the same memory gets the first answer back.
	ClientToken string `json:"clientToken,omitempty"`
	// AllowDuplicate stores the memory even when the scope already holds
	// a repeat of it (otherwise the answer is that memory, 200, with
	// duplicate set).
	AllowDuplicate bool `json:"allowDuplicate,omitempty"`
	// Replaces is the id of a live memory of the scope that the new one
	// replaces: it leaves the scope and stays in its history, superseded.
	Replaces string `json:"replaces,omitempty"`
}

// Normalize fills defaults (type note, blocker status open, pattern
// confidence 0.5), writes every line terminator as "\n"
// (NormalizeLineBreaks) and trims surrounding white space. Call it before
// Validate.
func (in *MemoryInput) Normalize() {
	in.Content = normalizeText(in.Content)
	in.Rationale = normalizeText(in.Rationale)
	in.Trigger = normalizeText(in.Trigger)
	in.Context = normalizeText(in.Context)
	in.Solution = normalizeText(in.Solution)
	if in.Type == "" {
		in.Type = TypeNote
	}
	if in.Type == TypeBlocker && in.Status == "" {
		in.Status = StatusOpen
	}
	if in.Type == TypePattern && in.Confidence == nil {
		c := 0.5
		in.Confidence = &c
	}
}

// Validate checks the input against the rules of BRIEF §3. It returns an
// *Error with code EInvalid naming the first offending field.
func (in *MemoryInput) Validate() error {
	if err := ValidateProjectID(in.ProjectID); err != nil {
		return err
	}
	if err := validateText("content", in.Content, MaxContentBytes, true); err != nil {
		return err
	}
	if !in.Type.Valid() {
		return Errorf(EInvalid, "type %q is not one of %s", in.Type, typeList())
	}
	typed := []struct {
		name, value string
		allowed     bool
	}{
		{"rationale", in.Rationale, in.Type == TypeDecision},
		{"status", in.Status, in.Type == TypeBlocker},
		{"trigger", in.Trigger, in.Type == TypePattern},
		{"context", in.Context, in.Type == TypePattern},
		{"solution", in.Solution, in.Type == TypePattern},
	}
	for _, f := range typed {
		if f.value != "" && !f.allowed {
			return Errorf(EInvalid, "%s does not apply to a memory of type %q", f.name, in.Type)
		}
		if err := validateText(f.name, f.value, MaxFieldBytes, false); err != nil {
			return err
		}
	}
	if in.Confidence != nil && in.Type != TypePattern {
		return Errorf(EInvalid, "confidence does not apply to a memory of type %q", in.Type)
	}
	if in.Type == TypeBlocker && in.Status != StatusOpen && in.Status != StatusResolved {
		return Errorf(EInvalid, "status must be %q or %q", StatusOpen, StatusResolved)
	}
	if c := in.Confidence; c != nil && !(*c >= 0 && *c <= 1) {
		return Errorf(EInvalid, "confidence must be between 0 and 1")
	}
	if err := ValidateTags(in.Tags); err != nil {
		return err
	}
	if in.RunID != "" {
		if err := ValidateRunID(in.RunID); err != nil {
			return err
		}
	}
	if in.Replaces != "" && !ValidID(in.Replaces) {
		return Errorf(EInvalid, "replaces %q is not a memory id (a ULID)", in.Replaces)
	}
	if in.ClientToken != "" {
		return ValidateIdempotencyKey(in.ClientToken)
	}
	return nil
}

// ValidID reports whether id has the shape of the ids the store assigns
// (memories, jobs): a ULID
// (26 characters of Crockford base32, upper case).
func ValidID(id string) bool {
	if len(id) != 26 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U') {
			return false
		}
	}
	return true
}

// Memory returns the memory the input describes, without id, scope
// timestamps or source; the store assigns those.
func (in *MemoryInput) Memory(agentName string, source Source) Memory {
	return Memory{
		AgentName:  agentName,
		ProjectID:  in.ProjectID,
		Content:    in.Content,
		Type:       in.Type,
		Source:     source,
		Rationale:  in.Rationale,
		Status:     in.Status,
		Trigger:    in.Trigger,
		Context:    in.Context,
		Solution:   in.Solution,
		Confidence: in.Confidence,
		Tags:       in.Tags,
		Pinned:     in.Pinned,
		RunID:      in.RunID,
	}
}

func validateText(field, s string, max int, required bool) error {
	if required && strings.TrimSpace(s) == "" {
		return Errorf(EInvalid, "%s is required and must not be blank", field)
	}
	if len(s) > max {
		return Errorf(EInvalid, "%s is %d bytes; the limit is %d", field, len(s), max)
	}
	if !utf8.ValidString(s) {
		return Errorf(EInvalid, "%s is not valid UTF-8", field)
	}
	if strings.ContainsRune(s, 0) {
		return Errorf(EInvalid, "%s contains a NUL character", field)
	}
	return nil
}

func typeList() string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}
