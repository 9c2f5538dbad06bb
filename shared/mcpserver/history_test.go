package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/mcpserver"
)

// TestCorrectAMemoryAndRestoreIt walks an agent through a memory that
// turns out wrong: a repeat is not stored again, the memory is corrected
// in place, its history read, the old version restored, and a new memory
// replaces it.
func TestCorrectAMemoryAndRestoreIt(t *testing.T) {
	api := apitest.New(t, nil)
	cs, _ := connect(t, api.URL, config())
	ctx := context.Background()

	ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "CI runs on Node 18."})
	id := memoryByContent(t, api.Store, "CI runs on Node 18.").ID
	text := ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "ci runs on `node 18`"})
	containsAll(t, "text", text, "Not stored", id, "memory_update")
	if got := len(memories(t, api.Store)); got != 1 {
		t.Fatalf("%d memories after the repeat, want 1", got)
	}

	// Correct it without a version (the current one is read), then with
	// a stale one.
	text = ok(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id, "content": "CI runs on Node 20.", "note": "upgraded in the workflow"})
	containsAll(t, "text", text, "Updated memory "+id+" to version 2", "version 2", "[finding] CI runs on Node 20.")
	if m, err := api.Store.GetMemory(ctx, agent, id); err != nil || m.Version != 2 || m.Content != "CI runs on Node 20." {
		t.Fatalf("stored: %+v, %v", m, err)
	}
	res := call(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id, "version": 1, "content": "CI runs on Node 22."})
	if !res.IsError {
		t.Fatalf("stale update: %q, want a tool error", textOf(res))
	}
	containsAll(t, "error", textOf(res), "memory_update:", "version 2, not 1", "memory_history")
	res = call(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id})
	if !res.IsError || !strings.Contains(textOf(res), "nothing to change") {
		t.Errorf("empty update: %q", textOf(res))
	}

	text = ok(t, cs, mcpserver.ToolHistory, map[string]any{"id": id})
	containsAll(t, "text", text, "live at version 2", "version 2, updated", "upgraded in the workflow", "(changed content)", "version 1, created", "Node 18")

	text = ok(t, cs, mcpserver.ToolRestore, map[string]any{"id": id, "version": 1, "note": "the upgrade was reverted"})
	containsAll(t, "text", text, "Restored version 1", "now version 3")
	if m, _ := api.Store.GetMemory(ctx, agent, id); m.Version != 3 || m.Content != "CI runs on Node 18." {
		t.Errorf("after the restore: %+v", m)
	}
	res = call(t, cs, mcpserver.ToolRestore, map[string]any{"id": id, "version": 9})
	if !res.IsError || !strings.Contains(textOf(res), "no version 9") {
		t.Errorf("restore of a missing version: %q", textOf(res))
	}

	// A new memory that replaces the old one.
	text = ok(t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "CI runs on Node 22.", "replaces": id})
	containsAll(t, "text", text, "It replaces memory "+id)
	neu := memoryByContent(t, api.Store, "CI runs on Node 22.")
	if ms := memories(t, api.Store); len(ms) != 1 || ms[0].ID != neu.ID || len(neu.Supersedes) != 1 {
		t.Errorf("live memories: %+v", ms)
	}
	text = ok(t, cs, mcpserver.ToolHistory, map[string]any{"id": id})
	containsAll(t, "text", text, "is superseded", "superseded by "+neu.ID)
	res = call(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id, "content": "x"})
	if !res.IsError || !strings.Contains(textOf(res), "superseded") {
		t.Errorf("update of the replaced: %q", textOf(res))
	}
	res = call(t, cs, mcpserver.ToolHistory, map[string]any{"id": "not-an-id"})
	if !res.IsError {
		t.Errorf("bad id: %q, want a tool error", textOf(res))
	}
}
