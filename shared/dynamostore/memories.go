package dynamostore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/guregu/dynamo/v2"
	"golang.org/x/sync/errgroup"
)

// memoryItem is a memory as stored: the domain type plus its partition key
// and its counted size.
type memoryItem struct {
	Scope string `dynamo:"scope,hash"`
	agentmem.Memory
	// CountedBytes is MemorySize when the memory was written: what the
	// scope's counters hold for it, and what a delete subtracts.
	CountedBytes int64 `dynamo:"countedBytes,omitempty"`
}

// newItem returns the stored form of m, its counted size set.
func newItem(m agentmem.Memory) memoryItem {
	return memoryItem{Scope: agentmem.Scope(m.AgentName, m.ProjectID), Memory: m, CountedBytes: int64(MemorySize(m))}
}

// counted is the change to the counters that the item makes, added
// (sign 1) or removed (sign -1).
func (it memoryItem) counted(sign int64) countDelta {
	bytes := it.CountedBytes
	if bytes == 0 {
		bytes = int64(MemorySize(it.Memory)) // an item written before countedBytes existed
	}
	return deltaOf(it.Type, it.Source, bytes, sign)
}

// maxCreateAttempts bounds the retries of CreateMemory when another write
// took the same createdAt in the partition.
const maxCreateAttempts = 32

// CreateMemory stores m as a new memory. It assigns the id and a createdAt
// that is unique within the partition: the put is conditional on the key
// being free, and on a collision it moves createdAt forward by a few
// nanoseconds and tries again, so concurrent writers never overwrite each
// other. m.AgentName, m.ProjectID, m.Content and m.Source must be set.
//
// The put, the memory's first version in its history and the scope's
// counters are one transaction (scopeWrite). Every writer goes through
// here (or Create), so here the memory gets its vector (when the store has
// an Embedder and m.Embedding is empty; best effort) and the scope its
// limit: when the write takes the scope over MemoryLimit, the least
// recently used unprotected memories are evicted (see enforceLimit). It
// stores m whatever the scope holds; Create with Dedup skips repeats.
func (s *Store) CreateMemory(ctx context.Context, m agentmem.Memory) (agentmem.Memory, error) {
	c, err := s.Create(ctx, m, CreateOptions{})
	return c.Memory, err
}

// CreateMemoryOnce is CreateMemory made idempotent by once: a call with a
// key already used for the same request returns the memory that call
// stored, with replayed true, and writes nothing.
func (s *Store) CreateMemoryOnce(ctx context.Context, m agentmem.Memory, once Once) (_ agentmem.Memory, replayed bool, _ error) {
	c, err := s.Create(ctx, m, CreateOptions{Once: once})
	return c.Memory, c.Replayed, err
}

// CreateOptions are what Create does besides storing the memory.
type CreateOptions struct {
	// Once makes the create idempotent (see CreateMemoryOnce).
	Once Once
	// Dedup stores nothing when the scope already holds a repeat of the
	// memory (search.Repeat): Create returns that memory with Duplicate
	// set.
	Dedup bool
	// Supersedes are ids of live memories of the scope that the new one
	// replaces (at most MaxSupersedes): in the same transaction they
	// leave the scope (and its counters), each gets a last version
	// "superseded" by the new memory in its history, and the new memory
	// records them in Supersedes. A memory that is not live (or not of
	// the scope) fails the create: EConflict when it was superseded or
	// retired, ENotFound otherwise.
	Supersedes []string
	// By is who creates it, for the history; zero means the memory's
	// source (and runId) says.
	By agentmem.ChangeBy
}

// MaxSupersedes bounds the memories one create replaces, so that the
// transaction stays within DynamoDB's 100 items.
const MaxSupersedes = 20

// Created is what Create did.
type Created struct {
	// Memory is the memory stored or, for a duplicate, the memory of the
	// scope it repeats.
	Memory agentmem.Memory
	// Replayed is true when an idempotency key replayed an earlier
	// create (nothing written now).
	Replayed bool
	// Duplicate is true when nothing was stored because the scope holds
	// Memory, which Match says the new one repeats.
	Duplicate bool
	Match     search.Match
	// Superseded are the memories the new one replaced, as they were
	// when they left (State superseded, SupersededBy the new id).
	Superseded []agentmem.Memory
}

// Create stores m as CreateMemory does, with the options: idempotency,
// duplicate detection against the scope, supersession of memories it
// replaces.
func (s *Store) Create(ctx context.Context, m agentmem.Memory, opt CreateOptions) (Created, error) {
	if opt.Once.Key != "" && (opt.Dedup || len(opt.Supersedes) > 0) {
		// The duplicate check and the memories to replace are read before
		// the write: a retry of a create that committed would find its own
		// memory there (a duplicate, or the replaced ones already gone), so
		// a used key is looked for first, and again when they find such a
		// thing (replayInstead: the first call may have committed in
		// between). Without them the key's condition in the transaction
		// finds it, at no extra read.
		var first agentmem.Memory
		if ok, err := s.replay(ctx, opt.Once, &first); ok || err != nil {
			if err != nil {
				return Created{}, err
			}
			return s.replayed(ctx, first)
		}
	}
	if m.Type == "" {
		m.Type = agentmem.TypeNote
	}
	by := opt.By
	if by.Kind == "" {
		by = byOf(m)
	}
	if err := by.Validate(); err != nil {
		return Created{}, err
	}
	olds, err := s.liveToReplace(ctx, m.AgentName, m.ProjectID, opt.Supersedes)
	if err != nil {
		return s.replayInstead(ctx, opt.Once, Created{}, err)
	}
	var before int64 = -1
	if opt.Dedup {
		dup, match, version, found, err := s.findDuplicate(ctx, m)
		if err != nil {
			return Created{}, err
		}
		if found {
			return s.replayInstead(ctx, opt.Once, Created{Memory: dup, Duplicate: true, Match: match}, nil)
		}
		before = version
	}
	t := s.now()
	if m.CreatedAt != "" {
		// Callers such as Deep Dream may keep an original timestamp.
		parsed, err := agentmem.ParseTime(m.CreatedAt)
		if err != nil {
			return Created{}, agentmem.Errorf(agentmem.EInvalid, "createdAt %q is not RFC 3339", m.CreatedAt)
		}
		t = parsed.UTC()
	}
	m.ID = s.newID(s.now())
	m.Version, m.UpdatedAt, m.State, m.SupersededBy = 1, "", "", ""
	if len(olds) > 0 {
		m.Supersedes = make([]string, len(olds))
		for i, o := range olds {
			m.Supersedes[i] = o.ID
		}
	}
	s.embed(ctx, &m)
	scope := agentmem.Scope(m.AgentName, m.ProjectID)
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		m.CreatedAt = agentmem.FormatTime(t)
		it := newItem(m)
		w := s.newScopeWrite(m.AgentName, m.ProjectID)
		at := w.put(s.memories.Put(it).If("attribute_not_exists($)", "createdAt"), slotOf(m.ID), it.counted(1))
		if opt.Once.Key != "" {
			rec, err := s.onceRecord(opt.Once, m)
			if err != nil {
				return Created{}, err
			}
			w.alsoPut(rec) // extra 0
		}
		stamp := agentmem.FormatTime(s.now())
		w.alsoPut(s.versionPut(m.AgentName, agentmem.MemoryVersion{Version: 1, Change: agentmem.ChangeCreated, At: stamp, By: by, Memory: m}))
		var superseded []agentmem.Memory
		for _, o := range olds {
			superseded = append(superseded, s.leave(w, o, agentmem.StateSuperseded, m.ID, by, stamp))
		}
		err := w.run(ctx)
		if err == nil {
			s.afterCreate(ctx, m, before, w, superseded)
			return Created{Memory: normalized(m), Superseded: superseded}, nil
		}
		reasons := cancelReasons(err)
		switch {
		case opt.Once.Key != "" && condFailed(reasons, w.extraIndex(0)):
			// A call with the same key committed first.
			var first agentmem.Memory
			if err := s.replayAfterConflict(ctx, opt.Once, &first); err != nil {
				return Created{}, err
			}
			return s.replayed(ctx, first)
		case anyCondFailed(reasons, at+1, at+1+len(olds)):
			return Created{}, agentmem.Errorf(agentmem.EConflict, "a memory to replace changed while %s was being stored; read it again and retry", m.ID)
		case !condFailed(reasons, at):
			return Created{}, fmt.Errorf("put memory %s in %s: %w", m.ID, scope, err)
		}
		// Taken: step forward by 1..1000 ns. Randomness spreads concurrent
		// writers that all collided on the same instant.
		t = t.Add(time.Duration(1 + rand.IntN(1000)))
	}
	return Created{}, agentmem.Errorf(agentmem.EConflict, "could not find a free createdAt in %s after %d attempts", scope, maxCreateAttempts)
}

// replayInstead returns what a create found in the scope (a repeat, or a
// memory to replace that is no longer live: c, err), unless a call with
// the key once committed since Create looked for it: then that call's
// memory, replayed. A client's retry of a create whose first call was
// still at work finds the first call's own memory there.
func (s *Store) replayInstead(ctx context.Context, once Once, c Created, err error) (Created, error) {
	code := agentmem.ErrorCode(err)
	if once.Key == "" || err != nil && code != agentmem.EConflict && code != agentmem.ENotFound {
		return c, err
	}
	var first agentmem.Memory
	ok, rerr := s.replay(ctx, once, &first)
	switch {
	case rerr != nil:
		return Created{}, rerr
	case ok:
		return s.replayed(ctx, first)
	}
	return c, err
}

// replayed is the answer of a create replayed for its idempotency key:
// the memory the first call stored and, as the first call answered, the
// memories it replaced (read from their history).
func (s *Store) replayed(ctx context.Context, first agentmem.Memory) (Created, error) {
	c := Created{Memory: first, Replayed: true}
	for _, id := range first.Supersedes {
		m, err := s.GetMemory(ctx, first.AgentName, id)
		switch {
		case agentmem.ErrorCode(err) == agentmem.ENotFound:
			continue // deleted since
		case err != nil:
			return Created{}, err
		}
		m.Embedding = nil
		c.Superseded = append(c.Superseded, m)
	}
	return c, nil
}

// anyCondFailed reports whether an item in [from, to) of a cancelled
// transaction failed its condition.
func anyCondFailed(reasons []string, from, to int) bool {
	for i := from; i < to; i++ {
		if condFailed(reasons, i) {
			return true
		}
	}
	return false
}

// afterCreate enforces the scope's memory limit after a write: it reads
// the scope's counters (one Query of its slots) and evicts when it is
// over. When the counters show that only this write happened since the
// duplicate check read the scope at version before (-1: no check), the
// check's cached form of the scope takes the write in. Failures are
// logged: the write itself succeeded.
func (s *Store) afterCreate(ctx context.Context, m agentmem.Memory, before int64, w *scopeWrite, superseded []agentmem.Memory) {
	c, err := s.GetScopeCounts(ctx, m.AgentName, m.ProjectID)
	if err != nil {
		s.log().WarnContext(ctx, "eviction check skipped: reading the scope's counters failed",
			"agent", m.AgentName, "project", m.ProjectID, "err", err)
		return
	}
	if before >= 0 {
		gone := make([]string, len(superseded))
		for i, o := range superseded {
			gone[i] = o.ID
		}
		s.dedups.advance(agentmem.Scope(m.AgentName, m.ProjectID), before, c.Version, int64(len(w.deltas)), m, gone)
	}
	s.enforceLimit(ctx, m, c.Total)
}

// ListOptions select a page of memories.
type ListOptions struct {
	AgentName string
	ProjectID string
	// Limit is the page size, 1..agentmem.MaxListLimit (0 means the default).
	Limit int
	// Type keeps only memories of that type when set.
	Type agentmem.Type
	// Cursor continues after the last item of a previous page; it is
	// sealed to this agent, project and type (cursors.go).
	Cursor string
}

// listBinding is what a memory listing's cursor is sealed to.
func (o ListOptions) binding() string {
	return "memories\x00" + o.AgentName + "\x00" + o.ProjectID + "\x00" + string(o.Type)
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
		before, err := s.openCursor(ctx, opt.binding(), opt.Cursor)
		if err != nil {
			return agentmem.MemoryPage{}, err
		}
		if _, err := agentmem.ParseTime(before); err != nil {
			return agentmem.MemoryPage{}, errBadCursor
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
			next, err := s.sealCursor(ctx, opt.binding(), items[limit-1].CreatedAt)
			if err != nil {
				return agentmem.MemoryPage{}, err
			}
			page.NextCursor = next
			break
		}
		page.Memories = append(page.Memories, normalized(it.Memory))
	}
	return page, nil
}

// EachMemory calls fn for every memory of a scope, newest first, reading the
// partition page by page. fn returning an error stops the walk.
func (s *Store) EachMemory(ctx context.Context, agentName, projectID string, fn func(agentmem.Memory) error) error {
	return s.eachScopeItem(ctx, agentName, projectID, false, func(it memoryItem) error { return fn(normalized(it.Memory)) })
}

// eachScopeItem calls fn for every stored item of a scope, newest first;
// consistent asks for strongly consistent reads.
func (s *Store) eachScopeItem(ctx context.Context, agentName, projectID string, consistent bool, fn func(memoryItem) error) error {
	scope := agentmem.Scope(agentName, projectID)
	it := s.memories.Get("scope", scope).Order(dynamo.Descending).Consistent(consistent).Iter()
	var item memoryItem
	for it.Next(ctx, &item) {
		if err := fn(item); err != nil {
			return err
		}
		item = memoryItem{}
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("read memories of %s: %w", scope, err)
	}
	return nil
}

// memoryKey is what the id-index holds of a memory (KEYS_ONLY: the
// table's keys and its own).
type memoryKey struct {
	Scope     string `dynamo:"scope"`
	CreatedAt string `dynamo:"createdAt"`
	ID        string `dynamo:"id"`
}

// GetMemory returns the memory with id if it belongs to agentName. A memory
// of another agent is reported as not found, so that one agent's id never
// reaches another agent's memory. It costs two reads: the id-index, which
// holds only keys, then the item itself (strongly consistent). A memory
// that left its scope (superseded or retired) is returned as its last
// version shows it, with State (and SupersededBy) set; that costs one more
// read.
func (s *Store) GetMemory(ctx context.Context, agentName, id string) (agentmem.Memory, error) {
	it, err := s.getItem(ctx, agentName, id)
	if agentmem.ErrorCode(err) == agentmem.ENotFound {
		last, gone, gerr := s.goneVersion(ctx, agentName, id)
		switch {
		case gerr != nil:
			return agentmem.Memory{}, gerr
		case gone:
			return goneMemory(last), nil
		}
	}
	return normalized(it.Memory), err
}

// getItem is GetMemory returning the stored item.
func (s *Store) getItem(ctx context.Context, agentName, id string) (memoryItem, error) {
	missing := agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s", id, agentName)
	key, err := s.findKey(ctx, id, func(k memoryKey) bool { return strings.HasPrefix(k.Scope, agentName+"#") })
	switch {
	case notFound(err):
		return memoryItem{}, missing
	case err != nil:
		return memoryItem{}, err
	}
	var item memoryItem
	err = s.memories.Get("scope", key.Scope).Range("createdAt", dynamo.Equal, key.CreatedAt).Consistent(true).One(ctx, &item)
	switch {
	case notFound(err) || err == nil && item.ID != id:
		return memoryItem{}, missing // deleted since the index was read
	case err != nil:
		return memoryItem{}, fmt.Errorf("get memory %s: %w", id, err)
	}
	return item, nil
}

// findKey reads from the id-index where the memory with id is, among the
// places keep accepts; dynamo.ErrNotFound when there is none. Ids are
// unique, but should two items ever carry one (as a replayed restore once
// wrote), the one with the earliest createdAt is the answer, always the
// same, and the duplicate is logged: a reader never fails for it.
func (s *Store) findKey(ctx context.Context, id string, keep func(memoryKey) bool) (memoryKey, error) {
	var keys []memoryKey
	if err := s.memories.Get("id", id).Index(IDIndex).All(ctx, &keys); err != nil {
		return memoryKey{}, fmt.Errorf("find memory %s: %w", id, err)
	}
	keys = slices.DeleteFunc(keys, func(k memoryKey) bool { return !keep(k) })
	if len(keys) == 0 {
		return memoryKey{}, dynamo.ErrNotFound
	}
	if len(keys) > 1 {
		slices.SortFunc(keys, func(a, b memoryKey) int {
			return cmp.Or(strings.Compare(a.CreatedAt, b.CreatedAt), strings.Compare(a.Scope, b.Scope))
		})
		s.log().WarnContext(ctx, "several items carry one memory id; reading the earliest", "id", id, "items", len(keys),
			"scope", keys[0].Scope, "createdAt", keys[0].CreatedAt)
	}
	return keys[0], nil
}

// maxDeleteAttempts bounds DeleteMemory's attempts on a memory that
// changes between its read and its delete.
const maxDeleteAttempts = 8

// DeleteMemory deletes the memory with id if it belongs to agentName, and
// its history: delete is for what must go for good. A superseded or
// retired memory is deleted from its history the same way.
func (s *Store) DeleteMemory(ctx context.Context, agentName, id string) error {
	for range maxDeleteAttempts {
		err := s.deleteMemory(ctx, agentName, id)
		if !errors.Is(err, errMemoryMoved) {
			return err
		}
	}
	return agentmem.Errorf(agentmem.EConflict, "memory %s kept changing while it was being deleted; retry", id)
}

// errMemoryMoved is deleteMemory's answer when the memory changed between
// its read and its delete (edited, superseded, retired, restored): it is
// looked for again.
var errMemoryMoved = errors.New("the memory changed while it was being deleted")

// deleteMemory is one attempt of DeleteMemory.
func (s *Store) deleteMemory(ctx context.Context, agentName, id string) error {
	it, err := s.getItem(ctx, agentName, id)
	if agentmem.ErrorCode(err) == agentmem.ENotFound {
		last, gone, gerr := s.goneVersion(ctx, agentName, id)
		switch {
		case gerr != nil:
			return gerr
		case gone:
			return s.deleteGone(ctx, goneMemory(last))
		}
	}
	if err != nil {
		return err
	}
	deleted, _, err := s.deleteItems(ctx, it.AgentName, it.ProjectID, []memoryItem{it}, nil, nil)
	switch {
	case err != nil:
		return err
	case len(deleted) == 0:
		// Edited, superseded or retired since it was read: delete it
		// as it is now, wherever it is.
		return errMemoryMoved
	}
	return nil
}

// deleteTxItems is how many memories one delete transaction removes: with
// the counter slot and a job's progress it stays under maxTxItems.
const deleteTxItems = 50

// progressFunc returns the update recording n more memories removed from
// counter slot slot, committed with the transaction that removes them (a
// job's progress); nil records nothing.
type progressFunc func(slot int, n int) *dynamo.Update

// deleteGuard is what a caller chose an item to delete by, as a condition
// on the stored item added to its delete's own: an item changed since it
// was read is kept (set aside as missing) instead of deleted.
type deleteGuard func(it memoryItem) (cond string, args []any)

// evictable is eviction's guard: the memory is still neither pinned nor
// a critical pattern (agentmem.Memory.Protected), and nothing used it
// since it was read (agentmem.Memory.LastUsed: no search, reinforcement,
// edit or restore).
func evictable(it memoryItem) (string, []any) {
	cond, args := unpinned(it)
	cond += " AND (attribute_not_exists($) OR $ < ? OR $ <> ?)"
	args = append(args, "confidence", "confidence", agentmem.CriticalConfidence, "type", agentmem.TypePattern)
	for _, at := range []struct{ name, value string }{{"lastAccessedAt", it.LastAccessedAt}, {"updatedAt", it.UpdatedAt}} {
		if at.value == "" {
			cond, args = cond+" AND attribute_not_exists($)", append(args, at.name)
		} else {
			cond, args = cond+" AND $ = ?", append(args, at.name, at.value)
		}
	}
	return cond, args
}

// unpinned is a forget's guard (pinned memories stay unless asked): the
// memory is still not pinned.
func unpinned(memoryItem) (string, []any) {
	return "(attribute_not_exists($) OR $ = ?)", []any{"pinned", "pinned", false}
}

// deleteItems deletes items of the scope agent+project, each only if its
// createdAt still holds it (same id, same counted size) and guard, when
// set, still holds for it, in transactions of
// up to deleteTxItems memories of one counter slot with that slot's
// counters (and progress, when given). Slots are worked on in parallel,
// transactions of one slot in turn, so that they never contend with each
// other. It returns the items it deleted and those no longer where they
// were (deleted meanwhile, or moved: DeleteMemories looks for them).
func (s *Store) deleteItems(ctx context.Context, agentName, projectID string, items []memoryItem, guard deleteGuard, progress progressFunc) (deleted, missing []memoryItem, err error) {
	bySlot := map[int][]memoryItem{}
	for _, it := range items {
		bySlot[slotOf(it.ID)] = append(bySlot[slotOf(it.ID)], it)
	}
	type result struct{ deleted, missing []memoryItem }
	results := make([]result, CounterSlots)
	g, gctx := errgroup.WithContext(ctx)
	for slot, list := range bySlot {
		g.Go(func() error {
			for len(list) > 0 {
				chunk := list[:min(deleteTxItems, len(list))]
				list = list[len(chunk):]
				d, m, err := s.deleteChunk(gctx, agentName, projectID, slot, chunk, guard, progress)
				results[slot].deleted = append(results[slot].deleted, d...)
				results[slot].missing = append(results[slot].missing, m...)
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	err = g.Wait()
	for _, r := range results {
		deleted = append(deleted, r.deleted...)
		missing = append(missing, r.missing...)
	}
	ids := make([]string, len(deleted))
	for i, it := range deleted {
		ids[i] = it.ID
	}
	s.purgeHistory(ctx, agentName, ids)
	return deleted, missing, err
}

// deleteChunk deletes items of one counter slot in one transaction. Items
// whose condition fails are set aside as missing and the rest tried again.
func (s *Store) deleteChunk(ctx context.Context, agentName, projectID string, slot int, items []memoryItem, guard deleteGuard, progress progressFunc) (deleted, missing []memoryItem, err error) {
	scope := agentmem.Scope(agentName, projectID)
	for len(items) > 0 {
		w := s.newScopeWrite(agentName, projectID)
		for _, it := range items {
			// The counters lose what the item counted as read: its size
			// and its type (an edit may change the type and keep the
			// size).
			cond, args := "$ = ? AND $ = ?", []any{"id", it.ID, "type", it.Type}
			if it.Type == "" { // an item stored without one
				cond, args = "$ = ? AND attribute_not_exists($)", []any{"id", it.ID, "type"}
			}
			if it.CountedBytes > 0 {
				cond += " AND (attribute_not_exists($) OR $ = ?)"
				args = append(args, countedBytesAttr, countedBytesAttr, it.CountedBytes)
			}
			if guard != nil {
				gc, ga := guard(it)
				cond, args = cond+" AND "+gc, append(args, ga...)
			}
			del := s.memories.Delete("scope", scope).Range("createdAt", it.CreatedAt).If(cond, args...)
			w.delete(del, slot, it.counted(-1))
		}
		if progress != nil {
			if u := progress(slot, len(items)); u != nil {
				w.alsoUpdate(u)
			}
		}
		err := w.run(ctx)
		if err == nil {
			return append(deleted, items...), missing, nil
		}
		reasons := cancelReasons(err)
		var keep []memoryItem
		for i, it := range items {
			if condFailed(reasons, i) {
				missing = append(missing, it)
			} else {
				keep = append(keep, it)
			}
		}
		if len(keep) == len(items) {
			return deleted, missing, fmt.Errorf("delete %d memories of %s: %w", len(items), scope, err)
		}
		items = keep
	}
	return deleted, missing, nil
}

// DeleteMemories deletes the given memories (as read: agent, project, id
// and createdAt identify each, and the rest must be what is stored, as
// DreamPlan and CreateMemory give them) and returns how many it deleted.
// A memory already gone is skipped, not an error; one that moved from its
// createdAt (a restore steps forward when its slot is taken) or that the
// caller holds only in part is found again through the id-index. The
// counters lose exactly the items deleted, in the same transactions.
func (s *Store) DeleteMemories(ctx context.Context, ms []agentmem.Memory) (int, error) {
	type scopeKey struct{ agent, project string }
	byScope := map[scopeKey][]memoryItem{}
	for _, m := range ms {
		k := scopeKey{m.AgentName, m.ProjectID}
		byScope[k] = append(byScope[k], newItem(m))
	}
	n := 0
	for k, items := range byScope {
		deleted, missing, err := s.deleteItems(ctx, k.agent, k.project, items, nil, nil)
		n += len(deleted)
		if err != nil {
			return n, err
		}
		var found []memoryItem
		for _, it := range missing {
			cur, ok, err := s.relocate(ctx, it)
			if err != nil {
				return n, err
			}
			if ok {
				found = append(found, cur)
			}
		}
		if len(found) > 0 {
			deleted, _, err := s.deleteItems(ctx, k.agent, k.project, found, nil, nil)
			n += len(deleted)
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// relocate finds the stored item of a memory that is not where the caller
// thought (or not as the caller holds it): through the id-index, then the
// item itself, strongly consistent. ok is false when it is gone.
func (s *Store) relocate(ctx context.Context, it memoryItem) (memoryItem, bool, error) {
	key, err := s.findKey(ctx, it.ID, func(k memoryKey) bool { return k.Scope == it.Scope })
	switch {
	case notFound(err):
		return memoryItem{}, false, nil
	case err != nil:
		return memoryItem{}, false, err
	}
	var cur memoryItem
	err = s.memories.Get("scope", key.Scope).Range("createdAt", dynamo.Equal, key.CreatedAt).Consistent(true).One(ctx, &cur)
	switch {
	case notFound(err) || err == nil && cur.ID != it.ID:
		return memoryItem{}, false, nil
	case err != nil:
		return memoryItem{}, false, fmt.Errorf("read memory %s: %w", it.ID, err)
	}
	return cur, true, nil
}

// deletePage is how many memories DeleteMatching reads before deleting.
const deletePage = 500

// DeleteScope deletes every memory of agent+project, however many, with
// their history and the scope's superseded and retired memories, and
// returns how many live memories it deleted. The API's delete-all runs as
// a job (StartJob, RunJob), which can stop at a deadline and go on later.
func (s *Store) DeleteScope(ctx context.Context, agentName, projectID string) (int, error) {
	n, err := s.DeleteMatching(ctx, agentName, projectID, func(agentmem.Memory) bool { return true })
	if err != nil {
		return n, err
	}
	_, err = s.purgeGone(ctx, agentName, projectID)
	return n, err
}

// DeleteMatching deletes the memories of agent+project that match accepts,
// reading the partition page by page, and returns how many it deleted.
func (s *Store) DeleteMatching(ctx context.Context, agentName, projectID string, match func(agentmem.Memory) bool) (int, error) {
	var batch []memoryItem
	deleted := 0
	flush := func() error {
		d, _, err := s.deleteItems(ctx, agentName, projectID, batch, nil, nil)
		deleted += len(d)
		batch = batch[:0]
		return err
	}
	err := s.eachScopeItem(ctx, agentName, projectID, false, func(it memoryItem) error {
		if match(it.Memory) {
			batch = append(batch, it)
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
