package mcpserver

import "testing"

// TestEveryToolHasItsInputType: the middleware holds a tool's arguments
// to strictjson only when it knows the tool's input type.
func TestEveryToolHasItsInputType(t *testing.T) {
	t.Parallel()
	for _, name := range Tools {
		if toolInputs[name] == nil {
			t.Errorf("tool %s has no input type in toolInputs: its arguments escape the strict JSON check", name)
		}
	}
	if len(toolInputs) != len(Tools) {
		t.Errorf("toolInputs has %d tools, Tools %d", len(toolInputs), len(Tools))
	}
}
