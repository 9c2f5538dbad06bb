package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "list", Group: GroupMemories, Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
		Summary:     "list memories, newest first, with their ids",
		Description: `Lists the newest memories (50 unless --limit; --all for every one) with id, creation time (UTC), type, source and the first line of the content. The ids are what agentmem rm takes.`,
		Examples: []string{
			"agentmem list --agent nori --project checkout-service",
			"agentmem list --agent nori --project checkout-service --type decision --all",
			"AGENTMEM_AGENT=nori AGENTMEM_PROJECT=checkout-service agentmem list --json | jq -r '.memories[].id'",
			"agentmem list checkout-service nori    # the shorthand",
		},
		New: func() Runner { return &listCommand{} },
	})
}

type listCommand struct {
	typ       string
	limit     int
	all, json bool
}

func (c *listCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.typ, "type", "", "only memories of this `TYPE` (note, learning, finding, decision, blocker, pattern, session)")
	fs.IntVar(&c.limit, "limit", agentmem.DefaultListLimit, "at most `N` memories")
	fs.BoolVar(&c.all, "all", false, "every memory, however many")
	JSONFlag(fs, &c.json)
}

func (c *listCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	t := agentmem.Type(c.typ)
	if t != "" && !t.Valid() {
		return Usagef("--type %q is not a memory type", c.typ)
	}
	if c.limit < 1 {
		return Usagef("--limit must be at least 1")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	memories, more, err := c.read(ctx, client, scope, t)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, struct {
			Memories []agentmem.Memory `json:"memories"`
			More     bool              `json:"more"`
		}{memories, more})
	}
	if len(memories) == 0 {
		in.Notef("no memories for %s in %s", scope.Agent, scope.Project)
		return nil
	}
	tw := tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCREATED (UTC)\tTYPE\tSOURCE\tCONTENT")
	for _, m := range memories {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.ID, shortTime(m.CreatedAt), m.Type, m.Source, summaryLine(m, 72))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if more {
		in.Notef("showing the newest %d; older memories remain (--all, or --limit N)", len(memories))
	}
	return nil
}

// read returns the memories to list (never nil) and whether older ones
// remain.
func (c *listCommand) read(ctx context.Context, client *apiclient.Client, scope Scope, t agentmem.Type) ([]agentmem.Memory, bool, error) {
	opt := apiclient.ListOptions{ProjectID: scope.Project, Type: t}
	if c.all {
		memories, err := client.AllMemories(ctx, scope.Agent, opt)
		if memories == nil {
			memories = []agentmem.Memory{}
		}
		return memories, false, err
	}
	memories, more := []agentmem.Memory{}, false
	for len(memories) < c.limit {
		opt.Limit = min(c.limit-len(memories), agentmem.MaxListLimit)
		page, err := client.ListMemories(ctx, scope.Agent, opt)
		if err != nil {
			return nil, false, err
		}
		memories = append(memories, page.Memories...)
		if page.NextCursor == "" || len(page.Memories) == 0 {
			break
		}
		opt.Cursor, more = page.NextCursor, len(memories) >= c.limit
	}
	return memories, more, nil
}

func shortTime(createdAt string) string {
	t, err := agentmem.ParseTime(createdAt)
	if err != nil {
		return createdAt
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// summaryLine renders a memory on one line of at most width characters.
func summaryLine(m agentmem.Memory, width int) string {
	s := m.Content
	switch m.Type {
	case agentmem.TypeDecision:
		if m.Rationale != "" {
			s += " (why: " + m.Rationale + ")"
		}
	case agentmem.TypeBlocker:
		s = "[" + m.Status + "] " + s
	}
	if m.Pinned {
		s = "📌 " + s
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > width {
		r := []rune(s)
		s = string(r[:width-1]) + "…"
	}
	return s
}
