package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "admin", Group: GroupOther,
		Summary:     "operators' commands: recount the memory counters",
		Description: `Commands for operators, on routes no agent task role is granted.`,
		Examples: []string{
			"agentmem admin recount --agent nori --project checkout-service",
			"agentmem admin recount",
		},
		Subcommands: []*Command{{
			Name: "recount", Needs: NeedsAgentProject, Shorthand: ShorthandAlone, ScopeOptional: true,
			Summary:     "rebuild counters from the memories and report the drift repaired",
			Description: `Every write keeps a scope's counters (what agentmem stats shows) in the same transaction as its memories, so they should never drift; this rebuilds them from the memories themselves and says whether they had drifted and by how much. With --agent and --project: that scope. Without them: every scope the stats list (agentmem stats), one after the other, printing those that had drifted and a summary (AGENTMEM_AGENT and AGENTMEM_PROJECT are not read here). It is safe while agents write. Exit status 0 whether or not there was drift; 1 when a recount failed.`,
			Examples: []string{
				"agentmem admin recount --agent nori --project checkout-service",
				"agentmem admin recount",
				"agentmem admin recount --json | jq 'select(.drifted)'",
				"agentmem admin recount checkout-service nori    # the shorthand",
			},
			New: func() Runner { return &recountCommand{} },
		}},
	})
}

type recountCommand struct{ json bool }

func (c *recountCommand) Flags(fs *flag.FlagSet) {
	JSONFlag(fs, &c.json)
}

func (c *recountCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	if scope != (Scope{}) {
		r, err := client.Recount(ctx, scope.Agent, scope.Project)
		if err != nil {
			return err
		}
		if c.json {
			return writeJSON(in.Stdout, r)
		}
		in.Printf("%s\n", describeRecount(r))
		return nil
	}
	return c.all(ctx, in, client)
}

// all recounts every scope the stats list, page by page.
func (c *recountCommand) all(ctx context.Context, in *Invocation, client *apiclient.Client) error {
	scopes, drifted := 0, 0
	for cursor, first := "", true; first || cursor != ""; first = false {
		page, err := client.GetAllStats(ctx, in.scopesPage(), cursor)
		if err != nil {
			return err
		}
		for _, s := range page.Scopes {
			r, err := client.Recount(ctx, s.AgentName, s.ProjectID)
			if err != nil {
				return fmt.Errorf("recount %s in %s (after %d scopes): %w", s.AgentName, s.ProjectID, scopes, err)
			}
			scopes++
			if c.json {
				if err := writeJSON(in.Stdout, r); err != nil {
					return err
				}
				continue
			}
			if r.Drifted {
				drifted++
				in.Printf("%s\n", describeRecount(r))
			}
		}
		cursor = page.NextCursor
	}
	if !c.json {
		in.Printf("recounted %d scope%s: %d had drifted and %s repaired\n", scopes, plural(scopes), drifted, map[bool]string{true: "was", false: "were"}[drifted == 1])
	}
	return nil
}

// describeRecount says what a recount found, in one line.
func describeRecount(r agentmem.Recount) string {
	head := fmt.Sprintf("%s in %s: %d memor%s (%s)", r.AgentName, r.ProjectID, r.After.Total, pluralY(int(r.After.Total)), humanBytes(r.After.Bytes))
	if !r.Drifted {
		return head + ", counters exact"
	}
	var parts []string
	signed := func(n int64) string { return fmt.Sprintf("%+d", n) }
	if r.Drift.Total != 0 {
		parts = append(parts, "memories "+signed(r.Drift.Total))
	}
	if r.Drift.Bytes != 0 {
		parts = append(parts, "bytes "+signed(r.Drift.Bytes))
	}
	for _, t := range agentmem.Types {
		if n := r.Drift.ByType[t]; n != 0 {
			parts = append(parts, string(t)+" "+signed(n))
		}
	}
	sources := make([]string, 0, len(r.Drift.BySource))
	for src, n := range r.Drift.BySource {
		if n != 0 {
			sources = append(sources, string(src))
		}
	}
	slices.Sort(sources)
	for _, src := range sources {
		parts = append(parts, src+" "+signed(r.Drift.BySource[agentmem.Source(src)]))
	}
	if len(parts) == 0 {
		parts = append(parts, "per-slot counts only")
	}
	return head + ", drift repaired: " + strings.Join(parts, ", ")
}
