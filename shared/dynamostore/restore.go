package dynamostore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"golang.org/x/sync/errgroup"
)

// RestoreMemories stores memories that already have their id and createdAt
// (Deep Dream writes its planned core this way, and a revert puts back the
// memories a dream replaced) and returns how many it wrote. Each put is
// conditional on the slot being free; a memory whose slot already holds it
// (same id) is skipped, so replaying a plan is harmless; a slot taken by
// another memory moves the createdAt forward by a few nanoseconds, as
// CreateMemory does. The scope counters are kept, like every write path.
func (s *Store) RestoreMemories(ctx context.Context, ms []agentmem.Memory) (int, error) {
	for _, m := range ms {
		if m.ID == "" || m.AgentName == "" || m.ProjectID == "" || m.Source == "" {
			return 0, agentmem.Errorf(agentmem.EInvalid, "memory to restore lacks id, scope or source")
		}
		if _, err := agentmem.ParseTime(m.CreatedAt); err != nil {
			return 0, agentmem.Errorf(agentmem.EInvalid, "memory %s: createdAt %q is not RFC 3339", m.ID, m.CreatedAt)
		}
	}
	ms = slices.Clone(ms)
	wrote := make([]bool, len(ms))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(deleteConcurrency)
	for i, m := range ms {
		g.Go(func() error {
			var err error
			ms[i], wrote[i], err = s.restoreOne(gctx, m)
			return err
		})
	}
	err := g.Wait()
	deltas := map[[2]string]*countDelta{}
	n := 0
	for i, m := range ms {
		if !wrote[i] {
			continue
		}
		n++
		k := [2]string{m.AgentName, m.ProjectID}
		if deltas[k] == nil {
			deltas[k] = &countDelta{}
		}
		deltas[k].add(deltaOf(m, 1))
	}
	for k, d := range deltas {
		s.adjustCounts(ctx, k[0], k[1], *d)
	}
	return n, err
}

// restoreOne puts m at its createdAt, or a little later if another memory
// holds that slot, and reports what it stored and whether it wrote.
func (s *Store) restoreOne(ctx context.Context, m agentmem.Memory) (agentmem.Memory, bool, error) {
	if m.Type == "" {
		m.Type = agentmem.TypeNote
	}
	t, _ := agentmem.ParseTime(m.CreatedAt)
	scope := agentmem.Scope(m.AgentName, m.ProjectID)
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		m.CreatedAt = agentmem.FormatTime(t)
		var cur memoryItem
		wrote, err := s.memories.Put(memoryItem{Scope: scope, Memory: m}).
			If("attribute_not_exists($)", "createdAt").
			CurrentValue(ctx, &cur)
		switch {
		case err != nil:
			return m, false, fmt.Errorf("restore memory %s in %s: %w", m.ID, scope, err)
		case wrote:
			return m, true, nil
		case cur.ID == m.ID:
			return m, false, nil // already there: a replayed plan
		}
		t = t.Add(time.Duration(1 + rand.IntN(1000)))
	}
	return m, false, agentmem.Errorf(agentmem.EConflict, "could not find a free createdAt for memory %s in %s", m.ID, scope)
}
