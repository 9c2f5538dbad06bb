package memoryapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
)

// doAccept is do with an Accept header.
func (a *apiTest) doAccept(method, target, accept, body string) (status int, contentType, respBody string) {
	a.t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("Accept", accept)
	resp, err := a.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
	if err != nil {
		a.t.Fatal(err)
	}
	openapitest.Check(a.t, method, r.URL.EscapedPath(), resp.StatusCode, resp.Headers, resp.Body)
	return resp.StatusCode, resp.Headers["Content-Type"], resp.Body
}

func TestDailyLogAppendsAndRendersTheDay(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	a.setNow(func() time.Time { return time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC) })
	for _, body := range []string{
		`{"projectId":"p","title":"run-42","content":"Summary of run 42.","at":"2026-11-22T15:02:00Z"}`,
		`{"projectId":"p","title":"Trimmed Context","content":"  Messages: 120.  ","at":"2026-11-22T16:30:00+02:00"}`,
		`{"projectId":"p","title":"no time given","content":"written now"}`,
		`{"projectId":"p","title":"yesterday","content":"late work","at":"2026-11-21T23:10:00Z"}`,
	} {
		resp := a.do("POST", "/api/agents/nori/daily", body)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("append %s: %d %s", body, resp.StatusCode, resp.Body)
		}
		rec := decode[agentmem.DailyRecord](t, resp)
		if want := "/api/agents/nori/daily?projectId=p&date=" + rec.Date(); resp.Headers["Location"] != want {
			t.Errorf("Location: got %q, want %q", resp.Headers["Location"], want)
		}
	}
	status, ct, md := a.doAccept("GET", "/api/agents/nori/daily?projectId=p&date=2026-11-22", "text/markdown", "")
	want := "# Daily Memory: 2026-11-22\n\n## Trimmed Context (14:30)\nMessages: 120.\n\n## run-42 (15:02)\nSummary of run 42.\n\n## no time given (18:00)\nwritten now\n"
	if status != 200 || !strings.HasPrefix(ct, "text/markdown") || md != want {
		t.Errorf("markdown: %d %s\n%s\nwant\n%s", status, ct, md, want)
	}
	// Without the date: today. Without Accept: JSON.
	day := decode[agentmem.DailyDay](t, a.do("GET", "/api/agents/nori/daily?projectId=p", ""))
	if day.Date != "2026-11-22" || len(day.Records) != 3 || day.Records[0].Title != "Trimmed Context" {
		t.Errorf("json: got %+v", day)
	}
	if status, _, body := a.doAccept("GET", "/api/agents/nori/daily?projectId=p&date=2026-11-20", "text/markdown", ""); status != 404 || !strings.Contains(body, `"not_found"`) {
		t.Errorf("empty day: got %d %s, want a JSON 404", status, body)
	}
	if got := a.do("GET", "/api/agents/koji/daily?projectId=p&date=2026-11-22", ""); got.StatusCode != 404 {
		t.Errorf("another agent's day: got %d, want 404", got.StatusCode)
	}
}

func TestSessionContextRoutes(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	a.setNow(func() time.Time { return now })
	const key = "/api/projects/p/sessions/run-1/context/auth-patterns"
	if resp := a.do("PUT", key, `{"value":"JWT with refresh tokens"}`); resp.StatusCode != 201 {
		t.Fatalf("first put: %d %s, want 201", resp.StatusCode, resp.Body)
	}
	resp := a.do("PUT", key, `{"value":"opaque tokens","ttlSeconds":3600}`)
	e := decode[agentmem.SessionEntry](t, resp)
	if resp.StatusCode != 200 || e.ExpiresAt != "2026-11-22T11:00:00.000000000Z" {
		t.Errorf("second put: %d %+v, want 200 expiring at 11:00", resp.StatusCode, e)
	}
	now = now.Add(5 * time.Minute)
	got := decode[agentmem.SessionEntry](t, a.do("GET", key, ""))
	if got.Value != "opaque tokens" || got.AccessedAt != "2026-11-22T10:05:00.000000000Z" {
		t.Errorf("get: got %+v", got)
	}
	a.do("PUT", "/api/projects/p/sessions/run-1/context/empty", `{"value":""}`)
	if got := decode[agentmem.SessionEntry](t, a.do("GET", "/api/projects/p/sessions/run-1/context/empty", "")); got.Value != "" || got.Key != "empty" {
		t.Errorf("empty value: got %+v", got)
	}
	if resp := a.do("DELETE", "/api/projects/p/sessions/run-1/context/empty", ""); resp.StatusCode != 204 {
		t.Errorf("delete: got %d", resp.StatusCode)
	}
	if resp := a.do("DELETE", "/api/projects/p/sessions/run-1/context/empty", ""); resp.StatusCode != 404 {
		t.Errorf("delete again: got %d, want 404", resp.StatusCode)
	}
	for i := range 30 {
		a.do("PUT", fmt.Sprintf("/api/projects/p/sessions/run-1/context/k%d", i), `{"value":"v"}`)
	}
	ended := decode[agentmem.EndedSession](t, a.do("DELETE", "/api/projects/p/sessions/run-1", ""))
	if ended.Deleted != 31 {
		t.Errorf("end session: got %+v, want 31 keys deleted", ended)
	}
	if resp := a.do("GET", key, ""); resp.StatusCode != 404 {
		t.Errorf("get after the end: got %d, want 404", resp.StatusCode)
	}
	// Expired keys are not found even before DynamoDB's TTL removes them.
	a.do("PUT", key, `{"value":"short","ttlSeconds":60}`)
	now = now.Add(61 * time.Second)
	if resp := a.do("GET", key, ""); resp.StatusCode != 404 {
		t.Errorf("get after expiry: got %d, want 404", resp.StatusCode)
	}
}

// TestJournalBadInputIs4xxAndWritesNothing: the daily and session routes
// answer bad input with a JSON 4xx and store nothing.
func TestJournalBadInputIs4xxAndWritesNothing(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	a.setNow(func() time.Time { return now })
	bigContent := strings.Repeat("x", agentmem.MaxDailyContentBytes+1)
	bigValue := strings.Repeat("v", agentmem.MaxSessionValueBytes+1)
	const sess = "/api/projects/p/sessions/run-1/context/k"
	tests := []struct {
		name, method, target, body string
		status                     int
	}{
		{"daily: no title", "POST", "/api/agents/nori/daily", `{"projectId":"p","content":"c"}`, 400},
		{"daily: blank content", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":" "}`, 400},
		{"daily: two-line title", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"a\nb","content":"c"}`, 400},
		{"daily: content too big", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":"` + bigContent + `"}`, 400},
		{"daily: bad at", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":"c","at":"yesterday"}`, 400},
		{"daily: at in the future", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":"c","at":"2026-11-22T11:00:00Z"}`, 400},
		{"daily: at too old", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":"c","at":"2020-01-01T00:00:00Z"}`, 400},
		{"daily: unknown field", "POST", "/api/agents/nori/daily", `{"projectId":"p","title":"t","content":"c","mood":"ok"}`, 400},
		{"daily: bad project", "POST", "/api/agents/nori/daily", `{"projectId":"a#b","title":"t","content":"c"}`, 400},
		{"daily: bad agent", "POST", "/api/agents/no%23ri/daily", `{"projectId":"p","title":"t","content":"c"}`, 400},
		{"daily get: bad date", "GET", "/api/agents/nori/daily?projectId=p&date=22-11-2026", ``, 400},
		{"daily get: no project", "GET", "/api/agents/nori/daily?date=2026-11-22", ``, 400},
		{"daily get: the last day of 9999", "GET", "/api/agents/nori/daily?projectId=p&date=9999-12-31", ``, 404},
		{"session: no value", "PUT", sess, `{}`, 400},
		{"session: value not a string", "PUT", sess, `{"value":42}`, 400},
		{"session: value too big", "PUT", sess, `{"value":"` + bigValue + `"}`, 400},
		{"session: ttl too short", "PUT", sess, `{"value":"v","ttlSeconds":5}`, 400},
		{"session: ttl too long", "PUT", sess, `{"value":"v","ttlSeconds":99999999999}`, 400},
		{"session: bad key", "PUT", "/api/projects/p/sessions/run-1/context/a%23b", `{"value":"v"}`, 400},
		{"session: bad session", "PUT", "/api/projects/p/sessions/" + strings.Repeat("s", 129) + "/context/k", `{"value":"v"}`, 400},
		{"session: bad project", "PUT", "/api/projects/p%20q/sessions/run-1/context/k", `{"value":"v"}`, 400},
		{"session: missing key", "GET", sess, ``, 404},
		{"end: bad session", "DELETE", "/api/projects/p/sessions/a%23b", ``, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := a.do(tt.method, tt.target, tt.body)
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if resp.StatusCode != tt.status || json.Unmarshal([]byte(resp.Body), &e) != nil || e.Error.Message == "" {
				t.Errorf("got %d %s, want %d with a JSON error", resp.StatusCode, resp.Body, tt.status)
			}
		})
	}
	recs, err := a.store.DailyRecords(context.Background(), "nori", "p", now.AddDate(-2, 0, 0), now.AddDate(0, 0, 1))
	usage, err2 := a.store.SessionUsage(context.Background(), "p")
	if err != nil || err2 != nil || len(recs) != 0 || usage.Total != 0 {
		t.Errorf("bad input wrote %d daily records and %d session keys (%v, %v)", len(recs), usage.Total, err, err2)
	}
}

// FuzzJournalRequest sends arbitrary daily and session requests through
// the memories handler over DynamoDB Local: the answer is never a 5xx.
func FuzzJournalRequest(f *testing.F) {
	for _, s := range []struct{ method, path, query, body string }{
		{"POST", "/api/agents/nori/daily", "", `{"projectId":"p","title":"t","content":"c"}`},
		{"POST", "/api/agents/nori/daily", "", `{"projectId":"p","title":"t","content":"c","at":"2026-11-22T10:00:00+01:00"}`},
		{"GET", "/api/agents/nori/daily", "projectId=p&date=2026-11-22", ""},
		{"PUT", "/api/projects/p/sessions/s/context/k", "", `{"value":"v","ttlSeconds":60}`},
		{"GET", "/api/projects/p/sessions/s/context/k", "", ""},
		{"DELETE", "/api/projects/p/sessions/s/context/k", "", ""},
		{"DELETE", "/api/projects/p/sessions/s", "", ""},
	} {
		f.Add(s.method, s.path, s.query, s.body)
	}
	a := newAPITest(f)
	f.Fuzz(func(t *testing.T, method, path, query, body string) {
		if strings.ContainsAny(method, " \t\r\n") || method == "" {
			method = "GET"
		}
		r := httptest.NewRequest("GET", "/", strings.NewReader(body))
		r.Method, r.URL = method, &url.URL{Path: "/" + strings.TrimLeft(path, "/"), RawQuery: query}
		resp, err := a.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
		if err != nil || resp.StatusCode >= 500 {
			t.Fatalf("%s %s?%s %q: status %d %s (err %v)", method, path, query, body, resp.StatusCode, resp.Body, err)
		}
	})
}
