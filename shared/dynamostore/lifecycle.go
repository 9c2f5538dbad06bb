package dynamostore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/guregu/dynamo/v2"
	"golang.org/x/sync/errgroup"
)

// ScopeMemories returns every memory of agent+project, newest first; only
// those of type typ when it is set. A scope holds at most its memory limit
// plus the protected memories eviction keeps, so this is one bounded
// partition read: what search and pattern suggestion rank. The read is
// strongly consistent, so that it sees every write whose counters it saw
// (GetScopeCounts' ChangedAt versions what it returns).
func (s *Store) ScopeMemories(ctx context.Context, agentName, projectID string, typ agentmem.Type) ([]agentmem.Memory, error) {
	scope := agentmem.Scope(agentName, projectID)
	q := s.memories.Get("scope", scope).Order(dynamo.Descending).Consistent(true)
	if typ != "" {
		q = q.Filter("$ = ?", "type", typ)
	}
	var items []memoryItem
	if err := q.All(ctx, &items); err != nil {
		return nil, fmt.Errorf("read memories of %s: %w", scope, err)
	}
	out := make([]agentmem.Memory, len(items))
	for i, it := range items {
		out[i] = normalized(it.Memory)
	}
	return out, nil
}

// embed gives m its vector when the store has an Embedder and m has none.
// Best effort: a failure is logged and m stays searchable lexically.
func (s *Store) embed(ctx context.Context, m *agentmem.Memory) {
	if s.Embedder == nil || len(m.Embedding) > 0 {
		return
	}
	name := s.Embedder.Name()
	vecs, err := s.Embedder.Embed(ctx, []string{search.MemoryText(*m)})
	if err == nil && len(vecs) != 1 {
		err = fmt.Errorf("embedder returned %d vectors for 1 text", len(vecs))
	}
	var b []byte
	if err == nil {
		b, err = embeddings.Encode(name, vecs[0])
	}
	if err != nil {
		s.log().WarnContext(ctx, "memory stored without a vector; it stays searchable lexically",
			"agent", m.AgentName, "project", m.ProjectID, "id", m.ID, "embedder", name, "err", err)
		return
	}
	m.Embedding = b
}

// evictionFields are what eviction reads of each memory: the key, what
// protects a memory, when it was last used, and what the counters lose
// with it (counted size, type, source); never the vector.
var evictionFields = []string{"scope", "createdAt", "id", "agentName", "projectId", "pinned", "type", "source", "confidence", "lastAccessedAt", "updatedAt", countedBytesAttr}

// enforceLimit evicts memories of written's scope when total, the scope's
// count after the write, is over the memory limit. It reads the partition
// (strongly consistent, so that deletes by concurrent evictors are seen),
// and deletes the least recently used memories (agentmem.Memory.LastUsed)
// that are neither protected (pinned, critical patterns) nor the memory
// just written, until the scope is back at its limit. Concurrent writers
// each evict from the oldest end of the same order, so together they
// remove what is over the limit and, deletes being conditional, never
// count a memory twice. A memory pinned, raised to a critical pattern or
// used after the read is kept (evictable): the scope settles at its limit
// at a later write. Failures are logged: the write itself succeeded.
func (s *Store) enforceLimit(ctx context.Context, written agentmem.Memory, total int64) {
	limit := s.ScopeLimit()
	if total <= int64(limit) {
		return
	}
	scope := agentmem.Scope(written.AgentName, written.ProjectID)
	var items []memoryItem
	err := s.memories.Get("scope", scope).Consistent(true).Project(evictionFields...).All(ctx, &items)
	if err != nil {
		s.log().WarnContext(ctx, "eviction skipped: reading the scope failed", "agent", written.AgentName, "project", written.ProjectID, "err", err)
		return
	}
	excess := len(items) - limit
	if excess <= 0 {
		return
	}
	var candidates []memoryItem
	protected := 0
	for _, it := range items {
		switch {
		case it.Protected():
			protected++
		case it.ID != written.ID:
			candidates = append(candidates, it)
		}
	}
	slices.SortFunc(candidates, func(a, b memoryItem) int {
		return cmp.Or(cmp.Compare(a.LastUsed(), b.LastUsed()), cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	victims := candidates[:min(excess, len(candidates))]
	deleted, _, err := s.deleteItems(ctx, written.AgentName, written.ProjectID, victims, evictable, nil)
	ids := make([]string, len(deleted))
	for i, m := range deleted {
		ids[i] = m.ID
	}
	log := s.log().With("agent", written.AgentName, "project", written.ProjectID, "limit", limit)
	if len(ids) > 0 {
		log.InfoContext(ctx, "evicted least recently used memories", "count", len(ids), "ids", ids, "before", len(items))
	}
	if err != nil {
		log.WarnContext(ctx, "eviction incomplete", "err", err)
	}
	if len(candidates) < excess {
		log.WarnContext(ctx, "scope stays over its memory limit: the rest are pinned or critical patterns",
			"memories", len(items)-len(ids), "protected", protected)
	}
}

// touchConcurrency bounds the parallel updates of TouchMemories.
const touchConcurrency = 10

// TouchMemories sets the lastAccessedAt of each memory (identified by
// agent, project, createdAt and id) to at, as search and pattern
// suggestion do for their hits, so that eviction keeps what is used. It
// updates up to ten memories at a time, never moves a lastAccessedAt
// back, skips memories deleted meanwhile, and returns how many it updated.
// lastAccessedAt is not counted (MemorySize leaves it out), so a touch
// changes no counter, and one that lands after its caller gave up on it
// is harmless. Pass a context with a short deadline when the caller is
// answering a request.
func (s *Store) TouchMemories(ctx context.Context, ms []agentmem.Memory, at time.Time) (int, error) {
	stamp := agentmem.FormatTime(at)
	updated := make([]bool, len(ms))
	var g errgroup.Group
	g.SetLimit(touchConcurrency)
	for i, m := range ms {
		g.Go(func() error {
			err := s.memories.Update("scope", agentmem.Scope(m.AgentName, m.ProjectID)).Range("createdAt", m.CreatedAt).
				Set("lastAccessedAt", stamp).
				If("$ = ? AND (attribute_not_exists($) OR $ < ?)", "id", m.ID, "lastAccessedAt", "lastAccessedAt", stamp).
				Run(ctx)
			switch {
			case dynamo.IsCondCheckFailed(err):
				return nil
			case err != nil:
				return fmt.Errorf("touch memory %s: %w", m.ID, err)
			}
			updated[i] = true
			return nil
		})
	}
	err := g.Wait()
	n := 0
	for _, u := range updated {
		if u {
			n++
		}
	}
	return n, err
}
