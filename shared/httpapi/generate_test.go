package httpapi_test

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
)

// genFile is the file TestGeneratedHandlersAreCurrent keeps equal to the
// route table.
const genFile = "handlers_gen.go"

//go:generate env UPDATE_GENERATED=1 go test -run TestGeneratedHandlersAreCurrent .

// renderHandlers renders handlers_gen.go from the route table: per
// function, an interface with one method per route and the constructor
// that registers those methods under the route names.
func renderHandlers() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`// Code generated from the route table (shared/routes) by
// TestGeneratedHandlersAreCurrent; DO NOT EDIT.
// Regenerate with: UPDATE_GENERATED=1 go test ./shared/httpapi

package httpapi

import (
	"context"
	"log/slog"

	"github.com/agentmem/agentmem/shared/routes"
)
`)
	for _, fn := range routes.Functions {
		title := exported(string(fn))
		fmt.Fprintf(&b, "\n// %sHandlers serves the routes of the %s function, one method per\n// route of the table.\ntype %sHandlers interface {\n", title, fn, title)
		for _, r := range routes.For(fn) {
			fmt.Fprintf(&b, "\t// %s serves %s: %s.\n\t%s(ctx context.Context, r *Request) (Response, error)\n", r.Name, r.Key(), r.Summary, r.Name)
		}
		b.WriteString("}\n")
		fmt.Fprintf(&b, "\n// New%sHandler returns the handler of the %s function, serving\n// each of its routes with h's method of the route's name. (Generic, so\n// that h is never converted to an interface value.)\n", title, fn)
		fmt.Fprintf(&b, "func New%sHandler[H %sHandlers](h H, log *slog.Logger) (*Handler, error) {\n", title, title)
		fmt.Fprintf(&b, "\treturn NewHandler(routes.%s, map[routes.Name]HandlerFunc{\n", title)
		for _, r := range routes.For(fn) {
			fmt.Fprintf(&b, "\t\troutes.%s: h.%s,\n", r.Name, r.Name)
		}
		b.WriteString("\t}, log)\n}\n")
	}
	return format.Source(b.Bytes())
}

func exported(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// TestGeneratedHandlersAreCurrent keeps handlers_gen.go equal to the route
// table, so that a route added to the table fails to compile until its
// function has a handler method for it. Run with UPDATE_GENERATED=1 to
// rewrite the file.
func TestGeneratedHandlersAreCurrent(t *testing.T) {
	t.Parallel()
	want, err := renderHandlers()
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	got, err := os.ReadFile(genFile)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if os.Getenv("UPDATE_GENERATED") != "" {
		if err := os.WriteFile(genFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with the route table; run UPDATE_GENERATED=1 go test ./shared/httpapi", genFile)
}
