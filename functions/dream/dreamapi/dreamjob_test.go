package dreamapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// queuedLambda is the dream function with the dream queue on an SQS
// stand-in, its dreams split into parts of at most 1,024 answer tokens,
// asked two at a time.
func queuedLambda(t *testing.T, e *env) (*dreamapi.Lambda, *sqstest.Server) {
	t.Helper()
	sqs := sqstest.NewServer(t)
	e.deps.AWS = aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")}
	vars := map[string]string{"DREAM_QUEUE_URL": sqstest.QueueURL, "AGENTMEM_SQS_ENDPOINT": sqs.URL,
		"AGENTMEM_DREAM_CONCURRENCY": "2", "AGENTMEM_DREAM_MAX_TOKENS": "1024"}
	e.deps.Getenv = func(k string) string { return vars[k] }
	l, err := dreamapi.NewLambda(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	return l, sqs
}

// largeScope gives nori/checkout-service n memories and the daily records
// goodAnswer cites.
func largeScope(t *testing.T, e *env, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		if _, err := e.store.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "checkout-service", Source: agentmem.SourceExtraction,
			Content: fmt.Sprintf("Service %d of the checkout flow retries its calls to the payment provider with backoff number %d", i, i)}); err != nil {
			t.Fatal(err)
		}
	}
	e.daily("nori", "checkout-service", summary)
	if _, err := e.store.AppendDaily(ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "checkout-service", Title: "run-42",
		Content: "The staging database is no longer reset every Monday.", At: "2026-11-21T11:00:00Z"}); err != nil {
		t.Fatal(err)
	}
}

// post sends POST .../dreams through the function's API handler and
// checks the answer against the OpenAPI document.
func post(t *testing.T, l *dreamapi.Lambda, body string) events.APIGatewayV2HTTPResponse {
	t.Helper()
	r := httptest.NewRequest("POST", "/api/agents/nori/dreams", strings.NewReader(body))
	resp, err := l.API.Handle(context.Background(), localapi.Event(r, []byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	openapitest.Check(t, "POST", "/api/agents/nori/dreams", resp.StatusCode, resp.Headers, resp.Body)
	return resp
}

// jobBatch is events/dream/sqs-dream-job.json naming the job id instead
// of the sample's.
func jobBatch(t *testing.T, id string) json.RawMessage {
	t.Helper()
	var batch events.SQSEvent
	if err := json.Unmarshal(loadEvent(t, "sqs-dream-job.json"), &batch); err != nil {
		t.Fatal(err)
	}
	ref, ok, err := dynamostore.ParseJobMessage(batch.Records[0].Body)
	if !ok || err != nil || !ref.Dream {
		t.Fatalf("the sample is no dream job message: %+v, %v, %v", ref, ok, err)
	}
	batch.Records[0].Body = strings.ReplaceAll(batch.Records[0].Body, ref.ID, id)
	raw, _ := json.Marshal(batch)
	return raw
}

// TestALargeScopeDreamsAsAJob: a scope whose review takes more than one
// round of model calls answers 202 with a job, without calling the
// model; the job goes to the dream queue, whose worker dreams it, recording
// its progress and result in the job; a small scope still answers 201.
func TestALargeScopeDreamsAsAJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	l, sqs := queuedLambda(t, e)
	largeScope(t, e, 40)
	ctx := context.Background()

	resp := post(t, l, `{"projectId":"checkout-service","lookbackDays":2,"compressAfterDays":0}`)
	res := decode[agentmem.DreamResult](t, resp)
	if resp.StatusCode != 202 || res.Status != agentmem.DreamStatusQueued || res.JobID == "" ||
		resp.Headers["Location"] != "/api/agents/nori/jobs/"+res.JobID || !strings.Contains(res.Reason, "model calls") {
		t.Fatalf("POST: %d %v %s; want 202 queued with the job's Location and why", resp.StatusCode, resp.Headers, resp.Body)
	}
	if n := len(e.chat.Prompts()); n != 0 {
		t.Errorf("the request asked the model %d times before handing the dream over", n)
	}
	if ds, _ := e.store.ListDreams(ctx, "nori", "checkout-service", 0, ""); len(ds.Dreams) != 0 {
		t.Errorf("the request recorded %+v", ds.Dreams)
	}
	want := dynamostore.JobMessage{Job: dynamostore.JobRef{AgentName: "nori", ID: res.JobID, Dream: true}}.Encode()
	if bodies := sqs.Bodies(); len(bodies) != 1 || bodies[0] != want {
		t.Fatalf("queued %q, want %q", bodies, want)
	}
	j, err := e.store.GetJob(ctx, "nori", res.JobID)
	if err != nil || j.Kind != agentmem.JobDream || j.Status != agentmem.JobRunning || j.Phase != agentmem.DreamPhaseQueued ||
		j.DreamInput == nil || *j.DreamInput.LookbackDays != 2 || *j.DreamInput.CompressAfterDays != 0 {
		t.Fatalf("the job: %+v, %v", j, err)
	}

	// The worker runs it with the function's time.
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	out, err := invoke(wctx, l, jobBatch(t, res.JobID))
	if err != nil || out.SQS == nil || len(out.SQS.BatchItemFailures) != 0 {
		t.Fatalf("worker: %#v, %v", out, err)
	}
	j, err = e.store.GetJob(ctx, "nori", res.JobID)
	if err != nil || j.Status != agentmem.JobDone || j.DreamResult == nil || j.DreamResult.Status != agentmem.DreamStatusDreamed || j.DreamResult.Dream == nil {
		t.Fatalf("the job after the worker: %+v, %v", j, err)
	}
	dr := j.DreamResult.Dream
	entries, err := e.store.DreamsOn(ctx, "nori", "checkout-service", dr.Date)
	if err != nil || len(entries) != 1 || entries[0].ID != dr.ID || entries[0].Status != agentmem.DreamCommitted || entries[0].Trigger != agentmem.TriggerAPI {
		t.Errorf("diary %+v, %v; want the job's dream %s committed", entries, err, dr.ID)
	}
	if dr.Created != 1 || len(dr.Operations) != 0 || len(dr.Dropped) == 0 || dr.Diary == "" || dr.LookbackDays != 2 || dr.Usage == nil {
		t.Errorf("the job's result %+v: want the entry (1 added, what was refused, the prose) without its list of changes", dr)
	}
	calls := len(e.chat.Prompts())
	if j.Calls != calls || j.PlannedCalls < 3 || j.PlannedCalls > calls || j.Phase != agentmem.DreamPhaseCommit {
		t.Errorf("progress: phase %s, %d calls of %d planned; the model was asked %d times", j.Phase, j.Calls, j.PlannedCalls, calls)
	}
	if got := dr.Usage.Calls + dr.Verifier.Usage.Calls; got != calls {
		t.Errorf("the diary counts %d calls, the model got %d", got, calls)
	}
	if n := len(sqs.Bodies()); n != 1 {
		t.Errorf("%d messages queued; a done job is not queued again", n)
	}

	// A scope whose review is one call still dreams in the request.
	small := newEnv(t, true)
	sl, _ := queuedLambda(t, small)
	largeScope(t, small, 1)
	if resp := post(t, sl, `{"projectId":"checkout-service"}`); resp.StatusCode != 201 {
		t.Errorf("a small scope: %d %s, want 201", resp.StatusCode, resp.Body)
	}
}

// startDreamJob gives nori/checkout-service 3 memories and the records
// goodAnswer cites, and starts a dream job of it, as a request would.
func startDreamJob(t *testing.T, e *env) agentmem.Job {
	t.Helper()
	largeScope(t, e, 3)
	in := agentmem.CreateDreamInput{ProjectID: "checkout-service"}
	dj, err := e.store.StartJob(context.Background(), agentmem.Job{Kind: agentmem.JobDream, AgentName: "nori", ProjectID: "checkout-service", DreamInput: &in})
	if err != nil {
		t.Fatal(err)
	}
	return dj
}

// TestDreamJobMessages: a dream job's run needs time to start (with too
// little it waits for the next run, queued again); a job message of the
// wrong kind never deletes anything.
func TestDreamJobMessages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	l, sqs := queuedLambda(t, e)
	dj := startDreamJob(t, e)
	ctx := context.Background()
	short, cancel := context.WithTimeout(ctx, 15*time.Second)
	out, err := invoke(short, l, jobBatch(t, dj.ID))
	cancel()
	if err != nil || len(out.SQS.BatchItemFailures) != 0 {
		t.Fatalf("worker with little time: %#v, %v", out, err)
	}
	if j, _ := e.store.GetJob(ctx, "nori", dj.ID); j.Status != agentmem.JobRunning || j.Phase != agentmem.DreamPhaseQueued || len(e.chat.Prompts()) != 0 {
		t.Errorf("with too little time: %+v, %d model calls; want it left queued", j, len(e.chat.Prompts()))
	}
	if bodies := sqs.Bodies(); len(bodies) != 1 || !strings.Contains(bodies[0], `"dreamJob"`) {
		t.Errorf("queued %q, want the dream job again", bodies)
	}

	// A bulk delete's message naming the dream job: refused, retried
	// (to the dead-letter queue), nothing deleted.
	del, err := e.store.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "checkout-service"})
	if err != nil {
		t.Fatal(err)
	}
	batch := events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "delete-as-dream", EventSource: "aws:sqs", Body: dynamostore.JobMessage{Job: dynamostore.JobRef{AgentName: "nori", ID: del.ID, Dream: true}}.Encode()},
		{MessageId: "dream-as-delete", EventSource: "aws:sqs", Body: dynamostore.JobMessage{Job: dynamostore.JobRef{AgentName: "nori", ID: dj.ID}}.Encode()},
	}}
	raw, _ := json.Marshal(batch)
	long, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err = invoke(long, l, raw)
	if err != nil || len(out.SQS.BatchItemFailures) != 1 || out.SQS.BatchItemFailures[0].ItemIdentifier != "dream-as-delete" {
		t.Fatalf("worker: %#v, %v; want the bulk delete message naming a dream job retried", out, err)
	}
	if j, _ := e.store.GetJob(ctx, "nori", del.ID); j.Status != agentmem.JobFailed || !strings.Contains(j.Error, "not a dream") {
		t.Errorf("the delete job named by a dream job message: %+v", j)
	}
	if c, err := e.store.GetScopeCounts(ctx, "nori", "checkout-service"); err != nil || c.Total != 3 {
		t.Errorf("the scope after both: %+v, %v; want its 3 memories", c, err)
	}
}

// TestADreamThatWouldCompressIsAJob: a small scope whose dream would also
// compress old memories (a round of model calls after the review) answers
// 202 with a job, since the two rounds do not fit a request's model
// budget with a real model; without compression it dreams in the
// request.
func TestADreamThatWouldCompressIsAJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	l, _ := queuedLambda(t, e)
	ctx := context.Background()
	// three memories written a month before the dream
	e.store.Now = func() time.Time { return time.Date(2026, 10, 20, 9, 0, 0, 0, time.UTC) }
	for i := range 3 {
		if _, err := e.store.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "checkout-service", Source: agentmem.SourceExtraction,
			Content: fmt.Sprintf("Old note %d about the checkout flow's retry budget of %d calls", i, i+2)}); err != nil {
			t.Fatal(err)
		}
	}
	e.store.Now = func() time.Time { return time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC) }
	e.daily("nori", "checkout-service", summary)

	resp := post(t, l, `{"projectId":"checkout-service"}`)
	res := decode[agentmem.DreamResult](t, resp)
	if resp.StatusCode != 202 || res.Status != agentmem.DreamStatusQueued || !strings.Contains(res.Reason, "compression") {
		t.Fatalf("POST with old memories: %d %s; want 202 queued, saying compression is why", resp.StatusCode, resp.Body)
	}
	if n := len(e.chat.Prompts()); n != 0 {
		t.Errorf("the request asked the model %d times before handing the dream over", n)
	}
	if resp := post(t, l, `{"projectId":"checkout-service","compressAfterDays":0}`); resp.StatusCode != 201 {
		t.Errorf("POST without compression: %d %s, want 201", resp.StatusCode, resp.Body)
	}
}

// TestADreamJobWaitsForABusyScope: a dream job that finds another dream
// holding its scope is neither failed nor lost: it is given back and
// queued again with a delay, and dreams once the scope is free.
func TestADreamJobWaitsForABusyScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	l, sqs := queuedLambda(t, e)
	dj := startDreamJob(t, e)
	ctx := context.Background()
	if _, err := e.store.AcquireDreamLease(ctx, "nori", "checkout-service", "nightly-dream", 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	run, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	out, err := invoke(run, l, jobBatch(t, dj.ID))
	if err != nil || len(out.SQS.BatchItemFailures) != 0 {
		t.Fatalf("worker with the scope busy: %#v, %v", out, err)
	}
	if j, _ := e.store.GetJob(ctx, "nori", dj.ID); j.Status != agentmem.JobRunning || len(e.chat.Prompts()) != 0 {
		t.Fatalf("the job with the scope busy: %+v, %d model calls; want it running, no model call", j, len(e.chat.Prompts()))
	}
	if bodies := sqs.Bodies(); len(bodies) != 1 || !strings.Contains(bodies[0], dj.ID) {
		t.Fatalf("queued %q, want the job again", bodies)
	}
	if err := e.store.ReleaseDreamLease(ctx, "nori", "checkout-service", "nightly-dream"); err != nil {
		t.Fatal(err)
	}
	out, err = invoke(run, l, jobBatch(t, dj.ID))
	if err != nil || len(out.SQS.BatchItemFailures) != 0 {
		t.Fatalf("worker with the scope free: %#v, %v", out, err)
	}
	if j, _ := e.store.GetJob(ctx, "nori", dj.ID); j.Status != agentmem.JobDone || j.DreamResult == nil {
		t.Errorf("the job once the scope is free: %+v; want done with the dream's result", j)
	}
}
