package apiclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

// TestThreeTierAndSearchRoutes drives every route added after the core
// through the client, against the real handlers: the daily log, session
// context, Deep Dream (with a real OpenAI-compatible client talking to a
// chat-completions stand-in), search, patterns, forget and stats.
func TestThreeTierAndSearchRoutes(t *testing.T) {
	t.Parallel()
	chat := llmtest.NewChat(t, llmtest.Fixed(`{"operations": [{"op": "add", "type": "finding", "content": "The webhook handler retries three times with backoff", "cite": ["r1"]}], "dream": "Today I learned how the webhook handler retries."}`))
	srv := apitest.Start(t, apitest.Options{LLM: chat.Client(t, 10*time.Second)})
	c, err := apiclient.New(context.Background(), apiclient.Config{URL: srv.URL, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// Daily log.
	rec, err := c.AppendDaily(ctx, "nori", agentmem.DailyInput{ProjectID: "p", Title: "run-42", Content: "The webhook handler retries three times with backoff."})
	if err != nil || rec.ID == "" || rec.Title != "run-42" {
		t.Fatalf("AppendDaily: %+v, %v", rec, err)
	}
	day, err := c.GetDaily(ctx, "nori", "p", rec.Date())
	if err != nil || len(day.Records) != 1 || day.Records[0].ID != rec.ID {
		t.Errorf("GetDaily: %+v, %v", day, err)
	}
	md, err := c.DailyMarkdown(ctx, "nori", "p", rec.Date())
	if err != nil || !strings.HasPrefix(md, "# Daily Memory: "+rec.Date()) || !strings.Contains(md, "## run-42 (") {
		t.Errorf("DailyMarkdown: %q, %v", md, err)
	}
	if _, err := c.GetDaily(ctx, "nori", "p", "2020-01-01"); !apiclient.IsNotFound(err) {
		t.Errorf("empty day: got %v, want not_found", err)
	}

	// Session context.
	e, created, err := c.PutSessionContext(ctx, "p", "run-42", "auth-patterns", "JWT with refresh tokens", 0)
	if err != nil || !created || e.Value != "JWT with refresh tokens" {
		t.Fatalf("PutSessionContext: %+v %v %v", e, created, err)
	}
	if _, created, err := c.PutSessionContext(ctx, "p", "run-42", "auth-patterns", "mTLS", 3600); err != nil || created {
		t.Errorf("replace: created %v, %v", created, err)
	}
	if got, err := c.GetSessionContext(ctx, "p", "run-42", "auth-patterns"); err != nil || got.Value != "mTLS" {
		t.Errorf("GetSessionContext: %+v, %v", got, err)
	}
	if _, _, err := c.PutSessionContext(ctx, "p", "run-42", "db", "postgres", 0); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteSessionContext(ctx, "p", "run-42", "db"); err != nil {
		t.Errorf("DeleteSessionContext: %v", err)
	}
	stats, err := c.GetStats(ctx, "nori", "p")
	if err != nil || stats.ByScope.Session.Total != 1 || stats.ByScope.Session.Sessions != 1 {
		t.Errorf("stats with a session: %+v, %v", stats.ByScope, err)
	}
	if ended, err := c.EndSession(ctx, "p", "run-42"); err != nil || ended.Deleted != 1 {
		t.Errorf("EndSession: %+v, %v", ended, err)
	}
	if _, err := c.GetSessionContext(ctx, "p", "run-42", "auth-patterns"); !apiclient.IsNotFound(err) {
		t.Errorf("after the session ended: got %v, want not_found", err)
	}

	// Deep Dream: the core gains the cited addition, the memory the answer
	// does not mention stays; revert undoes it.
	if _, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Content: "An old extraction to consolidate"}); err != nil {
		t.Fatal(err)
	}
	res, err := c.CreateDream(ctx, "nori", agentmem.CreateDreamInput{ProjectID: "p", KeepManual: new(false)})
	if err != nil || res.Status != agentmem.DreamStatusDreamed || res.Dream == nil {
		t.Fatalf("CreateDream: %+v, %v", res, err)
	}
	page, err := c.ListMemories(ctx, "nori", apiclient.ListOptions{ProjectID: "p"})
	if err != nil || len(page.Memories) != 2 || page.Memories[0].Source != agentmem.SourceSystem || page.Memories[1].Content != "An old extraction to consolidate" {
		t.Errorf("core after the dream: %+v, %v", page.Memories, err)
	}
	again, err := c.CreateDream(ctx, "nori", agentmem.CreateDreamInput{ProjectID: "p"})
	if err != nil || again.Status != agentmem.DreamStatusSkipped || again.Reason == "" {
		t.Errorf("second dream on the same daily content: %+v, %v", again, err)
	}
	dreams, err := c.ListDreams(ctx, "nori", "p", 0, "")
	if err != nil || len(dreams.Dreams) == 0 {
		t.Errorf("ListDreams: %+v, %v", dreams, err)
	}
	date := res.Dream.Date
	dd, err := c.GetDream(ctx, "nori", "p", date, true)
	if err != nil || len(dd.Dreams) == 0 || len(dd.Dreams[0].Written) != 1 {
		t.Errorf("GetDream with plan: %+v, %v", dd, err)
	}
	if diary, err := c.DreamMarkdown(ctx, "nori", "p", date); err != nil || !strings.Contains(diary, "Today I learned") {
		t.Errorf("DreamMarkdown: %q, %v", diary, err)
	}
	if _, err := c.RevertDream(ctx, "nori", "p", date); err != nil {
		t.Fatalf("RevertDream: %v", err)
	}
	page, err = c.ListMemories(ctx, "nori", apiclient.ListOptions{ProjectID: "p"})
	if err != nil || len(page.Memories) != 1 || page.Memories[0].Content != "An old extraction to consolidate" {
		t.Errorf("core after the revert: %+v, %v", page.Memories, err)
	}

	// Search, patterns, forget and all-stats.
	conf := 0.9
	if _, err := c.CreateMemory(ctx, "nori", agentmem.MemoryInput{ProjectID: "p", Type: agentmem.TypePattern, Content: "Flaky checkout e2e test",
		Trigger: "the checkout e2e test times out", Solution: "wait for the network idle event", Confidence: &conf}); err != nil {
		t.Fatal(err)
	}
	found, err := c.SearchMemories(ctx, "nori", apiclient.SearchOptions{ProjectID: "p", Query: "checkout e2e timeout", Limit: 5})
	if err != nil || len(found.Results) == 0 || found.Results[0].Type != agentmem.TypePattern || found.Results[0].Score <= 0 || found.Mode == "" {
		t.Errorf("SearchMemories: %+v, %v", found, err)
	}
	sugg, err := c.SuggestPatterns(ctx, "nori", "p", "fix the flaky checkout e2e test", 0, 0)
	if err != nil || len(sugg.Patterns) != 1 {
		t.Errorf("SuggestPatterns: %+v, %v", sugg, err)
	}
	if _, err := c.SuggestPatterns(ctx, "nori", "p", "fix the flaky checkout e2e test", 0.95, 0); err != nil {
		t.Errorf("SuggestPatterns above the pattern's confidence: %v", err)
	}
	gone, err := c.ForgetMemories(ctx, "nori", agentmem.ForgetInput{ProjectID: "p", OlderThan: "1h"})
	if err != nil || gone.Removed != 0 || gone.Cutoff == "" {
		t.Errorf("ForgetMemories of nothing that old: %+v, %v", gone, err)
	}
	if _, err := c.ForgetMemories(ctx, "nori", agentmem.ForgetInput{ProjectID: "p", OlderThan: "30 days"}); !apiclient.HasCode(err, agentmem.EInvalid) {
		t.Errorf("bad olderThan: got %v, want invalid", err)
	}
	all, err := c.GetAllStats(ctx, 0, "")
	if err != nil || all.Totals.Total != 2 || len(all.Scopes) != 1 {
		t.Errorf("GetAllStats: %+v, %v", all, err)
	}
}
