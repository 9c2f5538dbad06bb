package llm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/backoff"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/openai"
)

const okChatCompletion = `{"model":"m","choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`

// scriptedServer answers the i-th chat completions request with
// answers[min(i, len-1)] and counts the requests.
type answer struct {
	status     int
	retryAfter string
	body       string
}

func scriptedServer(t *testing.T, answers ...answer) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		a := answers[min(i, len(answers)-1)]
		if a.retryAfter != "" {
			w.Header().Set("Retry-After", a.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func retrying(t *testing.T, srv *httptest.Server) *llm.Retry {
	t.Helper()
	c, err := openai.New(llm.Config{Model: "m", Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return &llm.Retry{Client: c, Policy: backoff.Policy{Attempts: 3, Base: time.Millisecond, Max: time.Second}}
}

func TestRetry(t *testing.T) {
	t.Parallel()
	throttled := answer{429, "0", `{"error":{"message":"Rate limit reached"}}`}
	overloaded := answer{503, "", `upstream overloaded`}
	ok := answer{200, "", okChatCompletion}
	tests := []struct {
		name     string
		answers  []answer
		wantKind llm.Kind
		calls    int32
	}{
		{"throttled then ok", []answer{throttled, ok}, "", 2},
		{"server errors then ok", []answer{overloaded, overloaded, ok}, "", 3},
		{"gives up after the attempts", []answer{overloaded}, llm.KindServer, 3},
		{"auth is not retried", []answer{{401, "", `{"error":{"message":"bad key"}}`}, ok}, llm.KindAuth, 1},
		{"bad request is not retried", []answer{{400, "", `{"error":{"message":"bad"}}`}, ok}, llm.KindBadRequest, 1},
		{"empty answer is not retried", []answer{{200, "", `{"choices":[{"message":{"content":""}}]}`}, ok}, llm.KindEmpty, 1},
		{"a wait over MaxWait is not taken", []answer{{429, "30", `{}`}, ok}, llm.KindThrottled, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := scriptedServer(t, tt.answers...)
			resp, err := retrying(t, srv).Complete(context.Background(), llm.Request{Prompt: "x"})
			if got := llm.KindOf(err); got != tt.wantKind {
				t.Errorf("got %v (kind %q), want kind %q", err, got, tt.wantKind)
			}
			if err == nil && resp.Text != "ok" {
				t.Errorf("got %+v", resp)
			}
			if got := calls.Load(); got != tt.calls {
				t.Errorf("got %d calls, want %d", got, tt.calls)
			}
		})
	}
}

func TestRetryNeverWaitsPastTheDeadline(t *testing.T) {
	t.Parallel()
	srv, calls := scriptedServer(t, answer{429, "2", `{}`}, answer{200, "", okChatCompletion})
	r := retrying(t, srv)
	r.Policy.Max = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := r.Complete(ctx, llm.Request{Prompt: "x"})
	slept := ctx.Err() != nil
	if got := llm.KindOf(err); got != llm.KindThrottled {
		t.Fatalf("got %v, want the throttled failure", err)
	}
	if calls.Load() != 1 {
		t.Errorf("got %d calls, want 1: a 2 s Retry-After does not fit in a 500 ms deadline", calls.Load())
	}
	if slept {
		t.Error("returned after the deadline; want at once, without sleeping until it")
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	srv, calls := scriptedServer(t, answer{429, "1", `{}`}, answer{200, "", okChatCompletion})
	start := time.Now()
	if _, err := retrying(t, srv).Complete(context.Background(), llm.Request{Prompt: "x"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second || calls.Load() != 2 {
		t.Errorf("retried after %v with %d calls; want after the 1 s Retry-After", d, calls.Load())
	}
}
