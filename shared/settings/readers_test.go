package settings_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/settings"
)

// binaries are the packages each reader builds from.
var binaries = map[settings.Binary][]string{
	settings.Memories:      {"./functions/memories"},
	settings.Personalities: {"./functions/personalities"},
	settings.Extraction:    {"./functions/extraction"},
	settings.Dream:         {"./functions/dream"},
	settings.DevServer:     {"./cmd/devserver"},
	settings.CLI:           {"./cmd/agentmem"},
	settings.Tests:         {"./tools/ddblocal", "./shared/dynamotest"},
}

// TestReadersReadTheirSettings: a program listed as a setting's reader
// links code that reads it (settings.X in a non-test file of a package it
// builds from), so the per-function lists the stack and the docs use are
// not wishes.
func TestReadersReadTheirSettings(t *testing.T) {
	t.Parallel()
	vars := tableVars(t)
	for _, b := range append(append([]settings.Binary(nil), settings.Functions...), settings.DevServer, settings.CLI, settings.Tests) {
		pkgs, ok := binaries[b]
		if !ok {
			t.Fatalf("no packages known for %s", b)
		}
		used := usedSettings(t, pkgs)
		for _, s := range settings.For(b) {
			if !used[vars[s.Name]] {
				t.Errorf("%s lists %s as a reader, but nothing %s links reads settings.%s", s.Name, b, b, vars[s.Name])
			}
		}
	}
}

// tableVars maps each setting's name to its Go variable in table.go.
func tableVars(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
			return true
		}
		call, ok := vs.Values[0].(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		lit, ok := call.Args[0].(*ast.CompositeLit)
		if !ok {
			return true
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok && kv.Key.(*ast.Ident).Name == "Name" {
				name, _ := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
				out[name] = vs.Names[0].Name
			}
		}
		return true
	})
	if len(out) != len(settings.All()) {
		t.Fatalf("found %d settings in table.go, the table has %d", len(out), len(settings.All()))
	}
	return out
}

// usedSettings returns the settings variables the non-test files of the
// module packages that pkgs link refer to.
func usedSettings(t *testing.T, pkgs []string) map[string]bool {
	t.Helper()
	args := append([]string{"list", "-deps", "-f", `{{if not .Standard}}{{.ImportPath}}{{"\t"}}{{.Dir}}{{"\t"}}{{join .GoFiles " "}}{{end}}`}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", pkgs, err)
	}
	used := map[string]bool{}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) != 3 || !strings.HasPrefix(parts[0], "github.com/agentmem/agentmem/") || strings.HasSuffix(parts[0], "/shared/settings") {
			continue
		}
		for _, name := range strings.Fields(parts[2]) {
			f, err := parser.ParseFile(fset, filepath.Join(parts[1], name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "settings" {
						used[sel.Sel.Name] = true
					}
				}
				return true
			})
		}
	}
	return used
}
