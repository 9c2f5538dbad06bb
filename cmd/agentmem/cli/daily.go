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
		Description: `The daily log (the medium-term memory tier) holds append-only records per agent, project and UTC day; a day exists once its first record is written. A day prints as memory/YYYY-MM-DD.md: "# Daily Memory: YYYY-MM-DD", then one "## <title> (HH:MM)" block per record, in time order. Deep Dream consolidates the last days of it into the agent's memories (agentmem dream).`,
		Examples: []string{
			`agentmem daily add --agent nori --project checkout-service --title run-42 "Webhook retries fixed; the provider resends the same event id."`,
			"agentmem daily show --agent nori --project checkout-service",
		},
		Subcommands: []*Command{
			{
				Name: "add", Args: "<text...>", Needs: NeedsAgentProject, Shorthand: ShorthandFirst,
				Summary:     "append a record to the agent's daily log",
				Description: `The words are the record's content (quote it or not; "-" reads standard input, up to 16 KiB). It is appended to the day of --at (default now), under "## TITLE (HH:MM)".`,
				Examples: []string{
					`agentmem daily add --agent nori --project checkout-service --title run-42 "Webhook retries fixed; the provider resends the same event id."`,
					`git log -3 --format='- %s' | agentmem daily add --agent nori --project checkout-service --title "Commits" -`,
					`agentmem daily add --agent nori --project checkout-service --at 2026-03-01T17:30:00Z "Backfilled note from yesterday's run."`,
					`agentmem daily add checkout-service nori "Retries fixed."    # the shorthand`,
				},
				New: func() Runner { return &dailyAddCommand{} },
			},
			{
				Name: "show", Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
				Summary:     "print a day of the agent's daily log (memory/YYYY-MM-DD.md)",
				Description: `Prints the day as its Markdown file, memory/YYYY-MM-DD.md, or its records as JSON with --json. Exits 3 when the day has no records.`,
				Examples: []string{
					"agentmem daily show --agent nori --project checkout-service",
					"agentmem daily show --agent nori --project checkout-service --date yesterday",
					"agentmem daily show --agent nori --project checkout-service --date 2026-03-01 --json | jq -r '.records[].title'",
					"agentmem daily show checkout-service nori    # the shorthand",
				},
				New: func() Runner { return &dailyShowCommand{} },
			},
		},
	})
}

type dailyAddCommand struct {
	title, at string
	json      bool
}

func (c *dailyAddCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.title, "title", "Note", "the record's `TITLE` (one line)")
	fs.StringVar(&c.at, "at", "", "when the record happened (`TIME`, RFC 3339, e.g. 2026-03-01T14:30:00Z; default now)")
	JSONFlag(fs, &c.json)
}

func (c *dailyAddCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	text, err := textArgMax(in, in.Args, "text", agentmem.MaxDailyContentBytes)
	if err != nil {
		return err
	}
	input := agentmem.DailyInput{ProjectID: scope.Project, Title: c.title, Content: text, At: c.at}
	input.Normalize()
	// The server bounds --at by its own clock; here only its form is
	// checked, with the rest of the input.
	ref := in.Now()
	if t, err := agentmem.ParseTime(input.At); err == nil {
		ref = t
	}
	if err := input.Validate(ref); err != nil {
		return Usagef("%s", agentmem.ErrorMessage(err))
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	rec, err := client.AppendDaily(ctx, scope.Agent, input)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, rec)
	}
	in.Printf("appended %q to the daily log of %s in %s for %s\n", rec.Title+" ("+clockOf(rec.At)+")", scope.Agent, scope.Project, rec.Date())
	return nil
}

type dailyShowCommand struct {
	date string
	json bool
}

func (c *dailyShowCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.date, "date", "today", "the `DAY`: YYYY-MM-DD, today or yesterday (UTC)")
	JSONFlag(fs, &c.json)
}

func (c *dailyShowCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	day, err := dayArg(in, c.date)
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	if c.json {
		d, err := client.GetDaily(ctx, scope.Agent, scope.Project, day)
		if err != nil {
			return err
		}
		return writeJSON(in.Stdout, d)
	}
	doc, err := client.DailyMarkdown(ctx, scope.Agent, scope.Project, day)
	if err != nil {
		return err
	}
	in.PrintDoc(doc)
	return nil
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
