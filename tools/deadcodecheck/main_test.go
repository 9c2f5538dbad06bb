package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseAllow(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in string
		want     []string // "pkg name|reason"
		wantErr  string
	}{
		{"comments and blanks", "# why\n\n  shared/x F  kept because\tof tests \n", []string{"shared/x F|kept because of tests"}, ""},
		{"whole package", "shared/xtest * a helper\n", []string{"shared/xtest *|a helper"}, ""},
		{"no reason", "shared/x F\n", nil, "line 1: want a package, a function and the reason"},
		{"duplicate", "a F one\n# c\na F two\n", nil, "line 3: a F is already listed on line 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseAllow(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, a := range got {
				lines = append(lines, a.function.String()+"|"+a.reason)
			}
			if !slices.Equal(lines, tt.want) {
				t.Errorf("got %q, want %q", lines, tt.want)
			}
		})
	}
}

func TestParseReport(t *testing.T) {
	t.Parallel()
	raw := `[{"Name":"dynamostore","Path":"example.com/m/shared/dynamostore","Funcs":[{"Name":"Store.Recount","Generated":false},{"Name":"gen","Generated":true}]},
		{"Name":"m","Path":"example.com/m","Funcs":[{"Name":"helper"}]}]`
	got, err := parseReport([]byte(raw), "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	want := []function{{"shared/dynamostore", "Store.Recount"}, {".", "helper"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := parseReport([]byte("not json"), "m"); err == nil {
		t.Error("a report that is not JSON was read")
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	allow := func(lines ...string) []allowance {
		a, err := parseAllow(strings.NewReader(strings.Join(lines, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tt := range []struct {
		name  string
		dead  []function
		allow []allowance
		want  []string // substrings, one per problem, in order
	}{
		{"all allowed", []function{{"a", "F"}, {"h", "G"}, {"h", "H"}}, allow("a F why", "h * helper"), nil},
		{"nothing dead, nothing allowed", nil, nil, nil},
		{"new dead code", []function{{"a", "F"}, {"b", "G"}}, allow("a F why"), []string{"b G is unreachable from every program"}},
		{"allowed function now used", []function{{"a", "F"}}, allow("a F why", "a G used now"), []string{"a G (allowlist line 2) is no longer unreachable"}},
		{"allowed package now used", nil, allow("h * helper"), []string{"h * (allowlist line 1) is no longer unreachable"}},
		{"both", []function{{"b", "G"}}, allow("a F why"), []string{"a F (allowlist line 1) is no longer unreachable", "b G is unreachable"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := check(tt.dead, tt.allow)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems %q, want %d %q", len(got), got, len(tt.want), tt.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("problem %d: got %q, want it to contain %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestCacheKey: the key changes with the code deadcode reads and the
// allowlist, not with tests or test data.
func TestCacheKey(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(path, content string) {
		t.Helper()
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func(allow string) string {
		t.Helper()
		k, err := cacheKey(root, "go1.26 linux amd64", []byte(allow))
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write("go.mod", "module m\n")
	write("a/a.go", "package a\n")
	base := key("x")
	for _, tt := range []struct {
		name    string
		change  func()
		changed bool
	}{
		{"a test file", func() { write("a/a_test.go", "package a\n// x\n") }, false},
		{"test data", func() { write("a/testdata/b.go", "package b\n") }, false},
		{"node_modules", func() { write("tools/node_modules/c/c.go", "package c\n") }, false},
		{"a Go file", func() { write("a/a.go", "package a\n\nfunc F() {}\n") }, true},
		{"a new Go file", func() { write("b/b.go", "package b\n") }, true},
		{"go.sum", func() { write("go.sum", "x v1 h1:y\n") }, true},
	} {
		before := key("x")
		tt.change()
		if after := key("x"); (after != before) != tt.changed {
			t.Errorf("%s: key changed %v, want %v", tt.name, after != before, tt.changed)
		}
	}
	if key("x") == key("y") {
		t.Error("the key does not depend on the allowlist")
	}
	if k, err := cacheKey(root, "go1.27 linux amd64", []byte("x")); err != nil || k == key("x") {
		t.Errorf("the key does not depend on the toolchain (%v)", err)
	}
	if base == key("x") {
		t.Error("the key did not change at all")
	}
}
