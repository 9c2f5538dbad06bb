package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/llm"
)

// checkFailure fails unless err is an *llm.Error of provider with the
// wanted kind, HTTP status (when the answer was not a 200) and RetryAfter.
func checkFailure(t *testing.T, err error, provider string, kind llm.Kind, status int, retryAfter time.Duration) {
	t.Helper()
	var e *llm.Error
	if !asError(err, &e) {
		t.Fatalf("got %v, want an *llm.Error", err)
	}
	if e.Kind != kind || e.RetryAfter != retryAfter || e.Provider != provider {
		t.Errorf("got %s kind %q retryAfter %v (%v), want %s %q %v", e.Provider, e.Kind, e.RetryAfter, err, provider, kind, retryAfter)
	}
	if status != 200 && e.Status != status {
		t.Errorf("status: got %d, want %d", e.Status, status)
	}
}

// recordRequest returns the JSON body of r as a map, with the named headers
// added under the names given.
func recordRequest(t *testing.T, r *http.Request, headers ...string) map[string]any {
	t.Helper()
	raw, _ := io.ReadAll(r.Body)
	m := map[string]any{}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Errorf("request body %q: %v", raw, err)
	}
	for _, h := range headers {
		m[h] = r.Header.Get(h)
	}
	return m
}

// TestEveryHTTPProviderTimesOut points each HTTP provider at a server that
// never answers: each gives up at its timeout with a KindTimeout error.
func TestEveryHTTPProviderTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	const timeout = 50 * time.Millisecond
	openAI, err := llm.NewOpenAI(llm.Config{Model: "m", Endpoint: srv.URL, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []llm.Client{openAI, newBedrock(t, srv.URL, timeout), newAnthropic(t, srv.URL, timeout)} {
		_, err := c.Complete(context.Background(), llm.Request{Prompt: "x"})
		if got := llm.KindOf(err); got != llm.KindTimeout {
			t.Errorf("%s: got %v (kind %q), want a timeout", c.Name(), err, got)
		}
	}
}
