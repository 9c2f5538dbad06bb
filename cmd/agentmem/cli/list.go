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
		Name: "list", Args: "<project> <agent>", Group: GroupMemories,
		Summary:     "list memories, newest first, with their ids",
		Description: `Lists the newest memories (50 unless --limit; --all for every one) with id, creation time (UTC), type, source and the first line of the content. The ids are what agentmem rm takes.`,
		Examples: []string{
			"agentmem list checkout-service nori",
			"agentmem list checkout-service nori --type decision --all",
			"agentmem list checkout-service nori --json | jq -r '.memories[].id'",
		},
		Setup: func(fs *flag.FlagSet) Runner {
			typ := fs.String("type", "", "only memories of this `TYPE` (note, learning, finding, decision, blocker, pattern, session)")
			limit := fs.Int("limit", agentmem.DefaultListLimit, "at most `N` memories")
			all := fs.Bool("all", false, "every memory, however many")
			asJSON := JSONFlag(fs)
			return func(ctx context.Context, in *Invocation) error {
				project, agent, err := in.ProjectAgent(0)
				if err != nil {
					return err
				}
				t := agentmem.Type(*typ)
				if t != "" && !t.Valid() {
					return Usagef("--type %q is not a memory type", *typ)
				}
				if *limit < 1 {
					return Usagef("--limit must be at least 1")
				}
				c, err := in.Client(ctx)
				if err != nil {
					return err
				}
				memories, more := []agentmem.Memory{}, false
				opt := apiclient.ListOptions{ProjectID: project, Type: t}
				if *all {
					if memories, err = c.AllMemories(ctx, agent, opt); err != nil {
						return err
					}
				}
				for !*all && len(memories) < *limit {
					opt.Limit = min(*limit-len(memories), agentmem.MaxListLimit)
					page, err := c.ListMemories(ctx, agent, opt)
					if err != nil {
						return err
					}
					memories = append(memories, page.Memories...)
					if page.NextCursor == "" || len(page.Memories) == 0 {
						break
					}
					opt.Cursor, more = page.NextCursor, len(memories) >= *limit
				}
				if memories == nil {
					memories = []agentmem.Memory{}
				}
				if *asJSON {
					return writeJSON(in.Stdout, struct {
						Memories []agentmem.Memory `json:"memories"`
						More     bool              `json:"more"`
					}{memories, more})
				}
				if len(memories) == 0 {
					in.Notef("no memories for %s in %s", agent, project)
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
		},
	})
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
