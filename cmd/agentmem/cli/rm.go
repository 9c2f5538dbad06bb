package cli

import (
	"context"
	"flag"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

func init() {
	Register(&Command{
		Name: "rm", Args: "ID...", Group: GroupMemories, Needs: NeedsAgent,
		Summary:     "delete memories by id (agentmem list shows the ids)",
		Description: `Deletes each memory; the API only deletes memories of the given agent (--agent, or AGENTMEM_AGENT), so one agent's ids never reach another's memory. Every id is tried; the exit status is 3 when one was not found.`,
		Examples: []string{
			"agentmem rm --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB",
			"agentmem list --agent nori --project checkout-service --type note --json | jq -r '.memories[].id' | xargs agentmem rm --agent nori",
		},
		New: func() Runner { return &rmCommand{} },
	})
}

type rmCommand struct{ json bool }

func (c *rmCommand) Flags(fs *flag.FlagSet) { JSONFlag(fs, &c.json) }

// rmResult is rm's --json answer.
type rmResult struct {
	AgentName string   `json:"agentName"`
	Removed   []string `json:"removed"`
	NotFound  []string `json:"notFound"`
}

func (c *rmCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	agent := scope.Agent
	if len(in.Args) == 0 {
		return Usagef("expected at least one memory id")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	res := rmResult{AgentName: agent, Removed: []string{}, NotFound: []string{}}
	for _, id := range in.Args {
		err := client.DeleteMemory(ctx, agent, id)
		switch {
		case apiclient.IsNotFound(err) && len(in.Args) > 1:
			res.NotFound = append(res.NotFound, id)
			if !c.json {
				in.Notef("rm: no memory %s for agent %s", id, agent)
			}
			continue
		case err != nil:
			return err // the next call would fail the same way
		}
		res.Removed = append(res.Removed, id)
		if !c.json {
			in.Printf("removed %s\n", id)
		}
	}
	if c.json {
		if err := writeJSON(in.Stdout, res); err != nil {
			return err
		}
	}
	if n := len(res.NotFound); n > 0 {
		return agentmem.Errorf(agentmem.ENotFound, "%d of %d memories were not found", n, len(in.Args))
	}
	return nil
}
