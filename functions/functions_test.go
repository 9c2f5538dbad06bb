package functions_test

import (
	"slices"
	"testing"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/routes"
)

// TestEachFunctionServesExactlyItsRoutes: every function of the route
// table has a handler constructor, and the handler it builds serves
// exactly the table's routes of that function, no fewer, no more, no
// other function's. (The generated per-function interfaces of httpapi make
// a missing handler method a compile error; this pins the wiring.)
func TestEachFunctionServesExactlyItsRoutes(t *testing.T) {
	if len(functions.API) != len(routes.Functions) {
		t.Errorf("functions.API has %d functions, the route table %d", len(functions.API), len(routes.Functions))
	}
	for _, fn := range routes.Functions {
		t.Run(string(fn), func(t *testing.T) {
			newFn := functions.API[fn]
			if newFn == nil {
				t.Fatalf("function %s has no handler constructor in functions.API", fn)
			}
			h, err := newFn(lambdamain.Deps{})
			if err != nil {
				t.Fatal(err)
			}
			var want []routes.Name
			for _, r := range routes.For(fn) {
				want = append(want, r.Name)
			}
			if got := h.Routes(); h.Function() != fn || !slices.Equal(got, want) {
				t.Errorf("serves %s %v, want %s %v", h.Function(), got, fn, want)
			}
		})
	}
}
