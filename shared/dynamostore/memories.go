package dynamostore

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
	"golang.org/x/sync/errgroup"
)

// maxCreateAttempts bounds the retries of CreateMemory when another write
// took the same createdAt in the partition.
const maxCreateAttempts = 32

// CreateMemory stores m as a new memory. It assigns the id and a createdAt
// that is unique within the partition: the put is conditional on the key
// being free, and on a collision it moves createdAt forward by a few
// nanoseconds and tries again, so concurrent writers never overwrite each
// other. m.AgentName, m.ProjectID, m.Content and m.Source must be set.
//
// Every writer goes through here, so here the memory gets its vector (when
// the store has an Embedder and m.Embedding is empty; best effort) and the
// scope its limit: when the write takes the scope over MemoryLimit, the
// least recently used unprotected memories are evicted (see enforceLimit).
func (s *Store) CreateMemory(ctx context.Context, m agentmem.Memory) (agentmem.Memory, error) {
	if m.Type == "" {
		m.Type = agentmem.TypeNote
	}
	t := s.now()
	if m.CreatedAt != "" {
		// Callers such as Deep Dream may keep an original timestamp.
		parsed, err := agentmem.ParseTime(m.CreatedAt)
		if err != nil {
			return agentmem.Memory{}, agentmem.Errorf(agentmem.EInvalid, "createdAt %q is not RFC 3339", m.CreatedAt)
		}
		t = parsed.UTC()
	}
	m.ID = s.newID(s.now())
	s.embed(ctx, &m)
	scope := agentmem.Scope(m.AgentName, m.ProjectID)
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		m.CreatedAt = agentmem.FormatTime(t)
		err := s.memories.Put(memoryItem{Scope: scope, Memory: m}).
			If("attribute_not_exists($)", "createdAt").
			Run(ctx)
		if err == nil {
			total := s.adjustCounts(ctx, m.AgentName, m.ProjectID, deltaOf(m, 1))
			s.enforceLimit(ctx, m, total)
			return m, nil
		}
		if !dynamo.IsCondCheckFailed(err) {
			return agentmem.Memory{}, fmt.Errorf("put memory %s in %s: %w", m.ID, scope, err)
		}
		// Taken: step forward by 1..1000 ns. Randomness spreads concurrent
		// writers that all collided on the same instant.
		t = t.Add(time.Duration(1 + rand.IntN(1000)))
	}
	return agentmem.Memory{}, agentmem.Errorf(agentmem.EConflict, "could not find a free createdAt in %s after %d attempts", scope, maxCreateAttempts)
}

// ListOptions select a page of memories.
type ListOptions struct {
	AgentName string
	ProjectID string
	// Limit is the page size, 1..agentmem.MaxListLimit (0 means the default).
	Limit int
	// Type keeps only memories of that type when set.
	Type agentmem.Type
	// Cursor continues after the last item of a previous page.
	Cursor string
}

// ListMemories returns the newest memories of a scope, newest first.
func (s *Store) ListMemories(ctx context.Context, opt ListOptions) (agentmem.MemoryPage, error) {
	limit := opt.Limit
	if limit <= 0 || limit > agentmem.MaxListLimit {
		limit = agentmem.DefaultListLimit
	}
	scope := agentmem.Scope(opt.AgentName, opt.ProjectID)
	q := s.memories.Get("scope", scope).Order(dynamo.Descending)
	if opt.Cursor != "" {
		before, err := DecodeCursor(opt.Cursor)
		if err != nil {
			return agentmem.MemoryPage{}, err
		}
		q = q.Range("createdAt", dynamo.Less, before)
	}
	if opt.Type != "" {
		q = q.Filter("$ = ?", "type", opt.Type)
	}
	var items []memoryItem
	// One more than asked tells whether another page exists.
	if err := q.Limit(limit+1).All(ctx, &items); err != nil {
		return agentmem.MemoryPage{}, fmt.Errorf("list memories of %s: %w", scope, err)
	}
	page := agentmem.MemoryPage{Memories: make([]agentmem.Memory, 0, min(len(items), limit))}
	for i, it := range items {
		if i == limit {
			page.NextCursor = EncodeCursor(items[limit-1].CreatedAt)
			break
		}
		page.Memories = append(page.Memories, it.Memory)
	}
	return page, nil
}

// EachMemory calls fn for every memory of a scope, newest first, reading the
// partition page by page. fn returning an error stops the walk.
func (s *Store) EachMemory(ctx context.Context, agentName, projectID string, fn func(agentmem.Memory) error) error {
	scope := agentmem.Scope(agentName, projectID)
	it := s.memories.Get("scope", scope).Order(dynamo.Descending).Iter()
	var item memoryItem
	for it.Next(ctx, &item) {
		if err := fn(item.Memory); err != nil {
			return err
		}
		item = memoryItem{}
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("read memories of %s: %w", scope, err)
	}
	return nil
}

// GetMemory returns the memory with id if it belongs to agentName. A memory
// of another agent is reported as not found, so that one agent's id never
// reaches another agent's memory.
func (s *Store) GetMemory(ctx context.Context, agentName, id string) (agentmem.Memory, error) {
	item, err := s.memoryByID(ctx, id, func(it memoryItem) bool { return it.AgentName == agentName })
	switch {
	case notFound(err):
		return agentmem.Memory{}, agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s", id, agentName)
	case err != nil:
		return agentmem.Memory{}, fmt.Errorf("get memory %s: %w", id, err)
	}
	return item.Memory, nil
}

// memoryByID finds the memory with id (through the id index) among those
// keep accepts. Ids are unique, but should two items ever carry one (as a
// replayed restore once wrote), the one with the earliest createdAt is the
// answer, always the same, and the duplicate is logged: a reader never
// fails for it.
func (s *Store) memoryByID(ctx context.Context, id string, keep func(memoryItem) bool) (memoryItem, error) {
	var items []memoryItem
	if err := s.memories.Get("id", id).Index(IDIndex).All(ctx, &items); err != nil {
		return memoryItem{}, err
	}
	items = slices.DeleteFunc(items, func(it memoryItem) bool { return !keep(it) })
	if len(items) == 0 {
		return memoryItem{}, dynamo.ErrNotFound
	}
	if len(items) > 1 {
		slices.SortFunc(items, func(a, b memoryItem) int {
			if c := strings.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
				return c
			}
			return strings.Compare(a.Scope, b.Scope)
		})
		s.log().WarnContext(ctx, "several items carry one memory id; reading the earliest", "id", id, "items", len(items),
			"scope", items[0].Scope, "createdAt", items[0].CreatedAt)
	}
	return items[0], nil
}

// DeleteMemory deletes the memory with id if it belongs to agentName.
func (s *Store) DeleteMemory(ctx context.Context, agentName, id string) error {
	m, err := s.GetMemory(ctx, agentName, id)
	if err != nil {
		return err
	}
	old, deleted, err := s.deleteOne(ctx, m)
	switch {
	case err != nil:
		return err
	case !deleted:
		return agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s", id, agentName)
	}
	s.adjustCounts(ctx, old.AgentName, old.ProjectID, deltaOf(old, -1))
	return nil
}

// deleteOne deletes the memory m names (its id, in its scope) and returns
// it as it was stored. m's createdAt is where it is looked for first; a
// memory restored or re-created may have moved a little later (a write
// that finds its createdAt taken steps forward), so when that slot holds
// another memory or none, the id index says where m is now. The item
// deleted is what the counters lose, so m itself need only carry the key
// and id.
func (s *Store) deleteOne(ctx context.Context, m agentmem.Memory) (agentmem.Memory, bool, error) {
	scope := agentmem.Scope(m.AgentName, m.ProjectID)
	old, deleted, err := s.deleteAt(ctx, scope, m.CreatedAt, m.ID)
	if deleted || err != nil {
		return old, deleted, err
	}
	item, err := s.memoryByID(ctx, m.ID, func(it memoryItem) bool { return it.Scope == scope && it.CreatedAt != m.CreatedAt })
	switch {
	case notFound(err):
		return agentmem.Memory{}, false, nil
	case err != nil:
		return agentmem.Memory{}, false, fmt.Errorf("find memory %s: %w", m.ID, err)
	}
	return s.deleteAt(ctx, scope, item.CreatedAt, m.ID)
}

// deleteAt deletes the memory at scope and createdAt if it is the one
// with id, and returns it as it was.
func (s *Store) deleteAt(ctx context.Context, scope, createdAt, id string) (agentmem.Memory, bool, error) {
	var old memoryItem
	err := s.memories.Delete("scope", scope).
		Range("createdAt", createdAt).
		If("$ = ?", "id", id).
		OldValue(ctx, &old)
	switch {
	case dynamo.IsCondCheckFailed(err), notFound(err):
		return agentmem.Memory{}, false, nil
	case err != nil:
		return agentmem.Memory{}, false, fmt.Errorf("delete memory %s: %w", id, err)
	}
	return old.Memory, true, nil
}

// deleteConcurrency bounds the parallel deletes of DeleteMemories.
const deleteConcurrency = 16

// DeleteMemories deletes the given memories (identified by agent, project
// and id, looked for at their createdAt first; other fields are ignored)
// and returns how many it deleted. A memory already gone is skipped, not
// an error. Deletes run in parallel, each conditional on
// the id, and the counters lose exactly the items deleted.
func (s *Store) DeleteMemories(ctx context.Context, ms []agentmem.Memory) (int, error) {
	deleted, err := s.deleteMemories(ctx, ms)
	return len(deleted), err
}

// deleteMemories is DeleteMemories returning the items it deleted.
func (s *Store) deleteMemories(ctx context.Context, ms []agentmem.Memory) ([]agentmem.Memory, error) {
	type result struct {
		m       agentmem.Memory
		deleted bool
	}
	results := make([]result, len(ms))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(deleteConcurrency)
	for i, m := range ms {
		g.Go(func() error {
			old, deleted, err := s.deleteOne(gctx, m)
			results[i] = result{old, deleted}
			return err
		})
	}
	err := g.Wait()
	deltas := map[[2]string]*countDelta{}
	var deleted []agentmem.Memory
	for _, r := range results {
		if !r.deleted {
			continue
		}
		deleted = append(deleted, r.m)
		k := [2]string{r.m.AgentName, r.m.ProjectID}
		if deltas[k] == nil {
			deltas[k] = &countDelta{}
		}
		deltas[k].add(deltaOf(r.m, -1))
	}
	for k, d := range deltas {
		s.adjustCounts(ctx, k[0], k[1], *d)
	}
	return deleted, err
}

// DeleteScope deletes every memory of agent+project, however many, and
// returns how many it deleted.
func (s *Store) DeleteScope(ctx context.Context, agentName, projectID string) (int, error) {
	return s.DeleteMatching(ctx, agentName, projectID, func(agentmem.Memory) bool { return true })
}

// deletePage is how many memories DeleteMatching collects before deleting.
const deletePage = 100

// DeleteMatching deletes the memories of agent+project that match accepts,
// reading the partition page by page, and returns how many it deleted.
func (s *Store) DeleteMatching(ctx context.Context, agentName, projectID string, match func(agentmem.Memory) bool) (int, error) {
	var batch []agentmem.Memory
	deleted := 0
	flush := func() error {
		n, err := s.DeleteMemories(ctx, batch)
		deleted += n
		batch = batch[:0]
		return err
	}
	err := s.EachMemory(ctx, agentName, projectID, func(m agentmem.Memory) error {
		if match(m) {
			batch = append(batch, m)
		}
		if len(batch) == deletePage {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err != nil {
		return deleted, fmt.Errorf("delete in %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	return deleted, nil
}

// EncodeCursor makes an opaque page cursor from a createdAt value.
func EncodeCursor(createdAt string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(createdAt))
}

// DecodeCursor reverses EncodeCursor; a malformed cursor is EInvalid.
func DecodeCursor(cursor string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return "", agentmem.Errorf(agentmem.EInvalid, "cursor is malformed")
	}
	if _, err := agentmem.ParseTime(string(b)); err != nil {
		return "", agentmem.Errorf(agentmem.EInvalid, "cursor is malformed")
	}
	return string(b), nil
}
