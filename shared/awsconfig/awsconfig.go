// Package awsconfig loads the process's AWS configuration, once, with
// agentmem's one AWS retry policy. Every AWS client is built from the
// aws.Config Load returns (DynamoDB through guregu/dynamo, Bedrock, SQS,
// the SigV4 signers), so credentials are resolved and cached once per
// process and every client retries the same way.
//
// The policy is the SDK's standard retryer, tuned here and nowhere else:
// MaxAttempts calls in all, waits computed by shared/backoff from Backoff
// (exponential with jitter), and no client-side retry quota. DynamoDB adds
// guregu/dynamo's RetryTxConflicts to the same retryer (see
// shared/dynamostore), so a transaction cancelled by a conflicting one is
// tried again like a throttled call.
package awsconfig

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/backoff"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
)

// MaxAttempts is how many times an AWS call is made, the first included,
// when it fails for a reason that may pass (throttling, 5xx, a dropped
// connection, a transaction conflict).
const MaxAttempts = 5

// Backoff computes the waits between the attempts of an AWS call: 50 ms
// before the first retry, doubling, at most 2 s (DynamoDB's guidance is a
// short base; the whole budget stays well inside API Gateway's 30 s).
// sqsqueue waits the same between resends of the entries SQS refused.
var Backoff = backoff.Policy{Attempts: MaxAttempts, Base: 50 * time.Millisecond, Max: 2 * time.Second}

// NewRetryer returns the SDK's standard retryer with agentmem's policy,
// plus extra options (dynamo.RetryTxConflicts for DynamoDB).
//
// The standard retryer's client-side quota (a token bucket that stops
// retries after a burst of failures) is off: a burst of transaction
// conflicts on one busy scope is expected, and would otherwise turn into
// failures for every other caller of the process.
func NewRetryer(extra ...func(*retry.StandardOptions)) aws.Retryer {
	return retry.NewStandard(append([]func(*retry.StandardOptions){func(o *retry.StandardOptions) {
		o.MaxAttempts = Backoff.Attempts
		o.MaxBackoff = Backoff.Max
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, _ error) (time.Duration, error) {
			return Backoff.Delay(attempt), nil
		})
		o.RateLimiter = ratelimit.None
	}}, extra...)...)
}

var (
	mu     sync.Mutex
	loaded *aws.Config
)

// Load returns the process's AWS configuration: the SDK's default chain
// (environment, shared files, the Lambda or ECS role) with NewRetryer's
// policy. It is loaded on the first successful call and the same
// configuration is returned after; a failure is not kept, so a later call
// tries again. Credentials are fetched lazily, on the first signed call.
func Load(ctx context.Context) (aws.Config, error) {
	mu.Lock()
	defer mu.Unlock()
	if loaded != nil {
		return *loaded, nil
	}
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer { return NewRetryer() }))
	if err != nil {
		return aws.Config{}, fmt.Errorf("load AWS configuration: %w", err)
	}
	loaded = &cfg
	return cfg, nil
}
