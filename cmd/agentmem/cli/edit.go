package cli

import (
	"context"
	"flag"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func init() {
	Register(&Command{
		Name: "edit", Args: "ID [TEXT...]", Group: GroupMemories, Needs: NeedsAgent,
		Summary: "change a memory in place (content, type, fields, tags, pin); its history keeps every version",
		Description: `Changes the memory ID as its next version: the words after the id are the new content ("-" reads it from standard input), and the flags change the rest. The memory keeps its id and age; agentmem history ID lists its versions and agentmem restore ID VERSION puts one back.

The edit applies to the version you read: --version N, or by default the current version, read just before. When someone changed the memory since, the API refuses (conflict, exit 1) and nothing is lost: read it again and edit that.

Changing --type drops the fields the new type does not take (decision: --rationale; blocker: --status; pattern: --trigger, --context, --solution, --confidence); the version before keeps them.`,
		Examples: []string{
			`agentmem edit --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB "The CI runs on Node 20"`,
			`agentmem edit --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB --pin --note "keep through dreams"`,
			`agentmem edit --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB --status resolved --version 3`,
			`agentmem edit --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB --type decision --rationale "typed queries"`,
		},
		New: func() Runner { return &editCommand{} },
	})
}

// optString is a string flag that knows whether it was given (an empty
// value clears a field).
type optString struct {
	v   string
	set bool
}

func (o *optString) String() string { return o.v }

// Set implements flag.Value.
func (o *optString) Set(v string) error { o.v, o.set = v, true; return nil }

func (o *optString) ptr() *string {
	if !o.set {
		return nil
	}
	return &o.v
}

type editCommand struct {
	typ, confidence                               string
	rationale, status, trigger, context, solution optString
	tags                                          stringList
	noTags, pin, unpin, json                      bool
	version                                       int
	note                                          string
}

func (c *editCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.typ, "type", "", "the new `TYPE` (finding, decision, blocker, note, learning, pattern, session)")
	fs.Var(&c.rationale, "rationale", "decision: why (`WHY`; \"\" clears it)")
	fs.Var(&c.status, "status", "blocker: `STATUS`, open or resolved")
	fs.Var(&c.trigger, "trigger", "pattern: when to apply it (`TEXT`)")
	fs.Var(&c.context, "context", "pattern: where it applies (`TEXT`)")
	fs.Var(&c.solution, "solution", "pattern: what works (`TEXT`)")
	fs.StringVar(&c.confidence, "confidence", "", "pattern: how sure, `0..1`")
	fs.Var(&c.tags, "tag", "a `TAG`; the tags given replace the memory's (repeatable)")
	fs.BoolVar(&c.noTags, "no-tags", false, "remove every tag")
	fs.BoolVar(&c.pin, "pin", false, "pin the memory (kept by Deep Dream, forget and eviction)")
	fs.BoolVar(&c.unpin, "unpin", false, "unpin the memory")
	fs.IntVar(&c.version, "version", 0, "the version `N` you read (default: the current one, read first)")
	fs.StringVar(&c.note, "note", "", "why (`WHY`), kept in the memory's history")
	JSONFlag(fs, &c.json)
}

func (c *editCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if len(in.Args) == 0 {
		return Usagef("expected agentmem edit %s ID [TEXT...]", in.Command.flagSynopsis())
	}
	id := in.Args[0]
	if !agentmem.ValidID(id) {
		return Usagef("%q is not a memory id (agentmem list shows them)", id)
	}
	p := agentmem.MemoryPatch{Rationale: c.rationale.ptr(), Status: c.status.ptr(), Trigger: c.trigger.ptr(), Context: c.context.ptr(),
		Solution: c.solution.ptr(), Note: strings.TrimSpace(c.note)}
	if len(in.Args) > 1 {
		text, err := textArg(in, in.Args[1:], "content")
		if err != nil {
			return err
		}
		p.Content = &text
	}
	if c.typ != "" {
		t := agentmem.Type(strings.ToLower(c.typ))
		if !t.Valid() {
			return Usagef("--type %q is not a memory type", c.typ)
		}
		p.Type = &t
	}
	if c.confidence != "" {
		f, err := strconv.ParseFloat(c.confidence, 64)
		if err != nil || f < 0 || f > 1 {
			return Usagef("--confidence must be a number from 0 to 1")
		}
		p.Confidence = &f
	}
	switch {
	case c.noTags && len(c.tags) > 0:
		return Usagef("--tag and --no-tags do not go together")
	case c.noTags:
		p.Tags = &[]string{}
	case len(c.tags) > 0:
		tags := []string(c.tags)
		p.Tags = &tags
	}
	switch {
	case c.pin && c.unpin:
		return Usagef("--pin and --unpin do not go together")
	case c.pin:
		p.Pinned = ptrTo(true)
	case c.unpin:
		p.Pinned = ptrTo(false)
	}
	if p.Empty() {
		return Usagef("nothing to change: give the new content or a flag (--type, --rationale, --status, --tag, --pin, ...)")
	}
	if c.version < 0 {
		return Usagef("--version must be 1 or more")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	version := c.version
	if version == 0 {
		cur, err := client.GetMemory(ctx, scope.Agent, id)
		if err != nil {
			return err
		}
		version = cur.Version
	}
	p.Version = &version
	m, err := client.UpdateMemory(ctx, scope.Agent, id, p)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, m)
	}
	if m.Version == version {
		in.Printf("%s already says that: nothing changed (version %d)\n", id, m.Version)
		return nil
	}
	in.Printf("edited %s: version %d (agentmem history %s lists the versions)\n", id, m.Version, id)
	return nil
}

func ptrTo[T any](v T) *T { return &v }
