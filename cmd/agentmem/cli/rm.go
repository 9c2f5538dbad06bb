package cli

import (
	"context"
	"flag"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/settings"
)

func init() {
	Register(&Command{
		Name: "rm", Args: "ID...", Group: GroupMemories,
		Summary:     "delete memories by id (agentmem list shows the ids)",
		Description: `Deletes each memory; the API only deletes memories of the given agent (--agent, or AGENTMEM_AGENT), so one agent's ids never reach another's memory. Every id is tried; the exit status is 3 when one was not found.`,
		Examples: []string{
			"agentmem rm --agent nori 01JKX3V5T2M8Q9R4S6W7Y0Z1AB",
			"agentmem list checkout-service nori --type note --json | jq -r '.memories[].id' | xargs agentmem rm --agent nori",
		},
		Setup: func(fs *flag.FlagSet) Runner {
			agentFlag := fs.String("agent", "", "the memories' agent `NAME` (env AGENTMEM_AGENT)")
			return func(ctx context.Context, in *Invocation) error {
				agent := *agentFlag
				if agent == "" {
					agent = settings.Agent.Get(in.Getenv)
				}
				if agent == "" {
					return Usagef("--agent is required (or AGENTMEM_AGENT)")
				}
				if err := agentmem.ValidateAgentName(agent); err != nil {
					return Usagef("--agent: %s", agentmem.ErrorMessage(err))
				}
				if len(in.Args) == 0 {
					return Usagef("expected at least one memory id")
				}
				c, err := in.Client(ctx)
				if err != nil {
					return err
				}
				if len(in.Args) == 1 {
					if err := c.DeleteMemory(ctx, agent, in.Args[0]); err != nil {
						return err
					}
					in.Printf("removed %s\n", in.Args[0])
					return nil
				}
				missing := 0
				for _, id := range in.Args {
					err := c.DeleteMemory(ctx, agent, id)
					switch {
					case apiclient.IsNotFound(err):
						missing++
						in.Notef("rm: no memory %s for agent %s", id, agent)
						continue
					case err != nil:
						return err // the next call would fail the same way
					}
					in.Printf("removed %s\n", id)
				}
				if missing > 0 {
					return agentmem.Errorf(agentmem.ENotFound, "%d of %d memories were not found", missing, len(in.Args))
				}
				return nil
			}
		},
	})
}
