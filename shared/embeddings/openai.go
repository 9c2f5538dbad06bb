package embeddings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/agentmem/agentmem/shared/llm/openai"
)

// DefaultOpenAIEndpoint is the API base used when none is configured.
const DefaultOpenAIEndpoint = openai.DefaultEndpoint

// openAIBatch is how many texts one /embeddings request carries.
const openAIBatch = 64

// maxAnswerBytes bounds how much of a provider's answer is read: 64
// vectors of 4,096 floats as JSON text stay well under it.
const maxAnswerBytes = 16 << 20

// OpenAI is a client of any OpenAI-compatible embeddings endpoint (OpenAI,
// Ollama, vLLM, LM Studio): POST {endpoint}/embeddings with
// {"model","input":[...],"encoding_format":"float"} and "dimensions" when
// configured, answered by {"data":[{"index","embedding"}]}.
type OpenAI struct {
	cfg  Config
	url  string
	dims atomic.Int64
	// HTTP is the client used for requests.
	HTTP *http.Client
}

var _ Embedder = (*OpenAI)(nil)

// NewOpenAI returns an OpenAI-compatible embeddings client. cfg.Model is
// required; cfg.Endpoint is the API base (".../v1"); a bare host such as
// http://localhost:11434 gets "/v1" appended, and a full ".../embeddings"
// URL is used as given.
func NewOpenAI(cfg Config) (*OpenAI, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("openai embeddings: AGENTMEM_EMBEDDINGS_MODEL is required (e.g. text-embedding-3-small, or nomic-embed-text for Ollama)")
	}
	u, err := openai.EndpointURL(cfg.Endpoint, "embeddings")
	if err != nil {
		return nil, fmt.Errorf("openai embeddings: %w", err)
	}
	c := &OpenAI{cfg: cfg, url: u, HTTP: &http.Client{}}
	c.dims.Store(int64(cfg.Dimensions))
	return c, nil
}

// Name implements Embedder.
func (c *OpenAI) Name() string { return ProviderOpenAI + ":" + c.cfg.Model }

// Dimensions implements Embedder: the configured dimensions, else those of
// the first answer, else 0.
func (c *OpenAI) Dimensions() int { return int(c.dims.Load()) }

type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type openAIResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed implements Embedder, sending the texts in batches of 64.
func (c *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := checkTexts(ProviderOpenAI, texts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
	defer cancel()
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += openAIBatch {
		vecs, err := c.embedBatch(ctx, texts[start:min(start+openAIBatch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (c *OpenAI) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	raw, err := json.Marshal(openAIRequest{Model: c.cfg.Model, Input: texts, EncodingFormat: "float", Dimensions: c.cfg.Dimensions})
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Service: service, Provider: ProviderOpenAI, Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(raw))
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Service: service, Provider: ProviderOpenAI, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, transportError(ProviderOpenAI, ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return nil, transportError(ProviderOpenAI, ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &Error{Kind: kindForStatus(resp.StatusCode), Service: service, Provider: ProviderOpenAI, Status: resp.StatusCode, Message: openai.ErrorMessage(data)}
	}
	malformed := func(format string, args ...any) error {
		return &Error{Kind: KindMalformed, Service: service, Provider: ProviderOpenAI, Status: resp.StatusCode, Message: fmt.Sprintf(format, args...)}
	}
	var body openAIResponse
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, malformed("answer is not embeddings JSON: %v", err)
	}
	if len(body.Data) != len(texts) {
		return nil, malformed("answer has %d embeddings for %d texts", len(body.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	for i, d := range body.Data {
		idx := i
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx >= len(texts) || out[idx] != nil {
			return nil, malformed("answer has a missing, repeated or out-of-range index %d", idx)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) > MaxDimensions {
			return nil, malformed("embedding %d has %d dimensions", idx, len(d.Embedding))
		}
		out[idx] = d.Embedding
	}
	want := c.dims.Load()
	if want == 0 {
		c.dims.CompareAndSwap(0, int64(len(out[0])))
		want = c.dims.Load()
	}
	for i, v := range out {
		if int64(len(v)) != want {
			return nil, malformed("embedding %d has %d dimensions, want %d", i, len(v), want)
		}
	}
	return out, nil
}
