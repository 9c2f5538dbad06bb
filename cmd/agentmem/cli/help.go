package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

func init() {
	Register(&Command{
		Name: "help", Args: "[command [subcommand]]", Group: GroupOther,
		Summary:     "show this help, or a command's flags and examples",
		Description: "Without an argument, lists the commands, the environment and the exit codes. With a command, prints the same as `agentmem <command> --help`.",
		Examples:    []string{"agentmem help inject", "agentmem help personality set"},
		New:         func() Runner { return &helpCommand{} },
	})
}

type helpCommand struct{}

func (*helpCommand) Flags(*flag.FlagSet) {}

func (*helpCommand) Run(_ context.Context, in *Invocation) error {
	if len(in.Args) == 0 {
		writeMainHelp(in.Stdout)
		return nil
	}
	cmd := lookup(commands, in.Args[0])
	if cmd == nil {
		return Usagef("unknown command %q%s", in.Args[0], didYouMean(in.Args[0], commandNames(commands)))
	}
	path := cmd.Name
	if len(in.Args) > 1 && len(cmd.Subcommands) > 0 {
		sub := lookup(cmd.Subcommands, in.Args[1])
		if sub == nil {
			return Usagef("unknown command %q%s", path+" "+in.Args[1], didYouMean(in.Args[1], commandNames(cmd.Subcommands)))
		}
		cmd, path = sub, path+" "+sub.Name
	}
	var fs *flag.FlagSet
	if cmd.New != nil {
		target, _ := newInvocation(in.Env, cliSettings{}, globals{}, cmd, path)
		fs = target.Flags
	}
	writeCommandHelp(in.Stdout, path, cmd, fs)
	return nil
}

const mainIntro = `agentmem: long-term memory and personalities for AI coding agents.

Usage: agentmem [global flags] <command> [arguments] [flags]
       agentmem --version
`

const mainFooter = `Agent and project:
  Commands that work on an agent's memory in a project take --agent NAME and --project ID, which
  default to AGENTMEM_AGENT and AGENTMEM_PROJECT (except stats: without them it counts every scope).
  The memory, search, daily log, dream and personality commands also take them as their first
  arguments, project first (the shorthand): agentmem list checkout-service nori is
  agentmem list --agent nori --project checkout-service. Given both ways, they must be the same.

Global flags (before or after the command):
  --api-url URL       the API's base URL (env AGENTMEM_API_URL), e.g.
                      https://<api-id>.execute-api.<region>.amazonaws.com, or http://127.0.0.1:3000 for make dev
  --auth MODE         sigv4: sign with AWS SigV4 (service execute-api) using the default credential chain
                      (env, shared config, ECS task role); none: unsigned, for make dev (env AGENTMEM_AUTH)
  --timeout DURATION  bound on the whole command: 3s for inject, extract and context flush (60s for
                      extract --llm claude), 30s otherwise (env AGENTMEM_TIMEOUT)
  --version           print the version, commit and build date, as agentmem version does

Environment:
  AGENTMEM_API_URL, AGENTMEM_AUTH, AGENTMEM_TIMEOUT  as the flags above
  AGENTMEM_REGION     SigV4 signing region (default: from an execute-api host name, else AWS_REGION)
  AGENTMEM_AGENT, AGENTMEM_PROJECT, AGENTMEM_RUN_ID  defaults for --agent, --project and --run-id
  AGENTMEM_SESSION_ID default for --session of session-context and mcp (else AGENTMEM_RUN_ID)
  AGENTMEM_CLAUDE_COMMAND, AGENTMEM_LLM_MODEL  the claude CLI and model of extract --llm claude
  AWS_*               the AWS credential chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, the ECS container credentials)

Exit codes:
  0  success; also failures of inject, extract and context flush without --strict (one warning line)
  1  failure: the API refused the call or could not be reached, a file could not be written, or
     --api-url reaches something else than the agentmem API (a base URL ending in /api, another server)
  2  usage: unknown command or flag, missing or bad argument
  3  not found: no such memory, personality, daily log day, dream or session key
  4  refused: clear and forget need a confirmation (a terminal, or --yes)

Run 'agentmem <command> --help' for a command's flags and examples; agentmem completion bash|zsh|fish
completes them in your shell.
`

func writeMainHelp(w io.Writer) {
	fmt.Fprint(w, mainIntro)
	for _, g := range groups {
		list := sortedCommands(g)
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", g)
		for _, c := range list {
			fmt.Fprintf(w, "  %-15s %s\n", c.Name, c.Summary)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, mainFooter)
}

// writeCommandHelp prints a command's usage, description, flags (fs, nil
// for a command with subcommands) and examples.
func writeCommandHelp(w io.Writer, path string, c *Command, fs *flag.FlagSet) {
	synopsis := func(scope string) string {
		s := "agentmem " + path
		for _, part := range []string{scope, c.Args} {
			if part != "" {
				s += " " + part
			}
		}
		if len(c.Subcommands) > 0 {
			return s + " <command>"
		}
		return s + " [flags]"
	}
	summary := c.Summary
	if summary != "" {
		summary = strings.ToUpper(summary[:1]) + summary[1:] + "."
	}
	fmt.Fprintf(w, "Usage: %s\n", synopsis(c.flagSynopsis()))
	if c.Shorthand != NoShorthand {
		fmt.Fprintf(w, "   or: %s\n", synopsis(c.shorthandSynopsis()))
	}
	fmt.Fprintf(w, "\n%s\n", wrap(summary, 0))
	if c.Description != "" {
		for _, p := range strings.Split(c.Description, "\n\n") {
			fmt.Fprintf(w, "\n%s\n", wrap(p, 0))
		}
	}
	if c.Shorthand == ShorthandFirst && c.Keyword == nil {
		fmt.Fprintf(w, "\n%s\n", wrap("When --agent and --project, or AGENTMEM_AGENT and AGENTMEM_PROJECT, already give the agent and the project, the first two words are the shorthand only if they repeat them. If only one of the two repeats them, the command is refused as ambiguous when the agent and the project come from the environment alone; with --agent and --project, the words are text.", 0))
	}
	if len(c.Subcommands) > 0 {
		fmt.Fprintf(w, "\nCommands:\n")
		for _, s := range c.Subcommands {
			fmt.Fprintf(w, "  %-8s %s\n", s.Name, s.Summary)
		}
		fmt.Fprintf(w, "\nRun 'agentmem %s <command> --help' for a command's flags.\n", path)
	}
	if fs != nil {
		var own []*flag.Flag
		fs.VisitAll(func(f *flag.Flag) {
			if !isGlobal(f.Name) {
				own = append(own, f)
			}
		})
		if len(own) > 0 {
			fmt.Fprintf(w, "\nFlags:\n")
			for _, f := range own {
				name, usage := flag.UnquoteUsage(f)
				head := "  --" + f.Name
				if name != "" {
					head += " " + name
				}
				if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
					usage += fmt.Sprintf(" (default %s)", f.DefValue)
				}
				if len(head) < 21 {
					fmt.Fprintf(w, "%-22s%s\n", head, usage)
				} else {
					fmt.Fprintf(w, "%s\n%22s%s\n", head, "", usage)
				}
			}
		}
		fmt.Fprintf(w, "\nGlobal flags: --api-url URL, --auth sigv4|none, --timeout DURATION (see agentmem help).\n")
	}
	fmt.Fprintf(w, "\nExamples:\n")
	for _, e := range c.Examples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// wrap folds a paragraph at 80 columns; lines starting with two spaces
// (examples) are kept as they are, list items ("- ") get a hanging indent.
func wrap(p string, indent int) string {
	var out []string
	for _, line := range strings.Split(p, "\n") {
		if strings.HasPrefix(line, "  ") {
			out = append(out, line)
			continue
		}
		hang := ""
		if strings.HasPrefix(line, "- ") {
			hang = "  "
		}
		cur, empty := "", true
		for _, word := range strings.Fields(line) {
			if !empty && len(cur)+1+len(word) > 80-indent {
				out = append(out, cur)
				cur, empty = hang, true
			}
			if !empty {
				cur += " "
			}
			cur, empty = cur+word, false
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
