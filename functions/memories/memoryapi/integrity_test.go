package memoryapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/agentaccess"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/bulkjobs"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/aws/aws-lambda-go/events"
)

// newJobsAPITest is an apiTest whose handler works on a bulk delete for
// budget before it answers 202 and leaves the rest to goroutines.
func newJobsAPITest(t *testing.T, budget time.Duration) (*apiTest, *bulkjobs.InProcess) {
	rec, st := calls.Stores(t)
	jobs := &bulkjobs.InProcess{Store: rec, Log: quiet}
	t.Cleanup(jobs.Stop)
	h, err := httpapi.NewMemoriesHandler(&memoryapi.API{Store: rec, Log: quiet, Jobs: jobs, JobBudget: budget}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return &apiTest{t: t, store: st, handler: rec, h: h}, jobs
}

// doWith sends a request with headers.
func (a *apiTest) doWith(method, target, body string, headers map[string]string) events.APIGatewayV2HTTPResponse {
	a.t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	resp, err := a.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
	if err != nil {
		a.t.Fatalf("%s %s: handler returned error %v", method, target, err)
	}
	return resp
}

// written is everything a scope holds that a bad request could have
// written: its memories and counters, its daily records, the project's
// session keys.
func written(t *testing.T, st *dynamostore.Store) string {
	t.Helper()
	ctx := context.Background()
	c, err := st.GetScopeCounts(ctx, "nori", "p")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.DailyRecords(ctx, "nori", "p", time.Now().Add(-48*time.Hour), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.SessionUsage(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("memories %d version %d, daily %d, session keys %d", c.Total, c.Version, len(recs), u.Total)
}

// TestHostileInputWritesNothing: bodies encoding/json would have guessed
// at, query parameters given twice, and query parameters or a body a route
// does not take (a filter the caller believes applied) are 400 on every
// route that takes them, and nothing is written or deleted.
func TestHostileInputWritesNothing(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"already there"}`)
	before := written(t, a.store)
	tests := []struct{ method, target, body string }{
		{"POST", "/api/agents/nori/memories", `{"projectId":"p","projectId":"q","content":"c"}`},
		{"POST", "/api/agents/nori/memories", `{"projectId":"p","ProjectId":"q","content":"c"}`},
		{"POST", "/api/agents/nori/memories", `{"projectId":"p","content":"a\udc00"}`},
		{"POST", "/api/agents/nori/memories", "{\"projectId\":\"p\",\"content\":\"\xfe\xff\"}"},
		{"POST", "/api/agents/nori/memories", `{"projectId":"p","content":"c","tags":["a"],"tags":["b"]}`},
		{"POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","title":"u","content":"c"}`},
		{"POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":"\ud83d"}`},
		{"POST", "/api/agents/nori/memories/forget", `{"projectId":"p","olderThan":"1h","olderThan":"100w"}`},
		{"POST", "/api/agents/nori/memories/forget", `{"projectId":"p","olderThan":"1h","IncludePinned":true}`},
		{"PUT", "/api/projects/p/sessions/s1/context/k", `{"value":"a","value":"b"}`},
		{"PUT", "/api/projects/p/sessions/s1/context/k", `{"value":"\ud800\ud800"}`},
		{"POST", "/api/admin/recount", `{"agentName":"nori","projectId":"p","projectId":"q"}`},
		{"DELETE", "/api/agents/nori/memories?projectId=p&projectId=q", ""},
		{"DELETE", "/api/agents/nori/memories?projectId=q&projectId=p", ""},
		{"DELETE", "/api/agents/nori/memories?projectId=p&type=note", ""},
		{"DELETE", "/api/agents/nori/memories?projectId=p&olderThan=30d", ""},
		{"DELETE", "/api/agents/nori/memories?projectId=p", `{"olderThan":"30d"}`},
		{"DELETE", "/api/agents/nori/memories?projectId=p", `{"projectId":"q"}`},
		{"DELETE", "/api/projects/p/sessions/s1", `{"key":"k"}`},
		{"GET", "/api/agents/nori/memories?projectId=p", `{"type":"decision"}`},
		{"POST", "/api/agents/nori/memories?projectId=q", `{"projectId":"p","content":"c"}`},
		{"GET", "/api/agents/nori/memories?projectid=p", ""},
		{"GET", "/api/agents/nori/memories?projectId=p&limit=1&limit=2", ""},
		{"GET", "/api/agents/nori/memories/search?projectId=p&q=a&q=b", ""},
		{"GET", "/api/agents/nori/memories/search?projectId=p&q=%FF", ""},
		{"GET", "/api/agents/nori/stats?projectId=p&projectId=p", ""},
		{"GET", "/api/agents/nori/bootstrap?projectId=p&task=a&task=b", ""},
		{"GET", "/api/stats?limit=1&limit=2", ""},
	}
	for _, tt := range tests {
		resp := a.do(tt.method, tt.target, tt.body)
		if resp.StatusCode != 400 || !strings.Contains(resp.Body, `"code":"invalid"`) {
			t.Errorf("%s %s %q: got %d %s, want 400 invalid", tt.method, tt.target, tt.body, resp.StatusCode, resp.Body)
		}
	}
	if after := written(t, a.store); after != before {
		t.Errorf("bad requests changed the store: before %s, after %s", before, after)
	}
}

// TestIdempotencyKeyOverHTTP: create memory, daily append and personality
// put take an Idempotency-Key header or a clientToken field; a retry gets
// the first answer (and Idempotent-Replayed), another request with the key
// 422, a malformed or contradictory key 400.
func TestIdempotencyKeyOverHTTP(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	body := `{"projectId":"p","content":"retried after a timeout"}`
	key := map[string]string{agentmem.IdempotencyHeader: "5f0c7e3a-2b1d-4c9e-8f6a-0d1e2f3a4b5c"}
	first := a.doWith("POST", "/api/agents/nori/memories", body, key)
	again := a.doWith("POST", "/api/agents/nori/memories", body, key)
	if first.StatusCode != 201 || again.StatusCode != 201 || again.Body != first.Body || again.Headers[agentmem.ReplayedHeader] != "true" || first.Headers[agentmem.ReplayedHeader] != "" {
		t.Errorf("replay: first %d %s, again %d %s %v", first.StatusCode, first.Body, again.StatusCode, again.Body, again.Headers)
	}
	// The same request, formatted otherwise, is the same request.
	if r := a.doWith("POST", "/api/agents/nori/memories", `{ "content": "retried after a timeout", "projectId": "p" }`, key); r.Body != first.Body {
		t.Errorf("same request reformatted: %d %s", r.StatusCode, r.Body)
	}
	if r := a.doWith("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"something else"}`, key); r.StatusCode != 422 || !strings.Contains(r.Body, agentmem.EIdempotencyMismatch) {
		t.Errorf("another request with the key: %d %s, want 422", r.StatusCode, r.Body)
	}
	// The body's clientToken is the same key.
	token := `{"projectId":"p","content":"retried after a timeout","clientToken":"5f0c7e3a-2b1d-4c9e-8f6a-0d1e2f3a4b5c"}`
	if r := a.do("POST", "/api/agents/nori/memories", token); r.Body != first.Body {
		t.Errorf("clientToken: %d %s, want the first answer", r.StatusCode, r.Body)
	}
	for name, tt := range map[string]struct {
		body    string
		headers map[string]string
	}{
		"contradictory":   {`{"projectId":"p","content":"x","clientToken":"one"}`, map[string]string{agentmem.IdempotencyHeader: "two"}},
		"malformed":       {body, map[string]string{agentmem.IdempotencyHeader: "a key with spaces"}},
		"malformed token": {`{"projectId":"p","content":"x","clientToken":"k#1"}`, nil},
		"too long":        {body, map[string]string{agentmem.IdempotencyHeader: strings.Repeat("k", 129)}},
	} {
		if r := a.doWith("POST", "/api/agents/nori/memories", tt.body, tt.headers); r.StatusCode != 400 {
			t.Errorf("%s key: %d %s, want 400", name, r.StatusCode, r.Body)
		}
	}
	if n := len(decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/nori/memories?projectId=p", "")).Memories); n != 1 {
		t.Errorf("%d memories stored, want 1", n)
	}
	// Another agent's key of the same name is its own.
	if r := a.doWith("POST", "/api/agents/kai/memories", body, key); r.StatusCode != 201 || r.Headers[agentmem.ReplayedHeader] != "" {
		t.Errorf("another agent: %d %v", r.StatusCode, r.Headers)
	}

	daily := `{"projectId":"p","title":"flush","content":"a summary"}`
	d1 := a.doWith("POST", "/api/agents/nori/daily", daily, key)
	d2 := a.doWith("POST", "/api/agents/nori/daily", daily, key)
	if d1.StatusCode != 201 || d2.Body != d1.Body || d2.Headers[agentmem.ReplayedHeader] != "true" {
		t.Errorf("daily replay: %d %s / %d %s", d1.StatusCode, d1.Body, d2.StatusCode, d2.Body)
	}
	if recs, _ := a.store.DailyRecords(context.Background(), "nori", "p", time.Now().Add(-time.Hour), time.Now().Add(time.Hour)); len(recs) != 1 {
		t.Errorf("%d daily records, want 1", len(recs))
	}
}

// TestBulkDeletesGoOnInTheBackground: a delete-all or forget that cannot
// finish within the request answers 202 with the job, which goes on and
// reports exactly what it removed; the counters end exact.
func TestBulkDeletesGoOnInTheBackground(t *testing.T) {
	t.Parallel()
	a, _ := newJobsAPITest(t, time.Nanosecond)
	ctx := context.Background()
	for i := range 150 {
		m := agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceManual, Content: fmt.Sprintf("memory %d", i), Pinned: i%5 == 0}
		if _, err := a.store.CreateMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(resp events.APIGatewayV2HTTPResponse) agentmem.Job {
		t.Helper()
		if resp.StatusCode != 202 || resp.Headers["Location"] == "" {
			t.Fatalf("got %d %s, want 202 with a Location", resp.StatusCode, resp.Body)
		}
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			r := a.do("GET", resp.Headers["Location"], "")
			if r.StatusCode != 200 {
				t.Fatalf("job status: %d %s", r.StatusCode, r.Body)
			}
			if j := decode[agentmem.Job](t, r); j.Status != agentmem.JobRunning {
				return j
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatal("the job did not end in a minute")
		return agentmem.Job{}
	}
	f := a.do("POST", "/api/agents/nori/memories/forget", `{"projectId":"p","olderThan":"1h"}`)
	if got := decode[agentmem.Forgotten](t, f); got.Status != agentmem.JobRunning || got.JobID == "" {
		t.Errorf("forget answer: %+v", got)
	}
	// olderThan 1h forgets nothing created just now; pinned aside.
	if j := wait(f); j.Status != agentmem.JobDone || j.Removed != 0 || j.Kind != agentmem.JobForget {
		t.Errorf("forget job: %+v, want done with nothing removed", j)
	}
	j := wait(a.do("DELETE", "/api/agents/nori/memories?projectId=p", ""))
	if j.Status != agentmem.JobDone || j.Removed != 150 || j.Kind != agentmem.JobDeleteScope {
		t.Errorf("delete job: %+v, want done with 150 removed", j)
	}
	if c := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", "")); c.Total != 0 || c.Bytes != 0 {
		t.Errorf("counters after the job: %+v", c.Counts)
	}
	for target, want := range map[string]int{
		"/api/agents/nori/jobs/not-a-ulid":                 400,
		"/api/agents/kai/jobs/" + j.ID:                     404,
		"/api/agents/nori/jobs/01JD5Q8Z3K7M2N4P6R8T0V2X4Y": 404,
	} {
		if r := a.do("GET", target, ""); r.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", target, r.StatusCode, want)
		}
	}
}

// TestRecountRoute: the operator's recount reports a scope's counters,
// the drift it repaired, and nothing when there was none.
func TestRecountRoute(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"counted"}`)
	rc := decode[agentmem.Recount](t, a.do("POST", "/api/admin/recount", `{"agentName":"nori","projectId":"p"}`))
	if rc.Drifted || rc.After.Total != 1 || rc.Before.Total != 1 {
		t.Errorf("recount of exact counters: %+v", rc)
	}
	lost := map[string]any{"scope": "nori#p", "createdAt": "2026-01-01T00:00:00.000000000Z", "id": "01JD5Q8Z3K7M2N4P6R8T0V2X4Y",
		"agentName": "nori", "projectId": "p", "content": "written behind the store's back", "type": "note", "source": "manual"}
	if err := a.store.DB().Table(a.store.Config().MemoriesTable).Put(lost).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rc = decode[agentmem.Recount](t, a.do("POST", "/api/admin/recount", `{"agentName":"nori","projectId":"p"}`))
	if !rc.Drifted || rc.Drift.Total != 1 || rc.After.Total != 2 {
		t.Errorf("recount after drift: %+v", rc)
	}
	for _, body := range []string{`{"agentName":"nori"}`, `{"agentName":"no#ri","projectId":"p"}`, `{}`} {
		if r := a.do("POST", "/api/admin/recount", body); r.StatusCode != 400 {
			t.Errorf("recount %s: %d, want 400", body, r.StatusCode)
		}
	}
}

// TestAgentRolesRestrictCallers: with the mapping configured, a task role
// may use its own agent's agent routes only (403 otherwise), as its IAM
// grant in per-agent mode; other callers and the project-wide session
// routes are left to IAM.
func TestAgentRolesRestrictCallers(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	m, err := agentaccess.Parse(`{"nori":"arn:aws:iam::123456789012:role/nori-task","kai":"arn:aws:iam::123456789012:role/kai-task"}`)
	if err != nil {
		t.Fatal(err)
	}
	a.h.RestrictAgents(m)
	as := func(caller, method, target, body string) int {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		ev := localapi.Event(r, []byte(body))
		ev.RequestContext.Authorizer.IAM.UserARN = caller
		resp, err := a.h.Handle(context.Background(), ev)
		if err != nil && resp.StatusCode < 400 {
			t.Fatal(err)
		}
		return resp.StatusCode
	}
	nori := "arn:aws:sts::123456789012:assumed-role/nori-task/ecs-1"
	admin := "arn:aws:sts::123456789012:assumed-role/operator/alice"
	tests := []struct {
		caller, method, target, body string
		want                         int
	}{
		{nori, "POST", "/api/agents/nori/memories", `{"projectId":"p","content":"mine"}`, 201},
		{nori, "POST", "/api/agents/kai/memories", `{"projectId":"p","content":"planted"}`, 403},
		{nori, "GET", "/api/agents/kai/memories?projectId=p", "", 403},
		{nori, "POST", "/api/agents/kai/memories/forget", `{"projectId":"p","olderThan":"1h"}`, 403},
		{nori, "DELETE", "/api/agents/kai/memories?projectId=p", "", 403},
		{nori, "GET", "/api/agents/kai/stats?projectId=p", "", 403},
		{nori, "PUT", "/api/projects/p/sessions/s/context/k", `{"value":"shared by the project's agents"}`, 201},
		{nori, "GET", "/api/projects/p/sessions/s/context", "", 200},
		// The routes for people and operators, which no agent's task is
		// granted, even for its own agent: every scope's names and counts,
		// recounts of any scope, deleting a scope.
		{nori, "DELETE", "/api/agents/nori/memories?projectId=p", "", 403},
		{nori, "GET", "/api/agents/nori/memory.md?projectId=p", "", 403},
		{nori, "GET", "/api/stats", "", 403},
		{nori, "POST", "/api/admin/recount", `{"agentName":"kai","projectId":"p"}`, 403},
		{nori, "GET", "/api/health", "", 403},
		{admin, "GET", "/api/agents/kai/memories?projectId=p", "", 200},
		{admin, "GET", "/api/stats", "", 200},
		{admin, "GET", "/api/agents/nori/memory.md?projectId=p", "", 200},
		{admin, "POST", "/api/admin/recount", `{"agentName":"kai","projectId":"p"}`, 200},
	}
	for _, tt := range tests {
		if got := as(tt.caller, tt.method, tt.target, tt.body); got != tt.want {
			t.Errorf("%s: %s %s: got %d, want %d", tt.caller, tt.method, tt.target, got, tt.want)
		}
	}
	if c, _ := a.store.GetScopeCounts(context.Background(), "kai", "p"); c.Total != 0 {
		t.Errorf("kai's scope holds %d memories, want none", c.Total)
	}
	if c, _ := a.store.GetScopeCounts(context.Background(), "nori", "p"); c.Total != 1 {
		t.Errorf("nori's scope holds %d memories, want its one", c.Total)
	}
}

// TestCursorsOfAnotherScopeAreRefused: a page cursor only continues the
// listing it came from (400 otherwise), through the API.
func TestCursorsOfAnotherScopeAreRefused(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	for _, agent := range []string{"nori", "kai"} {
		for i := range 3 {
			a.do("POST", "/api/agents/"+agent+"/memories", fmt.Sprintf(`{"projectId":"p","content":"memory %d"}`, i))
		}
	}
	page := decode[agentmem.MemoryPage](t, a.do("GET", "/api/agents/nori/memories?projectId=p&limit=1", ""))
	if page.NextCursor == "" {
		t.Fatal("no cursor")
	}
	if r := a.do("GET", "/api/agents/nori/memories?projectId=p&limit=1&cursor="+page.NextCursor, ""); r.StatusCode != 200 {
		t.Errorf("own cursor: %d %s", r.StatusCode, r.Body)
	}
	for _, target := range []string{
		"/api/agents/kai/memories?projectId=p&limit=1&cursor=" + page.NextCursor,
		"/api/agents/nori/memories?projectId=q&limit=1&cursor=" + page.NextCursor,
		"/api/agents/nori/memories?projectId=p&type=note&limit=1&cursor=" + page.NextCursor,
		"/api/stats?cursor=" + page.NextCursor,
	} {
		if r := a.do("GET", target, ""); r.StatusCode != 400 {
			t.Errorf("%s: %d %s, want 400", target, r.StatusCode, r.Body)
		}
	}
}

// TestUnavailableDatabaseAnswers503: when DynamoDB cannot be reached the
// API answers 503 with a JSON error and a Retry-After, not 500.
func TestUnavailableDatabaseAnswers503(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := dynamostore.New(awsCfg, dynamostore.Config{MemoriesTable: "m", PersonalitiesTable: "p", JournalTable: "j", Endpoint: "http://127.0.0.1:1"})
	h, err := httpapi.NewMemoriesHandler(&memoryapi.API{Store: st, Log: quiet}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/api/agents/nori/memories?projectId=p", nil)
	resp, _ := h.Handle(ctx, localapi.Event(r, nil))
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Headers["Retry-After"] == "" || !strings.Contains(resp.Body, `"code":"unavailable"`) {
		t.Errorf("got %d %v %s, want 503 unavailable with Retry-After", resp.StatusCode, resp.Headers, resp.Body)
	}
}

// TestReplayedReplacementAnswersAsTheFirst: a create that replaces a
// memory, sent again with its idempotency key, answers exactly as the
// first call did, the memory it replaced included.
func TestReplayedReplacementAnswersAsTheFirst(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	old := decode[agentmem.Memory](t, a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","content":"CI uses Node 18"}`))
	body := `{"projectId":"p","content":"CI uses Node 20 since the runner upgrade","replaces":"` + old.ID + `"}`
	key := map[string]string{agentmem.IdempotencyHeader: "replace-node-18"}
	first := a.doWith("POST", "/api/agents/nori/memories", body, key)
	again := a.doWith("POST", "/api/agents/nori/memories", body, key)
	if first.StatusCode != 201 || !strings.Contains(first.Body, `"superseded"`) {
		t.Fatalf("first: %d %s", first.StatusCode, first.Body)
	}
	if again.StatusCode != first.StatusCode || again.Body != first.Body || again.Headers[agentmem.ReplayedHeader] != "true" {
		t.Errorf("replay: %d %s\nfirst: %d %s", again.StatusCode, again.Body, first.StatusCode, first.Body)
	}
}
