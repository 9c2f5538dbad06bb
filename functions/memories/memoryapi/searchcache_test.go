package memoryapi

import (
	"fmt"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func entry(key, version string, n int) *scopeIndex {
	ms := make([]agentmem.Memory, n)
	for i := range ms {
		ms[i] = agentmem.Memory{ID: fmt.Sprintf("%s-%d", key, i), Content: "memory"}
	}
	return newScopeIndex(key, version, ms, nil)
}

func TestIndexCacheVersionsAndBudget(t *testing.T) {
	t.Parallel()
	c := newIndexCache(10)
	c.put(entry("a", "v1", 4))
	c.put(entry("b", "v1", 4))
	if c.get("a", "v1") == nil || c.get("b", "v1") == nil {
		t.Fatal("entries within the budget were not kept")
	}
	if c.get("a", "v2") != nil {
		t.Error("an entry at another version was served")
	}
	if c.get("a", "v1") != nil {
		t.Error("a stale entry survived its version check")
	}
	c.put(entry("a", "v2", 4))
	c.get("b", "v1") // b is now the most recently used
	c.put(entry("c", "v1", 4))
	if c.get("a", "v2") != nil || c.get("b", "v1") == nil || c.get("c", "v1") == nil {
		t.Error("over the budget, the least recently used entry should go first")
	}
	if c.held != 8 || len(c.entries) != 2 || c.lru.Len() != 2 {
		t.Errorf("bookkeeping: held %d, %d entries, lru %d", c.held, len(c.entries), c.lru.Len())
	}
	c.put(entry("huge", "v1", 11))
	if c.get("huge", "v1") != nil || c.held != 8 {
		t.Error("an entry over the whole budget was kept")
	}
}
