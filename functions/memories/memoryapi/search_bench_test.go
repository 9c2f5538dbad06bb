package memoryapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/embeddings/hashing"
	"github.com/agentmem/agentmem/shared/localapi"
)

// benchScopeSize is the scope size of the search benchmarks: the default
// memory limit, the most a scope holds.
const benchScopeSize = agentmem.DefaultMemoryLimit

// seedScope writes n memories into nori/p, made from the labelled
// retrieval set (each one memory's fields plus another's content, about
// 400 bytes, as in shared/search's benchmarks), eight writers at a time.
func seedScope(b *testing.B, a *apiTest, n int) {
	b.Helper()
	raw, err := os.ReadFile("../../../shared/search/testdata/retrieval.json")
	if err != nil {
		b.Fatal(err)
	}
	var set struct {
		Memories []agentmem.Memory `json:"memories"`
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		b.Fatal(err)
	}
	ms := set.Memories
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range n {
		m := ms[i%len(ms)]
		m.ID, m.AgentName, m.ProjectID, m.Source = "", "nori", "p", agentmem.SourceManual
		m.Content += " " + ms[(i*7+3)%len(ms)].Content
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if _, err := a.store.CreateMemory(context.Background(), m); err != nil {
				b.Error(err)
			}
		}()
	}
	wg.Wait()
}

// benchSearch sends the same search through the handler b.N times and
// reports the median and 99th percentile latency besides the mean. warm
// keeps the search cache (and fills it before timing); otherwise the cache
// is off and every search reads the scope.
func benchSearch(b *testing.B, emb embeddings.Embedder, wantMode string, warm bool) {
	env := map[string]string{"AGENTMEM_SEARCH_CACHE": "0"}
	if warm {
		env = nil
	}
	a := newAPITestWith(b, emb, env)
	a.store.Log, a.handler.Log = quiet, quiet
	seedScope(b, a, benchScopeSize)
	target := "/api/agents/nori/memories/search?projectId=p&q=" + url.QueryEscape("stripe webhook retries with exponential backoff")
	ev := localapi.Event(httptest.NewRequest("GET", target, nil), nil)
	if resp, _ := a.h.Handle(context.Background(), ev); resp.StatusCode != 200 {
		b.Fatal(resp.Body)
	}
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		resp, _ := a.h.Handle(context.Background(), ev)
		lat = append(lat, time.Since(start))
		if resp.StatusCode != 200 {
			b.Fatal(resp.Body)
		}
		var out struct {
			Mode     string `json:"mode"`
			Searched int    `json:"searched"`
		}
		if err := json.Unmarshal([]byte(resp.Body), &out); err != nil || out.Mode != wantMode || out.Searched != benchScopeSize {
			b.Fatalf("mode %q over %d memories (%v), want %s over %d", out.Mode, out.Searched, err, wantMode, benchScopeSize)
		}
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
}

// BenchmarkSearchLexical1000 is GET .../memories/search through the
// handler on DynamoDB Local over a scope of 1,000 memories, no embedder,
// in a warm Lambda: read the scope's counters (the cache's version), BM25
// over the cached index, touch the 10 hits, encode the answer.
func BenchmarkSearchLexical1000(b *testing.B) { benchSearch(b, nil, "lexical", true) }

// BenchmarkSearchHybrid1000 is the same with 1,024-dimension vectors on
// every memory (the hashing embedder, in process): embed the query, BM25
// and cosine fused by reciprocal rank.
func BenchmarkSearchHybrid1000(b *testing.B) { benchSearch(b, hashing.New(1024), "hybrid", true) }

// BenchmarkSearchLexical1000Cold is BenchmarkSearchLexical1000 without the
// cache: every search reads the 1,000 memories (strongly consistent Query)
// and indexes them, as after any write to the scope or in a cold Lambda.
func BenchmarkSearchLexical1000Cold(b *testing.B) { benchSearch(b, nil, "lexical", false) }

// BenchmarkSearchHybrid1000Cold is BenchmarkSearchHybrid1000 without the
// cache: it also decodes 1,000 vectors per search.
func BenchmarkSearchHybrid1000Cold(b *testing.B) {
	benchSearch(b, hashing.New(1024), "hybrid", false)
}

// BenchmarkTouch10 is the lastAccessedAt update of a search's 10 hits:
// ten conditional updates in parallel on DynamoDB Local.
func BenchmarkTouch10(b *testing.B) {
	a := newAPITest(b)
	var ms []agentmem.Memory
	for i := range 10 {
		ms = append(ms, a.create("nori", fmt.Sprintf(`{"projectId":"p","content":"memory %d"}`, i)))
	}
	at := time.Now()
	b.ResetTimer()
	for b.Loop() {
		at = at.Add(time.Millisecond)
		if n, err := a.store.TouchMemories(context.Background(), ms, at); err != nil || n != 10 {
			b.Fatalf("touched %d: %v", n, err)
		}
	}
}
