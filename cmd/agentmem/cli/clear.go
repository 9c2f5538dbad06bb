package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "clear", Group: GroupMemories, Needs: NeedsAgentProject, Shorthand: ShorthandAlone, OwnTimeout: true,
		Summary:     "delete every memory of the agent in the project (asks first)",
		Description: `Deletes every memory of the agent in the project, however many. It cannot be undone, so clear asks for confirmation on a terminal; --yes skips the question. Without a terminal (a script, a pipe) and without --yes it refuses and exits 4, deleting nothing.`,
		Examples: []string{
			"agentmem clear --agent nori --project checkout-service",
			"agentmem clear --agent nori --project checkout-service --yes",
			"agentmem clear checkout-service nori    # the shorthand",
		},
		New: func() Runner { return &clearCommand{} },
	})
}

type clearCommand struct{ yes, json bool }

func (c *clearCommand) Flags(fs *flag.FlagSet) {
	fs.BoolVar(&c.yes, "yes", false, "do not ask for confirmation")
	JSONFlag(fs, &c.json)
}

func (c *clearCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	what := fmt.Sprintf("every memory of agent %s in project %s", agent, project)
	if !c.yes && !in.StdinIsTerminal() {
		return &RefusedError{Message: "refusing to delete " + what + " without confirmation: standard input is not a terminal; pass --yes"}
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	if !c.yes {
		n, err := count(ctx, in, client, agent, project)
		if err != nil {
			return err
		}
		if n == 0 {
			in.Notef("clear: %s has no memories in %s; nothing to delete", agent, project)
			return nil
		}
		q := fmt.Sprintf("Delete all %d memories of agent %s in project %s?", n, agent, project)
		if err := confirm(in, q, "nothing was deleted"); err != nil {
			return err
		}
	}
	tctx, cancel := in.WithTimeout(ctx)
	defer cancel()
	if err := client.DeleteMemories(tctx, agent, project); err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, struct {
			AgentName string `json:"agentName"`
			ProjectID string `json:"projectId"`
			Cleared   bool   `json:"cleared"`
		}{agent, project, true})
	}
	in.Printf("deleted %s\n", what)
	return nil
}

// confirm asks question on the terminal ("This cannot be undone. [y/N]"
// follows) and returns a *RefusedError saying nothing happened unless the
// answer is y or yes.
func confirm(in *Invocation, question, nothing string) error {
	fmt.Fprintf(in.Stderr, "%s This cannot be undone. [y/N] ", question)
	answer, _ := bufio.NewReader(in.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return &RefusedError{Message: "not confirmed; " + nothing}
	}
	return nil
}

// count counts the memories of a scope within the command's timeout.
func count(ctx context.Context, in *Invocation, c *apiclient.Client, agent, project string) (int, error) {
	tctx, cancel := in.WithTimeout(ctx)
	defer cancel()
	all, err := c.AllMemories(tctx, agent, apiclient.ListOptions{ProjectID: project})
	return len(all), err
}
