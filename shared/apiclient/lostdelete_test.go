package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// TestDeleteWhoseAnswerWasLostSucceeds: a delete whose first answer was
// lost after the API carried it out (a dropped connection, a gateway
// timeout) is sent again and finds nothing to delete: the call succeeded,
// and the client says so instead of not found. A delete of something
// that never existed is still not found.
func TestDeleteWhoseAnswerWasLostSucceeds(t *testing.T) {
	t.Parallel()
	var lose atomic.Bool
	srv := apitest.New(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodDelete && lose.CompareAndSwap(true, false) {
				next.ServeHTTP(httptest.NewRecorder(), r) // done, answer lost
				w.WriteHeader(http.StatusBadGateway)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	c, err := apiclient.New(context.Background(), apiclient.Config{URL: srv.URL, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: "the deploy key is hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PutPersonality(ctx, "nori", agentmem.PersonalityInput{DisplayName: "Nori"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PutSessionContext(ctx, "p", "run-1", "k", "v", 0); err != nil {
		t.Fatal(err)
	}
	deletes := []struct {
		name string
		del  func() error
		get  func() error
	}{
		{"memory", func() error { return c.DeleteMemory(ctx, "nori", m.ID) },
			func() error { _, err := c.GetMemory(ctx, "nori", m.ID); return err }},
		{"personality", func() error { return c.DeletePersonality(ctx, "nori") },
			func() error { _, err := c.GetPersonality(ctx, "nori"); return err }},
		{"session key", func() error { return c.DeleteSessionContext(ctx, "p", "run-1", "k") },
			func() error { _, err := c.GetSessionContext(ctx, "p", "run-1", "k"); return err }},
	}
	for _, d := range deletes {
		lose.Store(true)
		if err := d.del(); err != nil {
			t.Errorf("%s: delete whose answer was lost: %v; want success", d.name, err)
		}
		if err := d.get(); !isNotFound(err) {
			t.Errorf("%s: after the delete: got %v, want not found", d.name, err)
		}
		if err := d.del(); !isNotFound(err) {
			t.Errorf("%s: delete of nothing: got %v, want not found", d.name, err)
		}
	}
}

func isNotFound(err error) bool {
	var e *agentmem.Error
	return errors.As(err, &e) && e.Code == agentmem.ENotFound
}
