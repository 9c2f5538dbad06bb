package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func init() {
	Register(&Command{
		Name: "stats", Group: GroupSearch, Needs: NeedsAgentProject, Shorthand: ShorthandAlone, ScopeOptional: true,
		Summary:     "count memories and their size: one agent in a project, or every scope with totals",
		Description: `With --agent and --project: the scope's memories (total, stored bytes, by type, by source), its usage by scope (the agent's project memories, and the project's live session context, shared by its agents) and the eviction limit. Without them: the totals over every scope, then one line per scope, reading every page of scopes (--limit N stops after N). Here AGENTMEM_AGENT and AGENTMEM_PROJECT are not read, so that agentmem stats always means every scope.`,
		Examples: []string{
			"agentmem stats --agent nori --project checkout-service",
			"agentmem stats",
			"agentmem stats --json | jq '.totals.total'",
			"agentmem stats checkout-service nori    # the shorthand",
		},
		New: func() Runner { return &statsCommand{} },
	})
}

type statsCommand struct {
	limit  int
	cursor string
	out    OutputFlag
}

func (c *statsCommand) Flags(fs *flag.FlagSet) {
	fs.IntVar(&c.limit, "limit", 0, "every scope: list at most `N` scopes (default all)")
	fs.StringVar(&c.cursor, "cursor", "", "every scope: continue from the `CURSOR` a previous --limit listing ended with (nextCursor)")
	c.out.Define(fs)
}

func (c *statsCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	if scope == (Scope{}) {
		return allStats(ctx, in, c.limit, c.cursor, asJSON)
	}
	if in.IsSet("limit") || in.IsSet("cursor") {
		return Usagef("--limit and --cursor are for every scope (agentmem stats without --agent and --project)")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	s, err := client.GetStats(ctx, scope.Agent, scope.Project)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(in.Stdout, s)
	}
	writeStats(in.Stdout, s)
	return nil
}

func writeStats(w io.Writer, s agentmem.Stats) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "scope:\t%s in %s\n", s.AgentName, s.ProjectID)
	fmt.Fprintf(tw, "memories:\t%d (%s), limit %d (beyond it the least recently used are evicted)\n", s.Total, humanBytes(s.Bytes), s.Limit)
	fmt.Fprintf(tw, "by type:\t%s\n", byType(s.ByType))
	fmt.Fprintf(tw, "by source:\t%s\n", bySource(s.BySource))
	ss := s.ByScope.Session
	fmt.Fprintf(tw, "by scope:\tproject %d memor%s (%s); session context of %s: %d key%s in %d live session%s (%s)\n",
		s.ByScope.Project.Total, pluralY(int(s.ByScope.Project.Total)), humanBytes(s.ByScope.Project.Bytes),
		s.ProjectID, ss.Total, plural(int(ss.Total)), ss.Sessions, plural(ss.Sessions), humanBytes(ss.Bytes))
	if s.ChangedAt != "" {
		fmt.Fprintf(tw, "changed:\t%s UTC\n", shortTime(s.ChangedAt))
	}
	_ = tw.Flush()
}

// scopesPage is how many scopes a command asks the stats route for per
// page: the API's maximum, unless Env.ScopesPage lowers it.
func (in *Invocation) scopesPage() int {
	if in.ScopesPage > 0 {
		return in.ScopesPage
	}
	return agentmem.MaxScopesPage
}

// allStats prints the totals and every scope from cursor on (at most
// limit, 0: all).
func allStats(ctx context.Context, in *Invocation, limit int, cursor string, asJSON bool) error {
	if limit < 0 {
		return Usagef("--limit must be at least 1")
	}
	c, err := in.Client(ctx)
	if err != nil {
		return err
	}
	var out agentmem.AllStats
	out.Scopes = []agentmem.ScopeCounts{}
	more := false
	for first := true; first || cursor != ""; first = false {
		n := in.scopesPage()
		if limit > 0 {
			n = min(limit-len(out.Scopes), n)
		}
		page, err := c.GetAllStats(ctx, n, cursor)
		if err != nil {
			return err
		}
		if first {
			out.Totals = page.Totals
		}
		out.Scopes = append(out.Scopes, page.Scopes...)
		cursor = page.NextCursor
		if limit > 0 && len(out.Scopes) >= limit {
			more = cursor != ""
			out.NextCursor = cursor
			break
		}
	}
	if asJSON {
		return writeJSON(in.Stdout, struct {
			agentmem.AllStats
			More bool `json:"more"`
		}{out, more})
	}
	t := out.Totals
	tw := tabwriter.NewWriter(in.Stdout, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "scopes:\t%d\n", t.Scopes)
	fmt.Fprintf(tw, "memories:\t%d (%s)\n", t.Total, humanBytes(t.Bytes))
	fmt.Fprintf(tw, "by type:\t%s\n", byType(t.ByType))
	fmt.Fprintf(tw, "by source:\t%s\n", bySource(t.BySource))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(out.Scopes) == 0 {
		return nil
	}
	in.Printf("\n")
	tw = tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tPROJECT\tMEMORIES\tSIZE\tCHANGED (UTC)")
	for _, s := range out.Scopes {
		changed := s.ChangedAt
		if changed == "" {
			changed = s.UpdatedAt
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", s.AgentName, s.ProjectID, s.Total, humanBytes(s.Bytes), shortTime(changed))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if more {
		in.Notef("showing %d scopes; more remain: --cursor %s continues, no --limit lists every one", len(out.Scopes), out.NextCursor)
	}
	return nil
}

// byType lists the counts in the order of agentmem.Types, skipping zeros.
func byType(m map[agentmem.Type]int64) string {
	var parts []string
	for _, t := range agentmem.Types {
		if n := m[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", t, n))
		}
	}
	return orNone(parts)
}

// bySource lists the counts by source name.
func bySource(m map[agentmem.Source]int64) string {
	keys := make([]string, 0, len(m))
	for s, n := range m {
		if n > 0 {
			keys = append(keys, string(s))
		}
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[agentmem.Source(k)])
	}
	return orNone(parts)
}

func orNone(parts []string) string {
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// humanBytes renders a size: 512 B, 12.3 KiB, 4.0 MiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
