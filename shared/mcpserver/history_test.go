package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/mcpserver"
)

// TestCorrectAMemoryAndRestoreIt walks an agent through a memory that
// turns out wrong: a repeat is not stored again, the memory is corrected
// in place, its history read, the old version restored, and a new memory
// replaces it.
func TestCorrectAMemoryAndRestoreIt(t *testing.T) {
	api := apitest.New(t, nil)
	cs, _ := connect(t, api.URL, config())

	first, _ := ok[mcpserver.StoreOutput](t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "CI runs on Node 18."})
	id := first.Memory.ID
	dup, text := ok[mcpserver.StoreOutput](t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "ci runs on `node 18`"})
	if !dup.Duplicate || dup.Memory.ID != id {
		t.Fatalf("repeat: %+v", dup)
	}
	containsAll(t, "text", text, "Not stored", id, "memory_update")
	if got := len(memories(t, api.Store)); got != 1 {
		t.Fatalf("%d memories after the repeat, want 1", got)
	}

	// Correct it without a version (the current one is read), then with
	// a stale one.
	m, text := ok[agentmem.Memory](t, cs, mcpserver.ToolUpdate, map[string]any{"id": id, "content": "CI runs on Node 20.", "note": "upgraded in the workflow"})
	if m.ID != id || m.Version != 2 || m.Content != "CI runs on Node 20." {
		t.Fatalf("update: %+v", m)
	}
	containsAll(t, "text", text, "Updated memory "+id+" to version 2", "version 2")
	res := call(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id, "version": 1, "content": "CI runs on Node 22."})
	if !res.IsError {
		t.Fatalf("stale update: %q, want a tool error", textOf(res))
	}
	containsAll(t, "error", textOf(res), "memory_update:", "version 2, not 1", "memory_history")
	res = call(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id})
	if !res.IsError || !strings.Contains(textOf(res), "nothing to change") {
		t.Errorf("empty update: %q", textOf(res))
	}

	h, text := ok[agentmem.MemoryHistory](t, cs, mcpserver.ToolHistory, map[string]any{"id": id})
	if h.Current != 2 || len(h.Versions) != 2 || h.Versions[0].By.Note != "upgraded in the workflow" {
		t.Fatalf("history: %+v", h)
	}
	containsAll(t, "text", text, "live at version 2", "version 2, updated", "(changed content)", "version 1, created", "Node 18")

	back, text := ok[agentmem.Memory](t, cs, mcpserver.ToolRestore, map[string]any{"id": id, "version": 1, "note": "the upgrade was reverted"})
	if back.Version != 3 || back.Content != "CI runs on Node 18." {
		t.Fatalf("restore: %+v", back)
	}
	containsAll(t, "text", text, "Restored version 1", "now version 3")
	res = call(t, cs, mcpserver.ToolRestore, map[string]any{"id": id, "version": 9})
	if !res.IsError || !strings.Contains(textOf(res), "no version 9") {
		t.Errorf("restore of a missing version: %q", textOf(res))
	}

	// A new memory that replaces the old one.
	neu, text := ok[mcpserver.StoreOutput](t, cs, mcpserver.ToolStore, map[string]any{"scope": "project", "type": "finding", "content": "CI runs on Node 22.", "replaces": id})
	if neu.Superseded == nil || neu.Superseded.ID != id || len(neu.Memory.Supersedes) != 1 {
		t.Fatalf("replace: %+v", neu)
	}
	containsAll(t, "text", text, "It replaces memory "+id)
	if ms := memories(t, api.Store); len(ms) != 1 || ms[0].ID != neu.Memory.ID {
		t.Errorf("live memories: %+v", ms)
	}
	h, text = ok[agentmem.MemoryHistory](t, cs, mcpserver.ToolHistory, map[string]any{"id": id})
	if h.State != agentmem.StateSuperseded || h.SupersededBy != neu.Memory.ID {
		t.Errorf("history of the replaced: %+v", h)
	}
	containsAll(t, "text", text, "is superseded", "superseded by "+neu.Memory.ID)
	res = call(t, cs, mcpserver.ToolUpdate, map[string]any{"id": id, "content": "x"})
	if !res.IsError || !strings.Contains(textOf(res), "superseded") {
		t.Errorf("update of the replaced: %q", textOf(res))
	}
	res = call(t, cs, mcpserver.ToolHistory, map[string]any{"id": "not-an-id"})
	if !res.IsError {
		t.Errorf("bad id: %q, want a tool error", textOf(res))
	}
}
