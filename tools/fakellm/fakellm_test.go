package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/openai"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func client(t *testing.T, a answerer) llm.Client {
	srv := httptest.NewServer(newHandler(a, quiet))
	t.Cleanup(srv.Close)
	c, err := openai.New(llm.Config{Provider: llm.ProviderOpenAI, Model: "fakellm", Endpoint: srv.URL + "/v1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDreamAgainstTheStandIn is what the README walks through: daily
// records, a dream, the core changed, the invented bullet dropped, a
// compression of old memories, and a revert.
func TestDreamAgainstTheStandIn(t *testing.T) {
	t.Parallel()
	st := dynamotest.NewStore(t)
	st.Now = func() time.Time { return time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	for _, r := range []agentmem.DailyRecord{
		{Title: "run-41", Content: "The payment provider retries webhooks 3 times. We decided to use idempotency keys on every payment POST.", At: "2026-11-21T10:00:00Z"},
		{Title: "Trimmed Context", Content: "Messages: 184.\nThe CI runner ran out of disk during the e2e suite. Found that the cart service caches prices for 60 s.", At: "2026-11-21T16:30:00Z"},
	} {
		r.AgentName, r.ProjectID = "nori", "p"
		if _, err := st.AppendDaily(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range []string{"Checkout uses the orders-v2 queue", "The orders service uses pgx for Postgres"} {
		if _, err := st.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "p", Content: c, Source: agentmem.SourceExtraction, CreatedAt: fmt.Sprintf("2026-11-%02dT09:00:00Z", 1+i)}); err != nil {
			t.Fatal(err)
		}
	}
	d := dream.New(st, client(t, answerer{invent: true}), quiet, dream.Config{})
	res, err := d.Run(ctx, dream.Request{AgentName: "nori", ProjectID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = st.EachMemory(ctx, "nori", "p", func(m agentmem.Memory) error {
		got = append(got, string(m.Type)+": "+m.Content)
		return nil
	})
	slices.Sort(got)
	want := []string{
		"blocker: The CI runner ran out of disk during the e2e suite",
		"decision: We decided to use idempotency keys on every payment POST",
		"finding: Found that the cart service caches prices for 60 s",
		"note: Checkout uses the orders-v2 queue; The orders service uses pgx for Postgres",
		"note: The payment provider retries webhooks 3 times",
	}
	if !slices.Equal(got, want) {
		t.Errorf("core after the dream:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if dr := res.Dream; len(dr.Dropped) != 1 || dr.Dropped[0].Content != Invented || dr.Compressed != 2 {
		t.Errorf("dream: dropped %+v, compressed %d; want the invented bullet dropped and 2 old memories compressed", dr.Dropped, dr.Compressed)
	}
	if _, err := d.Revert(ctx, "nori", "p", "2026-11-22"); err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = st.EachMemory(ctx, "nori", "p", func(agentmem.Memory) error { n++; return nil })
	if n != 2 {
		t.Errorf("after revert: %d memories, want the 2 from before", n)
	}
}

func TestExtractionAnswerFormat(t *testing.T) {
	t.Parallel()
	a := answerer{}
	out := a.answer("Extract learnings.\n<run_output>\nAdded retry handling to the webhook consumer. We decided to cap retries at 30 s because the provider retries 3 times. The e2e suite fails on the CI runner. make test passes now.\n</run_output>")
	var ans struct {
		Success   *bool  `json:"success"`
		Summary   string `json:"summary"`
		Learnings []struct {
			Type, Content, Status string
		} `json:"learnings"`
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("not JSON: %s", out)
	}
	if ans.Success == nil || *ans.Success || !strings.HasPrefix(ans.Summary, "Added retry handling") || len(ans.Learnings) != 2 {
		t.Fatalf("got %+v", ans)
	}
	if l := ans.Learnings[1]; l.Type != "blocker" || l.Status != "open" {
		t.Errorf("learning 1: %+v", l)
	}
	if got := a.answer("hello"); !strings.Contains(got, "stand-in") {
		t.Errorf("unknown prompt: %q", got)
	}
}
