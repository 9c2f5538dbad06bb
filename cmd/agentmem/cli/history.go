package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func init() {
	Register(&Command{
		Name: "history", Args: "ID", Group: GroupMemories, Needs: NeedsAgent,
		Summary:     "a memory's versions, newest first: what changed, who changed it, and the text of each",
		Description: `Lists the versions of the memory ID, newest first: the version number, when, what happened (created, updated, superseded by another memory, retired by a dream, restored from an earlier version), who (manual with the caller's identity, an extraction run, a dream) with the note, the fields that changed, and the memory as it was. Works for memories that another replaced or a dream retired (they are out of the lists and MEMORY.md, not gone); agentmem restore ID VERSION puts a version back. --json prints the API's answer.`,
		Examples: []string{
			"agentmem history --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB",
			"agentmem history --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB --json | jq '.versions[0].memory.content'",
		},
		New: func() Runner { return &historyCommand{} },
	})
	Register(&Command{
		Name: "restore", Args: "ID VERSION", Group: GroupMemories, Needs: NeedsAgent,
		Summary:     "put an earlier version of a memory back, or bring back a replaced or retired memory",
		Description: `Puts version VERSION of the memory ID back as its newest version (nothing is lost: the version it replaces stays in the history). A memory that another replaced, or that a dream retired, comes back into the scope with its id and age; the memory that replaced it stays (agentmem rm it to undo the replacement). --current N refuses when the memory is no longer at version N, unless this same restore moved it on (the command run again changes nothing).`,
		Examples: []string{
			"agentmem restore --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB 2",
			`agentmem restore --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB 1 --note "the dream was wrong"`,
		},
		New: func() Runner { return &restoreCommand{} },
	})
}

type historyCommand struct {
	limit int
	json  bool
}

func (c *historyCommand) Flags(fs *flag.FlagSet) {
	fs.IntVar(&c.limit, "limit", 50, "at most `N` versions (1..100)")
	JSONFlag(fs, &c.json)
}

func (c *historyCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if len(in.Args) != 1 {
		return Usagef("expected agentmem history %s ID", in.Command.flagSynopsis())
	}
	id := in.Args[0]
	if !agentmem.ValidID(id) {
		return Usagef("%q is not a memory id (agentmem list shows them)", id)
	}
	if c.limit < 1 || c.limit > 100 {
		return Usagef("--limit must be from 1 to 100")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	h, err := client.MemoryHistory(ctx, scope.Agent, id, c.limit, "")
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, h)
	}
	state := h.State
	if h.SupersededBy != "" {
		state += " by " + h.SupersededBy
	}
	in.Printf("memory %s (%s in %s): %s, version %d\n", h.ID, scope.Agent, h.ProjectID, state, h.Current)
	tw := tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tAT (UTC)\tCHANGE\tBY\tCONTENT")
	for _, v := range h.Versions {
		change := string(v.Change)
		switch {
		case v.RestoredFrom > 0:
			change += fmt.Sprintf(" (from %d)", v.RestoredFrom)
		case len(v.Changed) > 0:
			change += " (" + strings.Join(v.Changed, ", ") + ")"
		case v.SupersededBy != "":
			change += " by " + v.SupersededBy
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", v.Version, shortTime(v.At), change, byText(v.By), summaryLine(v.Memory, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if h.NextCursor != "" {
		in.Notef("older versions remain (--limit up to 100, or --json with the API's cursor)")
	}
	return nil
}

// byText renders who made a change, in a few words.
func byText(by agentmem.ChangeBy) string {
	s := by.Kind
	switch {
	case by.DreamID != "":
		s += " " + by.DreamID
	case by.RunID != "":
		s += " " + by.RunID
	}
	if by.Note != "" {
		s += ": " + oneLine(by.Note)
	}
	return s
}

type restoreCommand struct {
	current int
	note    string
	json    bool
}

func (c *restoreCommand) Flags(fs *flag.FlagSet) {
	fs.IntVar(&c.current, "current", 0, "refuse unless the memory is at version `N` now")
	fs.StringVar(&c.note, "note", "", "why (`WHY`), kept in the memory's history")
	JSONFlag(fs, &c.json)
}

func (c *restoreCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if len(in.Args) != 2 {
		return Usagef("expected agentmem restore %s ID VERSION", in.Command.flagSynopsis())
	}
	id := in.Args[0]
	if !agentmem.ValidID(id) {
		return Usagef("%q is not a memory id (agentmem list shows them)", id)
	}
	version, err := strconv.Atoi(in.Args[1])
	if err != nil || version < 1 {
		return Usagef("VERSION %q is not a version number (agentmem history %s lists them)", in.Args[1], id)
	}
	ri := agentmem.RestoreInput{Note: strings.TrimSpace(c.note)}
	if c.current != 0 {
		ri.Version = &c.current
	}
	if err := ri.Validate(); err != nil {
		return Usagef("%s", agentmem.ErrorMessage(err))
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	m, err := client.RestoreMemoryVersion(ctx, scope.Agent, id, version, ri)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, m)
	}
	in.Printf("restored version %d of %s: it is version %d now\n", version, id, m.Version)
	return nil
}
