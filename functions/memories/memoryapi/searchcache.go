package memoryapi

import (
	"container/list"
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/search"
)

// Search cache defaults. A warm Lambda keeps the ranked form of the scopes
// it searched (memories, token statistics, decoded vectors), so that a
// search costs one consistent GetItem of the scope's counters instead of
// reading the whole partition, as long as nothing was written since.
const (
	// DefaultSearchCacheMemories bounds how many memories the cache holds
	// over all scopes: about 5 KB each with a 1,024-dimension vector, so
	// some 50 MB at most.
	DefaultSearchCacheMemories = 10_000
	// searchCacheTTL bounds how long an entry is trusted even when the
	// scope's version has not moved (counters that failed to update).
	searchCacheTTL = 5 * time.Minute
)

// scopeIndex is one scope's memories (of one type, or all) ready to rank.
type scopeIndex struct {
	key, version string
	loaded       time.Time
	memories     map[string]agentmem.Memory
	index        *search.Index
}

// newScopeIndex indexes ms, decoding the vectors of embedder emb (none
// when emb is nil). The memories are kept without their encoded vectors.
func newScopeIndex(key, version string, ms []agentmem.Memory, emb embeddings.Embedder) *scopeIndex {
	e := &scopeIndex{key: key, version: version, loaded: time.Now(), memories: make(map[string]agentmem.Memory, len(ms))}
	docs := make([]search.Doc, len(ms))
	for i, m := range ms {
		var vec []float32
		if emb != nil {
			vec = embeddings.DecodeFor(m.Embedding, emb.Name())
		}
		docs[i] = search.MemoryDoc(m, vec)
		m.Embedding = nil
		e.memories[m.ID] = m
	}
	e.index = search.NewIndex(docs)
	return e
}

// indexCache is a least-recently-used cache of scope indexes, bounded by
// the number of memories it holds. It is safe for concurrent use.
type indexCache struct {
	mu      sync.Mutex
	budget  int
	held    int
	lru     *list.List // of *scopeIndex, most recently used first
	entries map[string]*list.Element
}

func newIndexCache(budget int) *indexCache {
	return &indexCache{budget: budget, lru: list.New(), entries: map[string]*list.Element{}}
}

// get returns the entry for key if it is at version and fresh.
func (c *indexCache) get(key, version string) *scopeIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil
	}
	e := el.Value.(*scopeIndex)
	if e.version != version || time.Since(e.loaded) > searchCacheTTL {
		c.remove(el)
		return nil
	}
	c.lru.MoveToFront(el)
	return e
}

// put adds e, evicting the least recently used entries over the budget.
// An entry larger than the whole budget is not kept.
func (c *indexCache) put(e *scopeIndex) {
	n := len(e.memories)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[e.key]; ok {
		c.remove(el)
	}
	if n > c.budget {
		return
	}
	for c.held+n > c.budget && c.lru.Len() > 0 {
		c.remove(c.lru.Back())
	}
	c.entries[e.key] = c.lru.PushFront(e)
	c.held += n
}

func (c *indexCache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*scopeIndex)
	delete(c.entries, e.key)
	c.held -= len(e.memories)
}

// scopeIndex returns the ranked form of a scope's memories of type typ
// (all when ""), from the cache when the scope's Version (moved by every
// write that creates, deletes or rewrites one of its memories, in the same
// transaction) has not moved.
func (a *API) scopeIndex(ctx context.Context, agent, project string, typ agentmem.Type) (*scopeIndex, error) {
	c, err := a.Store.GetScopeCounts(ctx, agent, project)
	if err != nil {
		return nil, err
	}
	key := agentmem.Scope(agent, project) + "#" + string(typ)
	version := strconv.FormatInt(c.Version, 10)
	if a.cache != nil {
		if e := a.cache.get(key, version); e != nil {
			return e, nil
		}
	}
	ms, err := a.Store.ScopeMemories(ctx, agent, project, typ)
	if err != nil {
		return nil, err
	}
	e := newScopeIndex(key, version, ms, a.Embedder)
	if a.cache != nil {
		a.cache.put(e)
	}
	return e, nil
}
