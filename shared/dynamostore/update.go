package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/guregu/dynamo/v2"
)

// Changes to a memory that keep its id: edits (UpdateMemory), retirement
// (RetireMemory), restores (RestoreVersion); and the supersession Create
// does. Each is one scopeWrite: the memory item, its new version in the
// history, the counters, and for a memory that leaves the scope its gone
// record, so that counters, memories and history always agree. Each is
// conditional on the memory's version, so that two writers never lose
// each other's change (optimistic concurrency: the loser gets EConflict).
//
// For Deep Dream (issue 10): a dream that rewrites a memory calls
// UpdateMemory with a patch and ChangeBy{Kind: ByDream, DreamID,
// Citations}; one that replaces memories by a new one calls Create with
// Supersedes; one that drops a memory calls RetireMemory. Its revert
// calls RestoreVersion with the version before the dream's (the history
// names the dream of each version), and RetireMemory for what the dream
// added.

// versionCond returns the condition that the stored item is still it: the
// same id at the same version.
func versionCond(it memoryItem) (string, []any) {
	if it.Version == 0 {
		return "$ = ? AND attribute_not_exists($)", []any{"id", it.ID, "version"}
	}
	return "$ = ? AND $ = ?", []any{"id", it.ID, "version", it.Version}
}

// firstVersionPut is, for a memory written before versions existed (no
// version stored, so no history), the put of its version 1 as it stands,
// to add to its first change; nil for any other memory.
func (s *Store) firstVersionPut(it memoryItem) *dynamo.Put {
	if it.Version != 0 {
		return nil
	}
	return s.versionPut(it.AgentName, agentmem.MemoryVersion{Version: 1, Change: agentmem.ChangeCreated, At: it.CreatedAt, By: byOf(it.Memory), Memory: it.Memory})
}

// liveToReplace reads the live memories ids of the scope agent+project
// (strongly consistent), for a create that supersedes them.
func (s *Store) liveToReplace(ctx context.Context, agentName, projectID string, ids []string) ([]memoryItem, error) {
	if len(ids) > MaxSupersedes {
		return nil, agentmem.Errorf(agentmem.EInvalid, "a memory replaces at most %d others, got %d", MaxSupersedes, len(ids))
	}
	var out []memoryItem
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			continue
		}
		it, err := s.liveItem(ctx, agentName, id)
		switch {
		case err != nil:
			return nil, err
		case it.ProjectID != projectID:
			return nil, agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s in project %s", id, agentName, projectID)
		}
		out = append(out, it)
	}
	return out, nil
}

// liveItem reads the live memory id of agentName: ENotFound when there is
// none, EConflict when it left its scope (superseded or retired).
func (s *Store) liveItem(ctx context.Context, agentName, id string) (memoryItem, error) {
	it, err := s.getItem(ctx, agentName, id)
	if agentmem.ErrorCode(err) != agentmem.ENotFound {
		return it, err
	}
	last, gone, gerr := s.goneVersion(ctx, agentName, id)
	switch {
	case gerr != nil:
		return it, gerr
	case gone:
		return it, notLive(goneMemory(last))
	}
	return it, err
}

// leave adds to w what makes the stored memory it leave its scope in
// state (superseded by supersededBy, or retired): its conditional delete
// with its counters, its last version, its gone record. It returns the
// memory as it left.
func (s *Store) leave(w *scopeWrite, it memoryItem, state, supersededBy string, by agentmem.ChangeBy, stamp string) agentmem.Memory {
	cond, args := versionCond(it)
	w.delete(s.memories.Delete("scope", it.Scope).Range("createdAt", it.CreatedAt).If(cond, args...), slotOf(it.ID), it.counted(-1))
	if p := s.firstVersionPut(it); p != nil {
		w.alsoPut(p)
	}
	out := snapshot(it.Memory)
	out.Version = versionOf(it.Memory) + 1
	change := agentmem.ChangeRetired
	if state == agentmem.StateSuperseded {
		change = agentmem.ChangeSuperseded
	}
	w.alsoPut(s.versionPut(it.AgentName, agentmem.MemoryVersion{Version: out.Version, Change: change, At: stamp, By: by, SupersededBy: supersededBy, Memory: out}))
	w.alsoPut(s.gonePut(out, state, supersededBy, stamp))
	out.State, out.SupersededBy = state, supersededBy
	return out
}

// UpdateMemory applies patch to the live memory id of agentName as its
// next version, recorded in its history as made by by. When
// patch.Version is set the memory must still be at that version
// (EConflict otherwise: someone changed it since it was read); nil
// updates whatever version is current. A patch that changes nothing
// returns the memory as it is, with changed false and no new version. A
// memory that left its scope (superseded, retired) is EConflict: restore
// it first. The content's vector is computed again when the text changes.
func (s *Store) UpdateMemory(ctx context.Context, agentName, id string, patch agentmem.MemoryPatch, by agentmem.ChangeBy) (m agentmem.Memory, changed bool, err error) {
	if err := by.Validate(); err != nil {
		return agentmem.Memory{}, false, err
	}
	for range maxRewriteAttempts {
		m, changed, err = s.updateMemory(ctx, agentName, id, patch, by)
		if !errors.Is(err, errMovedInPlace) {
			return m, changed, err
		}
	}
	return agentmem.Memory{}, false, movedTooOften(id)
}

// updateMemory is one attempt of UpdateMemory.
func (s *Store) updateMemory(ctx context.Context, agentName, id string, patch agentmem.MemoryPatch, by agentmem.ChangeBy) (agentmem.Memory, bool, error) {
	it, err := s.liveItem(ctx, agentName, id)
	if err != nil {
		return agentmem.Memory{}, false, err
	}
	cur := versionOf(it.Memory)
	if patch.Version != nil && *patch.Version != cur {
		return agentmem.Memory{}, false, stale(id, *patch.Version, cur)
	}
	next, fields, err := patch.Apply(it.Memory)
	if err != nil {
		return agentmem.Memory{}, false, err
	}
	if len(fields) == 0 {
		out := normalized(it.Memory)
		out.Embedding = nil
		return out, false, nil
	}
	return s.rewrite(ctx, it, next, agentmem.MemoryVersion{Change: agentmem.ChangeUpdated, By: by, Changed: fields})
}

// stale is the error of a write that read version read of memory id when
// it is at version cur.
func stale(id string, read, cur int) error {
	return agentmem.Errorf(agentmem.EConflict, "memory %s is at version %d, not %d: it changed since you read it; read it again (and its history) and apply your change to the current version", id, cur, read)
}

// errMovedInPlace is rewrite's answer when the memory is still at the
// version read but changed in place since (a pattern's reinforcement, a
// search's touch): the caller applies its change again to the memory as
// it is now, so that neither is lost.
var errMovedInPlace = errors.New("the memory changed in place since it was read")

// maxRewriteAttempts bounds the attempts of an edit or a restore on a
// memory that keeps changing in place.
const maxRewriteAttempts = 8

// movedTooOften is the error of an edit or a restore that found the
// memory changed in place at every attempt.
func movedTooOften(id string) error {
	return agentmem.Errorf(agentmem.EConflict, "memory %s kept changing (reinforced or used) while it was being written; retry", id)
}

// inPlaceCond returns the condition that what changes a memory in place,
// without a version (confidence raised by reinforcement, lastAccessedAt
// by use), is still what it was read as.
func inPlaceCond(it memoryItem) (string, []any) {
	cond, args := "attribute_not_exists($)", []any{"confidence"}
	if it.Confidence != nil {
		cond, args = "$ = ?", []any{"confidence", *it.Confidence}
	}
	if it.LastAccessedAt == "" {
		return cond + " AND attribute_not_exists($)", append(args, "lastAccessedAt")
	}
	return cond + " AND $ = ?", append(args, "lastAccessedAt", it.LastAccessedAt)
}

// rewrite stores next (it with new field values) in it's place as its
// next version v (change, by, changed set by the caller), on condition
// that it is still at its version and unchanged in place
// (errMovedInPlace otherwise).
func (s *Store) rewrite(ctx context.Context, it memoryItem, next agentmem.Memory, v agentmem.MemoryVersion) (agentmem.Memory, bool, error) {
	now := s.now()
	next.Version = versionOf(it.Memory) + 1
	next.UpdatedAt = agentmem.FormatTime(now)
	next.State, next.SupersededBy = "", ""
	if search.MemoryText(next) != search.MemoryText(it.Memory) || len(next.Embedding) == 0 {
		next.Embedding = nil
		s.embed(ctx, &next)
	}
	v.Version, v.At, v.Memory = next.Version, next.UpdatedAt, next
	nit := newItem(next)
	cond, args := versionCond(it)
	pc, pa := inPlaceCond(it)
	cond, args = cond+" AND "+pc, append(args, pa...)
	w := s.newScopeWrite(it.AgentName, it.ProjectID)
	d := nit.counted(1)
	d.add(it.counted(-1))
	w.put(s.memories.Put(nit).If(cond, args...), slotOf(it.ID), d)
	if p := s.firstVersionPut(it); p != nil {
		w.alsoPut(p)
	}
	w.alsoPut(s.versionPut(it.AgentName, v))
	err := w.run(ctx)
	switch {
	case err == nil:
		next.Embedding = nil
		return next, true, nil
	case condFailed(cancelReasons(err), 0):
		cur, rerr := s.liveItem(ctx, it.AgentName, it.ID)
		switch {
		case rerr != nil:
			return agentmem.Memory{}, false, rerr
		case cur.ID == it.ID && versionOf(cur.Memory) == versionOf(it.Memory) && cur.Version == it.Version:
			return agentmem.Memory{}, false, errMovedInPlace
		}
		return agentmem.Memory{}, false, stale(it.ID, versionOf(it.Memory), versionOf(cur.Memory))
	case anyCondFailed(cancelReasons(err), 1, 3):
		return agentmem.Memory{}, false, agentmem.Errorf(agentmem.EConflict, "memory %s: its version %d was written meanwhile; read it again", it.ID, next.Version)
	}
	return agentmem.Memory{}, false, fmt.Errorf("update memory %s: %w", it.ID, err)
}

// RetireMemory takes the live memory id of agentName out of its scope
// (lists, MEMORY.md, search, suggestions, dreams, counters) without
// deleting it: its history gets a last version "retired" made by by (a
// dream's id and citations), from which RestoreVersion brings it back.
// expect, when not 0, is the version the caller read (EConflict when it
// moved). It returns the memory as it left (State retired).
func (s *Store) RetireMemory(ctx context.Context, agentName, id string, expect int, by agentmem.ChangeBy) (agentmem.Memory, error) {
	if err := by.Validate(); err != nil {
		return agentmem.Memory{}, err
	}
	it, err := s.liveItem(ctx, agentName, id)
	if err != nil {
		return agentmem.Memory{}, err
	}
	if expect != 0 && expect != versionOf(it.Memory) {
		return agentmem.Memory{}, stale(id, expect, versionOf(it.Memory))
	}
	w := s.newScopeWrite(it.AgentName, it.ProjectID)
	out := s.leave(w, it, agentmem.StateRetired, "", by, agentmem.FormatTime(s.now()))
	err = w.run(ctx)
	switch {
	case err == nil:
		return out, nil
	case condFailed(cancelReasons(err), 0):
		cur, rerr := s.liveItem(ctx, agentName, id)
		if rerr != nil {
			return agentmem.Memory{}, rerr
		}
		return agentmem.Memory{}, stale(id, versionOf(it.Memory), versionOf(cur.Memory))
	}
	return agentmem.Memory{}, fmt.Errorf("retire memory %s: %w", id, err)
}

// RestoreVersion puts version `version` of the memory id of agentName
// back, as its next version (change restored, RestoredFrom version), made
// by by: its content, type, typed fields, tags and pinned; its id, scope,
// createdAt and source stay. A live memory is rewritten in place; one that
// left its scope (superseded or retired) comes back to it, with its
// counters (the memory that superseded it stays: delete or retire it to
// undo the replacement). expect, when not nil, is the current version the
// caller read (EConflict when it moved, unless the restore of that
// version moved it: the same call made again). Restoring the version a
// live memory already holds changes nothing.
func (s *Store) RestoreVersion(ctx context.Context, agentName, id string, version int, expect *int, by agentmem.ChangeBy) (agentmem.Memory, error) {
	if err := by.Validate(); err != nil {
		return agentmem.Memory{}, err
	}
	if version < 1 {
		return agentmem.Memory{}, agentmem.Errorf(agentmem.EInvalid, "version must be 1 or more")
	}
	for range maxRewriteAttempts {
		m, err := s.restoreVersion(ctx, agentName, id, version, expect, by)
		if !errors.Is(err, errMovedInPlace) {
			return m, err
		}
	}
	return agentmem.Memory{}, movedTooOften(id)
}

// restoreVersion is one attempt of RestoreVersion.
func (s *Store) restoreVersion(ctx context.Context, agentName, id string, version int, expect *int, by agentmem.ChangeBy) (agentmem.Memory, error) {
	var want versionItem
	err := s.journal.Get("pk", historyPK(agentName, id)).Range("sk", dynamo.Equal, versionSK(version)).Consistent(true).One(ctx, &want)
	missing := notFound(err)
	if err != nil && !missing {
		return agentmem.Memory{}, fmt.Errorf("read version %d of memory %s: %w", version, id, err)
	}
	it, err := s.getItem(ctx, agentName, id)
	switch {
	case err == nil:
		cur := versionOf(it.Memory)
		if expect != nil && *expect != cur {
			if again, err := s.restoredOnce(ctx, agentName, id, version, *expect, cur); err != nil || again {
				out := normalized(it.Memory)
				out.Embedding = nil
				return out, err
			}
			return agentmem.Memory{}, stale(id, *expect, cur)
		}
		if missing {
			if version == cur && it.Version == 0 {
				return normalized(it.Memory), nil // the one version of a memory older than versions
			}
			return agentmem.Memory{}, agentmem.Errorf(agentmem.ENotFound, "memory %s has no version %d (its current version is %d)", id, version, cur)
		}
		next := withFieldsOf(it.Memory, want.Memory)
		fields := agentmem.ChangedFields(it.Memory, next)
		if len(fields) == 0 {
			out := normalized(it.Memory)
			out.Embedding = nil
			return out, nil
		}
		m, _, err := s.rewrite(ctx, it, next, agentmem.MemoryVersion{Change: agentmem.ChangeRestored, RestoredFrom: version, By: by, Changed: fields})
		return m, err
	case agentmem.ErrorCode(err) != agentmem.ENotFound:
		return agentmem.Memory{}, err
	}
	last, gone, err := s.goneVersion(ctx, agentName, id)
	switch {
	case err != nil:
		return agentmem.Memory{}, err
	case !gone:
		return agentmem.Memory{}, agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s", id, agentName)
	case missing:
		return agentmem.Memory{}, agentmem.Errorf(agentmem.ENotFound, "memory %s has no version %d (its last version is %d)", id, version, last.Version)
	case expect != nil && *expect != last.Version:
		return agentmem.Memory{}, stale(id, *expect, last.Version)
	}
	return s.comeBack(ctx, last, want, by)
}

// restoredOnce reports whether a restore of version that expected the
// memory at version expect, finding it at cur, is a call made again (a
// client's retry after the first answer was lost): cur is the version
// right after expect and the restore of that version made it. Its answer
// is then the memory as it is, as for any restore that changes nothing.
func (s *Store) restoredOnce(ctx context.Context, agentName, id string, version, expect, cur int) (bool, error) {
	if cur != expect+1 {
		return false, nil
	}
	last, ok, err := s.lastVersion(ctx, agentName, id)
	if err != nil || !ok {
		return false, err
	}
	return last.Version == cur && last.Change == agentmem.ChangeRestored && last.RestoredFrom == version, nil
}

// withFieldsOf returns cur with the editable fields of old: what a
// restore puts back.
func withFieldsOf(cur, old agentmem.Memory) agentmem.Memory {
	next := cur
	next.Content, next.Type = old.Content, old.Type
	next.Rationale, next.Status, next.Trigger, next.Context, next.Solution = old.Rationale, old.Status, old.Trigger, old.Context, old.Solution
	next.Confidence, next.Tags, next.Pinned = old.Confidence, slices.Clone(old.Tags), old.Pinned
	return next
}

// comeBack puts a memory that left its scope (its last version last) back
// into it with the fields of version want, as version last+1.
func (s *Store) comeBack(ctx context.Context, last, want versionItem, by agentmem.ChangeBy) (agentmem.Memory, error) {
	base := last.Memory
	next := withFieldsOf(base, want.Memory)
	next.Version = last.Version + 1
	next.State, next.SupersededBy, next.Embedding = "", "", nil
	stamp := agentmem.FormatTime(s.now())
	next.UpdatedAt = stamp
	s.embed(ctx, &next)
	t, err := agentmem.ParseTime(base.CreatedAt)
	if err != nil {
		return agentmem.Memory{}, fmt.Errorf("memory %s: stored createdAt %q: %w", base.ID, base.CreatedAt, err)
	}
	v := agentmem.MemoryVersion{Version: next.Version, Change: agentmem.ChangeRestored, RestoredFrom: want.Version, At: stamp, By: by,
		Changed: agentmem.ChangedFields(base, next)}
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		next.CreatedAt = agentmem.FormatTime(t)
		v.Memory = next
		nit := newItem(next)
		w := s.newScopeWrite(next.AgentName, next.ProjectID)
		w.put(s.memories.Put(nit).If("attribute_not_exists($)", "createdAt"), slotOf(next.ID), nit.counted(1))
		w.alsoPut(s.versionPut(next.AgentName, v)) // extra 0: serialises restores
		// extra 1: a delete for good that came first took the record.
		w.alsoDelete(s.journal.Delete("pk", gonePK(next.AgentName, next.ProjectID)).Range("sk", next.ID).If(goneExists))
		err := w.run(ctx)
		reasons := cancelReasons(err)
		switch {
		case err == nil:
			next.Embedding = nil
			return next, nil
		case condFailed(reasons, w.extraIndex(1)):
			return agentmem.Memory{}, agentmem.Errorf(agentmem.ENotFound, "no memory %s for agent %s: it was deleted meanwhile", next.ID, next.AgentName)
		case condFailed(reasons, w.extraIndex(0)):
			return agentmem.Memory{}, agentmem.Errorf(agentmem.EConflict, "memory %s was changed (restored?) meanwhile; read its history again", next.ID)
		case !condFailed(reasons, 0):
			return agentmem.Memory{}, fmt.Errorf("restore memory %s: %w", next.ID, err)
		}
		// Its createdAt was taken since it left: step forward.
		t = t.Add(time.Duration(1 + rand.IntN(1000)))
	}
	return agentmem.Memory{}, agentmem.Errorf(agentmem.EConflict, "could not find a free createdAt for memory %s", next.ID)
}
