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
		out[i] = it.Memory
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
// protects a memory, and when it was last used.
var evictionFields = []string{"scope", "createdAt", "id", "agentName", "projectId", "pinned", "type", "confidence", "lastAccessedAt"}

// enforceLimit evicts memories of written's scope when total, the scope's
// count after the write, is over the memory limit. It reads the partition
// (strongly consistent, so that deletes by concurrent evictors are seen),
// and deletes the least recently used memories (agentmem.Memory.LastUsed)
// that are neither protected (pinned, critical patterns) nor the memory
// just written, until the scope is back at its limit. Concurrent writers
// each evict from the oldest end of the same order, so together they
// remove what is over the limit and, deletes being conditional, never
// count a memory twice. Failures are logged: the write itself succeeded.
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
	var candidates []agentmem.Memory
	protected := 0
	for _, it := range items {
		switch {
		case it.Protected():
			protected++
		case it.ID != written.ID:
			candidates = append(candidates, it.Memory)
		}
	}
	slices.SortFunc(candidates, func(a, b agentmem.Memory) int {
		return cmp.Or(cmp.Compare(a.LastUsed(), b.LastUsed()), cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	victims := candidates[:min(excess, len(candidates))]
	deleted, err := s.deleteMemories(ctx, victims)
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

// counterTimeout bounds the counter update that follows touched memories.
const counterTimeout = 5 * time.Second

// TouchMemories sets the lastAccessedAt of each memory (identified by
// agent, project, createdAt and id) to at, as search and pattern
// suggestion do for their hits, so that eviction keeps what is used. It
// updates up to ten memories at a time, never moves a lastAccessedAt
// back, skips memories deleted meanwhile, and returns how many it updated.
// Pass a context with a short deadline when the caller is answering a
// request.
func (s *Store) TouchMemories(ctx context.Context, ms []agentmem.Memory, at time.Time) (int, error) {
	stamp := agentmem.FormatTime(at)
	firstTouch := make([]bool, len(ms))
	updated := make([]bool, len(ms))
	var g errgroup.Group
	g.SetLimit(touchConcurrency)
	for i, m := range ms {
		g.Go(func() error {
			var old struct {
				LastAccessedAt *string `dynamo:"lastAccessedAt"`
			}
			err := s.memories.Update("scope", agentmem.Scope(m.AgentName, m.ProjectID)).Range("createdAt", m.CreatedAt).
				Set("lastAccessedAt", stamp).
				If("$ = ? AND (attribute_not_exists($) OR $ < ?)", "id", m.ID, "lastAccessedAt", "lastAccessedAt", stamp).
				OnlyUpdatedOldValue(ctx, &old)
			switch {
			case dynamo.IsCondCheckFailed(err):
				return nil
			case err != nil:
				return fmt.Errorf("touch memory %s: %w", m.ID, err)
			}
			updated[i], firstTouch[i] = true, old.LastAccessedAt == nil
			return nil
		})
	}
	err := g.Wait()
	// A first lastAccessedAt makes the item bigger: the counters follow.
	grown := map[[2]string]int64{}
	n := 0
	for i, m := range ms {
		if updated[i] {
			n++
		}
		if firstTouch[i] {
			grown[[2]string{m.AgentName, m.ProjectID}] += int64(len("lastAccessedAt") + len(stamp))
		}
	}
	// The items changed even when ctx's deadline has passed since.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), counterTimeout)
	defer cancel()
	for k, bytes := range grown {
		s.adjustCounts(cctx, k[0], k[1], countDelta{bytes: bytes})
	}
	return n, err
}
