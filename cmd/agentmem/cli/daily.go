package cli

import (
	"context"
	"flag"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func init() {
	Register(&Command{
		Name: "daily", Group: GroupTiers,
		Summary:     "append to an agent's daily log, or print a day of it (the medium-term tier)",
		Description: `The daily log (seed 001's medium-term tier) holds append-only records per agent, project and UTC day; a day exists once its first record is written. A day prints as memory/YYYY-MM-DD.md: "# Daily Memory: YYYY-MM-DD", then one "## <title> (HH:MM)" block per record, in time order. Deep Dream consolidates the last days of it into the agent's memories (agentmem dream).`,
		Examples: []string{
			`agentmem daily add checkout-service nori --title run-42 "Webhook retries fixed; the provider resends the same event id."`,
			"agentmem daily show checkout-service nori",
		},
		Subcommands: []*Command{
			{
				Name: "add", Args: "<project> <agent> <text...>",
				Summary:     "append a record to the agent's daily log",
				Description: `The words after <project> <agent> are the record's content (quote it or not; "-" reads standard input, up to 16 KiB). It is appended to the day of --at (default now), under "## TITLE (HH:MM)".`,
				Examples: []string{
					`agentmem daily add checkout-service nori --title run-42 "Webhook retries fixed; the provider resends the same event id."`,
					`git log -3 --format='- %s' | agentmem daily add checkout-service nori --title "Commits" -`,
					`agentmem daily add checkout-service nori --at 2026-03-01T17:30:00Z "Backfilled note from yesterday's run."`,
				},
				Setup: func(fs *flag.FlagSet) Runner {
					title := fs.String("title", "Note", "the record's `TITLE` (one line)")
					at := fs.String("at", "", "when the record happened (`TIME`, RFC 3339, e.g. 2026-03-01T14:30:00Z; default now)")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, agent, err := in.ProjectAgent(-1)
						if err != nil {
							return err
						}
						text, err := textArgMax(in, in.Args[2:], "text", agentmem.MaxDailyContentBytes)
						if err != nil {
							return err
						}
						input := agentmem.DailyInput{ProjectID: project, Title: *title, Content: text, At: *at}
						input.Normalize()
						// The server bounds --at by its own clock; here only
						// its form is checked, with the rest of the input.
						ref := in.Now()
						if t, err := agentmem.ParseTime(input.At); err == nil {
							ref = t
						}
						if err := input.Validate(ref); err != nil {
							return Usagef("%s", agentmem.ErrorMessage(err))
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						rec, err := c.AppendDaily(ctx, agent, input)
						if err != nil {
							return err
						}
						if *asJSON {
							return writeJSON(in.Stdout, rec)
						}
						in.Printf("appended %q to the daily log of %s in %s for %s\n", rec.Title+" ("+clockOf(rec.At)+")", agent, project, rec.Date())
						return nil
					}
				},
			},
			{
				Name: "show", Args: "<project> <agent>",
				Summary:     "print a day of the agent's daily log (memory/YYYY-MM-DD.md)",
				Description: `Prints the day as seed 001's Markdown file, or its records as JSON with --json. Exits 3 when the day has no records.`,
				Examples: []string{
					"agentmem daily show checkout-service nori",
					"agentmem daily show checkout-service nori --date yesterday",
					"agentmem daily show checkout-service nori --date 2026-03-01 --json | jq -r '.records[].title'",
				},
				Setup: func(fs *flag.FlagSet) Runner {
					date := fs.String("date", "today", "the `DAY`: YYYY-MM-DD, today or yesterday (UTC)")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, agent, err := in.ProjectAgent(0)
						if err != nil {
							return err
						}
						day, err := dayArg(in, *date)
						if err != nil {
							return err
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						if *asJSON {
							d, err := c.GetDaily(ctx, agent, project, day)
							if err != nil {
								return err
							}
							return writeJSON(in.Stdout, d)
						}
						doc, err := c.DailyMarkdown(ctx, agent, project, day)
						if err != nil {
							return err
						}
						in.Printf("%s", doc)
						return nil
					}
				},
			},
		},
	})
}

// dayArg reads a --date value: YYYY-MM-DD, "today" or "yesterday" (UTC,
// by the invocation's clock).
func dayArg(in *Invocation, s string) (string, error) {
	now := in.Now().UTC()
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "today", "":
		return now.Format(agentmem.DateLayout), nil
	case "yesterday":
		return now.AddDate(0, 0, -1).Format(agentmem.DateLayout), nil
	}
	if _, err := agentmem.ParseDate(s); err != nil {
		return "", Usagef("--date %q: use YYYY-MM-DD, today or yesterday", s)
	}
	return s, nil
}

// clockOf returns the HH:MM (UTC) of a stored timestamp.
func clockOf(ts string) string {
	t, err := agentmem.ParseTime(ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format("15:04")
}
