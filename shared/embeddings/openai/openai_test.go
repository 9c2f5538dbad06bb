package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/embeddingstest"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/embeddings/openai"
	"github.com/agentmem/agentmem/shared/search"
)

func TestOpenAIEmbedsAgainstTheWireFormat(t *testing.T) {
	t.Parallel()
	srv := embeddingstest.NewOpenAIServer(t, hashing.New(64))
	c, err := openai.New(embeddings.Config{Provider: "openai", Model: "nomic-embed-text", Endpoint: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Dimensions() != 0 {
		t.Errorf("dimensions before the first answer: got %d, want 0", c.Dimensions())
	}
	// 130 texts: three requests of at most 64.
	texts := make([]string, 130)
	for i := range texts {
		texts[i] = fmt.Sprintf("memory %d about the payments webhook retries", i)
	}
	vecs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests.Load(); got != 3 {
		t.Errorf("requests: got %d, want 3 batches", got)
	}
	want := hashing.New(64)
	for _, i := range []int{0, 63, 64, 129} {
		if c := search.Cosine(vecs[i], want.Vector(texts[i])); c < 0.99999 {
			t.Errorf("text %d: cosine with the server's vector %.5f, want 1 (order kept)", i, c)
		}
	}
	if c.Dimensions() != 64 || c.Name() != "openai:nomic-embed-text" {
		t.Errorf("got dims %d, name %q", c.Dimensions(), c.Name())
	}
}

// openAIStub answers every request with status and body, recording the
// last request.
func openAIStub(t *testing.T, status int, body string) (*httptest.Server, *atomic.Pointer[http.Request], *atomic.Pointer[string]) {
	t.Helper()
	var last atomic.Pointer[http.Request]
	var lastBody atomic.Pointer[string]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s := string(b)
		last.Store(r)
		lastBody.Store(&s)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &last, &lastBody
}

func TestOpenAIRequestShape(t *testing.T) {
	t.Parallel()
	srv, last, body := openAIStub(t, 200, `{"object":"list","data":[{"object":"embedding","index":1,"embedding":[0,1,0]},{"object":"embedding","index":0,"embedding":[1,0,0]}],"model":"text-embedding-3-small"}`)
	c, err := openai.New(embeddings.Config{Model: "text-embedding-3-small", Endpoint: srv.URL, APIKey: "sk-test", Dimensions: 3})
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := c.Embed(context.Background(), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	if vecs[0][0] != 1 || vecs[1][1] != 1 {
		t.Errorf("answer out of order was not put back by index: %v", vecs)
	}
	r := last.Load()
	if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer sk-test" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request: path %q, auth %q, type %q", r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"))
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(*body.Load()), &sent); err != nil {
		t.Fatal(err)
	}
	if sent["model"] != "text-embedding-3-small" || sent["encoding_format"] != "float" || sent["dimensions"] != float64(3) || len(sent["input"].([]any)) != 2 {
		t.Errorf("body: got %v", sent)
	}
}

func TestOpenAIFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		kind   embeddings.Kind
		msg    string
	}{
		{"throttled", 429, `{"error":{"message":"Rate limit reached for text-embedding-3-small","type":"requests"}}`, embeddings.KindThrottled, "Rate limit reached"},
		{"bad key", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`, embeddings.KindAuth, "Incorrect API key"},
		{"ollama model missing", 404, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`, embeddings.KindBadRequest, "try pulling it first"},
		{"server error", 503, `upstream connect error`, embeddings.KindServer, "upstream connect error"},
		{"gateway timeout", 504, ``, embeddings.KindTimeout, ""},
		{"not JSON", 200, `<html>proxy</html>`, embeddings.KindMalformed, "not embeddings JSON"},
		{"too few vectors", 200, `{"data":[{"index":0,"embedding":[1,2]}]}`, embeddings.KindMalformed, "1 embeddings for 2 texts"},
		{"repeated index", 200, `{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`, embeddings.KindMalformed, "index 0"},
		{"ragged", 200, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}`, embeddings.KindMalformed, "1 dimensions, want 2"},
		{"empty vector", 200, `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[1]}]}`, embeddings.KindMalformed, "0 dimensions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _, _ := openAIStub(t, tt.status, tt.body)
			c, err := openai.New(embeddings.Config{Model: "m", Endpoint: srv.URL + "/v1/"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Embed(context.Background(), []string{"a", "b"})
			if got := embeddings.KindOf(err); got != tt.kind {
				t.Fatalf("got kind %q (%v), want %q", got, err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q lacks %q", err, tt.msg)
			}
		})
	}
}

func TestOpenAITimeoutAndBlankText(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	c, err := openai.New(embeddings.Config{Model: "m", Endpoint: srv.URL, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Embed(context.Background(), []string{"slow"})
	if embeddings.KindOf(err) != embeddings.KindTimeout {
		t.Errorf("slow server: got %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
	if _, err := c.Embed(context.Background(), []string{"ok", "  "}); embeddings.KindOf(err) != embeddings.KindBadRequest {
		t.Errorf("blank text: got %v, want bad_request before any request", err)
	}
}

func TestOpenAIEndpointForms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ endpoint, want string }{
		{"", "https://api.openai.com/v1/embeddings"},
		{"http://localhost:11434", "http://localhost:11434/v1/embeddings"},
		{"http://localhost:11434/v1", "http://localhost:11434/v1/embeddings"},
		{"https://llm.internal/v1/embeddings", "https://llm.internal/v1/embeddings"},
	} {
		c, err := openai.New(embeddings.Config{Model: "m", Endpoint: tt.endpoint})
		if err != nil {
			t.Fatalf("%q: %v", tt.endpoint, err)
		}
		if got := openai.URL(c); got != tt.want {
			t.Errorf("endpoint %q: got %q, want %q", tt.endpoint, got, tt.want)
		}
	}
	for _, bad := range []string{"localhost:11434", "ftp://x", "http://"} {
		if _, err := openai.New(embeddings.Config{Model: "m", Endpoint: bad}); err == nil {
			t.Errorf("endpoint %q: got no error", bad)
		}
	}
	if _, err := openai.New(embeddings.Config{}); err == nil || !strings.Contains(err.Error(), "AGENTMEM_EMBEDDINGS_MODEL") {
		t.Errorf("no model: got %v", err)
	}
}

// TestErrorsNameTheEmbeddingsService: embedders' failures say they are
// embeddings failures.
func TestErrorsNameTheEmbeddingsService(t *testing.T) {
	t.Parallel()
	_, err := openai.New(embeddings.Config{Model: "m", Endpoint: "ftp://nowhere"})
	if err == nil || !strings.HasPrefix(err.Error(), "openai embeddings:") {
		t.Errorf("bad endpoint: got %v", err)
	}
	c, err := openai.New(embeddings.Config{Model: "m", Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Embed(context.Background(), []string{"text"})
	if embeddings.KindOf(err) != embeddings.KindServer || !strings.HasPrefix(err.Error(), "embeddings openai: server") {
		t.Errorf("unreachable endpoint: got %v (kind %q)", err, embeddings.KindOf(err))
	}
}

// TestOpenAIRetries: a throttled or failing endpoint is asked again, after
// its Retry-After when it sends one that fits; a refusal is not.
func TestOpenAIRetries(t *testing.T) {
	t.Parallel()
	ok := `{"data":[{"index":0,"embedding":[1,0]}]}`
	tests := []struct {
		name       string
		statuses   []int
		retryAfter string
		calls      int32
		kind       embeddings.Kind
	}{
		{"throttled once", []int{429, 200}, "", 2, ""},
		{"throttled with a short Retry-After", []int{429, 200}, "0", 2, ""},
		{"throttled with a Retry-After over the policy's cap", []int{429, 200}, "30", 1, embeddings.KindThrottled},
		{"server errors then ok", []int{503, 502, 200}, "", 3, ""},
		{"gives up after three", []int{500, 500, 500, 200}, "", 3, embeddings.KindServer},
		{"bad key is final", []int{401, 200}, "", 1, embeddings.KindAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1))
				status := tt.statuses[min(n, len(tt.statuses))-1]
				if status != 200 {
					if tt.retryAfter != "" {
						w.Header().Set("Retry-After", tt.retryAfter)
					}
					w.WriteHeader(status)
					_, _ = io.WriteString(w, `{"error":{"message":"not now"}}`)
					return
				}
				_, _ = io.WriteString(w, ok)
			}))
			defer srv.Close()
			c, err := openai.New(embeddings.Config{Model: "m", Endpoint: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Embed(context.Background(), []string{"text"})
			if got := embeddings.KindOf(err); got != tt.kind || (tt.kind == "") != (err == nil) {
				t.Errorf("got %v (kind %q), want kind %q", err, got, tt.kind)
			}
			if got := calls.Load(); got != tt.calls {
				t.Errorf("got %d requests, want %d", got, tt.calls)
			}
		})
	}
}
