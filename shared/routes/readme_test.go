package routes_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
)

// Table renders the README's API table from the route table.
func table() string {
	var b strings.Builder
	b.WriteString("| method | path | function | agent task role | what it does |\n|---|---|---|---|---|\n")
	for _, r := range routes.All {
		agent := ""
		if r.Agent {
			agent = "yes"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", r.Method, r.Path, r.Function, agent, r.Summary)
	}
	return b.String()
}

// TestReadmeTable keeps the README's API table equal to the route table.
// Run with UPDATE_README=1 to rewrite it.
func TestReadmeTable(t *testing.T) {
	t.Parallel()
	const path = "../../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, "<!-- routes:begin -->\n"), strings.Index(doc, "<!-- routes:end -->")
	if begin < 0 || end < begin {
		t.Fatal("README.md lacks the routes:begin/end markers")
	}
	begin += len("<!-- routes:begin -->\n")
	want := table()
	if doc[begin:end] == want {
		return
	}
	if os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile(path, []byte(doc[:begin]+want+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's API table is out of date; run UPDATE_README=1 go test ./shared/routes")
}
