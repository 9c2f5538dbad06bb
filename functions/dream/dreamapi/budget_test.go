package dreamapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/dream/dreamapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

// TestAPIDreamAnswersWithinItsModelBudget: a model slower than the API's
// model budget fails the dream at the budget, not at the LLM client's own
// (much longer) timeout, so that API Gateway never cuts the answer off; the
// failure is recorded in the diary and the core is unchanged.
func TestAPIDreamAnswersWithinItsModelBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	e.chat.SetAnswer(func(ctx context.Context, _ string) llmtest.Reply {
		<-ctx.Done() // a model that never answers in time
		return llmtest.Reply{Text: goodAnswer}
	})
	e.deps.Getenv = func(k string) string {
		return map[string]string{"AGENTMEM_DREAM_API_MODEL_BUDGET": "300ms"}[k]
	}
	h, err := dreamapi.New(e.deps)
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	e.daily("nori", "checkout-service", summary)
	kept, err := e.store.CreateMemory(context.Background(), agentmem.Memory{AgentName: "nori", ProjectID: "checkout-service", Content: "The staging database is reset every Monday", Source: agentmem.SourceExtraction})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	resp := e.do("POST", "/api/agents/nori/dreams", "", `{"projectId":"checkout-service"}`)
	if took := time.Since(start); took >= 5*time.Second {
		t.Errorf("the dream answered after %v, at the client's timeout rather than the 300ms budget", took)
	}
	if resp.StatusCode != 502 || !strings.Contains(resp.Body, "timeout") {
		t.Fatalf("got %d %s, want 502 llm_failed naming the timeout", resp.StatusCode, resp.Body)
	}
	page, err := e.store.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: "nori", ProjectID: "checkout-service"})
	if err != nil || len(page.Memories) != 1 || page.Memories[0].ID != kept.ID {
		t.Errorf("core after the failed dream: %+v, %v; want it unchanged", page.Memories, err)
	}
	dreams, err := e.store.ListDreams(context.Background(), "nori", "checkout-service", 0, "")
	if err != nil || len(dreams.Dreams) != 1 || dreams.Dreams[0].Status != agentmem.DreamFailed {
		t.Errorf("diary: %+v, %v; want the failure recorded", dreams.Dreams, err)
	}

	for _, bad := range []string{"soon", "-1s", "0s"} {
		e.deps.Getenv = func(k string) string { return map[string]string{"AGENTMEM_DREAM_API_MODEL_BUDGET": bad}[k] }
		if _, err := dreamapi.New(e.deps); err == nil || !strings.Contains(err.Error(), "AGENTMEM_DREAM_API_MODEL_BUDGET") {
			t.Errorf("AGENTMEM_DREAM_API_MODEL_BUDGET=%s: got %v, want an error naming it", bad, err)
		}
	}
}
