package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/settings"
)

func init() {
	Register(&Command{
		Name: "session-context", Group: GroupTiers,
		Summary: "set, get or remove the key/values one pipeline run's agents share; end the session",
		Description: `Session context (seed 003's session scope) is key/value context shared by the agents of one pipeline run: the session. Keys live until the session ends (agentmem session-context end deletes them all at once) or their TTL passes (default 24h, from 1m to 7d), so sessions that never end clean themselves up.

Every subcommand takes the project (--project, or AGENTMEM_PROJECT) and the session id (--session, else AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID: the pipeline run), as agentmem mcp does.`,
		Examples: []string{
			`agentmem session-context set --project checkout-service --session run-42 auth-pattern "JWT with refresh tokens"`,
			"AGENTMEM_PROJECT=checkout-service AGENTMEM_SESSION_ID=run-42 agentmem session-context get auth-pattern",
			"agentmem session-context end --project checkout-service --session run-42",
		},
		Subcommands: []*Command{
			{
				Name: "set", Args: "<key> [<value...>|-]",
				Summary:     "store a key of the session's context (the value from the arguments or standard input)",
				Description: `The words after the key are the value (quote it or not; "" for an empty value). Without them, or with "-", the value is read from standard input exactly as it is (up to 32 KiB). Setting a key again replaces its value and restarts its TTL.`,
				Examples: []string{
					`agentmem session-context set --project checkout-service --session run-42 auth-pattern "JWT with refresh tokens"`,
					"go test ./... 2>&1 | tail -20 | agentmem session-context set last-test-run --ttl 2h",
				},
				Setup: func(fs *flag.FlagSet) Runner {
					var s sessionFlags
					s.define(fs)
					ttl := fs.String("ttl", "", "how long the key lives unless the session ends first (`DURATION`: 30m, 24h, 7d; default 24h)")
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, session, key, err := s.resolve(in, -1)
						if err != nil {
							return err
						}
						seconds := 0
						if *ttl != "" {
							if seconds, err = parseTTL(*ttl); err != nil {
								return err
							}
						}
						value, err := sessionValue(in, in.Args[1:])
						if err != nil {
							return err
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						e, created, err := c.PutSessionContext(ctx, project, session, key, value, seconds)
						if err != nil {
							return err
						}
						if *asJSON {
							return writeJSON(in.Stdout, e)
						}
						verb := "replaced"
						if created {
							verb = "set"
						}
						in.Printf("%s %s in session %s of %s (%d bytes, expires %s UTC)\n", verb, key, session, project, len(value), shortTime(e.ExpiresAt))
						return nil
					}
				},
			},
			{
				Name: "get", Args: "<key>",
				Summary:     "print a key of the session's context",
				Description: `Prints the value exactly as it was stored, with no newline added, so that "get KEY > file" gives back what "set KEY - < file" stored; --json prints the entry with its times. Reading a key records its access time. Exits 3 when the key is absent or expired.`,
				Examples: []string{
					"agentmem session-context get --project checkout-service --session run-42 auth-pattern",
					`PATTERN=$(agentmem session-context get auth-pattern)`,
				},
				Setup: func(fs *flag.FlagSet) Runner {
					var s sessionFlags
					s.define(fs)
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, session, key, err := s.resolve(in, 0)
						if err != nil {
							return err
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						e, err := c.GetSessionContext(ctx, project, session, key)
						if err != nil {
							return err
						}
						if *asJSON {
							return writeJSON(in.Stdout, e)
						}
						_, err = io.WriteString(in.Stdout, e.Value)
						return err
					}
				},
			},
			{
				Name: "rm", Args: "<key>",
				Summary:  "remove one key of the session's context",
				Examples: []string{"agentmem session-context rm --project checkout-service --session run-42 auth-pattern"},
				Setup: func(fs *flag.FlagSet) Runner {
					var s sessionFlags
					s.define(fs)
					return func(ctx context.Context, in *Invocation) error {
						project, session, key, err := s.resolve(in, 0)
						if err != nil {
							return err
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						if err := c.DeleteSessionContext(ctx, project, session, key); err != nil {
							return err
						}
						in.Printf("removed %s from session %s of %s\n", key, session, project)
						return nil
					}
				},
			},
			{
				Name:        "end",
				Summary:     "end the session: delete every key of its context at once",
				Description: `Ends the session: all its keys are deleted at once (ending a session that has none, or that ended already, deletes nothing and succeeds).`,
				Examples:    []string{"agentmem session-context end --project checkout-service --session run-42"},
				Setup: func(fs *flag.FlagSet) Runner {
					var s sessionFlags
					s.define(fs)
					asJSON := JSONFlag(fs)
					return func(ctx context.Context, in *Invocation) error {
						if len(in.Args) > 0 {
							return Usagef("unexpected argument %q", in.Args[0])
						}
						project, session, err := s.projectSession(in)
						if err != nil {
							return err
						}
						c, err := in.Client(ctx)
						if err != nil {
							return err
						}
						ended, err := c.EndSession(ctx, project, session)
						if err != nil {
							return err
						}
						if *asJSON {
							return writeJSON(in.Stdout, ended)
						}
						in.Printf("ended session %s of %s: %d key%s deleted\n", session, project, ended.Deleted, plural(ended.Deleted))
						return nil
					}
				},
			},
		},
	})
}

// sessionFlags are --project and --session.
type sessionFlags struct{ project, session string }

func (s *sessionFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.project, "project", "", "project `ID` (env AGENTMEM_PROJECT)")
	fs.StringVar(&s.session, "session", "", "session `ID` (env AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID: the pipeline run)")
}

// projectSession resolves and validates the project and the session id.
func (s *sessionFlags) projectSession(in *Invocation) (project, session string, err error) {
	project, session = s.project, s.session
	if project == "" {
		project = settings.Project.Get(in.Getenv)
	}
	session = firstNonEmpty(session, settings.SessionID.Get(in.Getenv), settings.RunID.Get(in.Getenv))
	if project == "" || session == "" {
		return "", "", Usagef("--project and --session are required (or AGENTMEM_PROJECT, and AGENTMEM_SESSION_ID or AGENTMEM_RUN_ID)")
	}
	if err := agentmem.ValidateProjectID(project); err != nil {
		return "", "", Usagef("--project: %s", agentmem.ErrorMessage(err))
	}
	if err := agentmem.ValidateSessionID(session); err != nil {
		return "", "", Usagef("--session: %s", agentmem.ErrorMessage(err))
	}
	return project, session, nil
}

// resolve returns the project, the session and the <key> argument, which
// must be followed by exactly extra more arguments (extra < 0: any).
func (s *sessionFlags) resolve(in *Invocation, extra int) (project, session, key string, err error) {
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
