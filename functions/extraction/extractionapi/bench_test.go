package extractionapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/openai"
	"github.com/agentmem/agentmem/shared/localapi"
)

// BenchmarkExtractionOverhead is POST .../extractions end to end through
// the handler on DynamoDB Local, with an OpenAI-compatible fake LLM that
// answers at once (two new learnings each time): everything extraction
// costs besides the model's thinking. The scope holds 50 memories (the
// duplicate check reads them all); the two saved each time are deleted
// again outside the timing. It reports the median and 90th percentile.
func BenchmarkExtractionOverhead(b *testing.B) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		content := fmt.Sprintf(`{"success": true, "summary": "Run %d added retries.", "learnings": [
		  {"type": "finding", "content": "Finding %d: integration tests need DynamoDB Local; make test starts it."},
		  {"type": "decision", "content": "Decision %d: webhook retries back off exponentially up to 30 s.", "rationale": "the PSP retries 3 times a minute"}]}`, i, i, i)
		out, _ := json.Marshal(map[string]any{"model": "m", "choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}}})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}))
	defer srv.Close()
	client, err := openai.New(llm.Config{Model: "m", Endpoint: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	a := withLLM(b, client, nil)
	ctx := context.Background()
	for i := range 50 {
		if _, err := a.store.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceManual,
			Content: fmt.Sprintf("existing memory %d about the checkout service and its retries", i)}); err != nil {
			b.Fatal(err)
		}
	}
	output := strings.Repeat("=== RUN   TestCheckoutRetries\n--- PASS: TestCheckoutRetries (0.02s)\n", 120) // ~8 KB of test log
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := outputBody(fmt.Sprintf("bench-%d", i), output)
		ev := localapi.Event(httptest.NewRequest("POST", "/api/agents/nori/extractions", strings.NewReader(body)), []byte(body))
		start := time.Now()
		resp, _ := a.h.Handle(ctx, ev)
		durations = append(durations, time.Since(start))
		b.StopTimer()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Body)
		}
		var got struct{ Saved []agentmem.Memory }
		json.Unmarshal([]byte(resp.Body), &got)
		if len(got.Saved) != 2 {
			b.Fatalf("saved %d, want 2: %s", len(got.Saved), resp.Body)
		}
		if _, err := a.store.DeleteMemories(ctx, got.Saved); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(durations[len(durations)*9/10].Microseconds())/1000, "ms-p90")
}
