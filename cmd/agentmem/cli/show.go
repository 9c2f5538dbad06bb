package cli

import (
	"context"
	"flag"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/markdown"
)

func init() {
	Register(&Command{
		Name: "show", Args: "<project> <agent>", Group: GroupMemories,
		Summary: "print the agent's memory document: findings, decisions, blockers, session log",
		Description: `Reads every memory of the agent in the project (page by page, however many) and prints seed 004's memory document: YAML front matter (agent, project, created and updated: the dates of the oldest and newest memory, sessions: how many session notes), then the sections Findings, Decisions (a table: decision, choice, rationale, date), Blockers ("- [ ]" open, "- [x] ~~...~~" resolved), Learnings, Patterns and Notes when there are any, and the Session Log. Each section is in the order the memories were added.

A decision's Choice is its content and Rationale its rationale; the Decision column (what was decided) is filled when the content reads "TOPIC: CHOICE", which is what add ... decision --topic stores.

--write saves the document as ./<agent>.memory.md (seed 004's file), atomically.`,
		Examples: []string{
			"agentmem show checkout-service nori",
			"agentmem show checkout-service nori --write    # saves ./nori.memory.md",
			"agentmem show checkout-service nori --json | jq .sessions",
		},
		Setup: func(fs *flag.FlagSet) Runner {
			write := fs.Bool("write", false, "save the document as ./<agent>.memory.md instead of printing it")
			asJSON := JSONFlag(fs)
			return func(ctx context.Context, in *Invocation) error {
				project, agent, err := in.ProjectAgent(0)
				if err != nil {
					return err
				}
				if *write && *asJSON {
					return Usagef("--write and --json do not go together")
				}
				c, err := in.Client(ctx)
				if err != nil {
					return err
				}
				memories, err := c.AllMemories(ctx, agent, apiclient.ListOptions{ProjectID: project})
				if err != nil {
					return err
				}
				if *asJSON {
					if memories == nil {
						memories = []agentmem.Memory{}
					}
					return writeJSON(in.Stdout, struct {
						markdown.DocumentHeader
						Memories []agentmem.Memory `json:"memories"`
					}{markdown.NewDocumentHeader(agent, project, memories, in.Now()), memories})
				}
				doc := markdown.Document(agent, project, memories, in.Now())
				if !*write {
					in.Printf("%s", doc)
					return nil
				}
				path := agent + ".memory.md"
				if _, err := writeFileAtomic(path, []byte(doc), 0o644); err != nil {
					return err
				}
				in.Notef("wrote %s (%d memories)", path, len(memories))
				return nil
			}
		},
	})
}
