package dreamapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// calls records the DynamoDB calls of the function's code under test (the
// handlers', the worker's and the dispatcher's store); TestMain fails the
// run when the function's role may not make one of them.
var calls = dynamotest.NewRecorder(routes.Dream)

func TestMain(m *testing.M) { os.Exit(calls.Main(m)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// goodAnswer adds one decision citing the first daily record and retires
// the staging memory TestDreamRoutes writes, citing the second.
const goodAnswer = "```json\n" + `{"operations": [
  {"op": "add", "type": "decision", "content": "Use idempotency keys on every payment POST", "rationale": "the payment provider retries webhooks 3 times", "cite": ["r1"]},
  {"op": "retire", "id": "m1", "cite": ["r2"], "note": "r2 says the reset was dropped"}
 ], "dream": "I turned the run summary into one decision."}` + "\n```\n"

// env is a dream function over fresh tables with a chat stand-in whose
// answer the test sets. store is the test's own store, to seed and check
// the tables; handler is the function's (deps.Store), over the same
// tables, whose calls are recorded (calls).
type env struct {
	t       testing.TB
	store   *dynamostore.Store
	handler *dynamostore.Store
	chat    *llmtest.Chat
	deps    lambdamain.Deps
	h       *httpapi.Handler
}

// newEnv builds the env; withLLM false leaves the LLM unconfigured.
func newEnv(t testing.TB, withLLM bool) *env {
	e := &env{t: t}
	e.handler, e.store = calls.Stores(t)
	e.setNow(func() time.Time { return time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC) })
	e.chat = llmtest.NewChat(t, llmtest.Fixed(goodAnswer))
	var c llm.Client = llm.Disabled{}
	if withLLM {
		c = e.chat.Client(t, 5*time.Second)
	}
	e.deps = lambdamain.Deps{Store: e.handler, Log: quiet, LLM: c, Getenv: func(string) string { return "" }}
	h, err := dreamapi.New(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	return e
}

// setNow sets the clock of both stores.
func (e *env) setNow(now func() time.Time) { e.store.Now, e.handler.Now = now, now }

func (e *env) daily(agent, project, content string) {
	e.t.Helper()
	if _, err := e.store.AppendDaily(context.Background(), agentmem.DailyRecord{AgentName: agent, ProjectID: project, Title: "run-41", Content: content, At: "2026-11-21T10:00:00Z"}); err != nil {
		e.t.Fatal(err)
	}
}

const summary = "The payment provider retries webhooks 3 times; we decided to use idempotency keys on every payment POST."

func (e *env) do(method, target, accept, body string) events.APIGatewayV2HTTPResponse {
	e.t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	resp, err := e.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
	if err != nil {
		e.t.Fatal(err)
	}
	openapitest.Check(e.t, method, r.URL.EscapedPath(), resp.StatusCode, resp.Headers, resp.Body)
	return resp
}

func decode[T any](t testing.TB, resp events.APIGatewayV2HTTPResponse) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(resp.Body), &v); err != nil {
		t.Fatalf("decode %q: %v", resp.Body, err)
	}
	return v
}

func TestDreamRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	e.daily("nori", "checkout-service", summary)
	if _, err := e.store.AppendDaily(context.Background(), agentmem.DailyRecord{AgentName: "nori", ProjectID: "checkout-service", Title: "run-42",
		Content: "The staging database is no longer reset every Monday.", At: "2026-11-21T11:00:00Z"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CreateMemory(context.Background(), agentmem.Memory{AgentName: "nori", ProjectID: "checkout-service", Content: "The staging database is reset every Monday", Source: agentmem.SourceExtraction}); err != nil {
		t.Fatal(err)
	}
	resp := e.do("POST", "/api/agents/nori/dreams", "", `{"projectId":"checkout-service","lookbackDays":3}`)
	if resp.StatusCode != 201 || resp.Headers["Location"] != "/api/agents/nori/dreams/2026-11-22?projectId=checkout-service" {
		t.Fatalf("create: %d %v %s", resp.StatusCode, resp.Headers, resp.Body)
	}
	res := decode[agentmem.DreamResult](t, resp)
	if res.Status != agentmem.DreamStatusDreamed || res.Dream.Created != 1 || res.Dream.Retired != 1 || len(res.Dream.Operations) != 2 {
		t.Errorf("create: %+v", res)
	}
	if again := decode[agentmem.DreamResult](t, e.do("POST", "/api/agents/nori/dreams", "", `{"projectId":"checkout-service"}`)); again.Status != agentmem.DreamStatusSkipped {
		t.Errorf("second dream: %+v, want skipped", again)
	}
	md := e.do("GET", "/api/agents/nori/dreams/2026-11-22?projectId=checkout-service", "text/markdown", "")
	if md.StatusCode != 200 || !strings.HasPrefix(md.Body, "# Dream Diary: 2026-11-22\n\n## Dream (03:00) — committed") || !strings.Contains(md.Body, "I turned the run summary into one decision.") {
		t.Errorf("diary markdown: %d\n%s", md.StatusCode, md.Body)
	}
	day := decode[agentmem.DreamDay](t, e.do("GET", "/api/agents/nori/dreams/2026-11-22?projectId=checkout-service&plan=true", "", ""))
	if len(day.Dreams) != 1 || len(day.Dreams[0].Written) != 1 || len(day.Dreams[0].Replaced) != 1 || day.Dreams[0].Replaced[0].Content != "The staging database is reset every Monday" ||
		len(day.Dreams[0].Sources) != 2 || day.Dreams[0].Sources[0].Text != "The staging database is no longer reset every Monday." {
		t.Errorf("diary with plan: %+v", day)
	}
	// plan is a boolean: true or false, as the document says; anything
	// else is refused, not read as false.
	for _, v := range []string{"false", ""} {
		if day := decode[agentmem.DreamDay](t, e.do("GET", "/api/agents/nori/dreams/2026-11-22?projectId=checkout-service&plan="+v, "", "")); len(day.Dreams) != 1 || day.Dreams[0].Written != nil {
			t.Errorf("plan=%s: %+v, want the diary without plan", v, day)
		}
	}
	for _, v := range []string{"1", "yes", "TRUE", "true%20"} {
		for _, date := range []string{"2026-11-22", "2026-11-23"} { // a day with dreams and one without
			if resp := e.do("GET", "/api/agents/nori/dreams/"+date+"?projectId=checkout-service&plan="+v, "", ""); resp.StatusCode != 400 || !strings.Contains(resp.Body, "plan") {
				t.Errorf("%s plan=%s: %d %s, want 400 naming plan", date, v, resp.StatusCode, resp.Body)
			}
		}
	}
	rev := e.do("POST", "/api/agents/nori/dreams/2026-11-22/revert?projectId=checkout-service", "", "")
	if rev.StatusCode != 200 || decode[agentmem.Dream](t, rev).Kind != agentmem.DreamKindRevert {
		t.Errorf("revert: %d %s", rev.StatusCode, rev.Body)
	}
	page, err := e.store.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: "nori", ProjectID: "checkout-service"})
	if err != nil || len(page.Memories) != 1 || page.Memories[0].Content != "The staging database is reset every Monday" {
		t.Errorf("core after revert: %+v, %v", page.Memories, err)
	}
	list := decode[agentmem.DreamPage](t, e.do("GET", "/api/agents/nori/dreams?projectId=checkout-service&limit=1", "", ""))
	if len(list.Dreams) != 1 || list.Dreams[0].Kind != agentmem.DreamKindRevert || list.NextCursor == "" {
		t.Errorf("list page 1: %+v", list)
	}
	next := decode[agentmem.DreamPage](t, e.do("GET", "/api/agents/nori/dreams?projectId=checkout-service&limit=1&cursor="+list.NextCursor, "", ""))
	if len(next.Dreams) != 1 || next.Dreams[0].Status != agentmem.DreamReverted {
		t.Errorf("list page 2: %+v", next)
	}
}

func TestDreamRouteErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	e.daily("nori", "p", summary)
	e.daily("koji", "p", summary)
	e.daily("miso", "p", summary)
	if _, err := e.store.AcquireDreamLease(context.Background(), "miso", "p", "someone-else", time.Hour); err != nil {
		t.Fatal(err)
	}
	e.chat.SetAnswer(func(_ context.Context, prompt string) llmtest.Reply {
		if strings.Contains(prompt, `agent "koji"`) {
			return llmtest.Reply{Text: "I could not do it."}
		}
		return llmtest.Reply{Text: goodAnswer}
	})
	tests := []struct {
		name, method, target, body string
		status                     int
		code                       string
	}{
		{"unknown field", "POST", "/api/agents/nori/dreams", `{"projectId":"p","days":3}`, 400, "invalid"},
		{"lookback 0", "POST", "/api/agents/nori/dreams", `{"projectId":"p","lookbackDays":0}`, 400, "invalid"},
		{"lookback 31", "POST", "/api/agents/nori/dreams", `{"projectId":"p","lookbackDays":31}`, 400, "invalid"},
		{"negative compression", "POST", "/api/agents/nori/dreams", `{"projectId":"p","compressAfterDays":-1}`, 400, "invalid"},
		{"no project", "POST", "/api/agents/nori/dreams", `{}`, 400, "invalid"},
		{"bad agent", "POST", "/api/agents/no%23ri/dreams", `{"projectId":"p"}`, 400, "invalid"},
		{"bad date", "GET", "/api/agents/nori/dreams/22-11-2026?projectId=p", ``, 400, "invalid"},
		{"plan false", "GET", "/api/agents/nori/dreams/2026-11-20?projectId=p&plan=false", ``, 404, "not_found"},
		{"no dreams that day", "GET", "/api/agents/nori/dreams/2026-11-20?projectId=p", ``, 404, "not_found"},
		{"revert nothing", "POST", "/api/agents/nori/dreams/2026-11-22/revert?projectId=p", ``, 404, "not_found"},
		{"bad cursor", "GET", "/api/agents/nori/dreams?projectId=p&cursor=xyz", ``, 400, "invalid"},
		{"unusable answer", "POST", "/api/agents/koji/dreams", `{"projectId":"p"}`, 502, "llm_failed"},
		{"busy", "POST", "/api/agents/miso/dreams", `{"projectId":"p"}`, 409, "busy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := e.do(tt.method, tt.target, "", tt.body)
			var body struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if resp.StatusCode != tt.status || json.Unmarshal([]byte(resp.Body), &body) != nil || body.Error.Code != tt.code {
				t.Errorf("got %d %s, want %d %s", resp.StatusCode, resp.Body, tt.status, tt.code)
			}
		})
	}
	if ds, _ := e.store.DreamsOn(context.Background(), "koji", "p", "2026-11-22"); len(ds) != 1 || ds[0].Status != agentmem.DreamFailed {
		t.Errorf("the failed dream is not in the diary: %+v", ds)
	}
	if ds, _ := e.store.DreamsOn(context.Background(), "nori", "p", "2026-11-22"); len(ds) != 0 {
		t.Errorf("bad requests dreamed: %+v", ds)
	}
	noLLM := newEnv(t, false)
	noLLM.daily("nori", "p", summary)
	if resp := noLLM.do("POST", "/api/agents/nori/dreams", "", `{"projectId":"p"}`); resp.StatusCode != 503 || !strings.Contains(resp.Body, "AGENTMEM_LLM") {
		t.Errorf("without an LLM: %d %s, want 503 saying how to configure one", resp.StatusCode, resp.Body)
	}
}

func loadEvent(t testing.TB, name string) json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile("../../../events/dream/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// invoke hands raw to l as the Lambda runtime does: decoded into the
// entry point's event type, the answer encoded as JSON. A payload that
// does not decode is an error, as the runtime reports it.
func invoke(ctx context.Context, l *dreamapi.Lambda, raw json.RawMessage) (dreamapi.Output, error) {
	var ev dreamapi.Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return dreamapi.Output{}, err
	}
	out, err := l.Handle(ctx, ev)
	if err == nil {
		// The answer must encode as the runtime will encode it.
		if _, merr := json.Marshal(out); merr != nil {
			return out, merr
		}
	}
	return out, err
}

// TestLambdaReplaysTheScheduleAndTheSQSBatch sends events/dream's
// schedule and SQS samples through the function's one entry point.
func TestLambdaReplaysTheScheduleAndTheSQSBatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	sqs := sqstest.NewServer(t)
	// The process's AWS configuration, which the dispatcher's SQS client
	// is built from.
	e.deps.AWS = aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")}
	vars := map[string]string{"DREAM_QUEUE_URL": sqstest.QueueURL, "AGENTMEM_SQS_ENDPOINT": sqs.URL, "DREAM_WORKER_CONCURRENCY": "2"}
	e.deps.Getenv = func(k string) string { return vars[k] }
	l, err := dreamapi.NewLambda(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e.daily("nori", "checkout-service", summary)
	e.daily("koji", "checkout-service", summary)

	out, err := invoke(ctx, l, loadEvent(t, "schedule.json"))
	if err != nil {
		t.Fatal(err)
	}
	if res := out.Dispatch; res == nil || res.Sent != 2 || res.ItemsRead != 2 || out.API != nil || out.SQS != nil {
		t.Errorf("dispatch: %#v", out)
	}
	if got := len(sqs.Bodies()); got != 2 {
		t.Errorf("queued %d messages, want 2", got)
	}

	// The batch: nori/checkout-service dreams; koji/checkout-service meets
	// an overloaded LLM (temporary: retried); nori/payments-api is busy.
	// Plus a message that is not a dream message.
	e.chat.SetAnswer(func(_ context.Context, prompt string) llmtest.Reply {
		if strings.Contains(prompt, `agent "koji"`) {
			return llmtest.Reply{Status: 503, Text: "overloaded"}
		}
		return llmtest.Reply{Text: goodAnswer}
	})
	// Another dream holds nori/payments-api: the worker leaves it, done.
	if _, err := e.store.AcquireDreamLease(ctx, "nori", "payments-api", "someone-else", time.Hour); err != nil {
		t.Fatal(err)
	}
	raw := loadEvent(t, "sqs-batch.json")
	var batch events.SQSEvent
	if err := json.Unmarshal(raw, &batch); err != nil {
		t.Fatal(err)
	}
	bad := batch.Records[0]
	bad.MessageId, bad.Body = "not-a-dream", `{"agentName":"x#y"}`
	batch.Records = append(batch.Records, bad)
	raw, _ = json.Marshal(batch)
	out, err = invoke(ctx, l, raw)
	if err != nil {
		t.Fatal(err)
	}
	if out.SQS == nil || out.API != nil || out.Dispatch != nil {
		t.Fatalf("worker answered %#v", out)
	}
	resp := *out.SQS
	var failed []string
	for _, f := range resp.BatchItemFailures {
		failed = append(failed, f.ItemIdentifier)
	}
	slices.Sort(failed)
	if want := []string{batch.Records[1].MessageId, "not-a-dream"}; !slices.Equal(failed, want) {
		t.Errorf("batchItemFailures %v, want %v", failed, want)
	}
	if st, _ := e.store.GetDreamState(ctx, "nori", "checkout-service"); st.Pending() || st.LastHash == "" {
		t.Errorf("nori/checkout-service after the worker: %+v", st)
	}
	if st, _ := e.store.GetDreamState(ctx, "koji", "checkout-service"); !st.Pending() {
		t.Error("koji/checkout-service is no longer pending although its dream failed")
	}

	api, err := invoke(ctx, l, loadEvent(t, "ListDreams.json"))
	if r := api.API; err != nil || r == nil || r.StatusCode != 200 {
		t.Errorf("API event: %#v, %v", api, err)
	}
	for _, ev := range []string{`{"action":"nap"}`, `{"hello":"world"}`, `[1,2]`, `{"Records":[{"eventSource":"aws:s3"}]}`, `null`} {
		if _, err := invoke(ctx, l, json.RawMessage(ev)); err == nil {
			t.Errorf("event %s: no error", ev)
		}
	}
	if _, err := l.Handle(ctx, dreamapi.Event{}); err == nil {
		t.Error("an empty event: no error")
	}
}

// FuzzLambdaEvent sends arbitrary payloads to the function's entry point:
// no panic, and no API request ever gets a 500.
func FuzzLambdaEvent(f *testing.F) {
	for _, name := range []string{"schedule.json", "sqs-batch.json", "CreateDream.json", "GetDream.json", "RevertDream.json"} {
		f.Add(string(loadEvent(f, name)))
	}
	f.Add(`{"Records":[{"eventSource":"aws:sqs","messageId":"m","body":"{}"}]}`)
	e := newEnv(f, false)
	l, err := dreamapi.NewLambda(e.deps)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		out, _ := invoke(context.Background(), l, json.RawMessage(payload))
		if r := out.API; r != nil && r.StatusCode == 500 {
			t.Fatalf("payload %q: 500 %s", payload, r.Body)
		}
	})
}

// TestEventAndOutputKeepTheWireFormat: each event shape decodes into its
// field alone, and each answer encodes exactly as the answer itself would,
// so that the typed entry point speaks Lambda's JSON unchanged.
func TestEventAndOutputKeepTheWireFormat(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]func(dreamapi.Event) bool{
		"schedule.json": func(e dreamapi.Event) bool {
			return e.Schedule != nil && e.Schedule.Action == "dispatch" && e.API == nil && e.SQS == nil
		},
		"sqs-batch.json": func(e dreamapi.Event) bool {
			return e.SQS != nil && len(e.SQS.Records) > 0 && e.API == nil && e.Schedule == nil
		},
		"ListDreams.json": func(e dreamapi.Event) bool {
			return e.API != nil && e.API.RouteKey != "" && e.SQS == nil && e.Schedule == nil
		},
	} {
		var ev dreamapi.Event
		if err := json.Unmarshal(loadEvent(t, name), &ev); err != nil || !want(ev) {
			t.Errorf("%s: decoded %+v, %v", name, ev, err)
		}
	}

	for _, tt := range []struct{ payload, want string }{
		{`[]`, "the event is not a JSON object"},
		{`"dispatch"`, "the event is not a JSON object"},
		{`{}`, "unrecognised event"},
		{`{"action":5}`, "unrecognised event: want an API Gateway v2 request, {\"action\":\"dispatch\"} or an SQS batch (its action is a number)"},
		{`{"Records":"x"}`, "unrecognised event: want an API Gateway v2 request, {\"action\":\"dispatch\"} or an SQS batch (its Records is a string)"},
		{`{"Records":[{"eventSource":"aws:s3"}]}`, "unrecognised event"},
	} {
		var ev dreamapi.Event
		if err := json.Unmarshal([]byte(tt.payload), &ev); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("event %s: got error %v, want one saying %q", tt.payload, err, tt.want)
		}
	}

	api := events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"dreams":[]}`}
	sqs := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{{ItemIdentifier: "m-1"}}}
	dispatch := dream.DispatchResult{Sent: 2, ItemsRead: 2}
	tests := []struct {
		out  dreamapi.Output
		want any
	}{
		{dreamapi.Output{API: &api}, api},
		{dreamapi.Output{SQS: &sqs}, sqs},
		{dreamapi.Output{Dispatch: &dispatch}, dispatch},
		{dreamapi.Output{}, nil},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.out)
		want, _ := json.Marshal(tt.want)
		if err != nil || string(got) != string(want) {
			t.Errorf("Output %+v encodes as %s, %v; want %s", tt.out, got, err, want)
		}
	}
}
