package apiclient

import (
	"context"
	"net/http"

	"github.com/agentmem/agentmem/shared/agentmem"
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
	// Success is the extractor's judgement of whether the run achieved
	// its goal (with Learnings only).
	Success *bool `json:"success,omitempty"`
}

// Learning is one learning extracted by the caller: a memory type, its
// content and the typed fields of that type.
type Learning struct {
	Type       agentmem.Type `json:"type"`
	Content    string        `json:"content"`
	Rationale  string        `json:"rationale,omitempty"`
	Status     string        `json:"status,omitempty"`
	Trigger    string        `json:"trigger,omitempty"`
	Context    string        `json:"context,omitempty"`
	Solution   string        `json:"solution,omitempty"`
	Confidence *float64      `json:"confidence,omitempty"`
}

// Extraction is the answer of an extraction: what was saved and what was
// skipped (duplicates of existing memories, or a retried runId).
type Extraction struct {
	RunID   string            `json:"runId"`
	Saved   []agentmem.Memory `json:"saved"`
	Skipped []Skipped         `json:"skipped"`
	Summary string            `json:"summary"`
	Success bool              `json:"success"`
	// Replayed is set when the run id was extracted before: the answer
	// is the first one, and nothing was saved this time.
	Replayed bool `json:"replayed,omitempty"`
}

// Skipped is a learning that was not saved, and why.
type Skipped struct {
	Content string `json:"content"`
	Reason  string `json:"reason"`
}

// CreateExtraction sends a run's output (or learnings) for extraction
// (POST .../extractions). The call is retried once on a transport failure
// or a 5xx/429, which is safe: extraction is idempotent per runId.
func (c *Client) CreateExtraction(ctx context.Context, agent string, in ExtractionInput) (Extraction, error) {
	var out Extraction
	err := c.Do(ctx, Call{Method: http.MethodPost, Path: AgentPath(agent, "extractions"), Body: in, Idempotent: true}, &out)
	return out, err
}
