package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamolocal"
)

// TestSupervisorAnswers503WhileDynamoDBLocalRestarts: when DynamoDB Local
// dies (SIGKILL), the dev server stays up, answers 503 with the API's JSON
// error and a Retry-After while it starts it again on the same port and
// data, prepares it (the tables), and then serves again.
func TestSupervisorAnswers503WhileDynamoDBLocalRestarts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := supervise(ctx, dynamolocal.Options{DBPath: t.TempDir()}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop()
	var prepared atomic.Int32
	s.prepareWith(func(context.Context) error { prepared.Add(1); return nil })
	endpoint := s.endpoint
	api := s.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	get := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest("GET", "/api/agents/nori/memories?projectId=p", nil))
		return rec
	}
	if got := get().Code; got != http.StatusOK {
		t.Fatalf("before the crash: %d", got)
	}

	s.mu.Lock()
	srv := s.srv
	s.mu.Unlock()
	srv.Kill()
	saw503 := false
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		rec := get()
		if rec.Code == http.StatusOK && saw503 {
			break
		}
		if rec.Code == http.StatusServiceUnavailable {
			var env agentmem.ErrorEnvelope
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Code != agentmem.EUnavailable || rec.Header().Get("Retry-After") == "" {
				t.Fatalf("503 answer %q (%v), Retry-After %q: want the unavailable envelope", rec.Body.String(), err, rec.Header().Get("Retry-After"))
			}
			saw503 = true
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !saw503 {
		t.Error("no 503 while DynamoDB Local was down")
	}
	if got := get().Code; got != http.StatusOK {
		t.Fatalf("after the restart: %d, want 200", got)
	}
	if prepared.Load() != 1 {
		t.Errorf("prepared %d times, want once after the restart", prepared.Load())
	}
	s.mu.Lock()
	again := s.srv
	s.mu.Unlock()
	if again == srv || again.Endpoint != endpoint {
		t.Errorf("restarted at %s (same process: %v), want a new one at %s", again.Endpoint, again == srv, endpoint)
	}
}
