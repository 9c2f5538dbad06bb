package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/markdown"
)

func init() {
	Register(&Command{
		Name: "show", Group: GroupMemories, Needs: NeedsAgentProject, Shorthand: ShorthandAlone,
		Summary: "print the agent's memory document: findings, decisions, blockers, session log",
		Description: `Reads every memory of the agent in the project (page by page, however many) and prints its memory document: YAML front matter (agent, project, created and updated: the dates of the oldest and newest memory, sessions: how many session notes), then the sections Findings, Decisions (a table: decision, choice, rationale, date), Blockers ("- [ ]" open, "- [x] ~~...~~" resolved), Learnings, Patterns and Notes when there are any, and the Session Log. Each section is in the order the memories were added.

A decision's Choice is its content and Rationale its rationale; the Decision column (what was decided) is filled when the content reads "TOPIC: CHOICE", which is what add ... decision --topic stores.

--write saves the document as ./<agent>.memory.md, atomically.

Without memories the document is empty, and a note on stderr says whether the agent has memories in other projects or a personality; an agent with neither (a misspelt name?) gets a warning naming the closest known agent. The exit status stays 0.`,
		Examples: []string{
			"agentmem show --agent nori --project checkout-service",
			"agentmem show --agent nori --project checkout-service --write    # saves ./nori.memory.md",
			"agentmem show --agent nori --project checkout-service --json | jq .sessions",
			"agentmem show checkout-service nori    # the shorthand",
		},
		New: func() Runner { return &showCommand{} },
	})
}

type showCommand struct{ write, json bool }

func (c *showCommand) Flags(fs *flag.FlagSet) {
	fs.BoolVar(&c.write, "write", false, "save the document as ./<agent>.memory.md instead of printing it")
	JSONFlag(fs, &c.json)
}

func (c *showCommand) Run(ctx context.Context, in *Invocation) error {
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if c.write && c.json {
		return Usagef("--write and --json do not go together")
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	memories, err := client.AllMemories(ctx, agent, apiclient.ListOptions{ProjectID: project})
	if err != nil {
		return err
	}
	if len(memories) == 0 {
		noteEmptyScope(ctx, in, client, agent, project)
	}
	if c.json {
		if memories == nil {
			memories = []agentmem.Memory{}
		}
		return writeJSON(in.Stdout, struct {
			markdown.DocumentHeader
			Memories []agentmem.Memory `json:"memories"`
		}{markdown.NewDocumentHeader(agent, project, memories, in.Now()), memories})
	}
	doc := markdown.Document(agent, project, memories, in.Now())
	if !c.write {
		in.PrintDoc(doc)
		return nil
	}
	path := agent + ".memory.md"
	root, err := os.OpenRoot(".")
	if err != nil {
		return err
	}
	defer root.Close()
	if _, err := writeFileAtomic(root, path, []byte(doc), 0o644); err != nil {
		return err
	}
	in.Notef("wrote %s (%d memories)", path, len(memories))
	return nil
}

// noteEmptyScope says on stderr why a scope shows no memories: the agent
// has memories elsewhere, or a personality, or (a misspelt name?) nothing
// anywhere, then with the closest agent name the API knows. Best effort:
// a failed lookup leaves the plain note.
func noteEmptyScope(ctx context.Context, in *Invocation, client *apiclient.Client, agent, project string) {
	var elsewhere, agents []string
	seen := map[string]bool{}
	for cursor, first := "", true; first || cursor != ""; first = false {
		page, err := client.GetAllStats(ctx, in.scopesPage(), cursor)
		if err != nil {
			break
		}
		for _, s := range page.Scopes {
			if s.AgentName == agent && s.Total > 0 {
				elsewhere = append(elsewhere, s.ProjectID)
			}
			if !seen[s.AgentName] {
				seen[s.AgentName] = true
				agents = append(agents, s.AgentName)
			}
		}
		cursor = page.NextCursor
	}
	switch {
	case len(elsewhere) > 0:
		if len(elsewhere) > 3 {
			elsewhere = append(elsewhere[:3], "...")
		}
		in.Notef("%s has no memories in %s (it has some in %s)", agent, project, strings.Join(elsewhere, ", "))
		return
	}
	if _, err := client.GetPersonality(ctx, agent); err == nil {
		in.Notef("%s has no memories in %s yet", agent, project)
		return
	}
	guess := "agentmem stats lists every agent and project"
	if best := closest(agent, agents); best != "" {
		guess = fmt.Sprintf("did you mean %q? %s", best, guess)
	}
	in.Notef("warning: agent %q has no memories in any project and no personality: is the name right? (%s)", agent, guess)
}
