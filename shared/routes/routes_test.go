package routes_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method, path string
		name         routes.Name
		known        bool
		params       map[string]string
	}{
		{"GET", "/api/agents/nori/memories", routes.ListMemories, true, map[string]string{"agentName": "nori"}},
		{"GET", "/api/agents/nori/memories/01ABC", routes.GetMemory, true, map[string]string{"agentName": "nori", "id": "01ABC"}},
		{"GET", "/api/agents/no%23ri/memories", routes.ListMemories, true, map[string]string{"agentName": "no#ri"}},
		{"PATCH", "/api/agents/nori/memories", "", true, nil},
		{"GET", "/api/agents/nori/nothing", "", false, nil},
		{"GET", "/api/agents//memories", "", false, nil},
		{"GET", "/api/personalities", routes.ListPersonalities, true, map[string]string{}},
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
	t.Parallel()
	seen := map[string]bool{}
	for _, r := range routes.All {
		if seen[string(r.Name)] || seen[r.Key()] {
			t.Errorf("duplicate route %s (%s)", r.Name, r.Key())
		}
		seen[string(r.Name)], seen[r.Key()] = true, true
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

// TestNamesAreTheTable: the Name constants are exactly the table's route
// names, each spelled as its own identifier (the sample event file and the
// handler method carry that name).
func TestNamesAreTheTable(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "routes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Name" {
				continue
			}
			for i, n := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("route name %s is not a string literal", n.Name)
				}
				v, _ := strconv.Unquote(lit.Value)
				consts[n.Name] = v
			}
		}
	}
	if len(consts) != len(routes.All) {
		t.Errorf("%d Name constants for %d routes", len(consts), len(routes.All))
	}
	for _, r := range routes.All {
		if v, ok := consts[string(r.Name)]; !ok || v != string(r.Name) {
			t.Errorf("route %s: constant %s = %q; want a constant of that name and value", r.Name, r.Name, v)
		}
	}
}

func TestByKey(t *testing.T) {
	t.Parallel()
	for _, r := range routes.All {
		if got, ok := routes.ByKey(r.Key()); !ok || got.Name != r.Name {
			t.Errorf("ByKey(%q) = %s, %v; want %s", r.Key(), got.Name, ok, r.Name)
		}
	}
	for _, key := range []string{"$default", "", "GET /api/agents/{agentName}", "get /api/personalities", "ANY /{proxy+}"} {
		if got, ok := routes.ByKey(key); ok {
			t.Errorf("ByKey(%q) = %s, want none", key, got.Name)
		}
	}
}

func TestParams(t *testing.T) {
	t.Parallel()
	r, _ := routes.ByKey("GET /api/projects/{projectId}/sessions/{sessionId}/context/{key}")
	tests := []struct {
		path string
		want map[string]string
		ok   bool
	}{
		{"/api/projects/p/sessions/s1/context/k", map[string]string{"projectId": "p", "sessionId": "s1", "key": "k"}, true},
		{"/api/projects/p/sessions/s1/context/a%20b", map[string]string{"projectId": "p", "sessionId": "s1", "key": "a b"}, true},
		{"/api/projects/p/sessions//context/k", nil, false},
		{"/prod/api/projects/p/sessions/s1/context/k", nil, false},
		{"/api/projects/p/sessions/s1", nil, false},
	}
	for _, tt := range tests {
		got, ok := r.Params(tt.path)
		if ok != tt.ok || len(got) != len(tt.want) {
			t.Errorf("Params(%q) = %v, %v; want %v, %v", tt.path, got, ok, tt.want, tt.ok)
			continue
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("Params(%q)[%s] = %q, want %q", tt.path, k, got[k], v)
			}
		}
	}
}
