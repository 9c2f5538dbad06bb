package dream_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/sqsqueue"
	"github.com/agentmem/agentmem/shared/sqsqueue/sqstest"
)

func TestDispatcherQueuesExactlyThePendingScopes(t *testing.T) {
	t.Parallel()
	rec, st := calls.Stores(t)
	ctx := context.Background()
	var want []string
	for i := range 45 {
		agent, project := fmt.Sprintf("agent-%02d", i%15), fmt.Sprintf("proj-%d", i/15)
		if _, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: agent, ProjectID: project, Title: "t", Content: "c"}); err != nil {
			t.Fatal(err)
		}
		// Scopes with memories but no daily content are never read.
		if _, err := st.CreateMemory(ctx, agentmem.Memory{AgentName: agent, ProjectID: project + "-quiet", Content: "m", Source: agentmem.SourceManual}); err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 {
			want = append(want, agent+"/"+project)
			continue
		}
		if _, err := st.ClearPending(ctx, agent, project, 1); err != nil { // dreamed already
			t.Fatal(err)
		}
	}
	srv := sqstest.NewServer(t)
	d := &dream.Dispatcher{Store: rec, Queue: sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL), Log: quiet}
	res, err := d.Dispatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range srv.Bodies() {
		m, err := dream.ParseMessage(b)
		if err != nil {
			t.Fatalf("message %s: %v", b, err)
		}
		got = append(got, m.AgentName+"/"+m.ProjectID)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("queued %v\nwant %v", got, want)
	}
	if res.Scopes != len(want) || res.Sent != len(want) || res.Failed != 0 || res.ItemsRead != int64(len(want)) {
		t.Errorf("result %+v: want %d scopes sent and exactly %d items read", res, len(want), len(want))
	}
	if srv.Calls() != (len(want)+9)/10 {
		t.Errorf("%d SendMessageBatch calls for %d messages", srv.Calls(), len(want))
	}
}

func TestDispatcherReportsWhatItCouldNotQueue(t *testing.T) {
	t.Parallel()
	rec, st := calls.Stores(t)
	ctx := context.Background()
	for _, agent := range []string{"a", "b"} {
		if _, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: agent, ProjectID: "p", Title: "t", Content: "c"}); err != nil {
			t.Fatal(err)
		}
	}
	srv := sqstest.NewServer(t)
	// The stand-in refuses a's message for good.
	stA, err := st.GetDreamState(ctx, "a", "p")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(dream.Message{AgentName: "a", ProjectID: "p", PendingSince: stA.PendingSince})
	srv.Refuse(string(body), sqstest.Refusal{SenderFault: true})
	d := &dream.Dispatcher{Store: rec, Queue: sqsqueue.NewWithClient(srv.Client(), sqstest.QueueURL), Log: quiet}
	res, err := d.Dispatch(ctx)
	if err == nil || res.Failed != 1 || res.Sent != 1 {
		t.Errorf("got %+v, %v; want one sent, one failed and an error", res, err)
	}
	if st, _ := st.GetDreamState(ctx, "a", "p"); !st.Pending() {
		t.Error("a scope that could not be queued is no longer pending")
	}
	if _, err := (&dream.Dispatcher{Store: st}).Dispatch(ctx); err == nil {
		t.Error("dispatch without a queue: no error")
	}
}

func FuzzParseMessage(f *testing.F) {
	f.Add(`{"agentName":"nori","projectId":"p","pendingSince":"2026-11-22T00:00:00Z"}`)
	f.Add(`{"agentName":"no#ri","projectId":"p"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, body string) {
		m, err := dream.ParseMessage(body)
		if err == nil && (agentmem.ValidateAgentName(m.AgentName) != nil || agentmem.ValidateProjectID(m.ProjectID) != nil) {
			t.Fatalf("accepted %q as %+v", body, m)
		}
		if err != nil && agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Fatalf("error %v is not invalid", err)
		}
	})
}
