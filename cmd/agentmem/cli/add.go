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

// addTypes are the memory types `add` creates (session has its own
// command; patterns come from extraction and pattern suggestion).
var addTypes = []agentmem.Type{agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeBlocker, agentmem.TypeNote, agentmem.TypeLearning}

func init() {
	Register(&Command{
		Name: "add", Args: "<project> <agent> finding|decision|blocker|note|learning <text...>", Group: GroupMemories,
		Summary: "add a memory: a finding, a decision with its rationale, a blocker, a note",
		Description: `Adds one memory (source "manual") to the agent's memory in the project. The words after the type are the text (quote it or not); "-" reads the text from standard input.

A decision's text is the choice; --rationale says why and --topic what was decided (stored as "TOPIC: CHOICE", shown in the Decision column of agentmem show). A blocker is open unless --status resolved.`,
		Examples: []string{
			`agentmem add checkout-service nori finding "The payment provider retries webhooks 3 times"`,
			`agentmem add checkout-service nori decision "use sqlc" --topic "ORM" --rationale "typed queries, no ORM magic"`,
			`agentmem add checkout-service nori blocker "CI has no Docker" --status open`,
			`git log -1 --format=%B | agentmem add checkout-service nori note -`,
		},
		Setup: func(fs *flag.FlagSet) Runner {
			var o addOptions
			fs.StringVar(&o.rationale, "rationale", "", "why the decision was taken (`WHY`, decision only)")
			fs.StringVar(&o.topic, "topic", "", "what was decided (`WHAT`, decision only): the Decision column")
			fs.StringVar(&o.status, "status", "", "blocker `STATUS`: open (default) or resolved")
			fs.Var(&o.tags, "tag", "a `TAG` (repeatable)")
			fs.BoolVar(&o.pin, "pin", false, "pin the memory (kept by Deep Dream)")
			o.json = JSONFlag(fs)
			return o.run
		},
	})
	Register(&Command{
		Name: "session", Args: "<project> <agent> <notes...>", Group: GroupMemories,
		Summary:     "log a session's notes (the document's Session Log; its session count goes up by one)",
		Description: `Adds a memory of type session with the notes; "-" reads them from standard input. agentmem show lists sessions in order as "### Session N — DATE" and counts them in the front matter.`,
		Examples: []string{
			`agentmem session checkout-service nori "Wired the webhook handler; retries still untested."`,
		},
		Setup: func(fs *flag.FlagSet) Runner {
			asJSON := JSONFlag(fs)
			return func(ctx context.Context, in *Invocation) error {
				project, agent, err := in.ProjectAgent(-1)
				if err != nil {
					return err
				}
				notes, err := textArg(in, in.Args[2:], "notes")
				if err != nil {
					return err
				}
				c, err := in.Client(ctx)
				if err != nil {
					return err
				}
				m, err := c.CreateMemory(ctx, agent, agentmem.MemoryInput{ProjectID: project, Type: agentmem.TypeSession, Content: notes})
				if err != nil {
					return err
				}
				if *asJSON {
					return writeJSON(in.Stdout, m)
				}
				sessions, err := c.AllMemories(ctx, agent, apiclient.ListOptions{ProjectID: project, Type: agentmem.TypeSession})
				if err != nil {
					in.Printf("logged a session for %s in %s (%s)\n", agent, project, m.ID)
					return nil
				}
				in.Printf("logged session %d for %s in %s (%s)\n", len(sessions), agent, project, m.ID)
				return nil
			}
		},
	})
}

type addOptions struct {
	rationale, topic, status string
	tags                     stringList
	pin                      bool
	json                     *bool
}

func (o *addOptions) run(ctx context.Context, in *Invocation) error {
	if len(in.Args) < 3 {
		return Usagef("expected agentmem add %s", in.Command.Args)
	}
	project, agent, err := in.ProjectAgent(-1)
	if err != nil {
		return err
	}
	typ := agentmem.Type(strings.ToLower(in.Args[2]))
	if !slices.Contains(addTypes, typ) {
		return Usagef("type %q: use finding, decision, blocker, note or learning (session notes: agentmem session)", in.Args[2])
	}
	text, err := textArg(in, in.Args[3:], "text")
	if err != nil {
		return err
	}
	if typ != agentmem.TypeDecision && (o.rationale != "" || o.topic != "") {
		return Usagef("--rationale and --topic are for decisions")
	}
	if typ != agentmem.TypeBlocker && o.status != "" {
		return Usagef("--status is for blockers")
	}
	if o.status != "" && o.status != agentmem.StatusOpen && o.status != agentmem.StatusResolved {
		return Usagef("--status must be open or resolved")
	}
	if typ == agentmem.TypeDecision {
		text = markdown.JoinDecision(o.topic, text)
	}
	c, err := in.Client(ctx)
	if err != nil {
		return err
	}
	m, err := c.CreateMemory(ctx, agent, agentmem.MemoryInput{
		ProjectID: project, Type: typ, Content: text, Rationale: o.rationale, Status: o.status, Tags: o.tags, Pinned: o.pin,
	})
	if err != nil {
		return err
	}
	if *o.json {
		return writeJSON(in.Stdout, m)
	}
	in.Printf("added %s %s for %s in %s\n", m.Type, m.ID, agent, project)
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
