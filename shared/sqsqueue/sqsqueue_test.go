package sqsqueue_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/sqsqueue"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
)

func TestSendBatchesOfTenAndRetriesRefusedEntries(t *testing.T) {
	t.Parallel()
	srv := sqstest.NewServer(t)
	var bodies []string
	for i := range 25 {
		bodies = append(bodies, fmt.Sprintf(`{"agentName":"a%02d","projectId":"p"}`, i))
	}
	srv.Refuse(bodies[3], sqstest.Refusal{Times: 2})           // accepted on the third attempt
	srv.Refuse(bodies[14], sqstest.Refusal{Times: 5})          // never within the attempts
	srv.Refuse(bodies[20], sqstest.Refusal{SenderFault: true}) // not retried
	q := sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL)
	failed, err := q.Send(context.Background(), bodies)
	if failed != 2 || err == nil {
		t.Fatalf("got %d failed, err %v; want 2 and an error", failed, err)
	}
	got := srv.Bodies()
	slices.Sort(got)
	want := slices.DeleteFunc(slices.Clone(bodies), func(b string) bool { return b == bodies[14] || b == bodies[20] })
	if !slices.Equal(got, want) {
		t.Errorf("delivered %d bodies, want %d", len(got), len(want))
	}
	// 3 batches, plus 2 retries of the first batch and 2 of the second.
	if got, want := srv.Calls(), 3+2+2; got != want {
		t.Errorf("got %d SendMessageBatch calls, want %d", got, want)
	}
}

func TestSendNothingIsNoCall(t *testing.T) {
	t.Parallel()
	srv := sqstest.NewServer(t)
	failed, err := sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL).Send(context.Background(), nil)
	if failed != 0 || err != nil || srv.Calls() != 0 {
		t.Errorf("got %d, %v, %d calls", failed, err, srv.Calls())
	}
}

func TestSendToAMissingQueueFailsEveryBody(t *testing.T) {
	t.Parallel()
	srv := sqstest.NewServer(t)
	q := sqsqueue.NewWithClient(srv.Client(), "https://sqs.eu-west-1.amazonaws.com/123456789012/nope")
	failed, err := q.Send(context.Background(), []string{"a", "b", "c"})
	if failed != 3 || err == nil {
		t.Errorf("got %d failed, err %v; want 3 and an error", failed, err)
	}
}

// TestRefusedEntriesWaitTheAWSBackoff: an entry SQS refused is sent again
// after the process's AWS backoff, not at once, and not when the
// deadline leaves no time for the wait. Not parallel: its short deadline
// (a quarter of Backoff.Base) must leave time for one call.
func TestRefusedEntriesWaitTheAWSBackoff(t *testing.T) {
	srv := sqstest.NewServer(t)
	srv.Refuse("b", sqstest.Refusal{Times: 2})
	q := sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL)
	start := time.Now()
	if failed, _ := q.Send(context.Background(), []string{"a", "b"}); failed != 0 || srv.Calls() != 3 {
		t.Fatalf("got %d failed, %d calls; want everything sent in 3 calls", failed, srv.Calls())
	}
	// The two waits are at least half of Backoff's first two delays.
	if min := awsconfig.Backoff.Base/2 + awsconfig.Backoff.Base; time.Since(start) < min {
		t.Errorf("resent after %v in all, want at least %v of backoff", time.Since(start), min)
	}

	late := sqstest.NewServer(t)
	late.Refuse("b", sqstest.Refusal{Times: 2})
	ctx, cancel := context.WithTimeout(context.Background(), awsconfig.Backoff.Base/4)
	defer cancel()
	failed, err := sqsqueue.NewWithClient(late.Client(), sqstest.QueueURL).Send(ctx, []string{"a", "b"})
	if failed != 1 || err == nil || late.Calls() != 1 {
		t.Errorf("short deadline: got %d failed, %v, %d calls; want b given up after one call", failed, err, late.Calls())
	}
}
