package apiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// TestBodiesThatAreNotUTF8AreNotSent: JSON encoding would turn bytes that
// are not UTF-8 into U+FFFD and the API would store the changed text; the
// client refuses such a body instead (as the API refuses one that is not
// UTF-8), naming the field, and sends nothing.
func TestBodiesThatAreNotUTF8AreNotSent(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL), apiclient.NoAuth{})
	ctx := context.Background()
	bad := "caf\xe9 au lait" // Latin-1
	tests := []struct {
		name, field string
		call        func() error
	}{
		{"a memory's content", "content", func() error {
			_, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: bad})
			return err
		}},
		{"a tag", "tags[1]", func() error {
			_, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: "ok", Tags: []string{"fine", bad}})
			return err
		}},
		{"a session value", "value", func() error {
			_, _, err := c.PutSessionContext(ctx, "p", "s", "k", "\x00\x01\xff binary", 0)
			return err
		}},
		{"a personality's prompt", "prompt", func() error {
			_, _, err := c.PutPersonality(ctx, "nori", agentmem.PersonalityInput{Prompt: bad})
			return err
		}},
		{"a daily record", "content", func() error {
			_, err := c.AppendDaily(ctx, "nori", agentmem.DailyInput{ProjectID: "p", Title: "t", Content: bad})
			return err
		}},
	}
	for _, tt := range tests {
		err := tt.call()
		if agentmem.ErrorCode(err) != agentmem.EInvalid || !strings.Contains(err.Error(), tt.field+" is not UTF-8") {
			t.Errorf("%s: got %v, want invalid naming %s", tt.name, err, tt.field)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the server got %d calls, want none", n)
	}
	// UTF-8 text, control characters and all, is sent.
	if _, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: "café \u2028 ✓"}); err != nil || calls.Load() != 1 {
		t.Errorf("UTF-8: got %v after %d calls, want it sent", err, calls.Load())
	}
}
