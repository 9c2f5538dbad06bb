// Package sqsqueue sends message bodies to an Amazon SQS queue in batches
// (SendMessageBatch, 10 per call), sending the entries SQS refused again
// after the process's AWS backoff (awsconfig.Backoff). Deep Dream's
// dispatcher queues one message per scope through it.
package sqsqueue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"golang.org/x/sync/errgroup"
)

// Limits of SendMessageBatch and of this sender.
const (
	BatchSize = 10 // entries per SendMessageBatch call (the SQS maximum)
	// Attempts is how often an entry is sent in all when SQS refuses it
	// in an answer that is otherwise a success (a failed call is retried
	// by the SDK's retryer, awsconfig's policy); the waits in between are
	// awsconfig.Backoff's.
	Attempts = 3
	// parallel bounds the concurrent SendMessageBatch calls.
	parallel = 8
)

// Queue sends to one queue.
type Queue struct {
	client *sqs.Client
	url    string
}

// New returns a sender to queueURL over awsCfg, the process's AWS
// configuration (awsconfig.Load: region, credentials and retry policy from
// the Lambda environment). endpoint, when set, overrides the SQS endpoint
// (a VPC endpoint or a local stand-in).
func New(awsCfg aws.Config, queueURL, endpoint string) (*Queue, error) {
	if queueURL == "" {
		return nil, errors.New("sqsqueue: no queue URL")
	}
	client := sqs.NewFromConfig(awsCfg, func(o *sqs.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	return NewWithClient(client, queueURL), nil
}

// NewWithClient returns a sender over an existing client.
func NewWithClient(client *sqs.Client, queueURL string) *Queue {
	return &Queue{client: client, url: queueURL}
}

// Send sends every body, BatchSize per SendMessageBatch call and several
// calls at once, sending refused entries again after a backoff unless SQS
// blames the sender. It returns how many bodies were not sent and why.
func (q *Queue) Send(ctx context.Context, bodies []string) (int, error) {
	var (
		mu     sync.Mutex
		failed int
		errs   []error
	)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel)
	for start := 0; start < len(bodies); start += BatchSize {
		batch := bodies[start:min(len(bodies), start+BatchSize)]
		g.Go(func() error {
			n, err := q.sendBatch(gctx, batch)
			mu.Lock()
			defer mu.Unlock()
			failed += n
			if err != nil {
				errs = append(errs, err)
			}
			return nil
		})
	}
	_ = g.Wait()
	return failed, errors.Join(errs...)
}

// MaxDelay is the longest SQS lets a message wait before it is delivered.
const MaxDelay = 15 * time.Minute

// SendAfter sends one body, to be delivered after delay (whole seconds,
// at most MaxDelay).
func (q *Queue) SendAfter(ctx context.Context, body string, delay time.Duration) error {
	secs := int32(min(MaxDelay, max(0, delay)).Round(time.Second) / time.Second)
	out, err := q.client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(q.url), Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("0"), MessageBody: aws.String(body), DelaySeconds: secs},
	}})
	switch {
	case err != nil:
		return fmt.Errorf("send a message: %w", err)
	case len(out.Failed) > 0:
		return fmt.Errorf("message refused: %s: %s", aws.ToString(out.Failed[0].Code), aws.ToString(out.Failed[0].Message))
	}
	return nil
}

// sendBatch sends up to BatchSize bodies and returns how many it could
// not send.
func (q *Queue) sendBatch(ctx context.Context, bodies []string) (int, error) {
	pending := map[string]string{}
	for i, b := range bodies {
		pending[strconv.Itoa(i)] = b
	}
	gaveUp := 0
	var lastErr error
	for attempt := 1; attempt <= Attempts && len(pending) > 0; attempt++ {
		if attempt > 1 && !awsconfig.Backoff.Wait(ctx, attempt-1, 0) {
			// No time left before the deadline for another send.
			break
		}
		entries := make([]types.SendMessageBatchRequestEntry, 0, len(pending))
		for i := range bodies {
			id := strconv.Itoa(i)
			if b, ok := pending[id]; ok {
				entries = append(entries, types.SendMessageBatchRequestEntry{Id: aws.String(id), MessageBody: aws.String(b)})
			}
		}
		out, err := q.client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(q.url), Entries: entries})
		if err != nil {
			// The SDK has retried what it could; the whole batch failed.
			return len(pending) + gaveUp, fmt.Errorf("send %d messages: %w", len(pending), err)
		}
		for _, ok := range out.Successful {
			delete(pending, aws.ToString(ok.Id))
		}
		for _, f := range out.Failed {
			lastErr = fmt.Errorf("message refused: %s: %s", aws.ToString(f.Code), aws.ToString(f.Message))
			if f.SenderFault {
				// Sending the same message again cannot help.
				delete(pending, aws.ToString(f.Id))
				gaveUp++
			}
		}
	}
	return len(pending) + gaveUp, lastErr
}
