package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "dream", Group: GroupTiers,
		Summary:     "run a Deep Dream now, list the dream diary, show a day of it, or revert a dream",
		Description: `Deep Dream (seed 001) consolidates an agent's memories in a project with the daily log of the last days: the server's LLM rewrites the core memory from both, bullets the sources do not support are dropped (and listed in the diary), pinned and manual memories are kept as they are, and the prior core is kept so that the dream can be reverted. The schedule dreams every scope with new daily records each night; agentmem dream run dreams one now. The server needs an LLM (AGENTMEM_LLM; tools/fakellm stands in for one under make dev).`,
		Examples: []string{
			"agentmem dream run checkout-service nori",
			"agentmem dream show checkout-service nori",
			"agentmem dream revert checkout-service nori",
		},
		Subcommands: []*Command{
			{
				Name: "run", Args: "<project> <agent>",
				Summary:     "dream now: consolidate the daily log of the last days into the agent's memories",
				Description: `Asks the server to dream now. The dream is skipped (exit 0, with the reason) when the window has no daily records or nothing changed since the last dream; --force dreams anyway. A dream of the same scope already running answers "busy" (exit 1). The model's call takes seconds: the default --timeout is 30s, and a dream that outlives it may still finish on the server (agentmem dream ls shows it).`,
				Examples: []string{
					"agentmem dream run checkout-service nori",
					"agentmem dream run checkout-service nori --lookback-days 7 --keep-manual=false --force",
					"agentmem dream run checkout-service nori --json | jq .dream.dropped",
				},
				Setup: func(fs *flag.FlagSet) Runner {
					lookback := fs.Int("lookback-days", 0, "consolidate the daily records of the last `N` days (1 to 30; the server's default is 3)")
					keepManual := fs.Bool("keep-manual", true, "keep manual memories as they are (--keep-manual=false lets the dream rewrite them)")
					force := fs.Bool("force", false, "dream even when the daily records did not change since the last dream")
					compress := fs.Int("compress-after-days", 0, "compress memories older than `N` days into fewer (0: no compression; the server's default is 7)")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, agent, err := in.ProjectAgent(0)
						if err != nil {
							return err
						}
						body := agentmem.CreateDreamInput{ProjectID: project, Force: *force}
						if in.IsSet("lookback-days") {
							if *lookback < 1 {
								return Usagef("--lookback-days must be at least 1")
							}
							body.LookbackDays = lookback
						}
						if in.IsSet("keep-manual") {
							body.KeepManual = keepManual
						}
						if in.IsSet("compress-after-days") {
							if *compress < 0 {
								return Usagef("--compress-after-days must be 0 (no compression) or more")
							}
							body.CompressAfterDays = compress
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						in.Notef("dream: %s in %s: asking the server to dream (its LLM can take a while; --timeout is %s)", agent, project, in.Timeout())
						res, err := c.CreateDream(ctx, agent, body)
						if err != nil {
							if errors.Is(err, context.DeadlineExceeded) {
								return fmt.Errorf("%w (the dream may still finish on the server: agentmem dream ls %s %s)", err, project, agent)
							}
							return err
						}
						if *asJSON {
							return writeJSON(in.Stdout, res)
						}
						if res.RolledForward != "" {
							in.Notef("dream: first finished an interrupted dream (%s)", res.RolledForward)
						}
						if res.Status == agentmem.DreamStatusSkipped || res.Dream == nil {
							in.Printf("skipped: %s (--force dreams anyway)\n", res.Reason)
							return nil
						}
						d := res.Dream
						in.Printf("dreamed %s in %s: %s\n", agent, project, dreamChanges(*d))
						in.Printf("the diary: agentmem dream show %s %s --date %s\n", project, agent, d.Date)
						return nil
					}
				},
			},
			{
				Name: "ls", Args: "<project> <agent>",
				Summary:     "list the dream diary, newest first",
				Description: `Lists the diary's entries (dreams, failed dreams and reverts), newest first: 20 unless --limit, every one with --all.`,
				Examples: []string{
					"agentmem dream ls checkout-service nori",
					"agentmem dream ls checkout-service nori --all --json | jq -r '.dreams[] | select(.status==\"failed\") | .error'",
				},
				Setup: func(fs *flag.FlagSet) Runner {
					limit := fs.Int("limit", 20, "at most `N` entries")
					all := fs.Bool("all", false, "every entry, however many")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, agent, err := in.ProjectAgent(0)
						if err != nil {
							return err
						}
						if *limit < 1 {
							return Usagef("--limit must be at least 1")
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						dreams, more := []agentmem.Dream{}, false
						cursor := ""
						for *all || len(dreams) < *limit {
							n := agentmem.MaxListLimit
							if !*all {
								n = min(*limit-len(dreams), n)
							}
							page, err := c.ListDreams(ctx, agent, project, n, cursor)
							if err != nil {
								return err
							}
							dreams = append(dreams, page.Dreams...)
							if page.NextCursor == "" || len(page.Dreams) == 0 {
								break
							}
							cursor, more = page.NextCursor, !*all && len(dreams) >= *limit
						}
						if *asJSON {
							return writeJSON(in.Stdout, struct {
								Dreams []agentmem.Dream `json:"dreams"`
								More   bool             `json:"more"`
							}{dreams, more})
						}
						if len(dreams) == 0 {
							in.Notef("%s has no dreams in %s yet (agentmem dream run %s %s)", agent, project, project, agent)
							return nil
						}
						tw := tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
						fmt.Fprintln(tw, "DATE\tSTARTED (UTC)\tKIND\tSTATUS\tCHANGES\tID")
						for _, d := range dreams {
							fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Date, clockOf(d.StartedAt), d.Kind, d.Status, dreamCounts(d), d.ID)
						}
						if err := tw.Flush(); err != nil {
							return err
						}
						if more {
							in.Notef("showing the newest %d; older entries remain (--all, or --limit N)", len(dreams))
						}
						return nil
					}
				},
			},
			{
				Name: "show", Args: "<project> <agent>",
				Summary:     "print a day of the dream diary (memory/dreams/YYYY-MM-DD.md)",
				Description: `Prints the diary of a day as Markdown: each dream's own account, what it changed, the bullets it dropped as unsupported by the sources, and failures. The day is --date, else the day of the newest entry. --plan adds what each dream wrote and the prior memories it replaced (which a revert restores); --json prints the entries (with --plan, their plans).`,
				Examples: []string{
					"agentmem dream show checkout-service nori",
					"agentmem dream show checkout-service nori --date 2026-03-01 --plan",
					"agentmem dream show checkout-service nori --plan --json | jq '.dreams[].replaced | length'",
				},
				Setup: func(fs *flag.FlagSet) Runner {
					date := fs.String("date", "", "the `DAY`: YYYY-MM-DD, today or yesterday (default: the day of the newest entry)")
					plan := fs.Bool("plan", false, "add the memories each dream wrote and the ones it replaced")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, agent, c, day, err := dreamScope(ctx, in, *date, false)
						if err != nil {
							return err
						}
						if *asJSON {
							v, err := c.GetDream(ctx, agent, project, day, *plan)
							if err != nil {
								return err
							}
							return writeJSON(in.Stdout, v)
						}
						doc, err := c.DreamMarkdown(ctx, agent, project, day)
						if err != nil {
							return err
						}
						in.Printf("%s", doc)
						if !*plan {
							return nil
						}
						v, err := c.GetDream(ctx, agent, project, day, true)
						if err != nil {
							return err
						}
						writeDreamPlans(in.Stdout, v)
						return nil
					}
				},
			},
			{
				Name: "revert", Args: "<project> <agent>",
				Summary:     "put the core memory back as it was before a day's last dream",
				Description: `Restores the memories the day's last dream replaced and removes the ones it wrote (memories added since by others are not touched); the revert gets its own diary entry. Only the scope's most recent committed dream can be reverted. The day is --date, else the day of the newest committed dream. The next dream waits for new daily records (or --force).`,
				Examples: []string{
					"agentmem dream revert checkout-service nori",
					"agentmem dream revert checkout-service nori --date 2026-03-01",
				},
				Setup: func(fs *flag.FlagSet) Runner {
					date := fs.String("date", "", "the `DAY` of the dream: YYYY-MM-DD, today or yesterday (default: the newest committed dream's)")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, agent, c, day, err := dreamScope(ctx, in, *date, true)
						if err != nil {
							return err
						}
						rev, err := c.RevertDream(ctx, agent, project, day)
						if err != nil {
							return err
						}
						if *asJSON {
							return writeJSON(in.Stdout, rev)
						}
						in.Printf("reverted dream %s of %s: %d memor%s put back, %d removed (revert %s)\n",
							dreamID(rev.RevertOf), day, rev.Created, pluralY(rev.Created), rev.Deleted, rev.ID)
						return nil
					}
				},
			},
		},
	})
}

// dreamScope returns the <project> <agent> of dream show or revert, the
// API client and the day: --date, else the day of the newest diary entry
// (committed: of the newest committed dream).
func dreamScope(ctx context.Context, in *Invocation, date string, committed bool) (project, agent string, c *apiclient.Client, day string, err error) {
	if project, agent, err = in.ProjectAgent(0); err != nil {
		return
	}
	if date != "" {
		if day, err = dayArg(in, date); err != nil {
			return
		}
	}
	if c, err = in.Client(ctx); err != nil || day != "" {
		return
	}
	day, err = newestDreamDay(ctx, c, agent, project, committed)
	return
}

// newestDreamDay is the day of the scope's newest diary entry (committed:
// of its newest committed dream).
func newestDreamDay(ctx context.Context, c *apiclient.Client, agent, project string, committed bool) (string, error) {
	cursor := ""
	for {
		page, err := c.ListDreams(ctx, agent, project, agentmem.MaxListLimit, cursor)
		if err != nil {
			return "", err
		}
		for _, d := range page.Dreams {
			if !committed || (d.Kind == agentmem.DreamKindDream && d.Status == agentmem.DreamCommitted) {
				return d.Date, nil
			}
		}
		if page.NextCursor == "" || len(page.Dreams) == 0 || !committed {
			break
		}
		cursor = page.NextCursor
	}
	what := "no dreams"
	if committed {
		what = "no committed dream to revert"
	}
	return "", agentmem.Errorf(agentmem.ENotFound, "%s has %s in %s", agent, what, project)
}

// dreamChanges says what a dream did, in one line.
func dreamChanges(d agentmem.Dream) string {
	s := fmt.Sprintf("%d memor%s written, %d removed, %d unchanged, %d kept as they were (pinned or manual)",
		d.Created, pluralY(d.Created), d.Deleted, d.Unchanged, d.Kept)
	if d.Compressed > 0 {
		s += fmt.Sprintf(", %d old memor%s compressed", d.Compressed, pluralY(d.Compressed))
	}
	if n := len(d.Dropped); n > 0 {
		s += fmt.Sprintf("; %d bullet%s dropped as unsupported by the sources", n, plural(n))
	}
	return s
}

// dreamCounts is the CHANGES column of dream ls.
func dreamCounts(d agentmem.Dream) string {
	switch {
	case d.Status == agentmem.DreamFailed:
		return oneLine(truncateUTF8(d.Error, 60))
	case d.Kind == agentmem.DreamKindRevert:
		return fmt.Sprintf("+%d -%d (undid %s)", d.Created, d.Deleted, dreamID(d.RevertOf))
	}
	s := fmt.Sprintf("+%d -%d =%d kept %d", d.Created, d.Deleted, d.Unchanged, d.Kept)
	if len(d.Dropped) > 0 {
		s += fmt.Sprintf(", dropped %d", len(d.Dropped))
	}
	return s
}

// writeDreamPlans prints what each dream of a day wrote and replaced.
func writeDreamPlans(w io.Writer, day agentmem.DreamDay) {
	for _, d := range day.Dreams {
		if d.Kind != agentmem.DreamKindDream || d.Status == agentmem.DreamFailed {
			continue
		}
		fmt.Fprintf(w, "\n## Plan of dream %s (%s)\n", d.ID, clockOf(d.StartedAt))
		for _, part := range []struct {
			title string
			list  []agentmem.Memory
		}{{"Written", d.Written}, {"Replaced (a revert puts these back)", d.Replaced}} {
			fmt.Fprintf(w, "\n### %s: %d\n", part.title, len(part.list))
			for _, m := range part.list {
				fmt.Fprintf(w, "- [%s] %s `%s`\n", m.Type, strings.Join(strings.Fields(m.Content), " "), m.ID)
			}
		}
	}
}

// dreamID is the id of a dream reference "<date>#<id>".
func dreamID(ref string) string {
	return ref[strings.LastIndexByte(ref, '#')+1:]
}

func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}
