package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
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
	res, err := extract.Run(ctx, llm.WithRetry(c), output)
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
