package memoryapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/aws/aws-lambda-go/events"
)

// BenchmarkList50 is GET .../memories through the handler on DynamoDB Local.
func BenchmarkList50(b *testing.B) {
	a := newAPITest(b)
	for i := range 60 {
		a.do("POST", "/api/agents/nori/memories", fmt.Sprintf(`{"projectId":"p","type":"finding","content":"finding number %d about the checkout service and its retries"}`, i))
	}
	ev := localapi.Event(httptest.NewRequest("GET", "/api/agents/nori/memories?projectId=p", nil), nil)
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := a.h.Handle(context.Background(), ev)
		if resp.StatusCode != 200 {
			b.Fatal(resp.Body)
		}
	}
}

// BenchmarkCreate is POST .../memories through the handler on DynamoDB Local.
func BenchmarkCreate(b *testing.B) {
	a := newAPITest(b)
	body := `{"projectId":"p","type":"decision","content":"Use idempotency keys on payment POSTs","rationale":"the PSP retries"}`
	ev := localapi.Event(httptest.NewRequest("POST", "/api/agents/nori/memories", strings.NewReader(body)), []byte(body))
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := a.h.Handle(context.Background(), ev)
		if resp.StatusCode != 201 {
			b.Fatal(resp.Body)
		}
	}
}

// BenchmarkHandlerOverheadList50 is everything a 50-item list costs besides
// DynamoDB: decode the API Gateway event, route and validate, render
// MEMORY.md and encode the JSON response.
func BenchmarkHandlerOverheadList50(b *testing.B) {
	raw, err := os.ReadFile("../../../events/memories/ListMemories.json")
	if err != nil {
		b.Fatal(err)
	}
	page := agentmem.MemoryPage{}
	now := time.Now()
	for i := range 50 {
		page.Memories = append(page.Memories, agentmem.Memory{
			ID: "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", AgentName: "nori", ProjectID: "checkout-service", Source: agentmem.SourceManual,
			Type: agentmem.Types[i%len(agentmem.Types)], CreatedAt: agentmem.FormatTime(now.Add(-time.Duration(i) * time.Minute)),
			Content: fmt.Sprintf("Finding %d: the payments service retries webhooks three times with exponential backoff", i),
		})
	}
	b.ReportAllocs()
	for b.Loop() {
		var ev events.APIGatewayV2HTTPRequest
		if err := json.Unmarshal(raw, &ev); err != nil {
			b.Fatal(err)
		}
		// As httpapi.Handler routes: by the event's routeKey, the
		// parameters from the route's own pattern.
		route, _ := routes.ByKey(ev.RequestContext.RouteKey)
		params, _ := route.Params(ev.RawPath)
		if err := agentmem.ValidateAgentName(params["agentName"]); err != nil || route.Name != routes.ListMemories {
			b.Fatal(err)
		}
		if err := agentmem.ValidateProjectID(ev.QueryStringParameters["projectId"]); err != nil {
			b.Fatal(err)
		}
		_ = markdown.MemoryFile("nori", "checkout-service", page.Memories)
		if resp := httpapi.JSON(200, page); resp.StatusCode != 200 {
			b.Fatal(resp.Body)
		}
	}
}

// BenchmarkGetMemory is GET .../memories/{id} through the handler on
// DynamoDB Local: the id-index lookup, and the item itself.
func BenchmarkGetMemory(b *testing.B) {
	a := newAPITest(b)
	m := decode[agentmem.Memory](b, a.do("POST", "/api/agents/nori/memories", `{"projectId":"p","type":"finding","content":"the checkout service retries webhooks three times"}`))
	ev := localapi.Event(httptest.NewRequest("GET", "/api/agents/nori/memories/"+m.ID, nil), nil)
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := a.h.Handle(context.Background(), ev)
		if resp.StatusCode != 200 {
			b.Fatal(resp.Body)
		}
	}
}

// BenchmarkCreateParallel is POST .../memories from 8 concurrent callers
// into one scope, the contention a scope's counters see when several
// pipelines write at once.
func BenchmarkCreateParallel(b *testing.B) {
	a := newAPITest(b)
	body := `{"projectId":"p","type":"finding","content":"the checkout service retries webhooks three times"}`
	ev := localapi.Event(httptest.NewRequest("POST", "/api/agents/nori/memories", strings.NewReader(body)), []byte(body))
	b.ReportAllocs()
	b.SetParallelism(4) // 4 x GOMAXPROCS (2 here) = 8 callers
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, _ := a.h.Handle(context.Background(), ev)
			if resp.StatusCode != 201 {
				b.Error(resp.Body)
				return
			}
		}
	})
}

// BenchmarkDeleteScope2000 is DELETE .../memories?projectId= of a scope
// holding 2,000 memories (seeded through the store, outside the timing).
func BenchmarkDeleteScope2000(b *testing.B) {
	a := newAPITest(b)
	ctx := context.Background()
	ev := localapi.Event(httptest.NewRequest("DELETE", "/api/agents/nori/memories?projectId=p", nil), nil)
	for b.Loop() {
		b.StopTimer()
		seedMany(b, a, 2000)
		b.StartTimer()
		resp, _ := a.h.Handle(ctx, ev)
		if resp.StatusCode/100 != 2 {
			b.Fatal(resp.Body)
		}
	}
}

// seedMany stores n memories in nori/p through the store, 16 at a time.
func seedMany(b *testing.B, a *apiTest, n int) {
	ctx := context.Background()
	sem := make(chan struct{}, 16)
	errs := make(chan error, n)
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			_, err := a.store.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "p", Source: agentmem.SourceManual,
				Type: agentmem.TypeFinding, Content: fmt.Sprintf("finding %d about the checkout service and its webhook retries", i)})
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
}
