package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "dream", Group: GroupTiers,
		Summary:     "run a Deep Dream now, list the dream diary, show a day of it, or revert a dream",
		Description: `Deep Dream consolidates an agent's memories in a project with the daily log of the last days: the server's LLM rewrites the core memory from both, bullets the sources do not support are dropped (and listed in the diary), pinned and manual memories are kept as they are, and the prior core is kept so that the dream can be reverted. The schedule dreams every scope with new daily records each night; agentmem dream run dreams one now. The server needs an LLM (AGENTMEM_LLM; tools/fakellm stands in for one under make dev).`,
		Examples: []string{
			"agentmem dream run --agent nori --project checkout-service",
			"agentmem dream show --agent nori --project checkout-service",
			"agentmem dream revert --agent nori --project checkout-service",
		},
		Subcommands: []*Command{
			{
				Name: "run", Needs: NeedsAgentProject, Shorthand: ShorthandAlone, OwnTimeout: true,
				Summary:     "dream now: consolidate the daily log of the last days into the agent's memories",
				Description: `Asks the server to dream now. The dream is skipped (exit 0, with the reason) when the window has no daily records or nothing changed since the last dream; --force dreams anyway. A dream of the same scope already running answers "busy" (exit 1). The model's calls take seconds: the request's --timeout is 30s by default, and a dream that outlives it may still finish on the server (agentmem dream ls shows it). A scope too large for one request (its review takes more model calls than the server asks at once, or the dream would also compress old memories) dreams in the background: the command then follows the server's job, printing its progress on standard error, for up to --wait (10m), and prints the outcome; if the job is still running then, it says so and the dream goes on on the server.`,
				Examples: []string{
					"agentmem dream run --agent nori --project checkout-service",
					"agentmem dream run --agent nori --project checkout-service --lookback-days 7 --keep-manual=false --force",
					"agentmem dream run --agent nori --project checkout-service --json | jq .dream.dropped",
					"agentmem dream run --agent nori --project checkout-service --wait 0    # a large scope: do not wait for the background job",
					"agentmem dream run checkout-service nori    # the shorthand",
				},
				New: func() Runner { return &dreamRunCommand{} },
			},
			{
				Name: "ls", Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
				Summary:     "list the dream diary, newest first",
				Description: `Lists the diary's entries (dreams, failed dreams and reverts), newest first: 20 unless --limit, every one with --all.`,
				Examples: []string{
					"agentmem dream ls --agent nori --project checkout-service",
					"agentmem dream ls --agent nori --project checkout-service --all --json | jq -r '.dreams[] | select(.status==\"failed\") | .error'",
					"agentmem dream ls checkout-service nori    # the shorthand",
				},
				New: func() Runner { return &dreamListCommand{} },
			},
			{
				Name: "show", Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
				Summary:     "print a day of the dream diary (memory/dreams/YYYY-MM-DD.md)",
				Description: `Prints the diary of a day as Markdown: each dream's own account, every change it made (added, updated, retired) with the sources it cites, the operations it refused with the reason, and failures. The day is --date, else the day of the newest entry. --plan adds what each dream wrote and the memories as they were before it changed them (which a revert restores); --json prints the entries (with --plan, their plans).`,
				Examples: []string{
					"agentmem dream show --agent nori --project checkout-service",
					"agentmem dream show --agent nori --project checkout-service --date 2026-03-01 --plan",
					"agentmem dream show --agent nori --project checkout-service --plan --json | jq '.dreams[].replaced | length'",
					"agentmem dream show checkout-service nori    # the shorthand",
				},
				New: func() Runner { return &dreamShowCommand{} },
			},
			{
				Name: "revert", Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
				Summary:     "put the core memory back as it was before a day's last dream",
				Description: `Puts back, from their history, the versions from before the day's last dream of the memories it updated or retired, and retires the ones it added (they stay in their history); memories written or changed since by others are not touched, and the command lists what it skipped; the revert gets its own diary entry. Only the scope's most recent committed dream can be reverted. The day is --date, else the day of the newest committed dream. The next dream waits for new daily records (or --force).`,
				Examples: []string{
					"agentmem dream revert --agent nori --project checkout-service",
					"agentmem dream revert --agent nori --project checkout-service --date 2026-03-01",
					"agentmem dream revert checkout-service nori    # the shorthand",
				},
				New: func() Runner { return &dreamRevertCommand{} },
			},
		},
	})
}

// scopeFlags is a scope as flags, for the commands a note suggests.
func scopeFlags(s Scope) string { return "--agent " + s.Agent + " --project " + s.Project }

type dreamRunCommand struct {
	lookback, compress int
	keepManual, force  bool
	wait               time.Duration
	json               bool
}

// defaultDreamWait is how long dream run follows a background dream.
const defaultDreamWait = 10 * time.Minute

func (c *dreamRunCommand) Flags(fs *flag.FlagSet) {
	fs.IntVar(&c.lookback, "lookback-days", 0, "consolidate the daily records of the last `N` days (1 to 30; the server's default is 3)")
	fs.BoolVar(&c.keepManual, "keep-manual", true, "keep manual memories as they are (--keep-manual=false lets the dream rewrite them)")
	fs.BoolVar(&c.force, "force", false, "dream even when the daily records did not change since the last dream")
	fs.IntVar(&c.compress, "compress-after-days", 0, "compress memories older than `N` days into fewer (0: no compression; the server's default is 7)")
	fs.DurationVar(&c.wait, "wait", defaultDreamWait, "when a large scope dreams in the background, follow its job for up to `DURATION` (0: do not wait)")
	JSONFlag(fs, &c.json)
}

func (c *dreamRunCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	body := agentmem.CreateDreamInput{ProjectID: project, Force: c.force}
	if in.IsSet("lookback-days") {
		if c.lookback < 1 {
			return Usagef("--lookback-days must be at least 1")
		}
		body.LookbackDays = &c.lookback
	}
	if in.IsSet("keep-manual") {
		body.KeepManual = &c.keepManual
	}
	if in.IsSet("compress-after-days") {
		if c.compress < 0 {
			return Usagef("--compress-after-days must be 0 (no compression) or more")
		}
		body.CompressAfterDays = &c.compress
	}
	if c.wait < 0 {
		return Usagef("--wait must be 0 (do not wait) or more")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	in.Notef("dream: %s in %s: asking the server to dream (its LLM can take a while; --timeout is %s)", agent, project, in.Timeout())
	tctx, cancel := in.WithTimeout(ctx)
	res, err := client.CreateDream(tctx, agent, body)
	cancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%w (the dream may still finish on the server: agentmem dream ls %s)", err, scopeFlags(scope))
		}
		return err
	}
	if res.Status == agentmem.DreamStatusQueued {
		if res, err = c.follow(ctx, in, client, scope, res); err != nil || res.Status == agentmem.DreamStatusQueued {
			return err
		}
	}
	if c.json {
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
	in.Printf("the diary: agentmem dream show %s --date %s\n", scopeFlags(scope), d.Date)
	return nil
}

// follow waits up to --wait for the background job of a queued dream,
// showing its progress on standard error, and returns its outcome; a
// failed job is an error. When the wait ends first it prints where the
// job stands and returns res as it was (queued).
func (c *dreamRunCommand) follow(ctx context.Context, in *Invocation, client *apiclient.Client, scope Scope, res agentmem.DreamResult) (agentmem.DreamResult, error) {
	in.Notef("dream: %s", res.Reason)
	if c.wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, c.wait)
		defer cancel()
		last := ""
		j, err := client.FollowJob(wctx, scope.Agent, res.JobID, func(j agentmem.Job) {
			if p := dreamProgress(j); p != last && j.Status == agentmem.JobRunning {
				in.Notef("dream: %s", p)
				last = p
			}
		})
		switch {
		case err == nil && j.Status == agentmem.JobDone && j.DreamResult != nil:
			return *j.DreamResult, nil
		case err == nil && j.Status == agentmem.JobFailed:
			return res, fmt.Errorf("the dream of %s in %s failed: %s (agentmem dream ls %s)", scope.Agent, scope.Project, j.Error, scopeFlags(scope))
		case err != nil && !errors.Is(err, context.DeadlineExceeded):
			return res, fmt.Errorf("following the dream's job %s: %w (the dream goes on on the server: agentmem dream ls %s)", res.JobID, err, scopeFlags(scope))
		}
	}
	if c.json {
		return res, writeJSON(in.Stdout, res)
	}
	in.Printf("dreaming %s in %s in the background (job %s); agentmem dream ls %s shows it when it is done\n",
		scope.Agent, scope.Project, res.JobID, scopeFlags(scope))
	return res, nil
}

// dreamProgress says where a dream job stands, in a few words.
func dreamProgress(j agentmem.Job) string {
	switch j.Phase {
	case agentmem.DreamPhaseQueued, "":
		return "waiting for the server to start the dream"
	case agentmem.DreamPhaseReview:
		return fmt.Sprintf("asking the model: %d of %d calls answered", min(j.Calls, j.PlannedCalls), j.PlannedCalls)
	case agentmem.DreamPhaseVerify:
		return fmt.Sprintf("the verifier checks the changes (%d model calls so far)", j.Calls)
	case agentmem.DreamPhaseCompress:
		return fmt.Sprintf("compressing old memories (%d model calls so far)", j.Calls)
	}
	return fmt.Sprintf("writing the changes (%d model calls in all)", j.Calls)
}

type dreamListCommand struct {
	limit  int
	cursor string
	all    bool
	out    OutputFlag
}

func (c *dreamListCommand) Flags(fs *flag.FlagSet) {
	fs.IntVar(&c.limit, "limit", agentmem.DefaultDreamsPage, "at most `N` entries")
	fs.StringVar(&c.cursor, "cursor", "", "continue a listing: the `CURSOR` a previous one ended with (nextCursor)")
	fs.BoolVar(&c.all, "all", false, "every entry, however many")
	c.out.Define(fs)
}

func (c *dreamListCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if c.limit < 1 {
		return Usagef("--limit must be at least 1")
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	dreams, more := []agentmem.Dream{}, false
	cursor := c.cursor
	for c.all || len(dreams) < c.limit {
		n := agentmem.MaxListLimit
		if !c.all {
			n = min(c.limit-len(dreams), n)
		}
		page, err := client.ListDreams(ctx, scope.Agent, scope.Project, n, cursor)
		if err != nil {
			return err
		}
		dreams = append(dreams, page.Dreams...)
		if page.NextCursor == "" || len(page.Dreams) == 0 {
			break
		}
		cursor, more = page.NextCursor, !c.all && len(dreams) >= c.limit
	}
	next := ""
	if more {
		next = cursor
	}
	if asJSON {
		l := &jsonList{w: in.Stdout, key: "dreams"}
		for _, d := range dreams {
			if err := l.item(d); err != nil {
				return err
			}
		}
		return l.end(next)
	}
	if len(dreams) == 0 {
		in.Notef("%s has no dreams in %s yet (agentmem dream run %s)", scope.Agent, scope.Project, scopeFlags(scope))
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
		in.Notef("showing %d; older entries remain: --cursor %s continues, --all lists every one", len(dreams), next)
	}
	return nil
}

type dreamShowCommand struct {
	date       string
	plan, json bool
}

func (c *dreamShowCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.date, "date", "", "the `DAY`: YYYY-MM-DD, today or yesterday (default: the day of the newest entry)")
	fs.BoolVar(&c.plan, "plan", false, "add the memories each dream wrote and the ones it replaced")
	JSONFlag(fs, &c.json)
}

func (c *dreamShowCommand) Run(ctx context.Context, in *Invocation) error {
	scope, client, day, err := dreamDay(ctx, in, c.date, false)
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	if c.json {
		v, err := client.GetDream(ctx, agent, project, day, c.plan)
		if err != nil {
			return err
		}
		return writeJSON(in.Stdout, v)
	}
	doc, err := client.DreamMarkdown(ctx, agent, project, day)
	if err != nil {
		return err
	}
	in.PrintDoc(doc)
	if !c.plan {
		return nil
	}
	v, err := client.GetDream(ctx, agent, project, day, true)
	if err != nil {
		return err
	}
	writeDreamPlans(in.Stdout, v)
	return nil
}

type dreamRevertCommand struct {
	date string
	json bool
}

func (c *dreamRevertCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.date, "date", "", "the `DAY` of the dream: YYYY-MM-DD, today or yesterday (default: the newest committed dream's)")
	JSONFlag(fs, &c.json)
}

func (c *dreamRevertCommand) Run(ctx context.Context, in *Invocation) error {
	scope, client, day, err := dreamDay(ctx, in, c.date, true)
	if err != nil {
		return err
	}
	rev, err := client.RevertDream(ctx, scope.Agent, scope.Project, day)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, rev)
	}
	in.Printf("reverted dream %s of %s: %d memor%s put back, %d retired (revert %s)\n",
		dreamID(rev.RevertOf), day, rev.Created, pluralY(rev.Created), rev.Deleted, rev.ID)
	for _, n := range rev.Notes {
		in.Printf("  %s\n", oneLine(n))
	}
	return nil
}

// dreamDay returns the scope of dream show or revert, the API client and
// the day: --date, else the day of the newest diary entry (committed: of
// the newest committed dream).
func dreamDay(ctx context.Context, in *Invocation, date string, committed bool) (scope Scope, c *apiclient.Client, day string, err error) {
	if scope, err = in.Scope(); err != nil {
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
	day, err = newestDreamDay(ctx, c, scope.Agent, scope.Project, committed)
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
	s := fmt.Sprintf("%d memor%s added, %d updated, %d retired, %d unchanged, %d kept as they were (pinned or manual)",
		d.Created, pluralY(d.Created), d.Updated, d.Retired, d.Unchanged, d.Kept)
	if d.Deleted > 0 {
		s += fmt.Sprintf(", %d removed", d.Deleted)
	}
	if d.Compressed > 0 {
		s += fmt.Sprintf(", %d old memor%s compressed", d.Compressed, pluralY(d.Compressed))
	}
	if n := len(d.Dropped); n > 0 {
		s += fmt.Sprintf("; %d operation%s refused (the diary says why)", n, plural(n))
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
	s := fmt.Sprintf("+%d ~%d -%d =%d kept %d", d.Created, d.Updated, d.Retired+d.Deleted, d.Unchanged, d.Kept)
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
				fmt.Fprintf(w, "- [%s] %s `%s`\n", m.Type, oneLine(m.Content), m.ID)
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
