// Package cli is the agentmem command line: a table of commands, each in
// its own file, that talk to the agentmem API through package apiclient.
// cmd/agentmem's main only wires it to the process (os.Args, stdio, the
// environment, signals).
//
// To add a command, add a file with an init function that calls Register:
//
//	func init() {
//		Register(&Command{
//			Name: "daily", Group: GroupMemories, Args: "<project> <agent>",
//			Summary:  "print today's daily log",
//			Examples: []string{"agentmem daily checkout-service nori"},
//			Setup: func(fs *flag.FlagSet) Runner {
//				asJSON := JSONFlag(fs)
//				return func(ctx context.Context, in *Invocation) error {
//					project, agent, err := in.ProjectAgent()
//					...
//				}
//			},
//		})
//	}
//
// Runners return errors; Main turns them into one message and an exit code
// (ExitCode). Pipeline commands never fail the pipeline: their errors
// become one warning line and exit status 0 unless --strict is given.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/settings"
	"golang.org/x/term"
)

// Exit codes, documented in `agentmem help`.
const (
	ExitOK       = 0 // success; also pipeline command failures without --strict
	ExitFailure  = 1 // the API refused or could not be reached, a file could not be written
	ExitUsage    = 2 // unknown command or flag, missing or bad argument
	ExitNotFound = 3 // no such memory or personality
	ExitRefused  = 4 // a confirmation was needed and not given (clear)
)

// Default timeouts for a whole command (AGENTMEM_TIMEOUT, --timeout).
const (
	PipelineTimeout = 3 * time.Second  // inject, extract, context flush: they must not slow the pipeline
	DefaultTimeout  = 30 * time.Second // commands for people
)

// Env is the process a command runs in. Tests build their own.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// StdinIsTerminal reports whether a person can answer a prompt.
	StdinIsTerminal func() bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// HTTPClient, when set, replaces the API client's HTTP client.
	HTTPClient *http.Client
}

// OSEnv is the Env of the running process.
func OSEnv() Env {
	return Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		StdinIsTerminal: func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
		Now:             time.Now,
	}
}

// Command groups, in the order help lists them.
const (
	GroupPipeline    = "Pipeline (best effort: on failure one warning on stderr and exit 0, unless --strict)"
	GroupMemories    = "Memories (seed 004's memory document, on the service)"
	GroupSearch      = "Search, patterns and lifecycle (seed 003)"
	GroupTiers       = "Daily log, session context and Deep Dream (seed 001's three tiers)"
	GroupPersonality = "Personalities"
	GroupOther       = "Other"
)

var groups = []string{GroupPipeline, GroupMemories, GroupSearch, GroupTiers, GroupPersonality, GroupOther}

// Runner runs a command once its flags are parsed.
type Runner func(ctx context.Context, in *Invocation) error

// Command is one agentmem command (or subcommand).
type Command struct {
	Name    string
	Args    string // synopsis of the positional arguments, e.g. "<project> <agent>"
	Group   string
	Summary string // one line for the command list
	// Description is the help text (paragraphs separated by blank lines).
	Description string
	// Examples are shown by --help; every command has at least one.
	Examples []string
	// Setup defines the command's flags on fs and returns its runner.
	// Commands with Subcommands leave it nil.
	Setup       func(fs *flag.FlagSet) Runner
	Subcommands []*Command
	// Pipeline commands are best effort (see the package doc) and default
	// to PipelineTimeout; Fallback says what happens instead on failure,
	// e.g. "the agent runs without injected memory".
	Pipeline bool
	Fallback string
	// OwnTimeout commands apply the timeout themselves (in.WithTimeout),
	// e.g. to leave a person time to answer a prompt.
	OwnTimeout bool
}

var commands []*Command

// Register adds a command to the table. It panics on a duplicate name, a
// command without an example, or a runnable command without Setup.
func Register(c *Command) {
	check := func(c *Command) {
		if len(c.Examples) == 0 || (c.Setup == nil) == (len(c.Subcommands) == 0) {
			panic(fmt.Sprintf("cli: command %q needs examples and exactly one of Setup or Subcommands", c.Name))
		}
	}
	check(c)
	for _, s := range c.Subcommands {
		check(s)
	}
	if lookup(commands, c.Name) != nil {
		panic("cli: duplicate command " + c.Name)
	}
	commands = append(commands, c)
}

// Commands returns the registered commands.
func Commands() []*Command { return slices.Clone(commands) }

func lookup(list []*Command, name string) *Command {
	for _, c := range list {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// globals are the flags every command accepts (env, then flag).
type globals struct {
	apiURL  string
	auth    string
	timeout string
}

func (g *globals) define(fs *flag.FlagSet) {
	fs.StringVar(&g.apiURL, "api-url", g.apiURL, "API base `URL` (env AGENTMEM_API_URL)")
	fs.StringVar(&g.auth, "auth", g.auth, "`MODE`: sigv4 (IAM, the default) or none (make dev) (env AGENTMEM_AUTH)")
	fs.StringVar(&g.timeout, "timeout", g.timeout, "`DURATION` for the whole command, e.g. 3s or 500ms (env AGENTMEM_TIMEOUT; default 3s for inject, extract and context flush, 60s for extract --llm claude, 30s otherwise)")
}

func isGlobal(name string) bool { return name == "api-url" || name == "auth" || name == "timeout" }

// Invocation is one run of a command: its arguments, the environment and
// the API client.
type Invocation struct {
	Env
	Command *Command
	// Path is the command's full name, e.g. "personality set".
	Path string
	// Args are the positional arguments.
	Args  []string
	Flags *flag.FlagSet

	globals globals
	timeout time.Duration
	client  *apiclient.Client
}

// Client returns the API client, built on first use from the flags and
// the environment.
func (in *Invocation) Client(ctx context.Context) (*apiclient.Client, error) {
	if in.client != nil {
		return in.client, nil
	}
	cfg := apiclient.ConfigFromEnv(in.Getenv)
	cfg.URL, cfg.Auth = strings.TrimSpace(in.globals.apiURL), strings.ToLower(strings.TrimSpace(in.globals.auth))
	cfg.HTTPClient = in.HTTPClient
	cfg.UserAgent = "agentmem-cli/" + apiclient.Version()
	c, err := apiclient.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	in.client = c
	return c, nil
}

// WithTimeout bounds ctx by the command's timeout.
func (in *Invocation) WithTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, in.timeout)
}

// Timeout is the command's timeout.
func (in *Invocation) Timeout() time.Duration { return in.timeout }

// Printf writes to standard output.
func (in *Invocation) Printf(format string, args ...any) { fmt.Fprintf(in.Stdout, format, args...) }

// Notef writes an informational line to standard error.
func (in *Invocation) Notef(format string, args ...any) {
	fmt.Fprintf(in.Stderr, "agentmem: "+format+"\n", args...)
}

// IsSet reports whether the flag name was given on the command line.
func (in *Invocation) IsSet(name string) bool {
	set := false
	in.Flags.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// ProjectAgent returns the <project> <agent> arguments, validated, and
// fails with a usage error unless there are exactly extra more arguments
// (extra < 0: any number).
func (in *Invocation) ProjectAgent(extra int) (project, agent string, err error) {
	if len(in.Args) < 2 || (extra >= 0 && len(in.Args) != 2+extra) {
		return "", "", Usagef("expected agentmem %s %s", in.Path, in.Command.Args)
	}
	project, agent = in.Args[0], in.Args[1]
	if err := agentmem.ValidateProjectID(project); err != nil {
		return "", "", Usagef("%s", agentmem.ErrorMessage(err))
	}
	if err := agentmem.ValidateAgentName(agent); err != nil {
		return "", "", Usagef("%s", agentmem.ErrorMessage(err))
	}
	return project, agent, nil
}

// UsageError is a problem with the command line (ExitUsage).
type UsageError struct{ Message string }

// Error implements error.
func (e *UsageError) Error() string { return e.Message }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Message: fmt.Sprintf(format, args...)}
}

// RefusedError is an action not taken for want of confirmation (ExitRefused).
type RefusedError struct{ Message string }

// Error implements error.
func (e *RefusedError) Error() string { return e.Message }

// ExitCode maps a runner's error to the process exit status.
func ExitCode(err error) int {
	var usage *UsageError
	var refused *RefusedError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &usage):
		return ExitUsage
	case errors.As(err, &refused):
		return ExitRefused
	case agentmem.ErrorCode(err) == agentmem.ENotFound:
		return ExitNotFound
	}
	return ExitFailure
}

// Main runs the command line args (without the program name) and returns
// the exit status.
func Main(ctx context.Context, args []string, env Env) int {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.StdinIsTerminal == nil {
		env.StdinIsTerminal = func() bool { return false }
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	g := globals{apiURL: settings.APIURL.Get(env.Getenv), auth: settings.Auth.Get(env.Getenv), timeout: settings.Timeout.Get(env.Getenv)}

	top := flag.NewFlagSet("agentmem", flag.ContinueOnError)
	top.SetOutput(io.Discard)
	g.define(top)
	if err := top.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeMainHelp(env.Stdout)
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "agentmem: %v (see agentmem help)\n", err)
		return ExitUsage
	}
	rest := top.Args()
	if len(rest) == 0 {
		writeMainHelp(env.Stderr)
		return ExitUsage
	}
	cmd := lookup(commands, rest[0])
	path := rest[0]
	rest = rest[1:]
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "agentmem: unknown command %q (see agentmem help)\n", path)
		return ExitUsage
	}
	if len(cmd.Subcommands) > 0 {
		if len(rest) == 0 || rest[0] == "-h" || rest[0] == "--help" || rest[0] == "-help" {
			w, code := env.Stdout, ExitOK
			if len(rest) == 0 {
				w, code = env.Stderr, ExitUsage
			}
			writeCommandHelp(w, path, cmd, nil)
			return code
		}
		sub := lookup(cmd.Subcommands, rest[0])
		if sub == nil {
			fmt.Fprintf(env.Stderr, "agentmem: unknown command %q (see agentmem %s --help)\n", path+" "+rest[0], path)
			return ExitUsage
		}
		cmd, path, rest = sub, path+" "+rest[0], rest[1:]
	}

	fs := flag.NewFlagSet("agentmem "+path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.define(fs)
	strict := false
	if cmd.Pipeline {
		fs.BoolVar(&strict, "strict", false, "exit non-zero on failure instead of warning and exiting 0")
	}
	run := cmd.Setup(fs)
	in := &Invocation{Env: env, Command: cmd, Path: path, Flags: fs}
	fail := func(err error) int {
		code := ExitCode(err)
		msg := oneLine(err.Error())
		var usage *UsageError
		if errors.As(err, &usage) {
			msg += fmt.Sprintf(" (see agentmem %s --help)", path)
		}
		if cmd.Pipeline && !strict {
			fmt.Fprintf(env.Stderr, "agentmem: warning: %s failed, %s: %s\n", path, cmd.Fallback, msg)
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "agentmem: %s: %s\n", path, msg)
		return code
	}

	strict = cmd.Pipeline && hasFlag(rest, "strict")
	positional, err := parseInterspersed(fs, rest)
	if errors.Is(err, flag.ErrHelp) {
		writeCommandHelp(env.Stdout, path, cmd, fs)
		return ExitOK
	}
	if err != nil {
		return fail(Usagef("%v", err))
	}
	in.Args, in.globals = positional, g
	if in.timeout, err = parseTimeout(g.timeout, cmd.Pipeline); err != nil {
		return fail(err)
	}

	runCtx := ctx
	if !cmd.OwnTimeout {
		var cancel context.CancelFunc
		runCtx, cancel = in.WithTimeout(ctx)
		defer cancel()
	}
	err = run(runCtx, in)
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s (--timeout, AGENTMEM_TIMEOUT): %w", in.timeout, err)
	}
	return fail(err)
}

// parseTimeout reads a Go duration ("3s", "500ms") or a number of seconds.
func parseTimeout(s string, pipeline bool) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if pipeline {
			return PipelineTimeout, nil
		}
		return DefaultTimeout, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		secs, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return 0, Usagef("timeout %q is not a duration (e.g. 3s, 500ms, 2.5)", s)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d <= 0 || d > time.Hour {
		return 0, Usagef("timeout %q must be between 1ms and 1h", s)
	}
	return d, nil
}

// parseInterspersed parses flags wherever they are among the positional
// arguments ("show p a --write" and "show --write p a" alike); everything
// after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// hasFlag reports whether args turn on the boolean flag name before any
// parsing (so that a usage error can honour --strict).
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-"+name || a == "--"+name || a == "-"+name+"=true" || a == "--"+name+"=true" {
			return true
		}
	}
	return false
}

// JSONFlag defines --json on a read command.
func JSONFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, "print JSON instead of text")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sortedCommands returns the commands of a group in registration order.
func sortedCommands(group string) []*Command {
	var out []*Command
	for _, c := range commands {
		if c.Group == group {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *Command) int { return order(a.Name) - order(b.Name) })
	return out
}

// order keeps help in a reading order independent of file names.
func order(name string) int {
	known := []string{"inject", "extract", "context", "show", "add", "session", "list", "rm", "clear",
		"search", "patterns", "forget", "stats", "daily", "session-context", "dream", "personality", "help", "version"}
	if i := slices.Index(known, name); i >= 0 {
		return i
	}
	return len(known)
}
