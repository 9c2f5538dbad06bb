package memoryapi_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/localapi"
)

// FuzzMemoriesRequest sends arbitrary paths, queries and bodies through the
// memories handler over DynamoDB Local: whatever arrives, the answer is
// never a 5xx.
func FuzzMemoriesRequest(f *testing.F) {
	seeds := []struct{ method, path, query, body string }{
		{"POST", "/api/agents/nori/memories", "", `{"projectId":"p","content":"hello"}`},
		{"POST", "/api/agents/nori/memories", "", `{"projectId":"p","type":"pattern","content":"x","trigger":"t","confidence":0.9,"tags":["a"]}`},
		{"GET", "/api/agents/nori/memories", "projectId=p&limit=3&type=note", ""},
		{"GET", "/api/agents/nori/memories", "projectId=p&cursor=MjAyNi0xMS0yMlQwMTowMDowMC4wMDAwMDAwMDBa", ""},
		{"GET", "/api/agents/nori/memories/01JD5Q8Z3K7M2N4P6R8T0V2X4Y", "", ""},
		{"DELETE", "/api/agents/nori/memories", "projectId=p", ""},
		{"GET", "/api/agents/nori/bootstrap", "projectId=p", ""},
		{"POST", "/api/agents/nori/memories", "", `{"projectId":"p","content":"\u0000"}`},
		{"PUT", "/api/agents//memories", "", `null`},
		{"GET", "/api/agents/nori/memories/search", "projectId=p&q=webhook+retries&type=finding&limit=5", ""},
		{"GET", "/api/agents/nori/patterns/suggest", "projectId=p&task=fix+ci&minConfidence=0.5", ""},
		{"GET", "/api/agents/nori/bootstrap", "projectId=p&task=flaky+test", ""},
		{"POST", "/api/agents/nori/memories/forget", "", `{"projectId":"p","olderThan":"30d","includePinned":true}`},
		{"GET", "/api/agents/nori/stats", "projectId=p", ""},
		{"GET", "/api/stats", "limit=2&cursor=MDcvbm9yaSNw", ""},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.query, s.body)
	}
	a := newAPITest(f)
	f.Fuzz(func(t *testing.T, method, path, query, body string) {
		u := &url.URL{Path: "/" + strings.TrimLeft(path, "/"), RawQuery: query}
		if strings.ContainsAny(method, " \t\r\n") || method == "" {
			method = "GET"
		}
		r := httptest.NewRequest("GET", "/", strings.NewReader(body))
		r.Method, r.URL = method, u
		resp, err := a.h.Handle(context.Background(), localapi.Event(r, []byte(body)))
		if err != nil || resp.StatusCode >= 500 {
			t.Fatalf("%s %s?%s %q: status %d %s (err %v)", method, u.Path, query, body, resp.StatusCode, resp.Body, err)
		}
	})
}
