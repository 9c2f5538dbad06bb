package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func init() {
	Register(&Command{
		Name: "session-context", Group: GroupTiers,
		Summary: "set, get, list or remove the key/values one pipeline run's agents share; end the session",
		Description: `Session context is key/value context shared by the agents of one pipeline run: the session. Keys live until the session ends (agentmem session-context end deletes them all at once) or their TTL passes (default 24h, from 1m to 7d), so sessions that never end clean themselves up.

Every subcommand takes the project (--project, or AGENTMEM_PROJECT) and the session id (--session, else AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID: the pipeline run), as agentmem mcp does.`,
		Examples: []string{
			`agentmem session-context set --project checkout-service --session run-42 auth-pattern "JWT with refresh tokens"`,
			"AGENTMEM_PROJECT=checkout-service AGENTMEM_SESSION_ID=run-42 agentmem session-context get auth-pattern",
			"agentmem session-context end --project checkout-service --session run-42",
		},
		Subcommands: []*Command{
			{
				Name: "set", Args: "<key> [<value...>|-]", Needs: NeedsProject,
				Summary:     "store a key of the session's context (the value from the arguments or standard input)",
				Description: `The words after the key are the value (quote it or not; "" for an empty value). Without them, or with "-", the value is read from standard input exactly as it is (up to 32 KiB). Setting a key again replaces its value and restarts its TTL.`,
				Examples: []string{
					`agentmem session-context set --project checkout-service --session run-42 auth-pattern "JWT with refresh tokens"`,
					"go test ./... 2>&1 | tail -20 | agentmem session-context set last-test-run --ttl 2h",
				},
				New: func() Runner { return &contextSetCommand{} },
			},
			{
				Name: "get", Args: "<key>", Needs: NeedsProject,
				Summary:     "print a key of the session's context",
				Description: `Prints the value, ending it with a newline unless it ends with one; --raw prints it exactly as it was stored, so that "get --raw KEY > file" gives back what "set KEY - < file" stored. --json prints the entry with its times. Reading a key records its access time. Exits 3 when the key is absent or expired.`,
				Examples: []string{
					"agentmem session-context get --project checkout-service --session run-42 auth-pattern",
					`PATTERN=$(agentmem session-context get auth-pattern)`,
				},
				New: func() Runner { return &contextGetCommand{} },
			},
			{
				Name: "ls", Needs: NeedsProject,
				Summary:     "list the session's live keys with their size and expiry (not their values)",
				Description: `Lists the keys of the session's context in key order, with the size of each value, when it was last set and when it expires. Listing records no access (agentmem session-context get does). 100 keys unless --limit; when more remain, the note on stderr (nextCursor in --json) gives the --cursor that continues; --all lists every key.`,
				Examples: []string{
					"agentmem session-context ls --project checkout-service --session run-42",
					"AGENTMEM_PROJECT=checkout-service AGENTMEM_SESSION_ID=run-42 agentmem session-context ls --json | jq -r '.keys[].key'",
				},
				New: func() Runner { return &contextListCommand{} },
			},
			{
				Name: "rm", Args: "<key>", Needs: NeedsProject,
				Summary:  "remove one key of the session's context",
				Examples: []string{"agentmem session-context rm --project checkout-service --session run-42 auth-pattern"},
				New:      func() Runner { return &contextRmCommand{} },
			},
			{
				Name: "end", Needs: NeedsProject,
				Summary:     "end the session: delete every key of its context at once",
				Description: `Ends the session: all its keys are deleted at once (ending a session that has none, or that ended already, deletes nothing and succeeds).`,
				Examples:    []string{"agentmem session-context end --project checkout-service --session run-42"},
				New:         func() Runner { return &contextEndCommand{} },
			},
		},
	})
}

// sessionFlag is --session, which every session-context command takes.
type sessionFlag struct{ session string }

func (s *sessionFlag) define(fs *flag.FlagSet) {
	fs.StringVar(&s.session, "session", "", "session `ID` (env AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID: the pipeline run)")
}

// projectSession resolves and validates the project and the session id.
func (s *sessionFlag) projectSession(in *Invocation) (project, session string, err error) {
	session = firstNonEmpty(s.session, in.settings.session())
	if session == "" {
		return "", "", Usagef("--project and --session are required (or AGENTMEM_PROJECT, and AGENTMEM_SESSION_ID or AGENTMEM_RUN_ID)")
	}
	scope, err := in.Scope()
	if err != nil {
		return "", "", err
	}
	if err := agentmem.ValidateSessionID(session); err != nil {
		return "", "", Usagef("--session: %s", agentmem.ErrorMessage(err))
	}
	return scope.Project, session, nil
}

// resolve returns the project, the session and the <key> argument, which
// must be followed by exactly extra more arguments (extra < 0: any).
func (s *sessionFlag) resolve(in *Invocation, extra int) (project, session, key string, err error) {
	if len(in.Args) < 1 || (extra >= 0 && len(in.Args) != 1+extra) {
		return "", "", "", Usagef("expected agentmem %s %s", in.Path, in.Command.Args)
	}
	if project, session, err = s.projectSession(in); err != nil {
		return "", "", "", err
	}
	key = in.Args[0]
	if err := agentmem.ValidateKey(key); err != nil {
		return "", "", "", Usagef("%s", agentmem.ErrorMessage(err))
	}
	return project, session, key, nil
}

type contextSetCommand struct {
	sessionFlag
	ttl  string
	json bool
}

func (c *contextSetCommand) Flags(fs *flag.FlagSet) {
	c.define(fs)
	fs.StringVar(&c.ttl, "ttl", "", "how long the key lives unless the session ends first (`DURATION`: 30m, 24h, 7d; default 24h)")
	JSONFlag(fs, &c.json)
}

func (c *contextSetCommand) Run(ctx context.Context, in *Invocation) error {
	project, session, key, err := c.resolve(in, -1)
	if err != nil {
		return err
	}
	seconds := 0
	if c.ttl != "" {
		if seconds, err = parseTTL(c.ttl); err != nil {
			return err
		}
	}
	value, err := sessionValue(in, in.Args[1:])
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	e, created, err := client.PutSessionContext(ctx, project, session, key, value, seconds)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, e)
	}
	verb := "replaced"
	if created {
		verb = "set"
	}
	in.Printf("%s %s in session %s of %s (%d bytes, expires %s UTC)\n", verb, key, session, project, len(value), shortTime(e.ExpiresAt))
	return nil
}

type contextGetCommand struct {
	sessionFlag
	json, raw bool
}

func (c *contextGetCommand) Flags(fs *flag.FlagSet) {
	c.define(fs)
	fs.BoolVar(&c.raw, "raw", false, "print the value exactly as stored, adding no newline")
	JSONFlag(fs, &c.json)
}

func (c *contextGetCommand) Run(ctx context.Context, in *Invocation) error {
	project, session, key, err := c.resolve(in, 0)
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	e, err := client.GetSessionContext(ctx, project, session, key)
	if err != nil {
		return err
	}
	switch {
	case c.json:
		return writeJSON(in.Stdout, e)
	case c.raw:
		_, err = io.WriteString(in.Stdout, e.Value)
		return err
	}
	in.PrintDoc(e.Value)
	return nil
}

type contextListCommand struct {
	sessionFlag
	limit  int
	cursor string
	all    bool
	out    OutputFlag
}

func (c *contextListCommand) Flags(fs *flag.FlagSet) {
	c.define(fs)
	fs.IntVar(&c.limit, "limit", agentmem.DefaultSessionKeysPage, "at most `N` keys")
	fs.StringVar(&c.cursor, "cursor", "", "continue a listing: the `CURSOR` a previous one ended with (nextCursor)")
	fs.BoolVar(&c.all, "all", false, "every key, however many")
	c.out.Define(fs)
}

func (c *contextListCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs(""); err != nil {
		return err
	}
	if c.limit < 1 {
		return Usagef("--limit must be at least 1")
	}
	if c.all && in.IsSet("limit") {
		return Usagef("--all and --limit do not go together")
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	project, session, err := c.projectSession(in)
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	var keys []agentmem.SessionKey
	cursor := c.cursor
	for c.all || len(keys) < c.limit {
		n := agentmem.MaxSessionKeysPage
		if !c.all {
			n = min(c.limit-len(keys), n)
		}
		page, err := client.ListSessionContext(ctx, project, session, n, cursor)
		if err != nil {
			return err
		}
		keys = append(keys, page.Keys...)
		cursor = page.NextCursor
		if cursor == "" || len(page.Keys) == 0 {
			break
		}
	}
	if asJSON {
		l := &jsonList{w: in.Stdout, key: "keys", extra: []jsonField{{"projectId", project}, {"sessionId", session}}}
		for _, k := range keys {
			if err := l.item(k); err != nil {
				return err
			}
		}
		return l.end(cursor)
	}
	if len(keys) == 0 && c.cursor == "" {
		in.Notef("session %s of %s has no live keys", session, project)
		return nil
	}
	tw := tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tBYTES\tUPDATED (UTC)\tEXPIRES (UTC)")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", k.Key, k.Bytes, shortTime(k.UpdatedAt), shortTime(k.ExpiresAt))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if cursor != "" {
		in.Notef("showing %d keys; more remain: --cursor %s continues, --all lists every one", len(keys), cursor)
	}
	return nil
}

type contextRmCommand struct {
	sessionFlag
	json bool
}

func (c *contextRmCommand) Flags(fs *flag.FlagSet) {
	c.define(fs)
	JSONFlag(fs, &c.json)
}

func (c *contextRmCommand) Run(ctx context.Context, in *Invocation) error {
	project, session, key, err := c.resolve(in, 0)
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	if err := client.DeleteSessionContext(ctx, project, session, key); err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, struct {
			ProjectID string `json:"projectId"`
			SessionID string `json:"sessionId"`
			Key       string `json:"key"`
			Removed   bool   `json:"removed"`
		}{project, session, key, true})
	}
	in.Printf("removed %s from session %s of %s\n", key, session, project)
	return nil
}

type contextEndCommand struct {
	sessionFlag
	json bool
}

func (c *contextEndCommand) Flags(fs *flag.FlagSet) {
	c.define(fs)
	JSONFlag(fs, &c.json)
}

func (c *contextEndCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs(""); err != nil {
		return err
	}
	project, session, err := c.projectSession(in)
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	ended, err := client.EndSession(ctx, project, session)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, ended)
	}
	in.Printf("ended session %s of %s: %d key%s deleted\n", session, project, ended.Deleted, plural(ended.Deleted))
	return nil
}

// sessionValue is the value of set: the words given, or standard input
// as it is ("-" or no words).
func sessionValue(in *Invocation, words []string) (string, error) {
	if len(words) > 0 && !(len(words) == 1 && words[0] == "-") {
		return strings.Join(words, " "), nil
	}
	if in.StdinIsTerminal() {
		return "", Usagef("no value: give it after the key, or pipe it in")
	}
	b, err := io.ReadAll(io.LimitReader(in.Stdin, agentmem.MaxSessionValueBytes+1))
	if err != nil {
		return "", fmt.Errorf("read the value from standard input: %w", err)
	}
	return string(b), nil
}

// parseTTL reads --ttl: a Go duration (30m, 24h) or a number of days
// (7d), in whole seconds within the session context's bounds.
func parseTTL(s string) (int, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, Usagef("--ttl %q: use a duration such as 30m, 24h or 7d", s)
		}
		if n < 0 || n > 7 { // before multiplying: no overflow
			return 0, Usagef("--ttl %q must be whole seconds from 1m to 7d", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, Usagef("--ttl %q: use a duration such as 30m, 24h or 7d", s)
		}
	}
	if d < agentmem.MinSessionTTL || d > agentmem.MaxSessionTTL || d%time.Second != 0 {
		return 0, Usagef("--ttl %q must be whole seconds from 1m to 7d", s)
	}
	return int(d / time.Second), nil
}
