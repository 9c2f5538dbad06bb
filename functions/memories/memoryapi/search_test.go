package memoryapi_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/memories/memoryapi"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/embeddingstest"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/embeddings/openai"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/search"
)

// newAPITestWith is newAPITest with an embedder (set on the store too, as
// lambdamain.DepsFromEnv does) and settings.
func newAPITestWith(t testing.TB, emb embeddings.Embedder, env map[string]string) *apiTest {
	t.Helper()
	rec, st := calls.Stores(t)
	rec.Embedder, st.Embedder = emb, emb
	h, err := memoryapi.New(lambdamain.Deps{Store: rec, Log: quiet, Embedder: emb, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return &apiTest{t: t, store: st, handler: rec, h: h}
}

// create posts a memory and returns it.
func (a *apiTest) create(agent, body string) agentmem.Memory {
	a.t.Helper()
	resp := a.do("POST", "/api/agents/"+agent+"/memories", body)
	if resp.StatusCode != 201 {
		a.t.Fatalf("create %s: %d %s", body, resp.StatusCode, resp.Body)
	}
	return decode[agentmem.Memory](a.t, resp)
}

func (a *apiTest) search(agent, query string) agentmem.SearchResult {
	a.t.Helper()
	resp := a.do("GET", "/api/agents/"+agent+"/memories/search?"+query, "")
	if resp.StatusCode != 200 {
		a.t.Fatalf("search %s: %d %s", query, resp.StatusCode, resp.Body)
	}
	return decode[agentmem.SearchResult](a.t, resp)
}

func contents(rs []agentmem.ScoredMemory) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Content
	}
	return out
}

func TestSearchLexicalRanksWithinTheScope(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	a.create("nori", `{"projectId":"p","type":"finding","content":"Stripe webhooks are retried 3 times with exponential backoff in retryWebhook"}`)
	a.create("nori", `{"projectId":"p","type":"decision","content":"Every webhook handler must be idempotent","rationale":"the provider retries deliveries"}`)
	a.create("nori", `{"projectId":"p","content":"The staging database is reset every Monday"}`)
	a.create("nori", `{"projectId":"other","content":"Webhook retries are configured in the PSP dashboard"}`)
	a.create("toro", `{"projectId":"p","content":"Webhook retries: three, with backoff"}`)

	got := a.search("nori", "projectId=p&q="+url.QueryEscape("webhook retries"))
	if got.Mode != string(search.ModeLexical) || got.Searched != 3 || got.Query != "webhook retries" {
		t.Errorf("got mode %q, searched %d, query %q; want lexical over the scope's 3 memories", got.Mode, got.Searched, got.Query)
	}
	if want := []string{"Stripe webhooks are retried 3 times with exponential backoff in retryWebhook", "Every webhook handler must be idempotent"}; !slices.Equal(contents(got.Results), want) {
		t.Fatalf("got %q, want %q (this scope only, best first)", contents(got.Results), want)
	}
	for i, r := range got.Results {
		if r.Score <= 0 || i > 0 && r.Score > got.Results[i-1].Score {
			t.Errorf("result %d: score %v, want positive and not above the previous", i, r.Score)
		}
		if r.AgentName != "nori" || r.ProjectID != "p" {
			t.Errorf("result %d crossed scopes: %s/%s", i, r.AgentName, r.ProjectID)
		}
		stored, err := a.store.GetMemory(context.Background(), "nori", r.ID)
		if err != nil || stored.LastAccessedAt == "" || stored.LastAccessedAt != r.LastAccessedAt {
			t.Errorf("result %d: stored lastAccessedAt %q, answered %q (%v); want both set and equal", i, stored.LastAccessedAt, r.LastAccessedAt, err)
		}
	}
	untouched := a.search("nori", "projectId=p&q=staging")
	if len(untouched.Results) != 1 {
		t.Fatalf("staging: got %q", contents(untouched.Results))
	}
	// Identifiers are split: retry_webhook finds retryWebhook.
	if got := a.search("nori", "projectId=p&q=retry_webhook"); len(got.Results) == 0 || !strings.Contains(got.Results[0].Content, "retryWebhook") {
		t.Errorf("identifier search: got %q", contents(got.Results))
	}
}

// TestSearchMatchesHoweverTheTextIsEncoded: a query finds a memory whatever
// Unicode form either was written in (an accent composed or as a
// combining mark, full-width letters), on search and on pattern
// suggestions alike.
func TestSearchMatchesHoweverTheTextIsEncoded(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	note := "The caf\u00e9 service caches r\u00e9sum\u00e9 uploads"
	a.create("nori", `{"projectId":"p","content":"`+note+`"}`)
	a.create("nori", `{"projectId":"p","content":"The gateway drops slow uploads"}`)
	a.create("nori", `{"projectId":"p","type":"pattern","content":"Slow uploads","trigger":"re\u0301sume\u0301 upload is slow","solution":"stream the file","confidence":0.9}`)
	for _, q := range []string{"caf\u00e9", "cafe\u0301", "\uff43\uff41\uff46\u00e9", "CAFE\u0301"} {
		got := a.search("nori", "projectId=p&type=note&q="+url.QueryEscape(q))
		if len(got.Results) != 1 || got.Results[0].Content != note {
			t.Errorf("q %+q: got %q, want [%q]", q, contents(got.Results), note)
		}
	}
	for _, task := range []string{"r\u00e9sum\u00e9", "re\u0301sume\u0301"} {
		resp := a.do("GET", "/api/agents/nori/patterns/suggest?projectId=p&task="+url.QueryEscape(task), "")
		if got := decode[agentmem.Suggestions](t, resp); len(got.Patterns) != 1 {
			t.Errorf("task %+q: got %s, want the one pattern", task, resp.Body)
		}
	}
}

func TestSearchTypeFilterAndLimit(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	for i := range 14 {
		typ := "note"
		if i%2 == 0 {
			typ = "finding"
		}
		a.create("nori", fmt.Sprintf(`{"projectId":"p","type":%q,"content":"deploy pipeline step %d fails on cache misses"}`, typ, i))
	}
	if got := a.search("nori", "projectId=p&q=deploy+cache"); len(got.Results) != agentmem.DefaultSearchLimit {
		t.Errorf("default limit: got %d results, want %d", len(got.Results), agentmem.DefaultSearchLimit)
	}
	if got := a.search("nori", "projectId=p&q=deploy+cache&limit=3"); len(got.Results) != 3 {
		t.Errorf("limit 3: got %d results", len(got.Results))
	}
	findings := a.search("nori", "projectId=p&q=deploy+cache&type=finding&limit=50")
	if len(findings.Results) != 7 || findings.Searched != 7 {
		t.Errorf("type filter: got %d results of %d searched, want 7 of 7", len(findings.Results), findings.Searched)
	}
	for _, r := range findings.Results {
		if r.Type != agentmem.TypeFinding {
			t.Errorf("type filter let a %s through", r.Type)
		}
	}
	if got := a.search("nori", "projectId=p&q=the"); got.Mode != string(search.ModeNone) || len(got.Results) != 0 {
		t.Errorf("stopwords only: got mode %q and %d results, want none", got.Mode, len(got.Results))
	}
}

func TestSearchBadInput(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	long := url.QueryEscape(strings.Repeat("x", agentmem.MaxQueryBytes+1))
	for _, q := range []string{"projectId=p", "projectId=p&q=++", "q=x", "projectId=a%23b&q=x", "projectId=p&q=x&limit=0",
		"projectId=p&q=x&limit=51", "projectId=p&q=x&type=poem", "projectId=p&q=" + long, "projectId=p&q=%ff"} {
		resp := a.do("GET", "/api/agents/nori/memories/search?"+q, "")
		if resp.StatusCode != 400 || !strings.Contains(resp.Body, `"code":"invalid"`) {
			t.Errorf("%s: got %d %s, want 400 invalid", q, resp.StatusCode, resp.Body)
		}
	}
}

// topics is an embedder that knows synonyms: each text's vector counts the
// words of each topic, so "galley display" is close to "kitchen screen"
// without sharing a word (nor a related term: the lexical ranking's
// related groups do not link them). It plays the model behind an
// OpenAI-compatible server.
type topics struct{}

var topicWords = [][]string{
	{"kitchen", "galley", "cookhouse"},
	{"screen", "display"},
	{"webhook", "webhooks", "notification", "notifications", "callback", "callbacks"},
	{"retry", "retries", "retried", "resent", "resend", "redelivered", "again"},
	{"database", "postgres", "db"},
	{"deploy", "release", "rollout"},
}

func (topics) Name() string    { return "topics" }
func (topics) Dimensions() int { return len(topicWords) + 1 }
func (topics) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, len(topicWords)+1)
		v[len(topicWords)] = 0.1 // never all zeros
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(t, "."))) {
			for d, ws := range topicWords {
				if slices.Contains(ws, strings.Trim(w, ".,:")) {
					v[d]++
				}
			}
		}
		out[i] = v
	}
	return out, nil
}

func TestSearchHybridFindsParaphrasesThroughTheOpenAIClient(t *testing.T) {
	t.Parallel()
	srv := embeddingstest.NewOpenAIServer(t, topics{})
	emb, err := openai.New(embeddings.Config{Model: "topics", Endpoint: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	a := newAPITestWith(t, emb, nil)
	paraphrase := a.create("nori", `{"projectId":"p","content":"The galley display freezes after midnight"}`)
	a.create("nori", `{"projectId":"p","content":"Postgres is upgraded during the next release"}`)
	a.create("nori", `{"projectId":"p","content":"Kitchen screen settings are synced nightly"}`)
	if len(paraphrase.Embedding) != 0 {
		t.Error("the API answer leaked the embedding")
	}
	stored, _ := a.store.GetMemory(context.Background(), "nori", paraphrase.ID)
	if v := embeddings.DecodeFor(stored.Embedding, "openai:topics"); len(v) != len(topicWords)+1 {
		t.Fatalf("stored vector: %v, want the OpenAI-compatible model's %d dims", v, len(topicWords)+1)
	}

	got := a.search("nori", "projectId=p&q="+url.QueryEscape("kitchen screen"))
	if got.Mode != string(search.ModeHybrid) {
		t.Errorf("mode: got %q, want hybrid", got.Mode)
	}
	if !slices.Contains(contents(got.Results), paraphrase.Content) {
		t.Errorf("hybrid missed the paraphrase: %q", contents(got.Results))
	}
	lexicalOnly := newAPITest(t)
	lexicalOnly.create("nori", `{"projectId":"p","content":"The galley display freezes after midnight"}`)
	if got := lexicalOnly.search("nori", "projectId=p&q="+url.QueryEscape("kitchen screen")); len(got.Results) != 0 {
		t.Errorf("lexical search should not find the paraphrase (else this test proves nothing): %q", contents(got.Results))
	}
	if before := srv.Requests.Load(); before < 4 {
		t.Errorf("embeddings requests: got %d, want one per write and one per query", before)
	}

	// The provider failing: search still answers, lexically.
	srv.Fail.Store(429)
	fallback := a.search("nori", "projectId=p&q="+url.QueryEscape("kitchen screen"))
	if fallback.Mode != string(search.ModeLexical) || len(fallback.Results) != 1 {
		t.Errorf("embedder down: got mode %q, %q; want lexical with the one literal match", fallback.Mode, contents(fallback.Results))
	}
}

func TestSearchHybridWithTheHashingEmbedder(t *testing.T) {
	t.Parallel()
	a := newAPITestWith(t, hashing.New(1024), nil)
	// A memory whose stored vector is unusable (garbage, another model's)
	// is still ranked lexically.
	old, err := a.store.CreateMemory(context.Background(), agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceManual,
		Content: "Kafka consumer lag alerts fire at 10k messages", Embedding: []byte("not a vector")})
	if err != nil {
		t.Fatal(err)
	}
	a.create("nori", `{"projectId":"p","type":"finding","content":"Kafka consumers rebalance when a pod restarts"}`)
	a.create("nori", `{"projectId":"p","content":"The Terraform state lives in the ops account"}`)
	got := a.search("nori", "projectId=p&q="+url.QueryEscape("kafka consumer rebalance"))
	if got.Mode != string(search.ModeHybrid) || len(got.Results) < 2 {
		t.Fatalf("got mode %q, %q; want hybrid with both Kafka memories", got.Mode, contents(got.Results))
	}
	if got.Results[0].Content != "Kafka consumers rebalance when a pod restarts" {
		t.Errorf("first: got %q", got.Results[0].Content)
	}
	if !slices.Contains(contents(got.Results), old.Content) {
		t.Errorf("the memory without a usable vector was dropped: %q", contents(got.Results))
	}
}

// TestSearchSeesEveryChange searches a scope after each kind of write: the
// cached index must never hide one.
func TestSearchSeesEveryChange(t *testing.T) {
	t.Parallel()
	a := newAPITest(t)
	first := a.create("nori", `{"projectId":"p","content":"The flaky checkout test waits for network idle"}`)
	q := "projectId=p&q=checkout"
	if got := a.search("nori", q); len(got.Results) != 1 {
		t.Fatalf("first search: %q", contents(got.Results))
	}
	if got := a.search("nori", q); len(got.Results) != 1 || got.Results[0].LastAccessedAt == "" {
		t.Fatalf("cached search: %+v", got.Results)
	}
	second := a.create("nori", `{"projectId":"p","content":"The checkout service caches prices for 60 s"}`)
	if got := a.search("nori", q); len(got.Results) != 2 {
		t.Errorf("after a create: %q, want both", contents(got.Results))
	}
	if resp := a.do("DELETE", "/api/agents/nori/memories/"+first.ID, ""); resp.StatusCode != 204 {
		t.Fatal(resp.Body)
	}
	if got := a.search("nori", q); len(got.Results) != 1 || got.Results[0].ID != second.ID {
		t.Errorf("after a delete: %q, want only the second", contents(got.Results))
	}
	p := agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceExtraction, Type: agentmem.TypePattern,
		Content: "checkout e2e flake", Trigger: "checkout e2e times out", Solution: "wait for network idle", Confidence: new(0.5)}
	if _, _, err := a.store.SavePattern(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	a.search("nori", q) // cache the pattern at 0.5
	if _, raised, err := a.store.SavePattern(context.Background(), p); err != nil || !raised {
		t.Fatal(raised, err)
	}
	raisedTo := 0.0
	for _, r := range a.search("nori", q).Results {
		if r.Type == agentmem.TypePattern {
			raisedTo = *r.Confidence
		}
	}
	if raisedTo != search.RaiseConfidence(0.5) {
		t.Errorf("after a raise: pattern at %v, want %v", raisedTo, search.RaiseConfidence(0.5))
	}
	if resp := a.do("POST", "/api/agents/nori/memories/forget", `{"projectId":"p","olderThan":"1h"}`); resp.StatusCode != 200 {
		t.Fatal(resp.Body)
	}
	if resp := a.do("DELETE", "/api/agents/nori/memories?projectId=p", ""); resp.StatusCode != 200 {
		t.Fatal(resp.Body)
	}
	if got := a.search("nori", q); len(got.Results) != 0 || got.Searched != 0 {
		t.Errorf("after deleting the scope: %q", contents(got.Results))
	}
}
