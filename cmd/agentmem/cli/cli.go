// Package cli is the agentmem command line: a table of commands, each in
// its own file, that talk to the agentmem API through package apiclient.
// cmd/agentmem's main only wires it to the process (os.Args, stdio, the
// environment, signals, the build's version).
//
// A command is a type holding its parsed flags, with two methods: Flags
// defines them and Run does the work. Its file registers it in an init
// function:
//
//	func init() {
//		Register(&Command{
//			Name: "show", Group: GroupMemories, Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
//			Summary:  "print the agent's memory document",
//			Examples: []string{"agentmem show --agent nori --project checkout-service"},
//			New:      func() Runner { return &showCommand{} },
//		})
//	}
//
//	type showCommand struct{ write bool }
//
//	func (c *showCommand) Flags(fs *flag.FlagSet) { fs.BoolVar(&c.write, "write", false, "...") }
//
//	func (c *showCommand) Run(ctx context.Context, in *Invocation) error {
//		scope, err := in.Scope() // --agent/--project, AGENTMEM_AGENT/AGENTMEM_PROJECT, or <project> <agent>
//		...
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
	"unicode"

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
	// StderrIsTerminal reports whether a person reads standard error
	// (pipeline commands then say when the API is slow to answer).
	StderrIsTerminal func() bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// HTTPClient, when set, replaces the API client's HTTP client.
	HTTPClient *http.Client
	// OpenBrowser, when set, replaces how agentmem console opens its
	// address in the person's browser (tests record it instead).
	OpenBrowser func(ctx context.Context, url string) error
	// SlowAfter, when positive, is how long a request waits for its
	// answer before the command says it is still waiting, instead of 3 s
	// (tests shorten it).
	SlowAfter time.Duration
	// ScopesPage, when positive, is how many scopes agentmem stats asks
	// for per page instead of the API's maximum (tests lower it to walk
	// several pages).
	ScopesPage int
	// Build is what `agentmem version` prints; fields left empty are read
	// from the binary's build information.
	Build Build
}

// OSEnv is the Env of the running process.
func OSEnv() Env {
	return Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		StdinIsTerminal:  func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
		StderrIsTerminal: func() bool { return term.IsTerminal(int(os.Stderr.Fd())) },
		Now:              time.Now,
	}
}

// settings are the environment variables the CLI reads itself, read in
// one place (readSettings). The claude extractor reads the LLM settings
// through Env.Getenv (llm.ConfigFromEnv).
type cliSettings struct {
	apiURL, auth, timeout string // defaults of --api-url, --auth and --timeout
	region                string // the SigV4 signing region
	agent, project        string // defaults of --agent and --project
	runID                 string // default of extract --run-id, and of --session after sessionID
	sessionID             string // default of --session
}

func readSettings(getenv func(string) string) cliSettings {
	return cliSettings{
		apiURL:    settings.APIURL.Get(getenv),
		auth:      settings.Auth.Get(getenv),
		timeout:   settings.Timeout.Get(getenv),
		region:    settings.Region.Get(getenv),
		agent:     settings.Agent.Get(getenv),
		project:   settings.Project.Get(getenv),
		runID:     settings.RunID.Get(getenv),
		sessionID: settings.SessionID.Get(getenv),
	}
}

// session is the session id the session scope defaults to:
// AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID (the pipeline run).
func (s cliSettings) session() string {
	return firstNonEmpty(strings.TrimSpace(s.sessionID), strings.TrimSpace(s.runID))
}

// Command groups, in the order help lists them.
const (
	GroupPipeline    = "Pipeline (best effort: on failure one warning on stderr and exit 0, unless --strict)"
	GroupMemories    = "Memories (the agent's memory document in a project)"
	GroupSearch      = "Search, patterns and lifecycle"
	GroupTiers       = "Daily log, session context and Deep Dream (the short-, medium- and long-term memory tiers)"
	GroupPersonality = "Personalities"
	GroupOther       = "Other"
)

var groups = []string{GroupPipeline, GroupMemories, GroupSearch, GroupTiers, GroupPersonality, GroupOther}

// Runner is one run of a command: a value holding the command's own flags.
type Runner interface {
	// Flags defines the command's own flags on fs (Main defines the
	// global flags, --strict, --agent and --project).
	Flags(fs *flag.FlagSet)
	// Run does the command's work once the command line is parsed.
	Run(ctx context.Context, in *Invocation) error
}

// Needs says which of --agent and --project a command takes.
type Needs uint8

// The scopes a command can need.
const (
	NeedsAgent        Needs = 1 << iota // --agent NAME (AGENTMEM_AGENT)
	NeedsProject                        // --project ID (AGENTMEM_PROJECT)
	NeedsAgentProject = NeedsAgent | NeedsProject
)

// Shorthand says whether a command also takes its scope as its first
// positional arguments: "<project> <agent>" (or "<agent>" for a command
// that needs only an agent), the form the memory commands have always had.
type Shorthand uint8

// The shorthand forms.
const (
	NoShorthand Shorthand = iota
	// ShorthandAlone: the scope is the only positional arguments
	// ("agentmem list <project> <agent>").
	ShorthandAlone
	// ShorthandFirst: the scope may come before the command's words
	// ("agentmem search <project> <agent> <query...>").
	ShorthandFirst
)

// Command is one agentmem command (or subcommand).
type Command struct {
	Name string
	// Args is the synopsis of the positional arguments that follow the
	// scope, e.g. "<query...>".
	Args    string
	Group   string
	Summary string // one line for the command list
	// Description is the help text (paragraphs separated by blank lines).
	Description string
	// Examples are shown by --help; every command has at least one.
	Examples []string
	// New returns a fresh runner for one invocation. Commands with
	// Subcommands leave it nil.
	New         func() Runner
	Subcommands []*Command
	// Needs is the scope the command works on; Main defines --agent and
	// --project accordingly and Invocation.Scope resolves them.
	Needs     Needs
	Shorthand Shorthand
	// ScopeOptional commands also run without a scope (stats: every
	// scope). The environment does not give them one.
	ScopeOptional bool
	// Keyword recognizes the word that starts a ShorthandFirst command's
	// own arguments, when there is one (add: the memory type); it tells
	// the shorthand from the flag form.
	Keyword func(word string) bool
	// Pipeline commands are best effort (see the package doc) and default
	// to PipelineTimeout; Fallback says what happens instead on failure,
	// e.g. "the agent runs without injected memory".
	Pipeline bool
	Fallback string
	// OwnTimeout commands apply the timeout themselves (in.WithTimeout),
	// e.g. to leave a person time to answer a prompt.
	OwnTimeout bool
	// Server commands (mcp) run until their input ends and report on
	// their own: they get no "still waiting" notices.
	Server bool
}

var commands []*Command

// Register adds a command to the table. It panics on a duplicate name, a
// command without an example, or a runnable command without New.
func Register(c *Command) {
	check := func(c *Command) {
		if len(c.Examples) == 0 || (c.New == nil) == (len(c.Subcommands) == 0) {
			panic(fmt.Sprintf("cli: command %q needs examples and exactly one of New or Subcommands", c.Name))
		}
		if (c.Shorthand != NoShorthand || c.ScopeOptional || c.Keyword != nil) && c.Needs == 0 {
			panic(fmt.Sprintf("cli: command %q has a shorthand but needs no scope", c.Name))
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
	// Args are the positional arguments; after Scope, those that follow
	// a <project> <agent> shorthand.
	Args  []string
	Flags *flag.FlagSet

	settings  cliSettings
	globals   globals
	strict    bool
	agentFlag string
	projFlag  string
	scope     *Scope
	timeout   time.Duration
	client    *apiclient.Client
}

// newInvocation prepares a run of c: the environment's settings and the
// flag set with the global flags, --strict, --agent and --project as c
// needs them, and the runner's own flags.
func newInvocation(env Env, s cliSettings, g globals, c *Command, path string) (*Invocation, Runner) {
	in := &Invocation{Env: env, Command: c, Path: path, settings: s, globals: g}
	fs := flag.NewFlagSet("agentmem "+path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	in.globals.define(fs)
	if c.Pipeline {
		fs.BoolVar(&in.strict, "strict", false, "exit non-zero on failure instead of warning and exiting 0")
	}
	from := func(variable string) string {
		if c.ScopeOptional {
			return "not read from the environment here"
		}
		return "env " + variable
	}
	if c.Needs&NeedsAgent != 0 {
		fs.StringVar(&in.agentFlag, "agent", "", "agent `NAME` ("+from(settings.Agent.Name)+")")
	}
	if c.Needs&NeedsProject != 0 {
		fs.StringVar(&in.projFlag, "project", "", "project `ID` ("+from(settings.Project.Name)+")")
	}
	r := c.New()
	r.Flags(fs)
	in.Flags = fs
	return in, r
}

// Client returns the API client, built on first use from the flags and
// the environment.
func (in *Invocation) Client(ctx context.Context) (*apiclient.Client, error) {
	if in.client != nil {
		return in.client, nil
	}
	c, err := apiclient.New(ctx, apiclient.Config{
		URL:        strings.TrimSpace(in.globals.apiURL),
		Auth:       strings.ToLower(strings.TrimSpace(in.globals.auth)),
		Region:     strings.TrimSpace(in.settings.region),
		HTTPClient: in.httpClient(),
		UserAgent:  "agentmem-cli/" + in.Build.version(),
	})
	if err != nil {
		return nil, err
	}
	in.client = c
	return c, nil
}

// httpClient is the API client's HTTP client: the environment's (or the
// API client's default transport), with the "still waiting" notice when a
// person may be waiting: for the commands for people always, for the
// pipeline commands only when standard error is a terminal (their
// standard output is never touched), for the MCP server never.
func (in *Invocation) httpClient() *http.Client {
	notify := !in.Command.Server && (!in.Command.Pipeline || in.StderrIsTerminal())
	if !notify {
		return in.HTTPClient
	}
	hc := &http.Client{Transport: apiclient.DefaultTransport}
	if in.HTTPClient != nil {
		copied := *in.HTTPClient
		hc = &copied
		if hc.Transport == nil {
			hc.Transport = http.DefaultTransport
		}
	}
	after := slowAfter
	if in.SlowAfter > 0 {
		after = in.SlowAfter
	}
	hc.Transport = &slowNotice{next: hc.Transport, after: after, note: func(r *http.Request) {
		in.Notef("still waiting for %s to answer %s %s (%s so far; giving up after %s, --timeout)",
			r.URL.Host, r.Method, r.URL.Path, after, in.timeout)
	}}
	return hc
}

// WithTimeout bounds ctx by the command's timeout.
func (in *Invocation) WithTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, in.timeout)
}

// Timeout is the command's timeout.
func (in *Invocation) Timeout() time.Duration { return in.timeout }

// Printf writes to standard output.
func (in *Invocation) Printf(format string, args ...any) {
	fmt.Fprint(in.Stdout, printable(fmt.Sprintf(format, args...)))
}

// Notef writes an informational line to standard error.
func (in *Invocation) Notef(format string, args ...any) {
	fmt.Fprint(in.Stderr, printable(fmt.Sprintf("agentmem: "+format+"\n", args...)))
}

// IsSet reports whether the flag name was given on the command line.
func (in *Invocation) IsSet(name string) bool {
	set := false
	in.Flags.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// NoArgs fails with a usage error when positional arguments are left;
// hint says where the input goes instead, if anywhere.
func (in *Invocation) NoArgs(hint string) error {
	if len(in.Args) == 0 {
		return nil
	}
	if hint != "" {
		return Usagef("unexpected argument %q (%s)", in.Args[0], hint)
	}
	return Usagef("unexpected argument %q", in.Args[0])
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
	env = env.withDefaults()
	s := readSettings(env.Getenv)
	g := globals{apiURL: s.apiURL, auth: s.auth, timeout: s.timeout}

	top := flag.NewFlagSet("agentmem", flag.ContinueOnError)
	top.SetOutput(io.Discard)
	g.define(top)
	showVersion := top.Bool("version", false, "print the version, commit and build date")
	if err := top.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeMainHelp(env.Stdout)
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "agentmem: %v (see agentmem help)\n", flagError(top, err))
		return ExitUsage
	}
	if *showVersion {
		fmt.Fprintln(env.Stdout, env.Build.String())
		return ExitOK
	}
	rest := top.Args()
	if len(rest) == 0 {
		writeMainHelp(env.Stderr)
		return ExitUsage
	}
	cmd, path, rest, code := findCommand(env, rest)
	if cmd == nil {
		return code
	}
	return run(ctx, env, s, g, cmd, path, rest)
}

// findCommand looks up the command (and subcommand) that args start with.
// When there is none to run, it writes the help or the error itself and
// returns a nil command and the exit status.
func findCommand(env Env, args []string) (cmd *Command, path string, rest []string, code int) {
	cmd, path, rest = lookup(commands, args[0]), args[0], args[1:]
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "agentmem: unknown command %q%s (see agentmem help)\n", path, didYouMean(path, commandNames(commands)))
		return nil, "", nil, ExitUsage
	}
	if len(cmd.Subcommands) == 0 {
		return cmd, path, rest, ExitOK
	}
	if len(rest) == 0 || rest[0] == "-h" || rest[0] == "--help" || rest[0] == "-help" {
		w, code := env.Stdout, ExitOK
		if len(rest) == 0 {
			w, code = env.Stderr, ExitUsage
		}
		writeCommandHelp(w, path, cmd, nil)
		return nil, "", nil, code
	}
	sub := lookup(cmd.Subcommands, rest[0])
	if sub == nil && strings.HasPrefix(rest[0], "-") {
		// A flag where the subcommand goes: say so, rather than call the
		// flag an unknown command.
		fmt.Fprintf(env.Stderr, "agentmem: %s needs a command before %s: %s (see agentmem %s --help)\n",
			path, rest[0], strings.Join(commandNames(cmd.Subcommands), ", "), path)
		return nil, "", nil, ExitUsage
	}
	if sub == nil {
		fmt.Fprintf(env.Stderr, "agentmem: unknown command %q%s (see agentmem %s --help)\n",
			path+" "+rest[0], didYouMean(rest[0], commandNames(cmd.Subcommands)), path)
		return nil, "", nil, ExitUsage
	}
	return sub, path + " " + rest[0], rest[1:], ExitOK
}

// run parses the command's flags and arguments and runs it; g are the
// global flags as the environment and the words before the command set
// them.
func run(ctx context.Context, env Env, s cliSettings, g globals, cmd *Command, path string, args []string) int {
	in, runner := newInvocation(env, s, g, cmd, path)
	fail := func(err error) int {
		code := ExitCode(err)
		msg := oneLine(err.Error())
		var usage *UsageError
		if errors.As(err, &usage) {
			msg += fmt.Sprintf(" (see agentmem %s --help)", path)
		}
		if cmd.Pipeline && !in.strict {
			fmt.Fprintf(env.Stderr, "agentmem: warning: %s failed, %s: %s\n", path, cmd.Fallback, msg)
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "agentmem: %s: %s\n", path, msg)
		return code
	}

	in.strict = cmd.Pipeline && hasFlag(args, "strict")
	positional, err := parseInterspersed(in.Flags, args)
	if errors.Is(err, flag.ErrHelp) {
		writeCommandHelp(env.Stdout, path, cmd, in.Flags)
		return ExitOK
	}
	if err != nil {
		return fail(flagError(in.Flags, err))
	}
	in.Args = positional
	if in.timeout, err = parseTimeout(in.globals.timeout, cmd.Pipeline); err != nil {
		return fail(err)
	}

	runCtx := ctx
	if !cmd.OwnTimeout {
		var cancel context.CancelFunc
		runCtx, cancel = in.WithTimeout(ctx)
		defer cancel()
	}
	err = runner.Run(runCtx, in)
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s (--timeout, AGENTMEM_TIMEOUT): %w", in.timeout, err)
	}
	return fail(explainAPIError(err, strings.TrimSpace(in.globals.apiURL)))
}

// withDefaults fills what a test's Env leaves out.
func (env Env) withDefaults() Env {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.StdinIsTerminal == nil {
		env.StdinIsTerminal = func() bool { return false }
	}
	if env.StderrIsTerminal == nil {
		env.StderrIsTerminal = func() bool { return false }
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
	return env
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
func JSONFlag(fs *flag.FlagSet, v *bool) {
	fs.BoolVar(v, "json", false, "print JSON instead of text")
}

// OutputFlag is --output json|table, with --json as its shorthand: the
// format of a command that prints a list.
type OutputFlag struct {
	format outputFormat
	json   bool
}

// outputFormat is the value of --output.
type outputFormat string

func (f *outputFormat) String() string { return string(*f) }

// Set implements flag.Value.
func (f *outputFormat) Set(v string) error {
	switch v {
	case "json", "table":
		*f = outputFormat(v)
		return nil
	}
	return fmt.Errorf("use json or table")
}

// Define defines --output and --json on fs.
func (o *OutputFlag) Define(fs *flag.FlagSet) {
	fs.Var(&o.format, "output", "`FORMAT`: table (default) or json")
	fs.BoolVar(&o.json, "json", false, "print JSON (--output json)")
}

// JSON reports whether the output is JSON; --json with --output table is
// a usage error.
func (o *OutputFlag) JSON() (bool, error) {
	if o.json && o.format == "table" {
		return false, Usagef("--json and --output table do not go together")
	}
	return o.json || o.format == "json", nil
}

// PrintDoc writes a document (Markdown, a value) to standard output,
// ending it with a newline if it has none.
func (in *Invocation) PrintDoc(doc string) {
	if doc != "" && !strings.HasSuffix(doc, "\n") {
		doc += "\n"
	}
	fmt.Fprint(in.Stdout, printable(doc))
}

// oneLine renders text on one printable line: printable, with every run of
// white space (line breaks included) made one space.
func oneLine(s string) string { return strings.Join(strings.Fields(printable(s)), " ") }

// printable drops the characters that act on a terminal instead of being
// shown: control characters other than tab and newline (ESC starts the
// sequences that recolour, move the cursor, rename the window or write the
// clipboard; CR and backspace overwrite what was printed). Stored text is
// written by agents from runs over untrusted content (docs/SECURITY.md), so
// the CLI prints none of it for people without this; --json escapes them
// and session-context get --raw prints a value's bytes as stored.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

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
		"search", "patterns", "forget", "stats", "daily", "session-context", "dream", "personality", "help", "version", "completion", "mcp"}
	if i := slices.Index(known, name); i >= 0 {
		return i
	}
	return len(known)
}
