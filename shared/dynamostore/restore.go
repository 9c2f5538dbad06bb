package dynamostore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
	"golang.org/x/sync/errgroup"
)

// RestoreMemories stores memories that already have their id and createdAt
// (Deep Dream writes its planned core this way, and a revert puts back the
// memories a dream replaced) and returns how many it wrote. A memory whose
// id its scope already holds, at its createdAt or where an earlier restore
// moved it, is skipped, so replaying a plan (the roll-forward after a
// crash) never writes a second copy; the others are put on condition that
// their slot is free, and a slot taken by another memory moves the
// createdAt forward by a few nanoseconds, as CreateMemory does. A memory
// listed twice is restored once. Each put and its scope's counters are one
// transaction, like every write path.
func (s *Store) RestoreMemories(ctx context.Context, ms []agentmem.Memory) (int, error) {
	return s.RestoreMemoriesBy(ctx, ms, nil)
}

// RestoreMemoriesBy is RestoreMemories recording in each memory's history
// (its version 1, "created") who wrote it: by(m), or the system when by is
// nil. Deep Dream writes the memories it adds this way, with its id and
// the ids each one cites.
func (s *Store) RestoreMemoriesBy(ctx context.Context, ms []agentmem.Memory, by func(agentmem.Memory) agentmem.ChangeBy) (int, error) {
	if by == nil {
		by = func(agentmem.Memory) agentmem.ChangeBy { return restoreBy }
	}
	for _, m := range ms {
		if m.ID == "" || m.AgentName == "" || m.ProjectID == "" || m.Source == "" {
			return 0, agentmem.Errorf(agentmem.EInvalid, "memory to restore lacks id, scope or source")
		}
		if _, err := agentmem.ParseTime(m.CreatedAt); err != nil {
			return 0, agentmem.Errorf(agentmem.EInvalid, "memory %s: createdAt %q is not RFC 3339", m.ID, m.CreatedAt)
		}
	}
	ms = slices.Clone(ms)
	present, err := s.presentIDs(ctx, ms)
	if err != nil {
		return 0, err
	}
	wrote := make([]bool, len(ms))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(restoreConcurrency)
	for i, m := range ms {
		key := [2]string{agentmem.Scope(m.AgentName, m.ProjectID), m.ID}
		if present[key] {
			continue
		}
		present[key] = true // listed twice: restored once
		g.Go(func() error {
			var err error
			ms[i], wrote[i], err = s.restoreOne(gctx, m, by(m))
			return err
		})
	}
	err = g.Wait()
	n := 0
	for _, w := range wrote {
		if w {
			n++
		}
	}
	return n, err
}

// restoreConcurrency bounds the parallel transactions of RestoreMemories
// and the reads of presentIDs.
const restoreConcurrency = 16

// maxRestoreShift is how far after its planned createdAt restoreOne can
// put a memory: maxCreateAttempts steps of at most maxStep.
const (
	maxStep         = 1000 * time.Nanosecond
	maxRestoreShift = maxCreateAttempts * maxStep
)

// presentIDs reports which of ms their scope already holds, by scope and
// id: strongly consistent reads of each scope's partition over the
// createdAt windows where a restore could have put them (from the planned
// createdAt to maxRestoreShift after it), windows close together read as
// one. A dream's new memories share one window; a revert's restored ones
// take a read each.
func (s *Store) presentIDs(ctx context.Context, ms []agentmem.Memory) (map[[2]string]bool, error) {
	type window struct {
		scope    string
		from, to time.Time
	}
	byScope := map[string][]time.Time{}
	for _, m := range ms {
		t, _ := agentmem.ParseTime(m.CreatedAt)
		scope := agentmem.Scope(m.AgentName, m.ProjectID)
		byScope[scope] = append(byScope[scope], t.UTC())
	}
	var windows []window
	for scope, ts := range byScope {
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		w := window{scope: scope, from: ts[0], to: ts[0].Add(maxRestoreShift)}
		for _, t := range ts[1:] {
			if t.Sub(w.to) <= time.Millisecond {
				w.to = t.Add(maxRestoreShift)
				continue
			}
			windows = append(windows, w)
			w = window{scope: scope, from: t, to: t.Add(maxRestoreShift)}
		}
		windows = append(windows, w)
	}
	var mu sync.Mutex
	present := map[[2]string]bool{}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(restoreConcurrency)
	for _, w := range windows {
		g.Go(func() error {
			var items []memoryItem
			err := s.memories.Get("scope", w.scope).
				Range("createdAt", dynamo.Between, agentmem.FormatTime(w.from), agentmem.FormatTime(w.to)).
				Consistent(true).Project("scope", "createdAt", "id").All(gctx, &items)
			if err != nil {
				return fmt.Errorf("read memories of %s to restore: %w", w.scope, err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, it := range items {
				present[[2]string{w.scope, it.ID}] = true
			}
			return nil
		})
	}
	return present, g.Wait()
}

// restoreOne puts m at its createdAt, or a little later if another memory
// holds that slot, with its counters in the same transaction, and reports
// what it stored and whether it wrote.
func (s *Store) restoreOne(ctx context.Context, m agentmem.Memory, by agentmem.ChangeBy) (agentmem.Memory, bool, error) {
	if m.Type == "" {
		m.Type = agentmem.TypeNote
	}
	m.Version = versionOf(m)
	m.State, m.SupersededBy = "", ""
	t, _ := agentmem.ParseTime(m.CreatedAt)
	scope := agentmem.Scope(m.AgentName, m.ProjectID)
	// Its version goes to its history too, unless the history has it
	// already (a replayed plan).
	record := true
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		m.CreatedAt = agentmem.FormatTime(t)
		it := newItem(m)
		w := s.newScopeWrite(m.AgentName, m.ProjectID)
		w.put(s.memories.Put(it).If("attribute_not_exists($)", "createdAt"), slotOf(m.ID), it.counted(1))
		if record {
			w.alsoPut(s.versionPut(m.AgentName, agentmem.MemoryVersion{Version: m.Version, Change: agentmem.ChangeCreated,
				At: agentmem.FormatTime(s.now()), By: by, Memory: m}))
		}
		err := w.run(ctx)
		reasons := cancelReasons(err)
		switch {
		case err == nil:
			return m, true, nil
		case record && condFailed(reasons, w.extraIndex(0)) && !condFailed(reasons, 0):
			record = false
			attempt--
			continue
		case !condFailed(reasons, 0):
			return m, false, fmt.Errorf("restore memory %s in %s: %w", m.ID, scope, err)
		}
		var cur memoryItem
		err = s.memories.Get("scope", scope).Range("createdAt", dynamo.Equal, m.CreatedAt).Consistent(true).One(ctx, &cur)
		switch {
		case err != nil && !notFound(err):
			return m, false, fmt.Errorf("restore memory %s in %s: %w", m.ID, scope, err)
		case err == nil && cur.ID == m.ID:
			return m, false, nil // already there: a replayed plan
		}
		t = t.Add(time.Duration(1 + rand.IntN(int(maxStep))))
	}
	return m, false, agentmem.Errorf(agentmem.EConflict, "could not find a free createdAt for memory %s in %s", m.ID, scope)
}

// restoreBy is who RestoreMemories records as writing a memory.
var restoreBy = agentmem.ChangeBy{Kind: agentmem.BySystem, Note: "written with its id and createdAt fixed in advance (a dream's plan or its revert)"}
