package dynamostore

import (
	"container/list"
	"context"
	"fmt"
	"sync"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/guregu/dynamo/v2"
)

// Duplicate checks (Create with Dedup, FindDuplicate) compare a memory
// with every live memory of its scope (search.Dedup). Reading the scope
// for each create would cost a partition read per write, so a process
// keeps each scope it checked, prepared, keyed by the scope's Version
// (the sum of its counter slots' seq, which every write that creates,
// deletes or rewrites a memory moves in its transaction): a check reads
// the counters (one small Query) and reads the scope again only when
// someone else wrote. After its own create, when the counters show that
// only that write happened since the check, the cached form takes the new
// memory in (and drops the memories it superseded) instead of being read
// again.

// DedupCacheMemories bounds how many memories the duplicate checks of a
// process keep prepared, over all scopes: about 3 KB each with their
// prints, so some 15 MB, five full scopes at the default memory limit.
const DedupCacheMemories = 5_000

// dedupFields are what a duplicate check reads of each memory: all but
// the vector.
var dedupFields = []string{"scope", "createdAt", "id", "agentName", "projectId", "content", "type", "source",
	"rationale", "status", "trigger", "context", "solution", "confidence", "tags", "pinned", "runId",
	"lastAccessedAt", "sourceIds", "version", "updatedAt", "supersedes"}

// dedupScope is one scope's memories prepared for duplicate checks, at a
// version of the scope.
type dedupScope struct {
	key string
	// held is what the cache counts for it (its size when put; the
	// cache's mutex guards it).
	held int
	// mu guards version and d, which advance changes in place.
	mu      sync.Mutex
	version int64
	d       *search.Dedup
}

// dedupCache is a least-recently-used set of prepared scopes, bounded by
// the memories they hold. Safe for concurrent use.
type dedupCache struct {
	mu      sync.Mutex
	held    int
	lru     *list.List // of *dedupScope, most recent first
	entries map[string]*list.Element
}

func (c *dedupCache) init() {
	if c.entries == nil {
		c.lru, c.entries = list.New(), map[string]*list.Element{}
	}
}

// get returns the prepared scope key at version, or nil.
func (c *dedupCache) get(key string, version int64) *dedupScope {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	el, ok := c.entries[key]
	if !ok {
		return nil
	}
	e := el.Value.(*dedupScope)
	e.mu.Lock()
	same := e.version == version
	e.mu.Unlock()
	if !same {
		return nil
	}
	c.lru.MoveToFront(el)
	return e
}

// put keeps e, dropping the least recently used scopes over the budget.
func (c *dedupCache) put(e *dedupScope) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
	if el, ok := c.entries[e.key]; ok {
		c.remove(el)
	}
	e.mu.Lock()
	n := e.d.Len()
	e.mu.Unlock()
	if n > DedupCacheMemories {
		return
	}
	for c.held+n > DedupCacheMemories && c.lru.Len() > 0 {
		c.remove(c.lru.Back())
	}
	e.held = n
	c.entries[e.key] = c.lru.PushFront(e)
	c.held += n
}

// remove drops a scope; c.mu is held. It subtracts what put counted, not
// the scope's size now: advance may be changing that concurrently.
func (c *dedupCache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*dedupScope)
	delete(c.entries, e.key)
	c.held -= e.held
}

// advance takes a create into the prepared scope key when it is at
// version before and the scope is now at after = before + touched (the
// create's counter slots: nothing else was written): m is added, the
// memories gone are dropped. Otherwise the next check reads the scope.
func (c *dedupCache) advance(key string, before, after, touched int64, m agentmem.Memory, gone []string) {
	c.mu.Lock()
	c.init()
	el, ok := c.entries[key]
	c.mu.Unlock()
	if !ok {
		return
	}
	e := el.Value.(*dedupScope)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.version != before || after != before+touched {
		return
	}
	m.Embedding = nil
	e.d.Add(m)
	for _, id := range gone {
		e.d.Remove(id)
	}
	e.version = after
}

// FindDuplicate returns the live memory of m's scope that m repeats
// (search.Repeat), if any.
func (s *Store) FindDuplicate(ctx context.Context, m agentmem.Memory) (agentmem.Memory, search.Match, bool, error) {
	dup, match, _, found, err := s.findDuplicate(ctx, m)
	return dup, match, found, err
}

// findDuplicate is FindDuplicate, also returning the scope's version the
// check saw.
func (s *Store) findDuplicate(ctx context.Context, m agentmem.Memory) (agentmem.Memory, search.Match, int64, bool, error) {
	c, err := s.GetScopeCounts(ctx, m.AgentName, m.ProjectID)
	if err != nil {
		return agentmem.Memory{}, search.Match{}, 0, false, err
	}
	key := agentmem.Scope(m.AgentName, m.ProjectID)
	e := s.dedups.get(key, c.Version)
	if e == nil {
		ms, err := s.LiveMemories(ctx, m.AgentName, m.ProjectID)
		if err != nil {
			return agentmem.Memory{}, search.Match{}, 0, false, err
		}
		e = &dedupScope{key: key, version: c.Version, d: search.NewDedup(ms)}
		s.dedups.put(e)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	dup, match, found := e.d.Find(m)
	return dup, match, c.Version, found, nil
}

// LiveMemories returns every live memory of a scope, newest first,
// without its vector: one strongly consistent Query, projected (what a
// duplicate check compares, and what the extraction prompt shows).
func (s *Store) LiveMemories(ctx context.Context, agentName, projectID string) ([]agentmem.Memory, error) {
	scope := agentmem.Scope(agentName, projectID)
	var items []memoryItem
	if err := s.memories.Get("scope", scope).Order(dynamo.Descending).Consistent(true).Project(dedupFields...).All(ctx, &items); err != nil {
		return nil, fmt.Errorf("read memories of %s for the duplicate check: %w", scope, err)
	}
	out := make([]agentmem.Memory, len(items))
	for i, it := range items {
		out[i] = normalized(it.Memory)
	}
	return out, nil
}
