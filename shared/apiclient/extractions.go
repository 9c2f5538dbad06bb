package apiclient

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/extract"
)

// ExtractionInput is the body of POST .../extractions, in one of two
// forms: Output (the server asks its LLM for the learnings) or Learnings,
// Summary and Success (the caller already extracted them, e.g. with the
// claude CLI in the agent's container). Both are idempotent per RunID.
type ExtractionInput struct {
	ProjectID string `json:"projectId"`
	RunID     string `json:"runId"`
	Output    string `json:"output,omitempty"`
	// Learnings is sent when not nil, an empty list too: a run that
	// taught nothing still records its summary.
	Learnings []Learning `json:"learnings,omitzero"`
	Summary   string     `json:"summary,omitempty"`
	// Success says whether the run achieved its goal (learnings form
	// only); the patterns of successful runs are captured.
	Success *bool `json:"success,omitempty"`
}

// Learning is one learning extracted by the caller: a memory type, its
// content and the typed fields of that type.
type Learning = extract.Learning

// Extraction is the answer of an extraction: what was saved, reinforced
// and skipped (duplicates of existing memories, or a retried runId).
type Extraction = agentmem.ExtractionResult

// Skipped is a learning that was not saved, and why.
type Skipped = agentmem.SkippedLearning

// CreateExtraction sends a run's output (or learnings) for extraction
// (POST .../extractions). The call is retried once on a transport failure
// or a 5xx/429, which is safe: extraction is idempotent per runId.
func (c *Client) CreateExtraction(ctx context.Context, agent string, in ExtractionInput) (Extraction, error) {
	var out Extraction
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "extractions"), Body: in, Idempotent: true}, &out)
	return out, err
}
