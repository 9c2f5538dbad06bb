package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools that change a long-term memory in place and read or restore its
// history (issue 11).
const (
	ToolUpdate  = "memory_update"
	ToolHistory = "memory_history"
	ToolRestore = "memory_restore"
)

// UpdateInput is the arguments of memory_update.
type UpdateInput struct {
	ID         string    `json:"id" jsonschema:"the memory's id (memory_search shows it)"`
	Version    int       `json:"version,omitempty" jsonschema:"the memory's version as you saw it (memory_search shows it); if it changed since, the update is refused so that nobody's change is lost. Leave out to edit the current version"`
	Content    *string   `json:"content,omitempty" jsonschema:"the new content, one self-contained statement"`
	Type       string    `json:"type,omitempty" jsonschema:"a new type; fields the new type does not take are dropped (the history keeps them)"`
	Rationale  *string   `json:"rationale,omitempty" jsonschema:"type decision: why (empty clears it)"`
	Status     *string   `json:"status,omitempty" jsonschema:"type blocker: open or resolved"`
	Trigger    *string   `json:"trigger,omitempty" jsonschema:"type pattern: when to apply it"`
	Context    *string   `json:"context,omitempty" jsonschema:"type pattern: prerequisites and where it applies"`
	Solution   *string   `json:"solution,omitempty" jsonschema:"type pattern: the approach that worked"`
	Confidence *float64  `json:"confidence,omitempty" jsonschema:"type pattern: how sure, from 0 to 1"`
	Tags       *[]string `json:"tags,omitempty" jsonschema:"the new labels (an empty list clears them)"`
	Pinned     *bool     `json:"pinned,omitempty" jsonschema:"pin (kept through forgetting, eviction and Deep Dream) or unpin"`
	Note       string    `json:"note,omitempty" jsonschema:"why you change it, kept in the memory's history"`
}

// HistoryInput is the arguments of memory_history.
type HistoryInput struct {
	ID    string `json:"id" jsonschema:"the memory's id"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many versions, newest first"`
}

// RestoreInput is the arguments of memory_restore.
type RestoreInput struct {
	ID      string `json:"id" jsonschema:"the memory's id"`
	Version int    `json:"version" jsonschema:"the version to put back (memory_history lists them)"`
	Note    string `json:"note,omitempty" jsonschema:"why, kept in the memory's history"`
}

func (s *server) addHistoryTools(srv *mcp.Server) {
	closed := ptr(false)
	scope := fmt.Sprintf("agent %s in project %s", s.cfg.Agent, s.cfg.Project)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolUpdate,
		Title:       "Correct a memory",
		Description: fmt.Sprintf(`Change a long-term memory of %s in place when it is out of date or wrong (a version, command, path or decision changed): its content, type, typed fields, tags or pinned. The memory keeps its id and age, and its history keeps every earlier version (memory_history; memory_restore puts one back). Give only the fields that change. For a new, different fact use memory_store instead; to replace a memory by a new one, memory_store with replaces. Returns the memory at its new version.`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Correct a memory", DestructiveHint: ptr(false), OpenWorldHint: closed},
		InputSchema: inputSchema[UpdateInput](func(prop func(string) *jsonschema.Schema) {
			prop("id").Pattern = idPattern
			prop("version").Minimum = ptr(1.0)
			typed(prop("content"), "string").MaxLength = ptr(agentmem.MaxContentBytes)
			prop("type").Enum = enum(agentmem.Types...)
			for _, f := range []string{"rationale", "trigger", "context", "solution"} {
				typed(prop(f), "string").MaxLength = ptr(agentmem.MaxFieldBytes)
			}
			typed(prop("status"), "string").Enum = enum(agentmem.StatusOpen, agentmem.StatusResolved)
			c := typed(prop("confidence"), "number")
			c.Minimum, c.Maximum = ptr(0.0), ptr(1.0)
			tags := typed(prop("tags"), "array")
			tags.MaxItems = ptr(agentmem.MaxTags)
			typed(prop("pinned"), "boolean")
			prop("note").MaxLength = ptr(agentmem.MaxNoteBytes)
		}),
	}, handler(s, ToolUpdate, s.update))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolHistory,
		Title:       "A memory's history",
		Description: fmt.Sprintf(`The versions of a long-term memory of %s, newest first: each with what changed it (created, updated, superseded by another memory, retired by a dream, restored), who (manual, an extraction run, a dream) and the memory as it was. Works for memories that were superseded or retired too. Use it before memory_restore.`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "A memory's history", ReadOnlyHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[HistoryInput](func(prop func(string) *jsonschema.Schema) {
			prop("id").Pattern = idPattern
			l := prop("limit")
			l.Minimum, l.Maximum = ptr(1.0), ptr(100.0)
		}),
	}, handler(s, ToolHistory, s.history))

	mcp.AddTool(srv, &mcp.Tool{
		Name:        ToolRestore,
		Title:       "Restore a memory's version",
		Description: fmt.Sprintf(`Put an earlier version of a long-term memory of %s back (as its newest version; nothing is lost), or bring back a memory that another replaced or a dream retired. Use it when a change turned out wrong. Returns the memory as restored.`, scope),
		Annotations: &mcp.ToolAnnotations{Title: "Restore a memory's version", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: closed},
		InputSchema: inputSchema[RestoreInput](func(prop func(string) *jsonschema.Schema) {
			prop("id").Pattern = idPattern
			prop("version").Minimum = ptr(1.0)
			prop("note").MaxLength = ptr(agentmem.MaxNoteBytes)
		}),
	}, handler(s, ToolRestore, s.restore))
}

// idPattern is the shape of a memory id (a ULID).
const idPattern = `^[0-9A-HJKMNP-TV-Z]{26}$`

func checkID(tool, id string) error {
	if !agentmem.ValidID(id) {
		return invalidf(tool, "id %q is not a memory id (26 characters, as memory_search shows them)", id)
	}
	return nil
}

// conflict turns a version conflict into what the agent should do.
func conflict(tool, id string, err error) error {
	var apiErr *apiclient.Error
	if errors.As(err, &apiErr) && apiErr.Err.Code == agentmem.EConflict {
		return &toolError{cause: err, msg: fmt.Sprintf("%s: memory %s: %s. Read it again (memory_history) and apply your change to its current version.", tool, id, apiErr.Err.Message)}
	}
	return err
}

func (s *server) update(ctx context.Context, in UpdateInput) (string, error) {
	if err := checkID(ToolUpdate, in.ID); err != nil {
		return "", err
	}
	p := agentmem.MemoryPatch{Content: in.Content, Rationale: in.Rationale, Status: in.Status, Trigger: in.Trigger, Context: in.Context,
		Solution: in.Solution, Confidence: in.Confidence, Tags: in.Tags, Pinned: in.Pinned, Note: strings.TrimSpace(in.Note)}
	if in.Type != "" {
		t := agentmem.Type(in.Type)
		p.Type = &t
	}
	if p.Empty() {
		return "", invalidf(ToolUpdate, "nothing to change: give content, type, rationale, status, trigger, context, solution, confidence, tags or pinned")
	}
	version := in.Version
	if version == 0 {
		// The current version, from the history (a route the agent's
		// task role may call).
		h, err := s.api.MemoryHistory(ctx, s.cfg.Agent, in.ID, 1, "")
		if err != nil {
			return "", err
		}
		version = h.Current
	}
	p.Version = &version
	if err := p.Check(); err != nil {
		return "", invalidf(ToolUpdate, "%s", agentmem.ErrorMessage(err))
	}
	m, err := s.api.UpdateMemory(ctx, s.cfg.Agent, in.ID, p)
	if err != nil {
		return "", conflict(ToolUpdate, in.ID, err)
	}
	verb := fmt.Sprintf("Updated memory %s to version %d", m.ID, m.Version)
	if m.Version == version {
		verb = fmt.Sprintf("Memory %s already says that (version %d): nothing changed", m.ID, m.Version)
	}
	return fmt.Sprintf("%s; earlier versions stay in its history (memory_history).\n%s", verb, formatMemory(m, "")), nil
}

func (s *server) history(ctx context.Context, in HistoryInput) (string, error) {
	if err := checkID(ToolHistory, in.ID); err != nil {
		return "", err
	}
	h, err := s.api.MemoryHistory(ctx, s.cfg.Agent, in.ID, in.Limit, "")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Memory %s is %s at version %d", h.ID, h.State, h.Current)
	if h.SupersededBy != "" {
		fmt.Fprintf(&b, " (superseded by %s)", h.SupersededBy)
	}
	b.WriteString("; versions, newest first:")
	for _, v := range h.Versions {
		fmt.Fprintf(&b, "\n- version %d, %s %s by %s", v.Version, v.Change, v.At, describeBy(v.By))
		if len(v.Changed) > 0 {
			fmt.Fprintf(&b, " (changed %s)", strings.Join(v.Changed, ", "))
		}
		if v.RestoredFrom > 0 {
			fmt.Fprintf(&b, " (from version %d)", v.RestoredFrom)
		}
		fmt.Fprintf(&b, ": [%s] %s", v.Memory.Type, oneLine(v.Memory.Content))
	}
	if h.NextCursor != "" {
		b.WriteString("\n(older versions left out: raise limit)")
	}
	return b.String(), nil
}

// describeBy renders who made a change.
func describeBy(by agentmem.ChangeBy) string {
	out := by.Kind
	switch {
	case by.DreamID != "":
		out += " (dream " + by.DreamID + ")"
	case by.RunID != "":
		out += " (run " + by.RunID + ")"
	}
	if by.Note != "" {
		out += ": " + oneLine(by.Note)
	}
	return out
}

func (s *server) restore(ctx context.Context, in RestoreInput) (string, error) {
	if err := checkID(ToolRestore, in.ID); err != nil {
		return "", err
	}
	if in.Version < 1 {
		return "", invalidf(ToolRestore, "version must be 1 or more (memory_history lists them)")
	}
	ri := agentmem.RestoreInput{Note: strings.TrimSpace(in.Note)}
	if err := ri.Validate(); err != nil {
		return "", invalidf(ToolRestore, "%s", agentmem.ErrorMessage(err))
	}
	m, err := s.api.RestoreMemoryVersion(ctx, s.cfg.Agent, in.ID, in.Version, ri)
	if err != nil {
		return "", conflict(ToolRestore, in.ID, err)
	}
	return fmt.Sprintf("Restored version %d of memory %s: it is now version %d and in MEMORY.md again.\n%s", in.Version, m.ID, m.Version, formatMemory(m, "")), nil
}
