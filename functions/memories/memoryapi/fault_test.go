package memoryapi_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/bulkjobs"
	"github.com/agentmem/agentmem/shared/dynamolocal"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/aws/aws-lambda-go/events"
)

// TestCrashUnderWriteLoad kills DynamoDB Local (SIGKILL, as a crash) while
// clients create memories, append to the daily log and delete memories
// through the API, then starts it again on the same data. Each client
// retries every call that did not get a definite answer (5xx, a timeout)
// with the same idempotency key, as the CLI does, until it gets one.
// Afterwards nothing is stored twice or half, each scope's counters equal
// its memories (a recount repairs nothing) and the totals are their sum;
// once the few acknowledged writes DynamoDB Local itself may lose are sent
// again (see below), every create and append is stored exactly once and
// no deleted memory is left.
func TestCrashUnderWriteLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := dynamolocal.Start(ctx, dynamolocal.Options{DBPath: dir})
	if err != nil {
		t.Fatal(err)
	}
	var dbMu sync.Mutex
	t.Cleanup(func() {
		dbMu.Lock()
		defer dbMu.Unlock()
		_ = db.Stop()
	})
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg := dynamotest.Config(t)
	cfg.Endpoint = db.Endpoint
	st := dynamostore.New(awsCfg, cfg)
	st.Log = quiet
	if err := st.EnsureTables(ctx); err != nil {
		t.Fatal(err)
	}
	jobs := &bulkjobs.InProcess{Store: st, Log: quiet}
	t.Cleanup(jobs.Stop)
	h, err := httpapi.NewMemoriesHandler(&memoryapi.API{Store: st, Log: quiet, Jobs: jobs}, quiet)
	if err != nil {
		t.Fatal(err)
	}

	const writers, creates = 6, 24
	var (
		calls, retried atomic.Int64
		killAt         = int64(writers * creates / 3)
		killed         = make(chan struct{})
	)
	// call sends one logical call until it gets a definite answer, the
	// same key on every attempt; it returns the status and body.
	call := func(method, target, body, key string) (int, string) {
		deadline := time.Now().Add(2 * time.Minute)
		for attempt := 0; time.Now().Before(deadline); attempt++ {
			if attempt > 0 {
				retried.Add(1)
				time.Sleep(100 * time.Millisecond)
			}
			r := httptest.NewRequest(method, target, strings.NewReader(body))
			if key != "" {
				r.Header.Set(agentmem.IdempotencyHeader, key)
			}
			rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			resp, _ := h.Handle(rctx, localapi.Event(r, []byte(body)))
			cancel()
			if calls.Add(1) == killAt {
				close(killed)
			}
			if resp.StatusCode < 500 {
				return resp.StatusCode, resp.Body
			}
		}
		t.Errorf("%s %s: no definite answer in two minutes", method, target)
		return 0, ""
	}

	// The crash: kill -9 once a third of the calls went out, start again
	// on the same port and data a little later.
	crash := make(chan error, 1)
	go func() {
		<-killed
		dbMu.Lock()
		defer dbMu.Unlock()
		port := db.Port
		db.Kill()
		time.Sleep(500 * time.Millisecond)
		db, err = dynamolocal.Start(ctx, dynamolocal.Options{DBPath: dir, Port: port})
		crash <- err
	}()

	type outcome struct {
		created map[string]string // content -> id
		deleted map[string]bool   // ids
		daily   map[string]string // key -> record id
	}
	outcomes := make([]outcome, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := outcome{created: map[string]string{}, deleted: map[string]bool{}, daily: map[string]string{}}
			project := fmt.Sprintf("p%d", w%3) // two writers per scope
			for i := range creates {
				content := fmt.Sprintf("writer %d memory %d", w, i)
				status, body := call("POST", "/api/agents/nori/memories",
					fmt.Sprintf(`{"projectId":%q,"content":%q}`, project, content), fmt.Sprintf("create-%d-%d", w, i))
				if status != 201 {
					t.Errorf("create %q: %d %s", content, status, body)
					continue
				}
				o.created[content] = decode[agentmem.Memory](t, eventResponse(status, body)).ID
				if i%4 == 3 {
					key := fmt.Sprintf("daily-%d-%d", w, i)
					status, body := call("POST", "/api/agents/nori/daily", fmt.Sprintf(`{"projectId":%q,"title":%q,"content":"run summary"}`, project, key), key)
					if status != 201 {
						t.Errorf("daily %s: %d %s", key, status, body)
						continue
					}
					o.daily[key] = decode[agentmem.DailyRecord](t, eventResponse(status, body)).ID
				}
				if i%5 == 4 {
					victim := o.created[fmt.Sprintf("writer %d memory %d", w, i-2)]
					// A delete retried after it went through answers 404.
					if status, body := call("DELETE", "/api/agents/nori/memories/"+victim, "", ""); status != 204 && status != 404 {
						t.Errorf("delete %s: %d %s", victim, status, body)
					}
					o.deleted[victim] = true
				}
			}
			outcomes[w] = o
		}()
	}
	wg.Wait()
	select {
	case err := <-crash:
		if err != nil {
			t.Fatalf("DynamoDB Local did not start again: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("DynamoDB Local was never killed: the load ended first")
	}
	t.Logf("%d calls, %d of them retries after the crash", calls.Load(), retried.Load())
	if retried.Load() == 0 {
		t.Error("no call failed: the crash happened under no load")
	}

	dbMu.Lock()
	defer dbMu.Unlock()

	// DynamoDB Local acknowledges a transaction before it is on disk: a
	// SIGKILL can lose the last transactions it acknowledged, each one
	// whole (a probe of plain TransactWriteItems under the same kill lost
	// one in 3 of 8 rounds; plain PutItems none). DynamoDB acknowledges
	// only durable writes. So first, what the store guarantees whatever
	// the database does: nothing is stored twice or half; a write lost
	// with its acknowledgement is lost whole (its idempotency key is free
	// again, so the client's call, sent again, writes it once); and only
	// calls in flight at the kill can be lost. Then, the calls lost sent
	// again, everything is stored exactly once and the counters are exact.
	lost := 0
	resend := func(method, target, body, key string) events.APIGatewayV2HTTPResponse {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if key != "" {
			r.Header.Set(agentmem.IdempotencyHeader, key)
		}
		resp, _ := h.Handle(ctx, localapi.Event(r, []byte(body)))
		return resp
	}
	stored := scopeContents(t, st)
	for w, o := range outcomes {
		project := fmt.Sprintf("p%d", w%3)
		for content, id := range o.created {
			got := stored[content]
			switch {
			case len(got) > 1 || len(got) == 1 && got[0].ID != id:
				t.Errorf("%q answered %s, stored %d times: %s", content, id, len(got), describe(got))
			case o.deleted[id] && len(got) == 1:
				lost++ // the delete's transaction
				t.Logf("the acknowledged delete of %q (%s) was lost with DynamoDB Local; sent again", content, id)
				if r := resend("DELETE", "/api/agents/nori/memories/"+id, "", ""); r.StatusCode != 204 {
					t.Errorf("delete of %s sent again: %d %s", id, r.StatusCode, r.Body)
				}
			case !o.deleted[id] && len(got) == 0:
				lost++ // the create's transaction, its key's record with it
				t.Logf("the acknowledged create of %q (%s) was lost with DynamoDB Local; sent again", content, id)
				var writer, i int
				if _, err := fmt.Sscanf(content, "writer %d memory %d", &writer, &i); err != nil {
					t.Fatal(err)
				}
				r := resend("POST", "/api/agents/nori/memories", fmt.Sprintf(`{"projectId":%q,"content":%q}`, project, content), fmt.Sprintf("create-%d-%d", writer, i))
				if r.StatusCode != 201 || r.Headers[agentmem.ReplayedHeader] != "" {
					t.Errorf("create of %q sent again: %d %v %s; want a new write, its key free", content, r.StatusCode, r.Headers, r.Body)
				}
				o.created[content] = decode[agentmem.Memory](t, r).ID
			}
		}
		titles := dailyTitles(t, st, project)
		for key := range o.daily {
			switch n := titles[key]; {
			case n > 1:
				t.Errorf("daily record %s stored %d times", key, n)
			case n == 0:
				lost++
				t.Logf("the acknowledged daily record %s was lost with DynamoDB Local; sent again", key)
				r := resend("POST", "/api/agents/nori/daily", fmt.Sprintf(`{"projectId":%q,"title":%q,"content":"run summary"}`, project, key), key)
				if r.StatusCode != 201 || r.Headers[agentmem.ReplayedHeader] != "" {
					t.Errorf("daily %s sent again: %d %s; want a new write, its key free", key, r.StatusCode, r.Body)
				}
			}
		}
	}
	if lost > writers {
		t.Errorf("%d acknowledged writes lost; a crash can only lose those in flight, at most one per writer (%d)", lost, writers)
	}

	stored = scopeContents(t, st)
	var total int64
	for _, ms := range stored {
		total += int64(len(ms))
	}
	want := 0
	for w, o := range outcomes {
		for content, id := range o.created {
			got := stored[content]
			switch {
			case o.deleted[id] && len(got) != 0:
				t.Errorf("%q (%s) was deleted, but %d copies are stored: %s", content, id, len(got), describe(got))
			case !o.deleted[id] && (len(got) != 1 || got[0].ID != id):
				t.Errorf("%q: %d copies stored (%s), want exactly the one answered (%s)", content, len(got), describe(got), id)
			}
			if !o.deleted[id] {
				want++
			}
		}
		titles := dailyTitles(t, st, fmt.Sprintf("p%d", w%3))
		for key := range o.daily {
			if titles[key] != 1 {
				t.Errorf("daily record %s stored %d times, want once", key, titles[key])
			}
		}
	}
	if total != int64(want) {
		t.Errorf("%d memories stored, want %d", total, want)
	}
	for p := range 3 {
		project := fmt.Sprintf("p%d", p)
		rc, err := st.RecountScope(ctx, "nori", project)
		if err != nil {
			t.Fatal(err)
		}
		if rc.Drifted || rc.After.Total != int64(len(contentsOf(stored, project))) {
			t.Errorf("%s: counters %+v, recount %+v (drift %+v); want no drift", project, rc.Before, rc.After, rc.Drift)
		}
	}
	tot, err := st.GetTotals(ctx)
	if err != nil || tot.Total != total {
		t.Errorf("totals %+v, %v; want %d memories", tot, err, total)
	}
}

// scopeContents reads the memories of the fault test's three scopes by
// content.
func scopeContents(t *testing.T, st *dynamostore.Store) map[string][]agentmem.Memory {
	t.Helper()
	out := map[string][]agentmem.Memory{}
	for p := range 3 {
		ms, err := st.ScopeMemories(context.Background(), "nori", fmt.Sprintf("p%d", p), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			out[m.Content] = append(out[m.Content], m)
		}
	}
	return out
}

// contentsOf returns the stored memories of one project.
func contentsOf(stored map[string][]agentmem.Memory, project string) []agentmem.Memory {
	var out []agentmem.Memory
	for _, ms := range stored {
		for _, m := range ms {
			if m.ProjectID == project {
				out = append(out, m)
			}
		}
	}
	return out
}

// dailyTitles counts the daily records of a project by title.
func dailyTitles(t *testing.T, st *dynamostore.Store, project string) map[string]int {
	t.Helper()
	recs, err := st.DailyRecords(context.Background(), "nori", project, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]int{}
	for _, r := range recs {
		titles[r.Title]++
	}
	return titles
}

// eventResponse wraps a status and body for decode.
func eventResponse(status int, body string) events.APIGatewayV2HTTPResponse {
	return events.APIGatewayV2HTTPResponse{StatusCode: status, Body: body}
}

func describe(ms []agentmem.Memory) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, m.ID+" at "+m.CreatedAt)
	}
	return strings.Join(parts, ", ")
}
