// Package openai is a client of any OpenAI-compatible embeddings endpoint
// (OpenAI, Ollama, vLLM, LM Studio).
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/internal/remote"
	"github.com/agentmem/agentmem/shared/openaicompat"
)

// batch is how many texts one /embeddings request carries.
const batch = 64

// provider names the provider in names and errors.
const provider = embeddings.ProviderOpenAI

// Embedder is a client of an OpenAI-compatible embeddings endpoint: POST
// {endpoint}/embeddings with {"model","input":[...],"encoding_format":
// "float"} and "dimensions" when configured, answered by
// {"data":[{"index","embedding"}]}. A throttled or failed request is made
// again as the embedders' retry policy says.
type Embedder struct {
	cfg  embeddings.Config
	url  string
	dims atomic.Int64
	// HTTP is the client used for requests.
	HTTP *http.Client
}

var _ embeddings.Embedder = (*Embedder)(nil)

// New returns an OpenAI-compatible embeddings client. cfg.Model is
// required; cfg.Endpoint is the API base (".../v1"); a bare host such as
// http://localhost:11434 gets "/v1" appended, and a full ".../embeddings"
// URL is used as given (openaicompat.EndpointURL).
func New(cfg embeddings.Config) (*Embedder, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("openai embeddings: AGENTMEM_EMBEDDINGS_MODEL is required (e.g. text-embedding-3-small, or nomic-embed-text for Ollama)")
	}
	u, err := openaicompat.EndpointURL(cfg.Endpoint, "embeddings")
	if err != nil {
		return nil, fmt.Errorf("openai embeddings: %w", err)
	}
	c := &Embedder{cfg: cfg, url: u, HTTP: &http.Client{}}
	c.dims.Store(int64(cfg.Dimensions))
	return c, nil
}

// Name implements embeddings.Embedder.
func (c *Embedder) Name() string { return provider + ":" + c.cfg.Model }

// Dimensions implements embeddings.Embedder: the configured dimensions,
// else those of the first answer, else 0.
func (c *Embedder) Dimensions() int { return int(c.dims.Load()) }

type embeddingsRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed implements embeddings.Embedder, sending the texts in batches of
// 64.
func (c *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := remote.CheckTexts(provider, texts); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.TimeoutOrDefault())
	defer cancel()
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		part := texts[start:min(start+batch, len(texts))]
		var vecs [][]float32
		err := remote.Retry.Do(ctx, func() (err error) {
			vecs, err = c.embedBatch(ctx, part)
			return err
		}, remote.Retryable)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (c *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	raw, err := json.Marshal(embeddingsRequest{Model: c.cfg.Model, Input: texts, EncodingFormat: "float", Dimensions: c.cfg.Dimensions})
	if err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindBadRequest, Provider: provider, Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(raw))
	if err != nil {
		return nil, &embeddings.Error{Kind: embeddings.KindBadRequest, Provider: provider, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, remote.TransportError(provider, ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, remote.MaxAnswerBytes))
	if err != nil {
		return nil, remote.TransportError(provider, ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, remote.StatusError(provider, resp, openaicompat.ErrorMessage(data))
	}
	malformed := func(format string, args ...any) error {
		return &embeddings.Error{Kind: embeddings.KindMalformed, Provider: provider, Status: resp.StatusCode, Message: fmt.Sprintf(format, args...)}
	}
	var body embeddingsResponse
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
		if len(d.Embedding) == 0 || len(d.Embedding) > embeddings.MaxDimensions {
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
