package dynamostore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

// lossyProxy stands between a store and DynamoDB Local and loses the
// answer of some calls after DynamoDB applied them: it forwards the
// request, then answers 500 instead of what DynamoDB said, as when a
// connection drops on the way back. The client retries such a call.
type lossyProxy struct {
	target *url.URL
	mu     sync.Mutex
	lose   map[string]int // operation (X-Amz-Target suffix) -> answers still to lose
	lost   map[string]int
	// refuse: operations answered with an error, never forwarded (a
	// process that dies before it sends them), when their body holds
	// the string given ("" for every call).
	refuse map[string]*string
	// before: a function to call, once, before the next call of an
	// operation is forwarded (another writer landing in between).
	before map[string]func()
	// after: a function to call, once, after the next call of an
	// operation whose body holds a string was answered by DynamoDB and
	// before its answer is passed on.
	after map[string]afterHook
}

type afterHook struct {
	holding string
	fn      func()
}

func newLossyProxy(t *testing.T, endpoint string) (*lossyProxy, string) {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := &lossyProxy{target: u, lose: map[string]int{}, lost: map[string]int{}, refuse: map[string]*string{}, before: map[string]func(){}, after: map[string]afterHook{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

// loseNext makes the proxy lose the answers of the next n calls of op
// (e.g. "TransactWriteItems").
func (p *lossyProxy) loseNext(op string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lose[op] = n
}

// refuseWith makes the proxy refuse, without forwarding them, the calls
// of op whose body holds holding ("" for every call of op).
func (p *lossyProxy) refuseWith(op, holding string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refuse[op] = &holding
}

// beforeNext makes the proxy call fn before it forwards the next call of
// op, once.
func (p *lossyProxy) beforeNext(op string, fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.before[op] = fn
}

// afterNext makes the proxy call fn, once, when the next call of op whose
// body holds holding has been answered, before it passes the answer on
// (another writer landing between a read and the write that follows it).
func (p *lossyProxy) afterNext(op, holding string, fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.after[op] = afterHook{holding, fn}
}

func (p *lossyProxy) lostCount(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lost[op]
}

func (p *lossyProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	target := r.Header.Get("X-Amz-Target")
	op := target[bytes.LastIndexByte([]byte(target), '.')+1:]
	p.mu.Lock()
	refused := p.refuse[op] != nil && bytes.Contains(body, []byte(*p.refuse[op]))
	before := p.before[op]
	delete(p.before, op)
	p.mu.Unlock()
	if refused {
		answerError(w, http.StatusBadRequest, "AccessDeniedException", "refused (test)")
		return
	}
	if before != nil {
		before()
	}
	req, _ := http.NewRequestWithContext(r.Context(), r.Method, p.target.String()+r.URL.Path, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	p.mu.Lock()
	after, ok := p.after[op]
	if ok && bytes.Contains(body, []byte(after.holding)) {
		delete(p.after, op)
		p.mu.Unlock()
		after.fn()
		p.mu.Lock()
	}
	lose := p.lose[op] > 0 && resp.StatusCode == http.StatusOK
	if lose {
		p.lose[op]--
		p.lost[op]++
	}
	p.mu.Unlock()
	if lose {
		answerError(w, http.StatusInternalServerError, "InternalServerError", "the answer was lost (test)")
		return
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)
}

// lossyStore returns a store on fresh tables whose calls go through a
// lossyProxy, and a direct store on the same tables to check what was
// written.
func lossyStore(t *testing.T) (*lossyProxy, *dynamostore.Store, *dynamostore.Store) {
	t.Helper()
	direct := dynamotest.NewStore(t)
	cfg := direct.Config()
	proxy, endpoint := newLossyProxy(t, cfg.Endpoint)
	cfg.Endpoint = endpoint
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return proxy, dynamostore.New(awsCfg, cfg), direct
}

// TestLostAnswersAreNotAppliedTwice: when DynamoDB applied a write but its
// answer was lost, the client sends it again; every write path comes out
// with the write applied once and the caller told it succeeded (a
// transaction by its client request token, a conditional put by
// recognising its own item).
func TestLostAnswersAreNotAppliedTwice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name  string
		op    string
		write func(st *dynamostore.Store) error
		check func(t *testing.T, direct *dynamostore.Store)
	}{
		{"create memory", "TransactWriteItems", func(st *dynamostore.Store) error {
			_, err := st.CreateMemory(ctx, newMemory("nori", "p", "created once"))
			return err
		}, func(t *testing.T, direct *dynamostore.Store) {
			if ids := scopeIDs(t, direct, "nori", "p"); len(ids) != 1 {
				t.Errorf("got %d memories, want 1", len(ids))
			}
			checkCounters(t, direct, "nori", "p")
		}},
		{"append daily", "TransactWriteItems", func(st *dynamostore.Store) error {
			_, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: "t", Content: "appended once"})
			return err
		}, func(t *testing.T, direct *dynamostore.Store) {
			recs, err := direct.DailyRecords(ctx, "nori", "p", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
			if err != nil || len(recs) != 1 {
				t.Errorf("got %d records, %v; want 1", len(recs), err)
			}
		}},
		{"put personality", "TransactWriteItems", func(st *dynamostore.Store) error {
			zero := 0
			_, created, err := st.PutPersonality(ctx, agentmem.Personality{AgentName: "nori", DisplayName: "Nori"}, &zero)
			if err == nil && !created {
				t.Error("created false")
			}
			return err
		}, func(t *testing.T, direct *dynamostore.Store) {
			if p, err := direct.GetPersonality(ctx, "nori"); err != nil || p.Version != 1 {
				t.Errorf("got %+v, %v; want version 1", p, err)
			}
		}},
		{"claim a run", "PutItem", func(st *dynamostore.Store) error {
			_, claimed, err := st.ClaimRun(ctx, "nori", "p", "run-1", time.Now().Add(time.Minute))
			if err == nil && !claimed {
				t.Error("claimed false: the call's own claim was taken for another's")
			}
			return err
		}, func(t *testing.T, direct *dynamostore.Store) {
			if r, err := direct.GetRun(ctx, "nori", "p", "run-1"); err != nil || r.Status != dynamostore.RunRunning {
				t.Errorf("got %+v, %v; want a running claim", r, err)
			}
		}},
		{"start a job", "PutItem", func(st *dynamostore.Store) error {
			_, err := st.StartJob(ctx, agentmem.Job{Kind: agentmem.JobDeleteScope, AgentName: "nori", ProjectID: "p"})
			return err
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			proxy, st, direct := lossyStore(t)
			proxy.loseNext(tt.op, 1)
			if err := tt.write(st); err != nil {
				t.Fatalf("got %v, want success after the lost answer", err)
			}
			if proxy.lostCount(tt.op) != 1 {
				t.Fatalf("the proxy lost %d answers of %s, want 1", proxy.lostCount(tt.op), tt.op)
			}
			if tt.check != nil {
				tt.check(t, direct)
			}
		})
	}
}

// TestLostDeleteAnswerCountsOnce: a delete transaction applied with its
// answer lost is not applied again, so the counters lose the memory once.
func TestLostDeleteAnswerCountsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	proxy, st, direct := lossyStore(t)
	keep, err := st.CreateMemory(ctx, newMemory("nori", "p", "kept"))
	if err != nil {
		t.Fatal(err)
	}
	gone, err := st.CreateMemory(ctx, newMemory("nori", "p", "deleted once"))
	if err != nil {
		t.Fatal(err)
	}
	proxy.loseNext("TransactWriteItems", 1)
	if err := st.DeleteMemory(ctx, "nori", gone.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if ids := scopeIDs(t, direct, "nori", "p"); len(ids) != 1 || ids[0] != keep.ID {
		t.Errorf("left %v, want only %s", ids, keep.ID)
	}
	if c := checkCounters(t, direct, "nori", "p"); c.Total != 1 {
		t.Errorf("counters: total %d, want 1", c.Total)
	}
}

// answerError answers as DynamoDB does with an error of type typ (as
// "AccessDeniedException") and its message.
func answerError(w http.ResponseWriter, status int, typ, message string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + typ, "message": message})
}
