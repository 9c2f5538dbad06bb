package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "forget", Group: GroupSearch, Needs: NeedsAgentProject, Shorthand: ShorthandAlone, OwnTimeout: true,
		Summary:     "delete the agent's memories older than an age (asks first)",
		Description: `Deletes the agent's memories in the project created more than --older-than ago (whole hours, days or weeks: 12h, 30d, 2w); pinned memories are kept unless --include-pinned. It cannot be undone, so forget says how many memories it would delete and asks for confirmation on a terminal; --yes skips the question. Without a terminal and without --yes it refuses and exits 4, deleting nothing.`,
		Examples: []string{
			"agentmem forget --agent nori --project checkout-service --older-than 30d",
			"agentmem forget --agent nori --project checkout-service --older-than 2w --include-pinned --yes",
			"agentmem forget checkout-service nori --older-than 30d    # the shorthand",
		},
		New: func() Runner { return &forgetCommand{} },
	})
}

type forgetCommand struct {
	olderThan                string
	includePinned, yes, json bool
}

func (c *forgetCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.olderThan, "older-than", "", "the `AGE` beyond which memories go: 12h, 30d, 2w")
	fs.BoolVar(&c.includePinned, "include-pinned", false, "forget pinned memories too")
	fs.BoolVar(&c.yes, "yes", false, "do not ask for confirmation")
	JSONFlag(fs, &c.json)
}

func (c *forgetCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	if c.olderThan == "" {
		return Usagef("--older-than is required, e.g. --older-than 30d")
	}
	age, err := agentmem.ParseAge(c.olderThan)
	if err != nil {
		return Usagef("--older-than: %s", strings.Replace(agentmem.ErrorMessage(err), "olderThan ", "", 1))
	}
	what := fmt.Sprintf("the memories of agent %s in project %s older than %s", agent, project, c.olderThan)
	if !c.yes && !in.StdinIsTerminal() {
		return &RefusedError{Message: "refusing to forget " + what + " without confirmation: standard input is not a terminal; pass --yes"}
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	if !c.yes {
		cutoff := agentmem.FormatTime(in.Now().Add(-age))
		n, pinned, err := countOlder(ctx, in, client, agent, project, cutoff, c.includePinned)
		if err != nil {
			return err
		}
		if n == 0 {
			in.Notef("forget: %s has no memories in %s older than %s; nothing to forget", agent, project, c.olderThan)
			return nil
		}
		kept := ""
		if pinned > 0 {
			kept = fmt.Sprintf(" (%d pinned kept)", pinned)
		}
		q := fmt.Sprintf("Forget %d memor%s of agent %s in project %s created before %s UTC%s?", n, pluralY(n), agent, project, shortTime(cutoff), kept)
		if err := confirm(in, q, "nothing was forgotten"); err != nil {
			return err
		}
	}
	tctx, cancel := in.WithTimeout(ctx)
	defer cancel()
	res, err := client.ForgetMemories(tctx, agent, agentmem.ForgetInput{ProjectID: project, OlderThan: c.olderThan, IncludePinned: c.includePinned})
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(in.Stdout, res)
	}
	if res.Status == agentmem.JobRunning {
		// A large scope: the server goes on in the background. Follow it
		// while the command's time lasts.
		j, err := client.WaitJob(tctx, agent, res.JobID)
		if err != nil && j.ID == "" {
			in.Printf("forgetting memories of %s in %s created before %s UTC: %d removed so far; the server goes on in the background (job %s)\n",
				agent, project, shortTime(res.Cutoff), res.Removed, res.JobID)
			return nil
		}
		res.Removed, res.Status = j.Removed, j.Status
		if j.Status == agentmem.JobFailed {
			return fmt.Errorf("forgetting stopped after %d memor%s: %s", j.Removed, pluralY(int(j.Removed)), j.Error)
		}
		if j.Status == agentmem.JobRunning {
			in.Printf("forgetting memories of %s in %s created before %s UTC: %d removed so far; the server goes on in the background (job %s)\n",
				agent, project, shortTime(res.Cutoff), j.Removed, res.JobID)
			return nil
		}
	}
	in.Printf("forgot %d memor%s of %s in %s (created before %s UTC)\n", res.Removed, pluralY(int(res.Removed)), agent, project, shortTime(res.Cutoff))
	return nil
}

// countOlder counts the scope's memories created before cutoff that a
// forget would delete, and the pinned ones it would keep, within the
// command's timeout.
func countOlder(ctx context.Context, in *Invocation, c *apiclient.Client, agent, project, cutoff string, includePinned bool) (n, pinned int, err error) {
	tctx, cancel := in.WithTimeout(ctx)
	defer cancel()
	all, err := c.AllMemories(tctx, agent, apiclient.ListOptions{ProjectID: project})
	for _, m := range all {
		switch {
		case m.CreatedAt >= cutoff:
		case m.Pinned && !includePinned:
			pinned++
		default:
			n++
		}
	}
	return n, pinned, err
}
