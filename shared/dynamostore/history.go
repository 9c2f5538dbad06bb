package dynamostore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
	"golang.org/x/sync/errgroup"
)

// History (agentmem.MemoryVersion) lives in the journal table, never in
// the memories partition, so that reading a scope's memories costs the
// same however often they were edited:
//
//   - "hist#<agent>#<memory id>" / "v#<version, 10 digits>": one item per
//     version of a memory, the memory as of that version and what made
//     it (change, by, changed fields). Keyed by the memory's id (and its
//     agent, so that one agent's ids never reach another's history); a
//     memory's history is one Query.
//   - "gone#<agent>#<project>" / "<memory id>": one item per memory that
//     left the scope by supersession or retirement, with its last
//     version, so that a scope's superseded memories are listed with one
//     Query (ListMemories with a state) and deleted with the scope.
//
// Every version is written in the transaction of the write that makes it
// (scopeWrite.alsoPut), so history and memories cannot disagree, and each
// version's put is conditional on the version being new, which also
// serialises two restores of a memory that is not live. A delete of a
// live memory (by id, forget, eviction, a scope delete, a dream's plan)
// deletes its history after the memory (purgeHistory, best effort; a
// history whose memory is neither live nor superseded or retired is never
// answered, so a failed purge leaves nothing visible); a scope delete also
// deletes the scope's superseded and retired memories with their history.
const (
	historyPrefix = "hist#"
	versionPrefix = "v#"
	gonePrefix    = "gone#"
)

func historyPK(agentName, id string) string { return historyPrefix + agentName + "#" + id }

func versionSK(v int) string { return versionPrefix + fmt.Sprintf("%010d", v) }

func gonePK(agentName, projectID string) string {
	return gonePrefix + agentmem.Scope(agentName, projectID)
}

// versionItem is one version of a memory, as stored.
type versionItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	agentmem.MemoryVersion
}

// goneItem is a memory that left its scope (superseded or retired), with
// its last version.
type goneItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	agentmem.Memory
	GoneState        string `dynamo:"state"`
	GoneSupersededBy string `dynamo:"supersededBy,omitempty"`
	GoneAt           string `dynamo:"goneAt"`
}

// memory returns the gone memory with its state.
func (g goneItem) memory() agentmem.Memory {
	m := g.Memory
	m.State, m.SupersededBy = g.GoneState, g.GoneSupersededBy
	return m
}

// versionOf is a stored memory's version: 1 for a memory written before
// versions existed.
func versionOf(m agentmem.Memory) int { return max(m.Version, 1) }

// normalized is m as callers get it: its version set (1 when it was
// written before versions existed).
func normalized(m agentmem.Memory) agentmem.Memory {
	m.Version = versionOf(m)
	return m
}

// snapshot is m as a version keeps it: no vector, no volatile state.
func snapshot(m agentmem.Memory) agentmem.Memory {
	m.Embedding = nil
	m.State, m.SupersededBy = "", ""
	m.Version = versionOf(m)
	return m
}

// byOf is who wrote a memory created without a ChangeBy: its source.
func byOf(m agentmem.Memory) agentmem.ChangeBy {
	switch m.Source {
	case agentmem.SourceExtraction:
		return agentmem.ChangeBy{Kind: agentmem.ByExtraction, RunID: m.RunID}
	case agentmem.SourceSystem:
		return agentmem.ChangeBy{Kind: agentmem.BySystem}
	}
	return agentmem.ChangeBy{Kind: agentmem.ByManual, RunID: m.RunID}
}

// versionPut is the put of version v of the memory of agentName, on
// condition that the version is not stored yet.
func (s *Store) versionPut(agentName string, v agentmem.MemoryVersion) *dynamo.Put {
	v.Memory = snapshot(v.Memory)
	return s.journal.Put(versionItem{PK: historyPK(agentName, v.Memory.ID), SK: versionSK(v.Version), MemoryVersion: v}).
		If("attribute_not_exists($)", "pk")
}

// gonePut records m, leaving its scope in state (superseded by by, when
// set), at stamp.
func (s *Store) gonePut(m agentmem.Memory, state, supersededBy, stamp string) *dynamo.Put {
	return s.journal.Put(goneItem{PK: gonePK(m.AgentName, m.ProjectID), SK: m.ID, Memory: snapshot(m),
		GoneState: state, GoneSupersededBy: supersededBy, GoneAt: stamp})
}

// lastVersion returns the newest stored version of a memory of agentName;
// ok is false when it has no history.
func (s *Store) lastVersion(ctx context.Context, agentName, id string) (versionItem, bool, error) {
	var items []versionItem
	err := s.journal.Get("pk", historyPK(agentName, id)).Range("sk", dynamo.BeginsWith, versionPrefix).
		Order(dynamo.Descending).Consistent(true).Limit(1).All(ctx, &items)
	if err != nil {
		return versionItem{}, false, fmt.Errorf("read history of memory %s: %w", id, err)
	}
	if len(items) == 0 {
		return versionItem{}, false, nil
	}
	return items[0], true, nil
}

// goneVersion returns the last version of a memory of agentName that left
// its scope (superseded or retired); ok is false when it did not (it is
// live, was deleted, or never existed). Its gone record is what says it
// is there: a delete removes that first (deleteGone, purgeGone), and the
// history after it only at best, so a history left behind by a failed or
// interrupted delete never brings a memory deleted for good back.
func (s *Store) goneVersion(ctx context.Context, agentName, id string) (versionItem, bool, error) {
	last, ok, err := s.lastVersion(ctx, agentName, id)
	if err != nil || !ok {
		return last, false, err
	}
	switch last.Change {
	case agentmem.ChangeSuperseded, agentmem.ChangeRetired:
	default:
		return last, false, nil
	}
	var rec goneItem
	err = s.journal.Get("pk", gonePK(agentName, last.Memory.ProjectID)).Range("sk", dynamo.Equal, id).Consistent(true).One(ctx, &rec)
	switch {
	case notFound(err):
		return last, false, nil
	case err != nil:
		return last, false, fmt.Errorf("read superseded memory %s: %w", id, err)
	}
	return last, true, nil
}

// goneExists is the condition that a memory's gone record is still there:
// deletes and restores of a memory that left its scope take it away, so
// that of two at once one finds it gone.
const goneExists = "attribute_exists(pk)"

// goneMemory is a memory that left its scope as its last version shows
// it.
func goneMemory(v versionItem) agentmem.Memory {
	m := v.Memory
	m.Version = v.Version
	m.State, m.SupersededBy = agentmem.StateRetired, ""
	if v.Change == agentmem.ChangeSuperseded {
		m.State, m.SupersededBy = agentmem.StateSuperseded, v.SupersededBy
	}
	return m
}

// notLive is the error for a write to a memory that left its scope.
func notLive(m agentmem.Memory) error {
	if m.State == agentmem.StateSuperseded {
		return agentmem.Errorf(agentmem.EConflict, "memory %s was superseded by %s (version %d): restore it first (POST .../memories/%s/history/{version}/restore) or change %s",
			m.ID, m.SupersededBy, m.Version, m.ID, m.SupersededBy)
	}
	return agentmem.Errorf(agentmem.EConflict, "memory %s was retired (version %d): restore it first (POST .../memories/%s/history/{version}/restore)", m.ID, m.Version, m.ID)
}

// MemoryHistory returns the versions of the memory id of agentName,
// newest first, limit at a time (1..agentmem.MaxHistoryLimit, 0 for agentmem.DefaultHistoryLimit), after
// cursor. A memory that is neither live nor superseded or retired (it was
// deleted, or never existed) is ENotFound. A memory written before
// versions existed and never changed since has its one version made up
// from the memory itself.
func (s *Store) MemoryHistory(ctx context.Context, agentName, id string, limit int, cursor string) (agentmem.MemoryHistory, error) {
	if limit <= 0 || limit > agentmem.MaxHistoryLimit {
		limit = agentmem.DefaultHistoryLimit
	}
	binding := "history\x00" + agentName + "\x00" + id
	// A history partition holds versions only.
	q := s.journal.Get("pk", historyPK(agentName, id)).Order(dynamo.Descending).Consistent(true)
	if cursor != "" {
		before, err := s.openCursor(ctx, binding, cursor)
		if err != nil {
			return agentmem.MemoryHistory{}, err
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(before, versionPrefix)); err != nil || n < 1 || !strings.HasPrefix(before, versionPrefix) {
			return agentmem.MemoryHistory{}, errBadCursor
		}
		q = q.Range("sk", dynamo.Less, before)
	}
	var items []versionItem
	if err := q.Limit(limit+1).All(ctx, &items); err != nil {
		return agentmem.MemoryHistory{}, fmt.Errorf("read history of memory %s: %w", id, err)
	}
	missing := agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s", id, agentName)
	h := agentmem.MemoryHistory{ID: id, AgentName: agentName, Versions: []agentmem.MemoryVersion{}}
	live, err := s.getItem(ctx, agentName, id)
	switch {
	case err == nil:
		h.ProjectID, h.State, h.Current = live.ProjectID, agentmem.StateLive, versionOf(live.Memory)
	case agentmem.ErrorCode(err) != agentmem.ENotFound:
		return h, err
	default:
		last, gone, err := s.goneVersion(ctx, agentName, id)
		if err != nil {
			return h, err
		}
		if !gone {
			return h, missing
		}
		m := goneMemory(last)
		h.ProjectID, h.State, h.SupersededBy, h.Current = m.ProjectID, m.State, m.SupersededBy, last.Version
	}
	if len(items) == 0 && cursor == "" && h.State == agentmem.StateLive {
		// Written before versions existed, and never changed.
		m := normalized(live.Memory)
		m.Embedding = nil
		h.Versions = append(h.Versions, agentmem.MemoryVersion{Version: m.Version, Change: agentmem.ChangeCreated, At: m.CreatedAt, By: byOf(m), Memory: m})
		return h, nil
	}
	for i, it := range items {
		if i == limit {
			next, err := s.sealCursor(ctx, binding, items[limit-1].SK)
			if err != nil {
				return h, err
			}
			h.NextCursor = next
			break
		}
		v := it.MemoryVersion
		v.Memory.Version = v.Version
		h.Versions = append(h.Versions, v)
	}
	return h, nil
}

// purgeConcurrency bounds the parallel history deletes of purgeHistory.
const purgeConcurrency = 8

// purgeHistory deletes the history of the memories ids of agentName (a
// Query of each history's keys, then batch deletes). Best effort: a
// failure is logged; such a history is never answered (MemoryHistory
// answers only for live, superseded and retired memories).
func (s *Store) purgeHistory(ctx context.Context, agentName string, ids []string) {
	if len(ids) == 0 {
		return
	}
	var g errgroup.Group
	g.SetLimit(purgeConcurrency)
	for _, id := range ids {
		g.Go(func() error {
			var keys []struct {
				PK string `dynamo:"pk"`
				SK string `dynamo:"sk"`
			}
			pk := historyPK(agentName, id)
			if err := s.journal.Get("pk", pk).Project("pk", "sk").All(ctx, &keys); err != nil {
				return fmt.Errorf("read history keys of %s: %w", id, err)
			}
			if len(keys) == 0 {
				return nil
			}
			del := make([]dynamo.Keyed, len(keys))
			for i, k := range keys {
				del[i] = dynamo.Keys{k.PK, k.SK}
			}
			if _, err := s.journal.Batch("pk", "sk").Write().Delete(del...).Run(ctx); err != nil {
				return fmt.Errorf("delete history of %s: %w", id, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		s.log().WarnContext(ctx, "history of deleted memories not deleted; it is never answered", "agent", agentName, "memories", len(ids), "err", err)
	}
}

// deleteGone deletes a memory that left its scope, for good: its gone
// record and its history (DELETE .../memories/{id} of a superseded or
// retired memory). The record's delete is conditional on its being there
// (errMemoryMoved otherwise: a restore brought it back, or a delete took
// it, meanwhile), so that a restore at the same time either
// comes first (and the caller deletes the live memory) or finds it gone.
func (s *Store) deleteGone(ctx context.Context, m agentmem.Memory) error {
	err := s.journal.Delete("pk", gonePK(m.AgentName, m.ProjectID)).Range("sk", m.ID).If(goneExists).Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return errMemoryMoved
	case err != nil:
		return fmt.Errorf("delete superseded memory %s: %w", m.ID, err)
	}
	s.purgeHistory(ctx, m.AgentName, []string{m.ID})
	return nil
}

// purgeGone deletes every superseded and retired memory of a scope with
// its history (a scope delete's last step); it returns how many.
func (s *Store) purgeGone(ctx context.Context, agentName, projectID string) (int, error) {
	n := 0
	for {
		var keys []struct {
			PK string `dynamo:"pk"`
			SK string `dynamo:"sk"`
		}
		err := s.journal.Get("pk", gonePK(agentName, projectID)).Project("pk", "sk").Limit(deletePage).Consistent(true).All(ctx, &keys)
		if err != nil {
			return n, fmt.Errorf("read superseded memories of %s: %w", agentmem.Scope(agentName, projectID), err)
		}
		if len(keys) == 0 {
			return n, nil
		}
		ids := make([]string, len(keys))
		del := make([]dynamo.Keyed, len(keys))
		for i, k := range keys {
			ids[i], del[i] = k.SK, dynamo.Keys{k.PK, k.SK}
		}
		// The records first: without them the histories are never
		// answered, so a purge that fails leaves nothing visible.
		if _, err := s.journal.Batch("pk", "sk").Write().Delete(del...).Run(ctx); err != nil {
			return n, fmt.Errorf("delete superseded memories of %s: %w", agentmem.Scope(agentName, projectID), err)
		}
		s.purgeHistory(ctx, agentName, ids)
		n += len(keys)
	}
}

// ListGone returns the memories of a scope that left it in state
// (agentmem.StateSuperseded or StateRetired; "" for both), newest id
// first, limit at a time after cursor, each with its State (and
// SupersededBy).
func (s *Store) ListGone(ctx context.Context, opt ListOptions, state string) (agentmem.MemoryPage, error) {
	limit := opt.Limit
	if limit <= 0 || limit > agentmem.MaxListLimit {
		limit = agentmem.DefaultListLimit
	}
	binding := "gone\x00" + opt.AgentName + "\x00" + opt.ProjectID + "\x00" + string(opt.Type) + "\x00" + state
	q := s.journal.Get("pk", gonePK(opt.AgentName, opt.ProjectID)).Order(dynamo.Descending)
	if opt.Cursor != "" {
		before, err := s.openCursor(ctx, binding, opt.Cursor)
		if err != nil {
			return agentmem.MemoryPage{}, err
		}
		q = q.Range("sk", dynamo.Less, before)
	}
	switch {
	case state != "" && opt.Type != "":
		q = q.Filter("$ = ? AND $ = ?", "state", state, "type", opt.Type)
	case state != "":
		q = q.Filter("$ = ?", "state", state)
	case opt.Type != "":
		q = q.Filter("$ = ?", "type", opt.Type)
	}
	var items []goneItem
	if err := q.Limit(limit+1).All(ctx, &items); err != nil {
		return agentmem.MemoryPage{}, fmt.Errorf("list superseded memories of %s: %w", agentmem.Scope(opt.AgentName, opt.ProjectID), err)
	}
	page := agentmem.MemoryPage{Memories: make([]agentmem.Memory, 0, min(len(items), limit))}
	for i, it := range items {
		if i == limit {
			next, err := s.sealCursor(ctx, binding, items[limit-1].SK)
			if err != nil {
				return agentmem.MemoryPage{}, err
			}
			page.NextCursor = next
			break
		}
		page.Memories = append(page.Memories, it.memory())
	}
	return page, nil
}
