package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "personality", Group: GroupPersonality,
		Summary:     "get, set, remove or list agents' personalities",
		Description: `A personality is an agent's persona, shared by all its projects: display name, voice, traits, a free-form prompt, and the git identity agentmem inject --git sets. inject prepends it to CLAUDE.md as a "# Personality" section.`,
		Examples: []string{
			`agentmem personality set --agent nori --display-name Nori --voice "warm and terse" --trait pragmatic --trait test-first`,
			"agentmem personality get --agent nori",
		},
		Subcommands: []*Command{
			{
				Name: "get", Needs: NeedsAgent, Shorthand: ShorthandAlone,
				Summary: "print an agent's personality",
				Examples: []string{
					"agentmem personality get --agent nori",
					"AGENTMEM_AGENT=nori agentmem personality get --json",
					"agentmem personality get nori    # the shorthand",
				},
				New: func() Runner { return &personalityGetCommand{} },
			},
			{
				Name: "set", Needs: NeedsAgent, Shorthand: ShorthandAlone,
				Summary:     "create or change an agent's personality (only the fields given change)",
				Description: `Reads the current personality, changes the fields given on the command line and writes it back with its version, so that a concurrent change is refused (exit 1, code conflict) rather than lost. An empty value clears a field (--voice ""). --trait replaces the whole list of traits (repeat it; --trait "" clears them). A new personality needs --display-name or --prompt.`,
				Examples: []string{
					`agentmem personality set --agent nori --display-name Nori --voice "warm and terse" --trait pragmatic --trait test-first --git-name "Nori (agent)" --git-email nori@agents.example.com`,
					"agentmem personality set --agent nori --prompt-file nori-persona.md",
					`agentmem personality set nori --voice ""    # the shorthand`,
				},
				New: func() Runner { return &personalitySetCommand{} },
			},
			{
				Name: "rm", Needs: NeedsAgent, Shorthand: ShorthandAlone,
				Summary:  "delete an agent's personality",
				Examples: []string{"agentmem personality rm --agent nori", "agentmem personality rm nori    # the shorthand"},
				New:      func() Runner { return &personalityRmCommand{} },
			},
			{
				Name:     "ls",
				Summary:  "list every personality",
				Examples: []string{"agentmem personality ls", "agentmem personality ls --json"},
				New:      func() Runner { return &personalityListCommand{} },
			},
		},
	})
}

// agentClient returns the agent and the API client.
func agentClient(ctx context.Context, in *Invocation) (string, *apiclient.Client, error) {
	scope, err := in.Scope()
	if err != nil {
		return "", nil, err
	}
	c, err := in.Client(ctx)
	return scope.Agent, c, err
}

type personalityGetCommand struct{ json bool }

func (c *personalityGetCommand) Flags(fs *flag.FlagSet) { JSONFlag(fs, &c.json) }

func (c *personalityGetCommand) Run(ctx context.Context, in *Invocation) error {
	agent, client, err := agentClient(ctx, in)
	if err != nil {
		return err
	}
	p, err := client.GetPersonality(ctx, agent)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, p)
	}
	writePersonality(in.Stdout, p)
	return nil
}

type personalityRmCommand struct{ json bool }

func (c *personalityRmCommand) Flags(fs *flag.FlagSet) { JSONFlag(fs, &c.json) }

func (c *personalityRmCommand) Run(ctx context.Context, in *Invocation) error {
	agent, client, err := agentClient(ctx, in)
	if err != nil {
		return err
	}
	if err := client.DeletePersonality(ctx, agent); err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, struct {
			AgentName string `json:"agentName"`
			Deleted   bool   `json:"deleted"`
		}{agent, true})
	}
	in.Printf("deleted the personality of %s\n", agent)
	return nil
}

type personalityListCommand struct{ out OutputFlag }

func (c *personalityListCommand) Flags(fs *flag.FlagSet) { c.out.Define(fs) }

func (c *personalityListCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs(""); err != nil {
		return err
	}
	asJSON, err := c.out.JSON()
	if err != nil {
		return err
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	list, err := client.ListPersonalities(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if list == nil {
			list = []agentmem.Personality{}
		}
		return writeJSON(in.Stdout, map[string]any{"personalities": list})
	}
	if len(list) == 0 {
		in.Notef("no personalities yet (agentmem personality set --agent AGENT --display-name NAME)")
		return nil
	}
	tw := tabwriter.NewWriter(in.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tDISPLAY NAME\tVOICE\tVERSION\tUPDATED (UTC)")
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", p.AgentName, oneLine(p.DisplayName), oneLine(p.Voice), p.Version, shortTime(p.UpdatedAt))
	}
	return tw.Flush()
}

type personalitySetCommand struct {
	displayName, voice, prompt, promptFile, gitName, gitEmail string
	traits                                                    stringList
	json                                                      bool
}

func (c *personalitySetCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.displayName, "display-name", "", "the `NAME` the agent goes by")
	fs.StringVar(&c.voice, "voice", "", "how it writes (`TEXT`), e.g. \"warm and terse\"")
	fs.Var(&c.traits, "trait", "a `TRAIT` (repeatable; replaces the list)")
	fs.StringVar(&c.prompt, "prompt", "", "persona `TEXT` added to the section")
	fs.StringVar(&c.promptFile, "prompt-file", "", "read the prompt from `FILE` (- for standard input)")
	fs.StringVar(&c.gitName, "git-name", "", "git user.name `NAME` for inject --git")
	fs.StringVar(&c.gitEmail, "git-email", "", "git user.email `ADDRESS` for inject --git")
	JSONFlag(fs, &c.json)
}

func (c *personalitySetCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	agent := scope.Agent
	if in.IsSet("prompt") && in.IsSet("prompt-file") {
		return Usagef("--prompt and --prompt-file do not go together")
	}
	if c.promptFile != "" {
		var b []byte
		if c.promptFile == "-" {
			b, err = io.ReadAll(io.LimitReader(in.Stdin, agentmem.MaxPromptBytes+1))
		} else {
			b, err = os.ReadFile(c.promptFile)
		}
		if err != nil {
			return fmt.Errorf("read the prompt: %w", err)
		}
		c.prompt = string(b)
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	var in2 agentmem.PersonalityInput
	version := 0
	cur, err := client.GetPersonality(ctx, agent)
	switch {
	case err == nil:
		in2 = agentmem.PersonalityInput{DisplayName: cur.DisplayName, Voice: cur.Voice, Traits: cur.Traits,
			Prompt: cur.Prompt, GitName: cur.GitName, GitEmail: cur.GitEmail}
		version = cur.Version
	case !apiclient.IsNotFound(err):
		return err
	}
	set := func(flagName string, dst *string, v string) {
		if in.IsSet(flagName) {
			*dst = v
		}
	}
	set("display-name", &in2.DisplayName, c.displayName)
	set("voice", &in2.Voice, c.voice)
	set("git-name", &in2.GitName, c.gitName)
	set("git-email", &in2.GitEmail, c.gitEmail)
	if in.IsSet("prompt") || in.IsSet("prompt-file") {
		in2.Prompt = c.prompt
	}
	if in.IsSet("trait") {
		in2.Traits = nil
		for _, t := range c.traits {
			if strings.TrimSpace(t) != "" {
				in2.Traits = append(in2.Traits, t)
			}
		}
	}
	in2.Version = &version
	p, created, err := client.PutPersonality(ctx, agent, in2)
	if err != nil {
		if apiclient.HasCode(err, agentmem.EConflict) {
			return fmt.Errorf("%w (someone changed the personality of %s meanwhile; run the command again)", err, agent)
		}
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, p)
	}
	verb := "updated"
	if created {
		verb = "created"
	}
	in.Printf("%s the personality of %s (version %d)\n", verb, agent, p.Version)
	return nil
}

func writePersonality(w io.Writer, p agentmem.Personality) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", k, oneLine(v))
		}
	}
	row("agent", p.AgentName)
	row("display name", p.DisplayName)
	row("voice", p.Voice)
	row("traits", strings.Join(p.Traits, ", "))
	row("git name", p.GitName)
	row("git email", p.GitEmail)
	row("version", fmt.Sprintf("%d (updated %s UTC)", p.Version, shortTime(p.UpdatedAt)))
	_ = tw.Flush()
	if p.Prompt != "" {
		fmt.Fprintf(w, "prompt:\n%s\n", indent(printable(p.Prompt), "  "))
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
