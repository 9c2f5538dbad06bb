package sqsqueue_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/sqsqueue"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
)

func TestSendBatchesOfTenAndRetriesRefusedEntries(t *testing.T) {
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
	srv := sqstest.NewServer(t)
	failed, err := sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL).Send(context.Background(), nil)
	if failed != 0 || err != nil || srv.Calls() != 0 {
		t.Errorf("got %d, %v, %d calls", failed, err, srv.Calls())
	}
}

func TestSendToAMissingQueueFailsEveryBody(t *testing.T) {
	srv := sqstest.NewServer(t)
	q := sqsqueue.NewWithClient(srv.Client(), "https://sqs.eu-west-1.amazonaws.com/123456789012/nope")
	failed, err := q.Send(context.Background(), []string{"a", "b", "c"})
	if failed != 3 || err == nil {
		t.Errorf("got %d failed, err %v; want 3 and an error", failed, err)
	}
}
