package apiclient

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// CreateExtraction sends a run's output (or learnings) for extraction
// (POST .../extractions): what was saved, reinforced and skipped
// (duplicates of existing memories, or a retried runId). The call is
// retried once on a transport failure or a 5xx/429, which is safe:
// extraction is idempotent per runId.
func (c *Client) CreateExtraction(ctx context.Context, agent string, in agentmem.ExtractionInput) (agentmem.ExtractionResult, error) {
	var out agentmem.ExtractionResult
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "extractions"), Body: in, Idempotent: true}, &out)
	return out, err
}
