package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// localAPI serves the real function handlers over fresh DynamoDB Local
// tables and returns an unsigned client of it.
func localAPI(t testing.TB) *apiclient.Client {
	t.Helper()
	srv := apitest.New(t, nil)
	c, err := apiclient.New(context.Background(), apiclient.Config{URL: srv.URL, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientAgainstHandlers(t *testing.T) {
	t.Parallel()
	c := localAPI(t)
	ctx := context.Background()

	for i := range 57 {
		if _, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p1", Content: fmt.Sprintf("memory %02d", i)}); err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	d, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p1", Type: agentmem.TypeDecision, Content: "ORM: sqlc", Rationale: "typed"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Source != agentmem.SourceManual || d.Rationale != "typed" || d.ID == "" {
		t.Errorf("created %+v", d)
	}

	page, err := c.ListMemories(ctx, "nori", apiclient.ListOptions{ProjectID: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Memories) != 50 || page.NextCursor == "" {
		t.Errorf("first page: got %d memories, cursor %q; want 50 and a cursor", len(page.Memories), page.NextCursor)
	}
	all, err := c.AllMemories(ctx, "nori", apiclient.ListOptions{ProjectID: "p1", Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 58 || all[0].ID != d.ID || all[57].Content != "memory 00" {
		t.Errorf("all: got %d memories, newest %q, oldest %q; want 58, the decision first, memory 00 last", len(all), all[0].Content, all[len(all)-1].Content)
	}
	decisions, err := c.AllMemories(ctx, "nori", apiclient.ListOptions{ProjectID: "p1", Type: agentmem.TypeDecision})
	if err != nil || len(decisions) != 1 {
		t.Errorf("type filter: got %d, %v; want 1", len(decisions), err)
	}

	got, err := c.GetMemory(ctx, "nori", d.ID)
	if err != nil || got.Content != "ORM: sqlc" {
		t.Errorf("get: %+v, %v", got, err)
	}
	if _, err := c.GetMemory(ctx, "koji", d.ID); !apiclient.IsNotFound(err) {
		t.Errorf("another agent's memory: got %v, want not_found", err)
	}
	md, err := c.MemoryMarkdown(ctx, "nori", "p1")
	if err != nil || !strings.HasPrefix(md, "# Memory: nori / p1") {
		t.Errorf("memory.md: %.40q, %v", md, err)
	}
	if err := c.DeleteMemory(ctx, "nori", d.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteMemory(ctx, "nori", d.ID); !apiclient.IsNotFound(err) {
		t.Errorf("delete twice: got %v, want not_found", err)
	}

	b, err := c.Bootstrap(ctx, "nori", apiclient.BootstrapOptions{ProjectID: "p1", Task: "fix the webhook handler"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Personality != nil || b.PersonalitySection != "" || b.MemoryCount != 50 || !strings.HasPrefix(b.MemoryFile, "# Memory: nori / p1") {
		t.Errorf("bootstrap without personality: %+v", b)
	}

	before, err := c.GetStats(ctx, "nori", "p1")
	if err != nil {
		t.Fatal(err)
	}
	if j, err := c.DeleteMemories(ctx, "nori", "p1"); err != nil || j.Status != agentmem.JobDone || j.Removed != before.Total || j.Removed == 0 {
		t.Fatalf("delete all: got %+v, %v; want done with %d removed", j, err, before.Total)
	}
	if _, err := c.MemoryMarkdown(ctx, "nori", "p1"); !apiclient.IsNotFound(err) {
		t.Errorf("memory.md after clear: got %v, want not_found", err)
	}

	p, created, err := c.PutPersonality(ctx, "nori", agentmem.PersonalityInput{DisplayName: "Nori", GitEmail: "nori@example.com"})
	if err != nil || !created || p.Version != 1 {
		t.Fatalf("put: %+v created=%v err=%v", p, created, err)
	}
	stale := 0
	_, _, err = c.PutPersonality(ctx, "nori", agentmem.PersonalityInput{DisplayName: "Nori 2", Version: &stale})
	if !apiclient.HasCode(err, agentmem.EConflict) {
		t.Errorf("stale version: got %v, want conflict", err)
	}
	var apiErr *apiclient.Error
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusConflict || agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("conflict error: %#v", err)
	}
	list, err := c.ListPersonalities(ctx)
	if err != nil || len(list) != 1 || list[0].AgentName != "nori" {
		t.Errorf("list: %+v, %v", list, err)
	}
	if err := c.DeletePersonality(ctx, "nori"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPersonality(ctx, "nori"); !apiclient.IsNotFound(err) {
		t.Errorf("get deleted: got %v, want not_found", err)
	}
	_, err = c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p#1", Content: "x"})
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Err.Code != agentmem.EInvalid || !strings.Contains(apiErr.Err.Message, "projectId") {
		t.Errorf("bad project id: got %v, want 400 invalid naming projectId", err)
	}
}

func TestErrorDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		body        string
		wantCode    string
		wantMessage string
	}{
		{"agentmem error", 404, `{"error":{"code":"not_found","message":"no memory X for agent nori"}}`, "not_found", "no memory X for agent nori"},
		{"API Gateway IAM refusal", 403, `{"message":"Forbidden"}`, apiclient.CodeForbidden, "Forbidden (IAM refused"},
		{"signature mismatch", 403, `{"message":"The request signature we calculated does not match"}`, apiclient.CodeForbidden, "The request signature"},
		{"throttled", 429, `{"message":"Too Many Requests"}`, apiclient.CodeThrottled, "Too Many Requests"},
		{"proxy HTML", 502, "<html>\n<body>Bad   gateway</body></html>", apiclient.CodeUnavailable, "<html> <body>Bad gateway</body></html>"},
		{"empty body", 418, "", apiclient.CodeHTTP, "I'm a teapot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL), apiclient.NoAuth{})
			err := c.DeleteMemory(context.Background(), "nori", "01J0000000000000000000000A")
			var e *apiclient.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %T %v, want *apiclient.Error", err, err)
			}
			if e.Status != tt.status || e.Err.Code != tt.wantCode || !strings.HasPrefix(e.Err.Message, tt.wantMessage) {
				t.Errorf("got %d %q %q, want %d %q %q...", e.Status, e.Err.Code, e.Err.Message, tt.status, tt.wantCode, tt.wantMessage)
			}
			if got := agentmem.ErrorCode(err); got != tt.wantCode {
				t.Errorf("agentmem.ErrorCode: got %q, want %q", got, tt.wantCode)
			}
			// The client's error carries the domain error itself, not a
			// copy made on each unwrap.
			var de *agentmem.Error
			if !errors.As(err, &de) || de != e.Err || agentmem.ErrorMessage(err) != e.Err.Message {
				t.Errorf("errors.As(*agentmem.Error): got %p %v, want the client error's own %p", de, de, e.Err)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		call      func(*apiclient.Client) error
		first     int
		wantCalls int32
		wantErr   bool
	}{
		{"GET retried after 503", func(c *apiclient.Client) error {
			_, err := c.GetPersonality(context.Background(), "nori")
			return err
		}, 503, 2, false},
		{"GET not retried after 404", func(c *apiclient.Client) error {
			_, err := c.GetPersonality(context.Background(), "nori")
			return err
		}, 404, 1, true},
		{"POST memory retried with its idempotency key", func(c *apiclient.Client) error {
			_, err := c.CreateMemory(context.Background(), "nori", agentmem.MemoryInput{ProjectID: "p", Content: "x"})
			return err
		}, 502, 2, false},
		{"a POST without an idempotency key not retried after 502", func(c *apiclient.Client) error {
			return c.Do(context.Background(), apiclient.Call{Method: "POST", Path: "/api/x", Body: struct{}{}}, nil)
		}, 502, 1, true},
		{"any call retried after 429: the API refused it before it ran", func(c *apiclient.Client) error {
			return c.Do(context.Background(), apiclient.Call{Method: "POST", Path: "/api/x", Body: struct{}{}}, nil)
		}, 429, 2, false},
		{"extraction retried (idempotent per runId)", func(c *apiclient.Client) error {
			_, err := c.CreateExtraction(context.Background(), "nori", agentmem.ExtractionInput{ProjectID: "p", RunID: "r", Output: new("o")})
			return err
		}, 429, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					w.WriteHeader(tt.first)
					_, _ = io.WriteString(w, `{"error":{"code":"x","message":"first"}}`)
					return
				}
				_, _ = io.WriteString(w, `{}`)
			}))
			defer srv.Close()
			c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL), apiclient.NoAuth{})
			err := tt.call(c)
			if (err != nil) != tt.wantErr || calls.Load() != tt.wantCalls {
				t.Errorf("got err %v after %d calls, want error %v after %d", err, calls.Load(), tt.wantErr, tt.wantCalls)
			}
		})
	}
}

func TestTransportError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, u), apiclient.NoAuth{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := c.GetPersonality(ctx, "nori")
	var te *apiclient.TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "cannot reach "+u) {
		t.Errorf("got %v, want a TransportError naming %s", err, u)
	}
}

func TestNewConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  apiclient.Config
		want string
	}{
		{apiclient.Config{}, "AGENTMEM_API_URL is not set"},
		{apiclient.Config{URL: "127.0.0.1:3000"}, "is not an http(s) URL"},
		{apiclient.Config{URL: "http://h/?x=1"}, "must not have a query"},
		{apiclient.Config{URL: "http://h", Auth: "iam"}, `AGENTMEM_AUTH is "iam"`},
	}
	for _, tt := range tests {
		_, err := apiclient.New(context.Background(), tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v): got %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

// TestRetryWaits: the one retry of an idempotent call waits the API's
// Retry-After when it fits the policy's cap, is not made when it does not,
// and is not made when the context's deadline leaves no time for the wait.
// Not parallel: that deadline (a quarter of Retry.Base) must leave time for
// the first call.
func TestRetryWaits(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		timeout    time.Duration
		calls      int32
		minTook    time.Duration
	}{
		{"no hint", "", 0, 2, apiclient.Retry.Base / 2},
		{"short Retry-After", "1", 0, 2, time.Second},
		{"Retry-After over the cap", "5", 0, 1, 0},
		{"deadline too close for the wait", "", apiclient.Retry.Base / 4, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					if tt.retryAfter != "" {
						w.Header().Set("Retry-After", tt.retryAfter)
					}
					w.WriteHeader(http.StatusServiceUnavailable)
					_, _ = io.WriteString(w, `{"error":{"code":"x","message":"first"}}`)
					return
				}
				_, _ = io.WriteString(w, `{}`)
			}))
			defer srv.Close()
			c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL), apiclient.NoAuth{})
			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			start := time.Now()
			_, err := c.GetPersonality(ctx, "nori")
			if got := calls.Load(); got != tt.calls || (err == nil) != (tt.calls == 2) {
				t.Errorf("got %d calls, err %v; want %d", got, err, tt.calls)
			}
			if took := time.Since(start); took < tt.minTook {
				t.Errorf("retried after %v, want at least %v", took, tt.minTook)
			}
		})
	}
}

// TestExtractionInputFormsReachTheServer sends the one extraction body
// type, in each of its forms, to the real handler: what the client encodes
// is what the server tells apart (an empty learnings list is the learnings
// form; no output and no learnings is refused; both are refused).
func TestExtractionInputFormsReachTheServer(t *testing.T) {
	t.Parallel()
	c := localAPI(t)
	ctx := context.Background()
	yes := true
	tests := []struct {
		name     string
		in       agentmem.ExtractionInput
		wantCode string
		check    func(agentmem.ExtractionResult) bool
	}{
		{"learnings that taught nothing, with a summary",
			agentmem.ExtractionInput{ProjectID: "p", RunID: "run-empty", Learnings: []agentmem.Learning{}, Summary: "Nothing new.", Success: &yes}, "",
			func(r agentmem.ExtractionResult) bool {
				return r.RunID == "run-empty" && len(r.Saved) == 0 && r.Summary == "Nothing new." && r.Success && r.Daily != nil
			}},
		{"learnings",
			agentmem.ExtractionInput{ProjectID: "p", RunID: "run-1", Learnings: []agentmem.Learning{{Type: agentmem.TypeFinding, Content: "The cache TTL is 60 s."}}}, "",
			func(r agentmem.ExtractionResult) bool {
				return len(r.Saved) == 1 && r.Saved[0].Source == agentmem.SourceExtraction && r.Saved[0].Type == agentmem.TypeFinding
			}},
		{"neither form", agentmem.ExtractionInput{ProjectID: "p", RunID: "run-2"}, agentmem.EInvalid, nil},
		{"both forms", agentmem.ExtractionInput{ProjectID: "p", RunID: "run-3", Output: new("log"), Learnings: []agentmem.Learning{}}, agentmem.EInvalid, nil},
		{"output without a server LLM", agentmem.ExtractionInput{ProjectID: "p", RunID: "run-4", Output: new("log")}, agentmem.ELLMUnavailable, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.CreateExtraction(ctx, "nori", tt.in)
			if code := agentmem.ErrorCode(err); code != tt.wantCode {
				t.Fatalf("got %v (code %q), want code %q", err, code, tt.wantCode)
			}
			if tt.check != nil && !tt.check(got) {
				t.Errorf("answer: %+v", got)
			}
		})
	}
}

// TestCreatesCarryOneIdempotencyKey: every create sends an idempotency
// key, the same on each attempt of one call and a new one for the next
// call; a clientToken the caller sets is the key.
func TestCreatesCarryOneIdempotencyKey(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		keys []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get(agentmem.IdempotencyHeader))
		first := len(keys)%2 == 1
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"error":{"code":"unavailable","message":"restarting"}}`)
			return
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	c := apiclient.NewWithAuth(apiclient.Config{}, mustURL(t, srv.URL), apiclient.NoAuth{})
	ctx := context.Background()
	calls := []func() error{
		func() error {
			_, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: "x"})
			return err
		},
		func() error {
			_, err := c.AppendDaily(ctx, "nori", agentmem.DailyInput{ProjectID: "p", Title: "t", Content: "x"})
			return err
		},
		func() error {
			_, _, err := c.PutPersonality(ctx, "nori", agentmem.PersonalityInput{DisplayName: "Nori"})
			return err
		},
		func() error {
			_, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: "x", ClientToken: "mine-1"})
			return err
		},
	}
	for i, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if len(keys) != 2*len(calls) {
		t.Fatalf("%d requests, want 2 per call: %q", len(keys), keys)
	}
	seen := map[string]bool{}
	for i := 0; i < len(keys); i += 2 {
		if keys[i] == "" || keys[i] != keys[i+1] {
			t.Errorf("call %d: keys %q then %q, want one key on both attempts", i/2, keys[i], keys[i+1])
		}
		if seen[keys[i]] {
			t.Errorf("call %d reused the key %q of an earlier call", i/2, keys[i])
		}
		seen[keys[i]] = true
	}
	if keys[6] != "mine-1" {
		t.Errorf("caller's clientToken: sent %q, want mine-1", keys[6])
	}
}
