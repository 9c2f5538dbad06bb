package memoryapi

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/markdown"
)

// Bootstrap serves GET /api/agents/{agentName}/bootstrap.
func (a *API) Bootstrap(ctx context.Context, r *httpapi.Request) (httpapi.Response, error) {
	agent, project, err := scope(r)
	if err != nil {
		return httpapi.Response{}, err
	}
	task := ""
	if r.Query.Has("task") {
		if task, err = text(r, "task", "a description of the run's task, or leave the parameter out"); err != nil {
			return httpapi.Response{}, err
		}
	}
	// The reads are independent: run them side by side.
	type personalityResult struct {
		p   agentmem.Personality
		err error
	}
	pc := make(chan personalityResult, 1)
	go func() {
		p, err := a.Store.GetPersonality(ctx, agent)
		pc <- personalityResult{p, err}
	}()
	type patternsResult struct {
		s   []agentmem.ScoredMemory
		err error
	}
	sc := make(chan patternsResult, 1)
	go func() {
		if task == "" {
			sc <- patternsResult{}
			return
		}
		s, err := a.suggestions(ctx, agent, project, task, a.MinConfidence, DefaultSuggestLimit)
		sc <- patternsResult{s, err}
	}()
	page, err := a.Store.ListMemories(ctx, dynamostore.ListOptions{AgentName: agent, ProjectID: project})
	pr, sr := <-pc, <-sc
	if err != nil {
		return httpapi.Response{}, err
	}
	if sr.err != nil {
		return httpapi.Response{}, sr.err
	}
	out := agentmem.Bootstrap{AgentName: agent, ProjectID: project, MemoryCount: len(page.Memories), SuggestedPatterns: make([]agentmem.ScoredMemory, 0, len(sr.s))}
	switch agentmem.ErrorCode(pr.err) {
	case "":
		out.Personality = &pr.p
		out.PersonalitySection = markdown.PersonalitySection(pr.p)
	case agentmem.ENotFound:
	default:
		return httpapi.Response{}, pr.err
	}
	out.MemoryFile = markdown.MemoryFile(agent, project, page.Memories)
	if len(sr.s) > 0 {
		patterns := make([]agentmem.Memory, len(sr.s))
		for i, p := range sr.s {
			patterns[i] = p.Memory
		}
		out.SuggestedPatterns = sr.s
		out.MemoryFile += markdown.SuggestedPatterns(task, patterns)
	}
	return httpapi.JSON(http.StatusOK, out), nil
}
