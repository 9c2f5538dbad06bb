// Package backoff is agentmem's one definition of the wait between two
// attempts of a call that failed for a reason that may pass: exponential
// with jitter, the server's Retry-After honoured, never past the context's
// deadline. The HTTP clients that have no SDK retryer use it directly (the
// LLM providers through llm.Retry, the embeddings providers, the agentmem
// API client); the AWS SDK's standard retryer computes its waits with it
// too (shared/awsconfig).
package backoff

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Policy says how often a call is made and how long to wait in between.
// The zero Policy makes one attempt.
type Policy struct {
	// Attempts is the total number of calls, the first included (at
	// least 1).
	Attempts int
	// Base is the wait before the first retry, before jitter; it doubles
	// on each further retry.
	Base time.Duration
	// Max caps one computed wait. A server asking for a longer wait
	// (Retry-After) gets no retry: the call fails at once.
	Max time.Duration
}

// Delay returns the wait before retry n (1 for the first retry):
// Base·2^(n-1), capped at Max, then jittered to a uniformly random point of
// its upper half, so that callers that failed together do not come back
// together.
func (p Policy) Delay(n int) time.Duration {
	d := p.Base
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	if p.Max > 0 && d > p.Max {
		d = p.Max
	}
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1)
}

// Wait sleeps before retry n, or reports that the retry should not be
// made: when retryAfter (the server's hint; 0 for none) exceeds Max, when
// the wait would end at or past ctx's deadline (then it returns at once,
// without sleeping), or when ctx is done while waiting.
func (p Policy) Wait(ctx context.Context, n int, retryAfter time.Duration) bool {
	wait := retryAfter
	if wait > 0 && p.Max > 0 && wait > p.Max {
		return false
	}
	if wait <= 0 {
		wait = p.Delay(n)
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= wait {
		return false
	}
	if ctx.Err() != nil {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Do calls op until it succeeds, until classify calls its error final,
// until Attempts calls have been made, or until Wait declines the next
// retry; it returns op's last error. classify returns whether err may pass
// on another attempt, and how long the server asked to wait (0: the
// policy's Delay).
func (p Policy) Do(ctx context.Context, op func() error, classify func(err error) (retry bool, retryAfter time.Duration)) error {
	attempts := max(p.Attempts, 1)
	for n := 1; ; n++ {
		err := op()
		if err == nil || n >= attempts {
			return err
		}
		retry, after := classify(err)
		if !retry || !p.Wait(ctx, n, after) {
			return err
		}
	}
}

// RetryAfter reads a Retry-After header: delay-seconds, or an HTTP date
// (as a duration from now). Anything else, or a time in the past, is 0.
func RetryAfter(h http.Header) time.Duration {
	return ParseRetryAfter(h.Get("Retry-After"))
}

// ParseRetryAfter reads a Retry-After value as RetryAfter does.
func ParseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
