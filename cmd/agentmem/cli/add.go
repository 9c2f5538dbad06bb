package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/markdown"
)

// addTypes are the memory types `add` creates (session notes have their
// own command).
var addTypes = []agentmem.Type{agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeBlocker, agentmem.TypeNote, agentmem.TypeLearning, agentmem.TypePattern}

func init() {
	Register(&Command{
		Name: "add", Args: "finding|decision|blocker|note|learning|pattern <text...>", Group: GroupMemories,
		Needs: NeedsAgentProject, Shorthand: ShorthandFirst, Keyword: isMemoryType,
		Summary: "add a memory: a finding, a decision with its rationale, a blocker, a note, a pattern",
		Description: `Adds one memory (source "manual") to the agent's memory in the project. The words after the type are the text (quote it or not); "-" reads the text from standard input.

A decision's text is the choice; --rationale says why and --topic what was decided (stored as "TOPIC: CHOICE", shown in the Decision column of agentmem show). A blocker is open unless --status resolved. A pattern's text names it; --trigger says when it applies, --context where, --solution what to do, and --confidence how sure it is (0 to 1; the server's default is 0.5): agentmem patterns and inject --task suggest the patterns above 0.7.

When the agent's memory already says the same (in other words, other case or punctuation, with or without backticks), nothing is added: the command names the memory that says it (exit 0); --allow-duplicate adds it anyway. --replaces ID adds the memory in place of an out-of-date one, which leaves MEMORY.md and search and stays in its history (agentmem history ID, agentmem restore).

In the shorthand, <project> <agent> come before the type: agentmem add checkout-service nori finding "...".`,
		Examples: []string{
			`agentmem add --agent nori --project checkout-service finding "The payment provider retries webhooks 3 times"`,
			`agentmem add --agent nori --project checkout-service decision "use sqlc" --topic "ORM" --rationale "typed queries, no ORM magic"`,
			`AGENTMEM_AGENT=nori AGENTMEM_PROJECT=checkout-service agentmem add blocker "CI has no Docker" --status open`,
			`git log -1 --format=%B | agentmem add --agent nori --project checkout-service note -`,
			`agentmem add --agent nori --project checkout-service pattern "Deduplicate webhook deliveries" --trigger "duplicate webhook deliveries" --solution "conditional put on the event id" --confidence 0.85`,
			`agentmem add checkout-service nori finding "Webhooks are signed"    # the shorthand`,
			`agentmem add --agent nori --project checkout-service finding "CI runs on Node 20" --replaces 01JKX3V5T2M8Q9R4S6W7Y0Z1AB`,
		},
		New: func() Runner { return &addCommand{} },
	})
	Register(&Command{
		Name: "session", Args: "<notes...>", Group: GroupMemories, Needs: NeedsAgentProject, Shorthand: ShorthandFirst,
		Summary:     "log a session's notes (the document's Session Log; its session count goes up by one)",
		Description: `Adds a memory of type session with the notes; "-" reads them from standard input. agentmem show lists sessions in order as "### Session N — DATE" and counts them in the front matter.`,
		Examples: []string{
			`agentmem session --agent nori --project checkout-service "Wired the webhook handler; retries still untested."`,
			`agentmem session checkout-service nori "Wired the webhook handler."    # the shorthand`,
		},
		New: func() Runner { return &sessionCommand{} },
	})
}

// isMemoryType reports whether word names a memory type: the word that
// follows the scope in add's shorthand.
func isMemoryType(word string) bool {
	return agentmem.Type(strings.ToLower(word)).Valid()
}

type addCommand struct {
	rationale, topic, status, replaces string
	trigger, context, solution         string
	confidence                         float64
	tags                               stringList
	pin, json, allowDuplicate          bool
}

func (c *addCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.rationale, "rationale", "", "why the decision was taken (`WHY`, decision only)")
	fs.StringVar(&c.topic, "topic", "", "what was decided (`WHAT`, decision only): the Decision column")
	fs.StringVar(&c.status, "status", "", "blocker `STATUS`: open (default) or resolved")
	fs.StringVar(&c.trigger, "trigger", "", "when the pattern applies (`WHEN`, pattern only)")
	fs.StringVar(&c.context, "context", "", "where it applies (`WHERE`, pattern only)")
	fs.StringVar(&c.solution, "solution", "", "what to do (`WHAT`, pattern only)")
	fs.Float64Var(&c.confidence, "confidence", 0, "how sure the pattern is, `X` from 0 to 1 (pattern only; default 0.5)")
	fs.Var(&c.tags, "tag", "a `TAG` (repeatable)")
	fs.BoolVar(&c.pin, "pin", false, "pin the memory (kept by Deep Dream)")
	fs.BoolVar(&c.allowDuplicate, "allow-duplicate", false, "add it even when a memory already says the same")
	fs.StringVar(&c.replaces, "replaces", "", "the `ID` of an out-of-date memory this one replaces (it stays in history)")
	JSONFlag(fs, &c.json)
}

func (c *addCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if len(in.Args) == 0 {
		return Usagef("expected agentmem add %s %s", in.Command.flagSynopsis(), in.Command.Args)
	}
	typ := agentmem.Type(strings.ToLower(in.Args[0]))
	if !slices.Contains(addTypes, typ) {
		hint := didYouMean(in.Args[0], stringsOf(addTypes))
		return Usagef("type %q: use finding, decision, blocker, note, learning or pattern (session notes: agentmem session)%s", in.Args[0], hint)
	}
	text, err := textArg(in, in.Args[1:], "text")
	if err != nil {
		return err
	}
	if typ != agentmem.TypeDecision && (c.rationale != "" || c.topic != "") {
		return Usagef("--rationale and --topic are for decisions")
	}
	if typ != agentmem.TypeBlocker && c.status != "" {
		return Usagef("--status is for blockers")
	}
	if c.status != "" && c.status != agentmem.StatusOpen && c.status != agentmem.StatusResolved {
		return Usagef("--status must be open or resolved")
	}
	if c.replaces != "" && !agentmem.ValidID(c.replaces) {
		return Usagef("--replaces %q is not a memory id (agentmem list shows them)", c.replaces)
	}
	patternFlag := in.IsSet("trigger") || in.IsSet("context") || in.IsSet("solution") || in.IsSet("confidence")
	if typ != agentmem.TypePattern && patternFlag {
		return Usagef("--trigger, --context, --solution and --confidence are for patterns")
	}
	var confidence *float64
	if in.IsSet("confidence") {
		if !(c.confidence >= 0 && c.confidence <= 1) {
			return Usagef("--confidence must be from 0 to 1")
		}
		confidence = &c.confidence
	}
	if typ == agentmem.TypeDecision {
		text = markdown.JoinDecision(c.topic, text)
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	r, err := client.CreateMemoryResult(ctx, scope.Agent, agentmem.MemoryInput{
		ProjectID: scope.Project, Type: typ, Content: text, Rationale: c.rationale, Status: c.status, Tags: c.tags, Pinned: c.pin,
		AllowDuplicate: c.allowDuplicate, Replaces: c.replaces,
		Trigger: c.trigger, Context: c.context, Solution: c.solution, Confidence: confidence,
	})
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, r)
	}
	m := r.Memory
	if r.Duplicate {
		in.Printf("not added: %s %s already says this (%s); --allow-duplicate adds it anyway\n", m.Type, m.ID, summaryLine(m, 60))
		return nil
	}
	in.Printf("added %s %s for %s in %s\n", m.Type, m.ID, scope.Agent, scope.Project)
	if r.Superseded != nil {
		in.Printf("it replaces %s, which stays in its history (agentmem history %s)\n", r.Superseded.ID, r.Superseded.ID)
	}
	return nil
}

type sessionCommand struct{ json bool }

func (c *sessionCommand) Flags(fs *flag.FlagSet) { JSONFlag(fs, &c.json) }

func (c *sessionCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	notes, err := textArg(in, in.Args, "notes")
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	m, err := client.CreateMemory(ctx, agent, agentmem.MemoryInput{ProjectID: project, Type: agentmem.TypeSession, Content: notes})
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, m)
	}
	sessions, err := client.AllMemories(ctx, agent, apiclient.ListOptions{ProjectID: project, Type: agentmem.TypeSession})
	if err != nil {
		in.Printf("logged a session for %s in %s (%s)\n", agent, project, m.ID)
		return nil
	}
	in.Printf("logged session %d for %s in %s (%s)\n", len(sessions), agent, project, m.ID)
	return nil
}

// textArg joins the words of a free-text argument; "-" reads standard
// input (up to a memory's size limit).
func textArg(in *Invocation, words []string, what string) (string, error) {
	return textArgMax(in, words, what, agentmem.MaxContentBytes)
}

// textArgMax is textArg for a text of at most max bytes: standard input
// is read up to one byte more, so that the API reports an over-long text
// rather than the CLI cutting it silently.
func textArgMax(in *Invocation, words []string, what string, max int) (string, error) {
	if len(words) == 1 && words[0] == "-" {
		if in.StdinIsTerminal() {
			return "", Usagef("%s is - but standard input is a terminal: pipe the %s in", what, what)
		}
		b, err := io.ReadAll(io.LimitReader(in.Stdin, int64(max)+1))
		if err != nil {
			return "", fmt.Errorf("read %s from standard input: %w", what, err)
		}
		words = []string{string(b)}
	}
	text := strings.TrimSpace(strings.Join(words, " "))
	if text == "" {
		return "", Usagef("the %s is missing", what)
	}
	return text, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set implements flag.Value.
func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}
