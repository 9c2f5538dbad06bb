package dreamapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// TestWorkerRunsBulkDeleteJobs: a job message on the dream queue (a bulk
// delete the memories function could not finish) is run by the worker;
// one it cannot finish in its time is sent again, and the message is
// done either way; a malformed job message is retried (to the
// dead-letter queue).
func TestWorkerRunsBulkDeleteJobs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	e.setNow(time.Now)
	sqs := sqstest.NewServer(t)
	e.deps.AWS = aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")}
	vars := map[string]string{"DREAM_QUEUE_URL": sqstest.QueueURL, "AGENTMEM_SQS_ENDPOINT": sqs.URL}
	e.deps.Getenv = func(k string) string { return vars[k] }
	l, err := dreamapi.NewLambda(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 30 {
		if _, err := e.store.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceManual, Content: fmt.Sprintf("m%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	job, err := e.store.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	body := dynamostore.JobMessage{Job: dynamostore.JobRef{AgentName: "nori", ID: job.ID}}.Encode()
	batch := events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "job", Body: body, EventSource: "aws:sqs"},
		{MessageId: "bad-job", Body: `{"job":{"agentName":"no#ri","id":"x"}}`, EventSource: "aws:sqs"},
	}}
	raw, _ := json.Marshal(batch)

	// Too little time to work: the job goes back on the queue.
	short, cancel := context.WithTimeout(ctx, 3*time.Second)
	out, err := invoke(short, l, raw)
	cancel()
	if err != nil || out.SQS == nil {
		t.Fatalf("worker: %#v, %v", out, err)
	}
	if f := out.SQS.BatchItemFailures; len(f) != 1 || f[0].ItemIdentifier != "bad-job" {
		t.Errorf("batchItemFailures %v, want only the malformed job message", f)
	}
	if bodies := sqs.Bodies(); len(bodies) != 1 || bodies[0] != body {
		t.Errorf("queued again %q, want the job's message", bodies)
	}
	// With time: done.
	long, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if out, err := invoke(long, l, raw); err != nil || len(out.SQS.BatchItemFailures) != 1 {
		t.Fatalf("worker: %#v, %v", out, err)
	}
	if j, err := e.store.GetJob(ctx, "nori", job.ID); err != nil || j.Status != agentmem.JobDone || j.Removed != 30 {
		t.Errorf("job after the worker: %+v, %v", j, err)
	}
	if n := len(sqs.Bodies()); n != 1 {
		t.Errorf("%d messages queued in all, want the one continuation", n)
	}
}

// TestRecountAction: {"action":"recount"} recounts every scope and
// answers those that had drifted.
func TestRecountAction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	l, err := dreamapi.NewLambda(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, agent := range []string{"nori", "kai", "miso"} {
		if _, err := e.store.CreateMemory(ctx, agentmem.Memory{AgentName: agent, ProjectID: "p", Source: agentmem.SourceManual, Content: "counted"}); err != nil {
			t.Fatal(err)
		}
	}
	lost := map[string]any{"scope": "kai#p", "createdAt": "2026-01-01T00:00:00.000000000Z", "id": "01JD5Q8Z3K7M2N4P6R8T0V2X4Y",
		"agentName": "kai", "projectId": "p", "content": "lost", "type": "note", "source": "system"}
	if err := e.store.DB().Table(e.store.Config().MemoriesTable).Put(lost).Run(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := invoke(ctx, l, json.RawMessage(`{"action":"recount"}`))
	if err != nil || out.Recount == nil {
		t.Fatalf("recount: %#v, %v", out, err)
	}
	if r := out.Recount; r.Scopes != 3 || len(r.Drifted) != 1 || r.Drifted[0].AgentName != "kai" || r.Drifted[0].Drift.Total != 1 {
		t.Errorf("recount answer %+v, want 3 scopes and kai's drift of one", r)
	}
	raw, _ := json.Marshal(out)
	var wire struct {
		Scopes  int               `json:"scopes"`
		Drifted []json.RawMessage `json:"drifted"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil || wire.Scopes != 3 || len(wire.Drifted) != 1 {
		t.Errorf("wire answer %s: %v", raw, err)
	}
	if out, err := invoke(ctx, l, json.RawMessage(`{"action":"recount"}`)); err != nil || len(out.Recount.Drifted) != 0 {
		t.Errorf("second recount: %#v, %v; want no drift", out, err)
	}
}
