package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/extract"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/claude"
)

// ClaudeTimeout is the default timeout of extract --llm claude: the claude
// call itself takes seconds.
const ClaudeTimeout = 60 * time.Second

func init() {
	extractors[llm.ProviderClaude] = Extractor{
		Run:     extractWithClaude,
		Timeout: ClaudeTimeout,
		Help:    "claude (the claude CLI in this container extracts; the learnings are sent)",
	}
}

// currentMemories returns the newest memories of the scope, which the
// prompt shows so that the model neither repeats them nor misses one it
// should replace; best effort: without them the extraction still runs
// (the server skips repeats either way).
func currentMemories(ctx context.Context, in *Invocation, project string) []agentmem.Memory {
	scope, err := in.Scope()
	if err != nil {
		return nil
	}
	client, err := in.Client(ctx)
	if err != nil {
		return nil
	}
	page, err := client.ListMemories(ctx, scope.Agent, apiclient.ListOptions{ProjectID: project, Limit: agentmem.MaxListLimit})
	if err != nil {
		in.Notef("extract: the scope's memories were not read (%v); extracting without them", err)
		return nil
	}
	return page.Memories
}

// extractWithClaude runs the claude CLI on the run's output with the shared
// extraction prompt (package extract) and returns the learnings form of the
// extraction route's body: learnings, summary and success. The claude
// command, model, token cap and call timeout come from the AGENTMEM_LLM*
// and AGENTMEM_CLAUDE_COMMAND settings (llm.ConfigFromEnv); the provider
// is always claude.
func extractWithClaude(ctx context.Context, in *Invocation, base agentmem.ExtractionInput, output string) (agentmem.ExtractionInput, []agentmem.SkippedLearning, error) {
	cfg, err := llm.ConfigFromEnv(in.Getenv)
	if err != nil {
		return base, nil, Usagef("%v", err)
	}
	cfg.Provider = llm.ProviderClaude
	c, err := claude.New(cfg)
	if err != nil {
		return base, nil, err
	}
	res, err := extract.Run(ctx, llm.WithRetry(c), output, currentMemories(ctx, in, base.ProjectID)...)
	if err != nil {
		return base, nil, fmt.Errorf("the claude CLI extracted nothing: %w", err)
	}
	base.Learnings = make([]agentmem.Learning, 0, len(res.Learnings))
	for _, l := range res.Learnings {
		base.Learnings = append(base.Learnings, agentmem.Learning(l))
	}
	base.Summary, base.Success = res.Summary, &res.Success
	skipped := make([]agentmem.SkippedLearning, 0, len(res.Skipped))
	for _, s := range res.Skipped {
		skipped = append(skipped, agentmem.SkippedLearning(s))
	}
	return base, skipped, nil
}
