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
		Name: "rm", Args: "ID...", Group: GroupMemories, Needs: NeedsAgent,
		Summary:     "delete memories by id (agentmem list shows the ids)",
		Description: `Deletes each memory; the API only deletes memories of the given agent (--agent, or AGENTMEM_AGENT), so one agent's ids never reach another's memory. Every id is tried, also after one that is not found or not a memory id; the exit status is 3 when one was not found, 1 when one was refused. When the API fails (unreachable, a 5xx), rm stops there and says which ids it did not try; with --json the answer lists removed, notFound, failed (each id with the error) and notTried.`,
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
	AgentName string     `json:"agentName"`
	Removed   []string   `json:"removed"`
	NotFound  []string   `json:"notFound"`
	Failed    []rmFailed `json:"failed"`
	NotTried  []string   `json:"notTried"`
}

// rmFailed is an id the API did not delete, and why.
type rmFailed struct {
	ID    string `json:"id"`
	Error string `json:"error"`
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
	res := rmResult{AgentName: agent, Removed: []string{}, NotFound: []string{}, Failed: []rmFailed{}, NotTried: []string{}}
	var failure error // the first failure other than not found
	for i, id := range in.Args {
		err := client.DeleteMemory(ctx, agent, id)
		switch {
		case err == nil:
			res.Removed = append(res.Removed, id)
			if !c.json {
				in.Printf("removed %s\n", id)
			}
			continue
		case apiclient.IsNotFound(err) && len(in.Args) > 1:
			res.NotFound = append(res.NotFound, id)
			if !c.json {
				in.Notef("rm: no memory %s for agent %s", id, agent)
			}
			continue
		case apiclient.IsNotFound(err):
			return err
		}
		res.Failed = append(res.Failed, rmFailed{ID: id, Error: err.Error()})
		if failure == nil {
			failure = err
		}
		if apiclient.HasCode(err, agentmem.EInvalid) {
			// This id is refused; the others may not be.
			if !c.json {
				in.Notef("rm: %s not removed: %v", id, err)
			}
			continue
		}
		// The API failed: the next call would fail the same way.
		res.NotTried = append(res.NotTried, in.Args[i+1:]...)
		if !c.json {
			in.Notef("rm: %s not removed", id)
			if len(res.NotTried) > 0 {
				in.Notef("rm: not tried: %s", strings.Join(res.NotTried, " "))
			}
		}
		break
	}
	if c.json {
		if err := writeJSON(in.Stdout, res); err != nil {
			return err
		}
	}
	switch n := len(res.NotFound); {
	case failure != nil && len(res.Failed) == 1 && len(res.NotTried) == 0 && n == 0:
		return failure
	case failure != nil:
		return fmt.Errorf("%d of %d memories were not removed: %w", len(in.Args)-len(res.Removed), len(in.Args), failure)
	case n > 0:
		return agentmem.Errorf(agentmem.ENotFound, "%d of %d memories were not found", n, len(in.Args))
	}
	return nil
}
