package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/markdown"
)

func init() {
	Register(&Command{
		Name: "search", Args: "<query...>", Group: GroupSearch, Needs: NeedsAgentProject, Shorthand: ShorthandFirst,
		Summary:     "search the agent's memories in a project, best match first, with scores",
		Description: `Ranks the agent's memories in the project against the query: lexically (BM25 over the content and typed fields, code identifiers split), semantically when the server has an embeddings provider, or both fused (hybrid); the note on stderr says which. Scores compare within one search only. Each hit counts as an access for eviction (the least recently used memories go first).`,
		Examples: []string{
			"agentmem search --agent nori --project checkout-service webhook retries",
			"agentmem search --agent nori --project checkout-service --type decision --limit 3 \"ORM\"",
			"AGENTMEM_AGENT=nori AGENTMEM_PROJECT=checkout-service agentmem search idempotency --json | jq -r '.results[].id'",
			"agentmem search checkout-service nori webhook retries    # the shorthand",
		},
		New: func() Runner { return &searchCommand{} },
	})
	Register(&Command{
		Name: "patterns", Group: GroupSearch, Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
		Summary:     "suggest the agent's high-confidence patterns relevant to a task",
		Description: `Patterns are memories of type pattern (trigger, context, solution, confidence) that extraction saves from successful runs; seeing a pattern again raises its confidence. This prints the patterns relevant to the task with a confidence above the threshold (the server's 0.7 unless --min-confidence), most relevant first: what agentmem inject --task adds to MEMORY.md as "## Suggested patterns".`,
		Examples: []string{
			`agentmem patterns --agent nori --project checkout-service --task "make the webhook handler idempotent"`,
			`agentmem patterns --agent nori --project checkout-service --task "add retries" --min-confidence 0.5 --json`,
			`agentmem patterns checkout-service nori --task "add retries"    # the shorthand`,
		},
		New: func() Runner { return &patternsCommand{} },
	})
}

type searchCommand struct {
	typ   string
	limit int
	out   OutputFlag
}

func (c *searchCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.typ, "type", "", "only memories of this `TYPE` (note, learning, finding, decision, blocker, pattern, session)")
	fs.IntVar(&c.limit, "limit", agentmem.DefaultSearchLimit, "at most `N` results (1 to 50)")
	c.out.Define(fs)
}

func (c *searchCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	query := strings.Join(strings.Fields(strings.Join(in.Args, " ")), " ")
	if query == "" {
		return Usagef("the query is missing: agentmem search --agent %s --project %s WORDS...", scope.Agent, scope.Project)
	}
	if len(query) > agentmem.MaxQueryBytes {
		return Usagef("the query is %d bytes; the limit is %d", len(query), agentmem.MaxQueryBytes)
	}
	t := agentmem.Type(c.typ)
	if t != "" && !t.Valid() {
		return Usagef("--type %q is not a memory type", c.typ)
	}
	if c.limit < 1 || c.limit > agentmem.MaxSearchLimit {
		return Usagef("--limit must be from 1 to %d", agentmem.MaxSearchLimit)
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	res, err := client.SearchMemories(ctx, scope.Agent, apiclient.SearchOptions{ProjectID: scope.Project, Query: query, Type: t, Limit: c.limit})
	if err != nil {
		return err
	}
	if asJSON {
		if res.Results == nil {
			res.Results = []agentmem.ScoredMemory{}
		}
		return writeJSON(in.Stdout, res)
	}
	in.Notef("%s search of %d memor%s: %d result%s", res.Mode, res.Searched, pluralY(res.Searched), len(res.Results), plural(len(res.Results)))
	if len(res.Results) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCORE\tID\tTYPE\tCONTENT")
	for _, m := range res.Results {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\n", m.Score, m.ID, m.Type, summaryLine(m.Memory, 72))
	}
	return tw.Flush()
}

type patternsCommand struct {
	task    string
	minConf float64
	limit   int
	out     OutputFlag
}

func (c *patternsCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.task, "task", "", "the task description (`TEXT`)")
	fs.Float64Var(&c.minConf, "min-confidence", 0, "only patterns with a confidence above `X` (0 to 1; default the server's, 0.7)")
	fs.IntVar(&c.limit, "limit", 0, "at most `N` patterns (default 5)")
	c.out.Define(fs)
}

func (c *patternsCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	t := strings.Join(strings.Fields(c.task), " ")
	switch {
	case t == "":
		return Usagef("--task is required: the task to suggest patterns for")
	case len(t) > agentmem.MaxQueryBytes:
		return Usagef("--task is %d bytes; the limit is %d", len(t), agentmem.MaxQueryBytes)
	case c.minConf < 0 || c.minConf > 1:
		return Usagef("--min-confidence must be from 0 to 1")
	case c.limit < 0 || c.limit > agentmem.MaxSearchLimit:
		return Usagef("--limit must be from 1 to %d", agentmem.MaxSearchLimit)
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	res, err := client.SuggestPatterns(ctx, scope.Agent, scope.Project, t, c.minConf, c.limit)
	if err != nil {
		return err
	}
	if asJSON {
		if res.Patterns == nil {
			res.Patterns = []agentmem.ScoredMemory{}
		}
		return writeJSON(in.Stdout, res)
	}
	if len(res.Patterns) == 0 {
		in.Notef("no pattern of %s in %s with a confidence above %.2f matches the task", scope.Agent, scope.Project, res.MinConfidence)
		return nil
	}
	in.Printf("%d pattern%s for %q (confidence above %.2f), most relevant first:\n\n", len(res.Patterns), plural(len(res.Patterns)), t, res.MinConfidence)
	for _, m := range res.Patterns {
		in.Printf("- %s\n  Score: %.3f, id %s\n", markdown.Bullet(m.Memory), m.Score, m.ID)
	}
	return nil
}
