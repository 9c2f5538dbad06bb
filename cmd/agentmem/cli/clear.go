package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
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
	j, err := client.DeleteMemories(tctx, agent, project)
	if err != nil {
		return err
	}
	if j.Status == agentmem.JobRunning {
		// A large scope: the server goes on in the background. Follow it
		// while the command's time lasts.
		if j, err = client.WaitJob(tctx, agent, j.ID); err != nil && j.ID == "" {
			return err
		}
	}
	if c.json {
		out := struct {
			AgentName string             `json:"agentName"`
			ProjectID string             `json:"projectId"`
			Cleared   bool               `json:"cleared"`
			Removed   int64              `json:"removed"`
			Status    agentmem.JobStatus `json:"status"`
			JobID     string             `json:"jobId,omitempty"`
		}{agent, project, j.Status == agentmem.JobDone, j.Removed, j.Status, ""}
		if j.Status == agentmem.JobRunning {
			out.JobID = j.ID
		}
		if err := writeJSON(in.Stdout, out); err != nil {
			return err
		}
		if j.Status == agentmem.JobFailed {
			return fmt.Errorf("deleting %s stopped after %d memor%s: %s", what, j.Removed, pluralY(int(j.Removed)), j.Error)
		}
		return nil
	}
	return reportJob(in, j, what)
}

// reportJob prints how a bulk delete ended, or where it stands when it
// goes on in the background; a failed job is an error.
func reportJob(in *Invocation, j agentmem.Job, what string) error {
	switch j.Status {
	case agentmem.JobDone:
		in.Printf("deleted %s: %d memor%s removed\n", what, j.Removed, pluralY(int(j.Removed)))
	case agentmem.JobRunning:
		in.Printf("deleting %s: %d memor%s removed so far; the server goes on in the background (job %s)\n",
			what, j.Removed, pluralY(int(j.Removed)), j.ID)
	default:
		return fmt.Errorf("deleting %s stopped after %d memor%s: %s", what, j.Removed, pluralY(int(j.Removed)), j.Error)
	}
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
