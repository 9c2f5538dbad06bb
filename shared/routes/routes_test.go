package routes_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		method, path string
		name         string
		known        bool
		params       map[string]string
	}{
		{"GET", "/api/agents/nori/memories", "ListMemories", true, map[string]string{"agentName": "nori"}},
		{"GET", "/api/agents/nori/memories/01ABC", "GetMemory", true, map[string]string{"agentName": "nori", "id": "01ABC"}},
		{"GET", "/api/agents/no%23ri/memories", "ListMemories", true, map[string]string{"agentName": "no#ri"}},
		{"PATCH", "/api/agents/nori/memories", "", true, nil},
		{"GET", "/api/agents/nori/nothing", "", false, nil},
		{"GET", "/api/agents//memories", "", false, nil},
		{"GET", "/api/personalities", "ListPersonalities", true, map[string]string{}},
	}
	for _, tt := range tests {
		route, params, known := routes.Match(tt.method, tt.path)
		if route.Name != tt.name || known != tt.known {
			t.Errorf("Match(%s %s) = %q, known %v; want %q, %v", tt.method, tt.path, route.Name, known, tt.name, tt.known)
		}
		for k, v := range tt.params {
			if params[k] != v {
				t.Errorf("Match(%s %s) param %s = %q, want %q", tt.method, tt.path, k, params[k], v)
			}
		}
	}
}

func TestTableIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range routes.All {
		if seen[r.Name] || seen[r.Key()] {
			t.Errorf("duplicate route %s (%s)", r.Name, r.Key())
		}
		seen[r.Name], seen[r.Key()] = true, true
		if !strings.HasPrefix(r.Path, "/api/") || r.Summary == "" {
			t.Errorf("route %s: path %q or summary missing", r.Name, r.Path)
		}
		if got, _, _ := routes.Match(r.Method, r.Path); got.Name != r.Name {
			t.Errorf("route %s does not match its own path (got %q)", r.Name, got.Name)
		}
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("GET", "/api/agents/nori/memories/x")
	f.Add("DELETE", "/api/agents/%2F/memories")
	f.Fuzz(func(t *testing.T, method, path string) {
		route, params, known := routes.Match(method, path)
		if route.Name != "" && !known {
			t.Fatalf("matched %s without a known path", route.Name)
		}
		for k, v := range params {
			if v == "" {
				t.Fatalf("empty param %s for %q", k, path)
			}
		}
	})
}
