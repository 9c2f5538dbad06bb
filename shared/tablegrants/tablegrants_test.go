package tablegrants

import (
	"testing"

	"github.com/agentmem/agentmem/shared/routes"
)

// TestEveryFunctionHasGrants: the stack refuses a function without them.
func TestEveryFunctionHasGrants(t *testing.T) {
	for _, fn := range routes.Functions {
		gs, ok := ByFunction[fn]
		if !ok || len(gs) == 0 {
			t.Errorf("%s: no grants", fn)
		}
		for table, g := range gs {
			if len(g.Actions) == 0 {
				t.Errorf("%s on %s: a grant without actions", fn, table)
			}
		}
	}
}
