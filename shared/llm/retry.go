package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Retry defaults.
const (
	DefaultRetryAttempts = 3
	DefaultRetryBase     = 500 * time.Millisecond
	DefaultRetryMaxWait  = 10 * time.Second
)

// Retry wraps a Client and retries the failures that may pass: throttling
// (429, ThrottlingException, rate_limit_error) and server trouble (5xx,
// overloaded_error, transport errors). It waits the provider's RetryAfter
// when given, else an exponential backoff with jitter, and never waits
// past the context's deadline: when the next attempt could not start in
// time it returns the last failure at once. Timeouts, refusals and bad
// answers are not retried (a retried timeout only doubles the wait).
// llm.New wraps every provider in a Retry; the SDK clients' own retries
// are off so that this is the one retry policy.
type Retry struct {
	Client Client
	// Attempts is the total number of calls, at least 1
	// (default DefaultRetryAttempts).
	Attempts int
	// Base is the first backoff; it doubles on each retry
	// (default DefaultRetryBase).
	Base time.Duration
	// MaxWait caps one wait; a provider asking for longer gets no retry
	// (default DefaultRetryMaxWait).
	MaxWait time.Duration
}

var _ Client = (*Retry)(nil)

// WithRetry wraps c in a Retry with the default policy.
func WithRetry(c Client) *Retry {
	return &Retry{Client: c, Attempts: DefaultRetryAttempts, Base: DefaultRetryBase, MaxWait: DefaultRetryMaxWait}
}

// Name implements Client: the wrapped client's name.
func (r *Retry) Name() string { return r.Client.Name() }

// Complete implements Client.
func (r *Retry) Complete(ctx context.Context, req Request) (Response, error) {
	attempts := max(r.Attempts, 1)
	base := r.Base
	if base <= 0 {
		base = DefaultRetryBase
	}
	maxWait := r.MaxWait
	if maxWait <= 0 {
		maxWait = DefaultRetryMaxWait
	}
	for attempt := 1; ; attempt++ {
		resp, err := r.Client.Complete(ctx, req)
		if err == nil || attempt == attempts {
			return resp, err
		}
		var e *Error
		if !errors.As(err, &e) || (e.Kind != KindThrottled && e.Kind != KindServer) {
			return resp, err
		}
		wait := e.RetryAfter
		if wait == 0 {
			backoff := base << (attempt - 1)
			wait = backoff/2 + rand.N(backoff/2+1) // jitter: [backoff/2, backoff]
		}
		if wait > maxWait {
			return resp, err
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= wait {
			return resp, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return resp, err
		case <-t.C:
		}
	}
}
