package dream_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/sqsqueue"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
	"github.com/oklog/ulid/v2"
)

var benchIDs = regexp.MustCompile(`(?m)^- \[([0-9A-Z]{26})\] \([^)]*\) (.*)$`)

// benchScope seeds agent/p with 200 memories spread over the last 30 days
// (so that the oldest are compressed) and 3 days of 20 daily records, and
// returns the dream answer that keeps keep of the memories word for word,
// rewrites the others and adds one bullet per record.
func benchScope(b *testing.B, st *dynamostore.Store, agent string, keep int) string {
	ctx := context.Background()
	types := []agentmem.Type{agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeLearning, agentmem.TypeNote}
	var ms []agentmem.Memory
	bullets := map[agentmem.Type][]string{}
	for i := range 200 {
		m := agentmem.Memory{
			ID: ulid.Make().String(), AgentName: agent, ProjectID: "p", Source: agentmem.SourceExtraction, Type: types[i%len(types)],
			Content:   fmt.Sprintf("Service %d of the checkout flow retries its calls to the payment provider with backoff number %d", i, i),
			CreatedAt: agentmem.FormatTime(now.Add(-time.Duration(i) * 3 * time.Hour)),
		}
		ms = append(ms, m)
		if i < keep {
			bullets[m.Type] = append(bullets[m.Type], "- "+m.Content)
		} else {
			bullets[m.Type] = append(bullets[m.Type], fmt.Sprintf("- Checkout flow service %d retries payment provider calls with backoff number %d", i, i))
		}
	}
	if _, err := st.RestoreMemories(ctx, ms); err != nil {
		b.Fatal(err)
	}
	for day := range 3 {
		for r := range 20 {
			at := agentmem.FormatTime(now.AddDate(0, 0, -day).Add(-time.Duration(r+1) * 10 * time.Minute))
			content := fmt.Sprintf("Run %d-%d: the webhook handler for order %d now checks the idempotency key before charging; make test passes.", day, r, day*100+r)
			if _, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: agent, ProjectID: "p", Title: fmt.Sprintf("run-%d-%d", day, r), Content: content, At: at}); err != nil {
				b.Fatal(err)
			}
			bullets[agentmem.TypeNote] = append(bullets[agentmem.TypeNote], fmt.Sprintf("- The webhook handler for order %d now checks the idempotency key before charging", day*100+r))
		}
	}
	var out strings.Builder
	out.WriteString("[MEMORY]\n")
	for _, t := range agentmem.Types {
		if len(bullets[t]) > 0 {
			fmt.Fprintf(&out, "## %s\n%s\n\n", markdown.Heading(t), strings.Join(bullets[t], "\n"))
		}
	}
	return out.String() + "[DREAM]\nI merged the retry notes.\n"
}

// benchAnswer answers the dream prompt with *dreamAnswer and the compress
// prompt with one item per ten listed memories, in their own words.
func benchAnswer(dreamAnswer *string) llmtest.Answer {
	return func(_ context.Context, prompt string) llmtest.Reply {
		if !strings.Contains(prompt, "<memories>") {
			return llmtest.Reply{Text: *dreamAnswer}
		}
		var out strings.Builder
		out.WriteString("[MEMORY]\n## Findings\n")
		listed := benchIDs.FindAllStringSubmatch(prompt, -1)
		for i := 0; i < len(listed); i += 10 {
			var ids, texts []string
			for _, m := range listed[i:min(len(listed), i+10)] {
				ids, texts = append(ids, m[1]), append(texts, m[2])
			}
			fmt.Fprintf(&out, "- %s (sources: %s)\n", strings.Join(texts, "; "), strings.Join(ids, ", "))
		}
		return llmtest.Reply{Text: out.String()}
	}
}

// BenchmarkDream200 is one dream of a scope with 200 memories and 3 days
// of 20 daily records, the LLM answering at once (issue 4's target: under
// 500 ms on DynamoDB Local). keep150 keeps 150 memories word for word
// (the usual night); rewrite200 rewrites every one of them (the worst
// case: 260 writes and 200 deletes). Both compress the 50 oldest.
func BenchmarkDream200(b *testing.B) {
	for _, bc := range []struct {
		name string
		keep int
	}{{"keep150", 150}, {"rewrite200", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			st := dynamotest.NewStore(b)
			st.Now = func() time.Time { return now }
			var answer string
			chat := llmtest.NewChat(b, benchAnswer(&answer))
			d := dream.New(st, chat.Client(b, 30*time.Second), quiet, dream.Config{})
			var res agentmem.DreamResult
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				agent := fmt.Sprintf("bench-%d", i)
				answer = benchScope(b, st, agent, bc.keep)
				b.StartTimer()
				var err error
				if res, err = d.Run(context.Background(), dream.Request{AgentName: agent, ProjectID: "p"}); err != nil || res.Status != agentmem.DreamStatusDreamed {
					b.Fatalf("%+v, %v", res, err)
				}
			}
			b.ReportMetric(float64(res.Dream.Created), "created/op")
			b.ReportMetric(float64(res.Dream.Deleted), "deleted/op")
			b.ReportMetric(float64(res.Dream.Compressed), "compressed/op")
		})
	}
}

// BenchmarkDispatch is the nightly dispatcher over 10,000 scopes of which
// 10, 100 or 1,000 have new daily content: its time and the items it
// reads grow with the pending scopes, not with the 10,000.
func BenchmarkDispatch(b *testing.B) {
	st := dynamotest.NewStore(b)
	ctx := context.Background()
	const total = 10000
	// 10,000 scopes that dreamed before: their state items, without the
	// pending mark, written in batches.
	var items []any
	for i := range total {
		items = append(items, map[string]any{
			"pk": fmt.Sprintf("dream#agent-%05d#proj", i), "sk": "state",
			"agentName": fmt.Sprintf("agent-%05d", i), "projectId": "proj",
			"lastHash": "sha256:0", "appendSeq": 5, "lastDreamAt": "2026-11-21T03:00:00.000000000Z",
		})
	}
	if _, err := st.DB().Table(st.Config().JournalTable).Batch("pk", "sk").Write().Put(items...).Run(ctx); err != nil {
		b.Fatal(err)
	}
	srv := sqstest.NewServer(b)
	d := &dream.Dispatcher{Store: st, Queue: sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL), Log: quiet}
	marked := 0
	for _, pending := range []int{10, 100, 1000} {
		for ; marked < pending; marked++ {
			if _, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: fmt.Sprintf("agent-%05d", marked*7), ProjectID: "proj", Title: "t", Content: "c"}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(fmt.Sprintf("pending=%d/of=%d", pending, total), func(b *testing.B) {
			var res dream.DispatchResult
			for b.Loop() {
				var err error
				if res, err = d.Dispatch(ctx); err != nil || res.Sent != pending {
					b.Fatalf("%+v, %v", res, err)
				}
			}
			b.ReportMetric(float64(res.ItemsRead), "items-read/op")
			b.ReportMetric(res.Capacity, "RCU/op")
		})
	}
}
