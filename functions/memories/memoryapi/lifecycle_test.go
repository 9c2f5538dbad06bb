package memoryapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/localapi"
)

// patternBody is a CreateMemory body for a pattern.
func patternBody(trigger, solution string, confidence float64) string {
	return fmt.Sprintf(`{"projectId":"p","type":"pattern","content":"When %s","trigger":%q,"solution":%q,"confidence":%v}`, trigger, trigger, solution, confidence)
}

func seedPatterns(a *apiTest) {
	a.t.Helper()
	a.create("nori", patternBody("the checkout e2e test times out in CI", "wait for the network idle event before asserting", 0.92))
	a.create("nori", patternBody("an e2e test is flaky on the CI runner", "rerun with tracing on and compare the traces", 0.75))
	a.create("nori", patternBody("an e2e test fails only on Mondays", "check the staging reset job", 0.7))
	a.create("nori", patternBody("the checkout e2e test fails after a dependency bump", "pin playwright", 0.5))
	a.create("nori", patternBody("terraform plan shows drift", "import the resource", 0.95))
	a.create("nori", `{"projectId":"p","type":"finding","content":"The checkout e2e test is the slowest test in CI"}`)
	a.create("toro", patternBody("the checkout e2e test times out in CI", "toro's own fix", 0.99))
}

func TestSuggestPatternsAboveTheThreshold(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	seedPatterns(a)
	task := url.QueryEscape("Fix the flaky checkout e2e test that times out in CI")
	resp := a.do("GET", "/api/agents/nori/patterns/suggest?projectId=p&task="+task, "")
	if resp.StatusCode != 200 {
		t.Fatalf("got %d %s", resp.StatusCode, resp.Body)
	}
	got := decode[agentmem.Suggestions](t, resp)
	want := []string{"the checkout e2e test times out in CI", "an e2e test is flaky on the CI runner"}
	var triggers []string
	for _, p := range got.Patterns {
		triggers = append(triggers, p.Trigger)
		if p.Type != agentmem.TypePattern || *p.Confidence <= 0.7 || p.AgentName != "nori" || p.LastAccessedAt == "" {
			t.Errorf("suggested %+v: want a touched pattern of nori's above 0.7", p)
		}
	}
	if !slices.Equal(triggers, want) || got.MinConfidence != 0.7 {
		t.Errorf("got %q at %v, want %q at 0.7 (relevant and above the threshold, best first)", triggers, got.MinConfidence, want)
	}
	lower := decode[agentmem.Suggestions](t, a.do("GET", "/api/agents/nori/patterns/suggest?projectId=p&minConfidence=0.4&limit=10&task="+task, ""))
	if len(lower.Patterns) != 4 {
		t.Errorf("minConfidence 0.4: got %d patterns, want the 4 e2e ones", len(lower.Patterns))
	}
	if one := decode[agentmem.Suggestions](t, a.do("GET", "/api/agents/nori/patterns/suggest?projectId=p&limit=1&task="+task, "")); len(one.Patterns) != 1 {
		t.Errorf("limit 1: got %d", len(one.Patterns))
	}
	for _, q := range []string{"projectId=p", "projectId=p&task=x&minConfidence=1.5", "projectId=p&task=x&minConfidence=high", "task=x", "projectId=p&task=x&limit=0"} {
		if resp := a.do("GET", "/api/agents/nori/patterns/suggest?"+q, ""); resp.StatusCode != 400 {
			t.Errorf("%s: got %d, want 400", q, resp.StatusCode)
		}
	}
}

func TestPatternThresholdFromTheEnvironment(t *testing.T) {
	t.Parallel()
	a := newAPITestWith(t, nil, map[string]string{"AGENTMEM_PATTERN_MIN_CONFIDENCE": "0.9"})
	seedPatterns(a)
	got := decode[agentmem.Suggestions](t, a.do("GET", "/api/agents/nori/patterns/suggest?projectId=p&task="+url.QueryEscape("checkout e2e test times out"), ""))
	if len(got.Patterns) != 1 || got.MinConfidence != 0.9 {
		t.Errorf("threshold 0.9: got %d patterns at %v, want 1", len(got.Patterns), got.MinConfidence)
	}
	for _, bad := range []string{"1.2", "seventy", "-0.1"} {
		_, err := memoryapi.New(lambdamain.Deps{Store: a.store, Log: quiet, Getenv: func(string) string { return bad }})
		if err == nil || !strings.Contains(err.Error(), "AGENTMEM_PATTERN_MIN_CONFIDENCE") {
			t.Errorf("threshold %q: got %v, want a start-up error", bad, err)
		}
	}
}

func TestBootstrapWithTaskSuggestsPatterns(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	seedPatterns(a)
	b := decode[agentmem.Bootstrap](t, a.do("GET", "/api/agents/nori/bootstrap?projectId=p&task="+url.QueryEscape("checkout e2e test times out in CI"), ""))
	if len(b.SuggestedPatterns) != 2 || b.SuggestedPatterns[0].Trigger != "the checkout e2e test times out in CI" {
		t.Fatalf("suggestedPatterns: got %+v", b.SuggestedPatterns)
	}
	i := strings.Index(b.MemoryFile, "\n## Suggested patterns\n")
	if i < 0 || !strings.Contains(b.MemoryFile[i:], "checkout e2e test times out in CI") || !strings.Contains(b.MemoryFile[i:], "Do: wait for the network idle event") ||
		strings.Contains(b.MemoryFile[i:], "pin playwright") || strings.Contains(b.MemoryFile[i:], "terraform") {
		t.Errorf("memoryFile's suggested patterns section is wrong:\n%s", b.MemoryFile)
	}
	plain := decode[agentmem.Bootstrap](t, a.do("GET", "/api/agents/nori/bootstrap?projectId=p", ""))
	if strings.Contains(plain.MemoryFile, "Suggested patterns") || plain.SuggestedPatterns == nil || len(plain.SuggestedPatterns) != 0 {
		t.Errorf("without a task: got %d suggestions, section present %v", len(plain.SuggestedPatterns), strings.Contains(plain.MemoryFile, "Suggested"))
	}
	if resp := a.do("GET", "/api/agents/nori/bootstrap?projectId=p&task=", ""); resp.StatusCode != 400 {
		t.Errorf("empty task: got %d, want 400", resp.StatusCode)
	}
}

// createAged stores a memory created age ago.
func createAged(t *testing.T, st *dynamostore.Store, content string, age time.Duration, pinned bool) agentmem.Memory {
	t.Helper()
	m, err := st.CreateMemory(context.Background(), agentmem.Memory{AgentName: "nori", ProjectID: "p", Content: content, Source: agentmem.SourceManual,
		Pinned: pinned, CreatedAt: agentmem.FormatTime(time.Now().Add(-age))})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestForgetMemories(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	day := 24 * time.Hour
	createAged(t, a.store, "40 days old", 40*day, false)
	createAged(t, a.store, "40 days old, pinned", 40*day, true)
	createAged(t, a.store, "10 days old", 10*day, false)
	createAged(t, a.store, "3 hours old", 3*time.Hour, false)
	other, _ := a.store.CreateMemory(context.Background(), agentmem.Memory{AgentName: "toro", ProjectID: "p", Content: "toro's, 40 days old",
		Source: agentmem.SourceManual, CreatedAt: agentmem.FormatTime(time.Now().Add(-40 * day))})
	left := func() []string {
		ms, err := a.store.ScopeMemories(context.Background(), "nori", "p", "")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Content)
		}
		return out
	}
	forget := func(body string) agentmem.Forgotten {
		t.Helper()
		resp := a.do("POST", "/api/agents/nori/memories/forget", body)
		if resp.StatusCode != 200 {
			t.Fatalf("forget %s: %d %s", body, resp.StatusCode, resp.Body)
		}
		return decode[agentmem.Forgotten](t, resp)
	}

	bad := []string{``, `{}`, `{"projectId":"p"}`, `{"projectId":"p","olderThan":"30m"}`, `{"projectId":"p","olderThan":"0d"}`,
		`{"projectId":"p","olderThan":"-3d"}`, `{"projectId":"p","olderThan":"1.5w"}`, `{"projectId":"p","olderThan":30}`,
		`{"olderThan":"30d"}`, `{"projectId":"p","olderThan":"30d","pinned":true}`, `{"projectId":"p","olderThan":"30d","includePinned":"yes"}`}
	for _, body := range bad {
		if resp := a.do("POST", "/api/agents/nori/memories/forget", body); resp.StatusCode != 400 || !strings.Contains(resp.Body, `"invalid"`) {
			t.Errorf("%s: got %d %s, want 400 invalid", body, resp.StatusCode, resp.Body)
		}
	}
	if n := len(left()); n != 4 {
		t.Fatalf("bad input deleted memories: %d left, want 4", n)
	}

	if got := forget(`{"projectId":"p","olderThan":"30d"}`); got.Removed != 1 || got.Cutoff == "" {
		t.Errorf("30d: got %+v, want 1 removed (pinned kept)", got)
	}
	if want := []string{"3 hours old", "10 days old", "40 days old, pinned"}; !slices.Equal(left(), want) {
		t.Errorf("after 30d: %q, want %q", left(), want)
	}
	if got := forget(`{"projectId":"p","olderThan":"4w","includePinned":true}`); got.Removed != 1 {
		t.Errorf("4w with pinned: got %d removed, want 1", got.Removed)
	}
	if got := forget(`{"projectId":"p","olderThan":"1w"}`); got.Removed != 1 {
		t.Errorf("1w: got %d removed, want 1", got.Removed)
	}
	if got := forget(`{"projectId":"p","olderThan":"2h"}`); got.Removed != 1 || len(left()) != 0 {
		t.Errorf("2h: got %d removed, %q left", got.Removed, left())
	}
	if _, err := a.store.GetMemory(context.Background(), "toro", other.ID); err != nil {
		t.Errorf("forgetting nori's memories touched toro's: %v", err)
	}
	if c, _ := a.store.GetScopeCounts(context.Background(), "nori", "p"); c.Total != 0 {
		t.Errorf("counters after forgetting everything: %d", c.Total)
	}
}

func TestStatsAndAllStats(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	a.create("nori", `{"projectId":"p","type":"decision","content":"Use sqlc","rationale":"typed"}`)
	a.create("nori", `{"projectId":"p","content":"a note"}`)
	a.create("nori", `{"projectId":"p","content":"another note"}`)
	if _, err := a.store.CreateMemory(context.Background(), agentmem.Memory{AgentName: "nori", ProjectID: "p", Content: "extracted", Source: agentmem.SourceExtraction, Type: agentmem.TypeLearning}); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		a.create(fmt.Sprintf("agent%d", i), `{"projectId":"q","content":"elsewhere"}`)
	}
	resp := a.do("GET", "/api/agents/nori/stats?projectId=p", "")
	if resp.StatusCode != 200 {
		t.Fatalf("stats: %d %s", resp.StatusCode, resp.Body)
	}
	s := decode[agentmem.Stats](t, resp)
	if s.Total != 4 || s.ByType[agentmem.TypeNote] != 2 || s.ByType[agentmem.TypeDecision] != 1 || s.ByType[agentmem.TypeLearning] != 1 ||
		s.BySource[agentmem.SourceManual] != 3 || s.BySource[agentmem.SourceExtraction] != 1 || s.Bytes <= 0 {
		t.Errorf("stats: got %+v", s)
	}
	if s.ByScope.Project.Total != 4 || s.ByScope.Project.Bytes != s.Bytes || s.ByScope.Session.Total != 0 || s.Limit != agentmem.DefaultMemoryLimit {
		t.Errorf("byScope and limit: got %+v, limit %d", s.ByScope, s.Limit)
	}
	// The session scope is the project's live session context: two keys
	// in one session and one in another, of project p only.
	for _, put := range []struct{ path, body string }{
		{"/api/projects/p/sessions/run-1/context/auth", `{"value":"JWT with refresh tokens"}`},
		{"/api/projects/p/sessions/run-1/context/db", `{"value":"postgres 16"}`},
		{"/api/projects/p/sessions/run-2/context/auth", `{"value":"mTLS"}`},
		{"/api/projects/q/sessions/run-9/context/auth", `{"value":"elsewhere"}`},
	} {
		if r := a.do("PUT", put.path, put.body); r.StatusCode != 201 {
			t.Fatalf("PUT %s: %d %s", put.path, r.StatusCode, r.Body)
		}
	}
	s = decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", ""))
	if got := s.ByScope.Session; got.Sessions != 2 || got.Total != 3 || got.Bytes <= 0 {
		t.Errorf("session scope: got %+v, want 2 sessions, 3 keys and their bytes", got)
	}
	if empty := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nobody/stats?projectId=p", "")); empty.Total != 0 || empty.ByType == nil {
		t.Errorf("empty scope: got %+v", empty)
	}
	// The dream status: nothing waits until a daily record is appended.
	if got := s.Dream; got.Pending || got.PendingSince != "" || got.LastAppendAt != "" || got.LastDreamAt != "" {
		t.Errorf("dream status before any daily record: got %+v, want zero", got)
	}
	if r := a.do("POST", "/api/agents/nori/daily", `{"projectId":"p","title":"run-1","content":"Webhooks retry 3 times."}`); r.StatusCode != 201 {
		t.Fatalf("append daily: %d %s", r.StatusCode, r.Body)
	}
	s = decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", ""))
	if got := s.Dream; !got.Pending || got.PendingSince == "" || got.LastAppendAt == "" || got.LastDreamAt != "" {
		t.Errorf("dream status after a daily record: got %+v, want pending since the append", got)
	}
	if other := decode[agentmem.Stats](t, a.do("GET", "/api/agents/agent0/stats?projectId=q", "")); other.Dream.Pending {
		t.Errorf("another scope's dream status: got %+v, want nothing pending", other.Dream)
	}

	seen := 0
	cursor := ""
	for pages := 1; ; pages++ {
		target := "/api/stats?limit=2"
		if cursor != "" {
			target += "&cursor=" + cursor
		}
		resp := a.do("GET", target, "")
		if resp.StatusCode != 200 {
			t.Fatalf("all stats: %d %s", resp.StatusCode, resp.Body)
		}
		page := decode[agentmem.AllStats](t, resp)
		if page.Totals.Scopes != 5 || page.Totals.Total != 8 || page.Totals.ByType[agentmem.TypeNote] != 6 {
			t.Errorf("totals: got %+v, want 5 scopes and 8 memories", page.Totals)
		}
		seen += len(page.Scopes)
		if cursor = page.NextCursor; cursor == "" {
			if pages != 3 {
				t.Errorf("got %d pages of 2 for 5 scopes, want 3", pages)
			}
			break
		}
	}
	if seen != 5 {
		t.Errorf("listed %d scopes, want 5", seen)
	}
	for _, q := range []string{"limit=0", "limit=1001", "cursor=%21%21", "cursor=AQIyMDI2LTAxLTAxVDAwOjAwOjAwWgAAAAAAAAAAAAAAAAAAAAA"} {
		if resp := a.do("GET", "/api/stats?"+q, ""); resp.StatusCode != 400 {
			t.Errorf("%s: got %d, want 400", q, resp.StatusCode)
		}
	}
	if resp := a.do("GET", "/api/agents/nori/stats", ""); resp.StatusCode != 400 {
		t.Errorf("stats without projectId: got %d, want 400", resp.StatusCode)
	}
}

func TestEvictionThroughTheAPI(t *testing.T) {
	t.Parallel()
	rec, st := calls.Stores(t)
	rec.MemoryLimit, st.MemoryLimit = 10, 10
	rec.Log, st.Log = quiet, quiet
	h, err := memoryapi.New(lambdamain.Deps{Store: rec, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	a := &apiTest{t: t, store: st, handler: rec, h: h}
	keep := []string{
		a.create("nori", `{"projectId":"p","content":"pinned","pinned":true}`).ID,
		a.create("nori", patternBody("a migration locks the orders table", "add the index concurrently", 0.9)).ID,
	}
	weak := a.create("nori", patternBody("lint fails", "run gofmt", 0.6)).ID
	for i := range 7 {
		a.create("nori", fmt.Sprintf(`{"projectId":"p","content":"filler %d"}`, i))
	}
	// The oldest filler is used by a search, so it outlives the others.
	used := a.search("nori", "projectId=p&q=filler+0&limit=1").Results[0].ID
	keep = append(keep, used)
	// Seven concurrent writes evict exactly the seven least recently used
	// unprotected memories: the weak pattern and fillers 1 to 6.
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := range 7 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := a.h.Handle(context.Background(), localapi.Event(httptest.NewRequest("POST", "/api/agents/nori/memories", nil),
				[]byte(fmt.Sprintf(`{"projectId":"p","content":"writer %d"}`, w))))
			if err != nil || resp.StatusCode != 201 {
				t.Errorf("writer %d: %d %s %v", w, resp.StatusCode, resp.Body, err)
				return
			}
			var m agentmem.Memory
			if err := json.Unmarshal([]byte(resp.Body), &m); err != nil {
				t.Error(err)
			}
			mu.Lock()
			keep = append(keep, m.ID)
			mu.Unlock()
		}()
	}
	wg.Wait()
	ms, err := st.ScopeMemories(context.Background(), "nori", "p", "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	if len(ids) != 10 {
		t.Errorf("after 16 concurrent writes over a limit of 10: %d memories", len(ids))
	}
	for _, id := range keep {
		if !slices.Contains(ids, id) {
			t.Errorf("memory %s (pinned, critical pattern, recently used or new) was evicted", id)
		}
	}
	if slices.Contains(ids, weak) {
		t.Error("the weak, unused pattern survived while newer memories were evicted")
	}
	s := decode[agentmem.Stats](t, a.do("GET", "/api/agents/nori/stats?projectId=p", ""))
	if s.Total != 10 || s.Limit != 10 {
		t.Errorf("stats: total %d, limit %d; want 10 and 10", s.Total, s.Limit)
	}
}
