package llm

import (
	"context"
	"errors"
	"time"

	"github.com/agentmem/agentmem/shared/backoff"
)

// DefaultRetry is the LLM providers' retry policy: three calls in all,
// waits of 250-500 ms then 500 ms-1 s (or the provider's Retry-After, up
// to 10 s), never past the call's deadline.
var DefaultRetry = backoff.Policy{Attempts: 3, Base: 500 * time.Millisecond, Max: 10 * time.Second}

// Retry wraps a Client and retries the failures that may pass: throttling
// (429, ThrottlingException, rate_limit_error) and server trouble (5xx,
// overloaded_error, transport errors). It waits as shared/backoff computes
// it: the provider's RetryAfter when given (a provider asking for longer
// than Policy.Max gets no retry), else an exponential backoff with jitter,
// and never past the context's deadline: when the next attempt could not
// start in time it returns the last failure at once. Timeouts, refusals
// and bad answers are not retried (a retried timeout only doubles the
// wait). providers.New wraps every provider in a Retry; the SDK clients'
// own retries are off so that this is the one retry policy of model calls.
type Retry struct {
	Client Client
	// Policy is how often to call and how long to wait in between
	// (DefaultRetry in WithRetry; the zero Policy calls once).
	Policy backoff.Policy
}

var _ Client = (*Retry)(nil)

// WithRetry wraps c in a Retry with DefaultRetry.
func WithRetry(c Client) *Retry {
	return &Retry{Client: c, Policy: DefaultRetry}
}

// Name implements Client: the wrapped client's name.
func (r *Retry) Name() string { return r.Client.Name() }

// Complete implements Client.
func (r *Retry) Complete(ctx context.Context, req Request) (Response, error) {
	var resp Response
	err := r.Policy.Do(ctx, func() (err error) {
		resp, err = r.Client.Complete(ctx, req)
		return err
	}, retryable)
	return resp, err
}

// retryable classifies a failure for Retry: throttled and server failures
// may pass, after the provider's RetryAfter when it sent one.
func retryable(err error) (bool, time.Duration) {
	var e *Error
	if !errors.As(err, &e) || (e.Kind != KindThrottled && e.Kind != KindServer) {
		return false, 0
	}
	return true, e.RetryAfter
}
