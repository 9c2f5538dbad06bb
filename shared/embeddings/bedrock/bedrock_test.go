package bedrock_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/bedrock"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// titanServer speaks the Bedrock runtime's InvokeModel for Titan Text
// Embeddings V2. fail, when it returns a status, answers with that status
// and the service's error type instead (as the X-Amzn-ErrorType header
// and {"message"} body of the REST-JSON protocol).
type titanServer struct {
	*httptest.Server
	calls atomic.Int64
	mu    sync.Mutex
	bad   []string
}

func newTitanServer(t *testing.T, fail func(call int64) (int, string)) *titanServer {
	t.Helper()
	s := &titanServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := s.calls.Add(1)
		check := func(ok bool, what string) {
			if !ok {
				s.mu.Lock()
				s.bad = append(s.bad, what)
				s.mu.Unlock()
			}
		}
		check(r.Method == http.MethodPost, "method "+r.Method)
		check(r.URL.Path == "/model/amazon.titan-embed-text-v2:0/invoke", "path "+r.URL.Path)
		auth := r.Header.Get("Authorization")
		check(strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") && strings.Contains(auth, "/eu-west-1/bedrock/aws4_request"), "authorization "+auth)
		check(r.Header.Get("Content-Type") == "application/json", "content-type "+r.Header.Get("Content-Type"))
		var req struct {
			InputText  string `json:"inputText"`
			Dimensions int    `json:"dimensions"`
			Normalize  *bool  `json:"normalize"`
		}
		check(json.NewDecoder(r.Body).Decode(&req) == nil && req.InputText != "" && req.Normalize != nil && *req.Normalize, "body")
		w.Header().Set("Content-Type", "application/json")
		if fail != nil {
			if status, errType := fail(n); status != 0 {
				w.Header().Set("X-Amzn-ErrorType", errType+":http://internal.amazon.com/coral/com.amazon.bedrock/")
				w.WriteHeader(status)
				_ = json.NewEncoder(w).Encode(map[string]string{"message": errType + " on purpose"})
				return
			}
		}
		if req.Dimensions != 1024 && req.Dimensions != 512 && req.Dimensions != 256 {
			w.Header().Set("X-Amzn-ErrorType", "ValidationException")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"message":"Malformed input request: #/dimensions: 100 is not a valid enum value"}`))
			return
		}
		vec := hashing.New(req.Dimensions).Vector(req.InputText)
		_ = json.NewEncoder(w).Encode(map[string]any{"embedding": vec, "inputTextTokenCount": len(strings.Fields(req.InputText)), "embeddingsByType": map[string]any{"float": vec}})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *titanServer) problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bad
}

func newTitan(t *testing.T, endpoint string, dims int) *bedrock.Embedder {
	t.Helper()
	awsCfg := aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")}
	b, err := bedrock.New(awsCfg, embeddings.Config{Endpoint: endpoint, Dimensions: dims})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBedrockTitanEmbeds(t *testing.T) {
	t.Parallel()
	srv := newTitanServer(t, nil)
	b := newTitan(t, srv.URL, 0)
	if b.Name() != "bedrock:amazon.titan-embed-text-v2:0" || b.Dimensions() != 1024 {
		t.Errorf("got name %q, dims %d", b.Name(), b.Dimensions())
	}
	texts := []string{"Stripe webhooks are retried 3 times", "Use pgx, not database/sql", "The CI runner is out of disk", "retryWebhook lives in internal/webhooks", "five"}
	vecs, err := b.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if p := srv.problems(); len(p) > 0 {
		t.Errorf("requests did not follow InvokeModel: %v", p)
	}
	if got := srv.calls.Load(); got != int64(len(texts)) {
		t.Errorf("calls: got %d, want one per text (%d)", got, len(texts))
	}
	want := hashing.New(1024)
	for i, text := range texts {
		if c := search.Cosine(vecs[i], want.Vector(text)); c < 0.99999 {
			t.Errorf("text %d: cosine %.5f with its own vector, want 1 (order kept)", i, c)
		}
	}
}

func TestBedrockRetriesThrottling(t *testing.T) {
	t.Parallel()
	srv := newTitanServer(t, func(call int64) (int, string) {
		if call == 1 {
			return 429, "ThrottlingException"
		}
		return 0, ""
	})
	vecs, err := newTitan(t, srv.URL, 256).Embed(context.Background(), []string{"throttled once"})
	if err != nil || len(vecs[0]) != 256 {
		t.Fatalf("got %d dims, %v; want the retry to succeed", len(vecs), err)
	}
	if got := srv.calls.Load(); got != 2 {
		t.Errorf("calls: got %d, want 2 (one throttled, one retried)", got)
	}
}

func TestBedrockFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, errType string
		status        int
		kind          embeddings.Kind
		calls         int64
	}{
		{"always throttled", "ThrottlingException", 429, embeddings.KindThrottled, 3},
		{"quota", "ServiceQuotaExceededException", 400, embeddings.KindThrottled, 1},
		{"access denied", "AccessDeniedException", 403, embeddings.KindAuth, 1},
		{"validation", "ValidationException", 400, embeddings.KindBadRequest, 1},
		{"no such model", "ResourceNotFoundException", 404, embeddings.KindBadRequest, 1},
		{"model timeout", "ModelTimeoutException", 408, embeddings.KindTimeout, 1},
		{"internal", "InternalServerException", 500, embeddings.KindServer, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newTitanServer(t, func(int64) (int, string) { return tt.status, tt.errType })
			_, err := newTitan(t, srv.URL, 0).Embed(context.Background(), []string{"text"})
			if got := embeddings.KindOf(err); got != tt.kind {
				t.Fatalf("got kind %q (%v), want %q", got, err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.errType) {
				t.Errorf("error %q does not name %s", err, tt.errType)
			}
			if got := srv.calls.Load(); got < 1 || got > tt.calls {
				t.Errorf("calls: got %d, want 1 to %d", got, tt.calls)
			}
		})
	}
}

func TestBedrockMalformedAnswerAndBadDimensions(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"embedding":[0.1,0.2],"inputTextTokenCount":1}`))
	}))
	defer srv.Close()
	if _, err := newTitan(t, srv.URL, 0).Embed(context.Background(), []string{"x"}); embeddings.KindOf(err) != embeddings.KindMalformed {
		t.Errorf("2-dim answer for 1024: got %v, want malformed", err)
	}
	if _, err := bedrock.New(aws.Config{Region: "eu-west-1"}, embeddings.Config{Dimensions: 100}); err == nil {
		t.Error("dimensions 100: got no error, want Titan's 256/512/1024")
	}
}
