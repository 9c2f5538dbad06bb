// Package embeddingstest serves the OpenAI-compatible embeddings wire
// format from a deterministic embedder, so that tests exercise the real
// HTTP client (shared/embeddings/openai) end to end without a model.
package embeddingstest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentmem/agentmem/shared/embeddings"
)

// Server is an httptest server answering POST /v1/embeddings as OpenAI
// does, with vectors from an embedder.
type Server struct {
	*httptest.Server
	// Requests counts the embeddings requests served.
	Requests atomic.Int64
	// Fail, when set, makes every request answer this status with an
	// OpenAI error body.
	Fail atomic.Int64
}

// NewOpenAIServer starts a server that embeds with e; it is closed when
// the test ends. Its URL + "/v1" is the endpoint to configure.
func NewOpenAIServer(t testing.TB, e embeddings.Embedder) *Server {
	t.Helper()
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":{"message":"not found","type":"invalid_request_error"}}`))
			return
		}
		if code := s.Fail.Load(); code != 0 {
			w.WriteHeader(int(code))
			_, _ = w.Write([]byte(`{"error":{"message":"failing on purpose","type":"server_error"}}`))
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Input) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"message":"model and input are required","type":"invalid_request_error"}}`))
			return
		}
		vecs, err := e.Embed(context.Background(), req.Input)
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":{"message":"embedding failed","type":"server_error"}}`))
			return
		}
		type datum struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Object string  `json:"object"`
			Data   []datum `json:"data"`
			Model  string  `json:"model"`
			Usage  struct {
				PromptTokens int `json:"prompt_tokens"`
				TotalTokens  int `json:"total_tokens"`
			} `json:"usage"`
		}{Object: "list", Model: req.Model}
		for i, v := range vecs {
			out.Data = append(out.Data, datum{Object: "embedding", Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(s.Close)
	return s
}
