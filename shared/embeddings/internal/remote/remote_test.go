package remote_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/internal/remote"
)

func TestRetryable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		err   error
		retry bool
		after time.Duration
	}{
		{"throttled", &embeddings.Error{Kind: embeddings.KindThrottled, Status: 429, RetryAfter: time.Second}, true, time.Second},
		{"server", &embeddings.Error{Kind: embeddings.KindServer, Status: 503}, true, 0},
		{"gateway timeout", &embeddings.Error{Kind: embeddings.KindTimeout, Status: 504}, true, 0},
		{"no answer", &embeddings.Error{Kind: embeddings.KindServer}, true, 0},
		{"quota exceeded (400)", &embeddings.Error{Kind: embeddings.KindThrottled, Status: 400}, false, 0},
		{"model timeout (408)", &embeddings.Error{Kind: embeddings.KindTimeout, Status: 408}, false, 0},
		{"deadline", &embeddings.Error{Kind: embeddings.KindTimeout}, false, 0},
		{"auth", &embeddings.Error{Kind: embeddings.KindAuth, Status: 403}, false, 0},
		{"malformed", &embeddings.Error{Kind: embeddings.KindMalformed, Status: 200}, false, 0},
		{"not an embeddings error", errors.New("boom"), false, 0},
	}
	for _, tt := range tests {
		if retry, after := remote.Retryable(tt.err); retry != tt.retry || after != tt.after {
			t.Errorf("%s: got %v, %v; want %v, %v", tt.name, retry, after, tt.retry, tt.after)
		}
	}
}

func TestStatusError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status     int
		retryAfter string
		kind       embeddings.Kind
		after      time.Duration
	}{
		{429, "2", embeddings.KindThrottled, 2 * time.Second},
		{429, "", embeddings.KindThrottled, 0},
		{401, "", embeddings.KindAuth, 0},
		{403, "", embeddings.KindAuth, 0},
		{408, "", embeddings.KindTimeout, 0},
		{504, "", embeddings.KindTimeout, 0},
		{500, "5", embeddings.KindServer, 0},
		{404, "", embeddings.KindBadRequest, 0},
		{422, "", embeddings.KindBadRequest, 0},
	}
	for _, tt := range tests {
		resp := &http.Response{StatusCode: tt.status, Header: http.Header{}, Body: io.NopCloser(nil)}
		if tt.retryAfter != "" {
			resp.Header.Set("Retry-After", tt.retryAfter)
		}
		e := remote.StatusError("openai", resp, "msg")
		if e.Kind != tt.kind || e.RetryAfter != tt.after || e.Status != tt.status || e.Message != "msg" {
			t.Errorf("status %d: got %+v, want kind %s, retry after %v", tt.status, e, tt.kind, tt.after)
		}
	}
}

func TestTransportErrorAndCheckTexts(t *testing.T) {
	t.Parallel()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if e := remote.TransportError("bedrock", done, context.Canceled); e.Kind != embeddings.KindTimeout {
		t.Errorf("context done: got %v, want a timeout", e)
	}
	if e := remote.TransportError("bedrock", context.Background(), errors.New("connection refused")); e.Kind != embeddings.KindServer || e.Error() != "embeddings bedrock: server: request failed: connection refused" {
		t.Errorf("dropped connection: got %q", e)
	}
	if err := remote.CheckTexts("openai", []string{"a", " \n"}); embeddings.KindOf(err) != embeddings.KindBadRequest {
		t.Errorf("blank text: got %v", err)
	}
	if err := remote.CheckTexts("openai", []string{"a", "b"}); err != nil {
		t.Errorf("texts: got %v", err)
	}
}
