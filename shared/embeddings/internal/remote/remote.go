// Package remote is what the HTTP embedders (bedrock, openai) share: the
// check of their input, the classification of their failures into
// embeddings.Error kinds, and their one retry policy.
package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/backoff"
	"github.com/agentmem/agentmem/shared/embeddings"
)

// MaxAnswerBytes bounds how much of a provider's answer is read: 64
// vectors of 4,096 floats as JSON text stay well under it.
const MaxAnswerBytes = 16 << 20

// Retry is the embedders' retry policy: a request that failed for a reason
// that may pass is made at most three times in all, after 50-100 ms and
// 100-200 ms (or the provider's Retry-After, up to half a second), all
// within the Embed call's timeout.
var Retry = backoff.Policy{Attempts: 3, Base: 100 * time.Millisecond, Max: 500 * time.Millisecond}

// Retryable classifies a failure for Retry: a 429, a 5xx or a request
// that got no answer may pass, after the provider's Retry-After when it
// sent one. A refusal (4xx, an exceeded quota's 400 included), a bad
// answer or a timeout is final.
func Retryable(err error) (bool, time.Duration) {
	var e *embeddings.Error
	if !errors.As(err, &e) {
		return false, 0
	}
	ok := e.Status == http.StatusTooManyRequests || e.Status >= 500 || (e.Status == 0 && e.Kind == embeddings.KindServer)
	return ok, e.RetryAfter
}

// CheckTexts refuses blank texts, which no provider embeds.
func CheckTexts(provider string, texts []string) error {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return &embeddings.Error{Kind: embeddings.KindBadRequest, Provider: provider, Message: fmt.Sprintf("text %d of %d is blank", i+1, len(texts))}
		}
	}
	return nil
}

// StatusKind classifies an HTTP status the provider gave no better reason
// for: 429 throttled, 401 and 403 auth, 408 and 504 timeout, other 5xx
// server, the rest a refused request.
func StatusKind(status int) embeddings.Kind {
	switch {
	case status == http.StatusTooManyRequests:
		return embeddings.KindThrottled
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return embeddings.KindAuth
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return embeddings.KindTimeout
	case status >= 500 || status == 0:
		return embeddings.KindServer
	}
	return embeddings.KindBadRequest
}

// StatusError is a non-2xx answer: its status's kind, with the
// Retry-After of a throttled one.
func StatusError(provider string, resp *http.Response, msg string) *embeddings.Error {
	e := &embeddings.Error{Kind: StatusKind(resp.StatusCode), Provider: provider, Status: resp.StatusCode, Message: msg}
	if e.Kind == embeddings.KindThrottled {
		e.RetryAfter = backoff.RetryAfter(resp.Header)
	}
	return e
}

// TransportError classifies a request that got no (whole) answer: a
// timeout when ctx is done or its deadline passed, a server failure
// otherwise.
func TransportError(provider string, ctx context.Context, err error) *embeddings.Error {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &embeddings.Error{Kind: embeddings.KindTimeout, Provider: provider, Message: "no answer before the deadline", Err: err}
	}
	return &embeddings.Error{Kind: embeddings.KindServer, Provider: provider, Message: "request failed", Err: err}
}
