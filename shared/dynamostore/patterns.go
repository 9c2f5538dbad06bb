package dynamostore

import (
	"context"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/guregu/dynamo/v2"
)

// maxRaiseAttempts bounds the retries of SavePattern when concurrent
// writers raise the same pattern.
const maxRaiseAttempts = 8

// defaultPatternConfidence is the confidence of a stored pattern that has
// none (agentmem.MemoryInput.Normalize gives new patterns 0.5).
const defaultPatternConfidence = 0.5

// SavePattern stores the pattern m (type pattern; agent, project, content
// and source set, as for CreateMemory) unless the scope already holds the
// same pattern (search.SamePattern: same trigger and solution terms). Then
// it raises that pattern's confidence instead (search.RaiseConfidence),
// marks it used now, and returns it with raised true. Among several equal
// patterns the most confident, then the oldest, is raised. Extraction
// calls it for the patterns of successful runs.
func (s *Store) SavePattern(ctx context.Context, m agentmem.Memory) (saved agentmem.Memory, raised bool, err error) {
	if m.Type != agentmem.TypePattern {
		return agentmem.Memory{}, false, agentmem.Errorf(agentmem.EInvalid, "SavePattern needs a memory of type pattern, got %q", m.Type)
	}
	patterns, err := s.ScopeMemories(ctx, m.AgentName, m.ProjectID, agentmem.TypePattern)
	if err != nil {
		return agentmem.Memory{}, false, err
	}
	var same *agentmem.Memory
	for i := range patterns { // newest first: ties go to the oldest
		if p := &patterns[i]; search.SamePattern(*p, m) && (same == nil || confidence(*p) >= confidence(*same)) {
			same = p
		}
	}
	if same == nil {
		saved, err = s.CreateMemory(ctx, m)
		return saved, false, err
	}
	cur := *same
	scope := agentmem.Scope(cur.AgentName, cur.ProjectID)
	for range maxRaiseAttempts {
		old, stamp := confidence(cur), agentmem.FormatTime(s.now())
		u := s.memories.Update("scope", scope).Range("createdAt", cur.CreatedAt).
			Set("confidence", search.RaiseConfidence(old)).
			Set("lastAccessedAt", stamp)
		if cur.Confidence == nil {
			u = u.If("$ = ? AND attribute_not_exists($)", "id", cur.ID, "confidence")
		} else {
			u = u.If("$ = ? AND $ = ?", "id", cur.ID, "confidence", old)
		}
		// Confidence is not counted (MemorySize), but the raise changes
		// what the scope holds: its slot's seq moves in the same
		// transaction, so that caches keyed on the scope's Version see it.
		w := s.newScopeWrite(cur.AgentName, cur.ProjectID)
		w.update(u, slotOf(cur.ID), countDelta{})
		err := w.run(ctx)
		switch {
		case err == nil:
			raised := cur
			c := search.RaiseConfidence(old)
			raised.Confidence = &c
			raised.LastAccessedAt = stamp
			return raised, true, nil
		case !condFailed(cancelReasons(err), 0):
			return agentmem.Memory{}, false, fmt.Errorf("raise confidence of pattern %s: %w", cur.ID, err)
		}
		// Someone raised it meanwhile (or deleted it): read it again.
		var item memoryItem
		err = s.memories.Get("scope", scope).Range("createdAt", dynamo.Equal, cur.CreatedAt).Consistent(true).One(ctx, &item)
		switch {
		case notFound(err) || err == nil && item.ID != cur.ID:
			saved, err = s.CreateMemory(ctx, m)
			return saved, false, err
		case err != nil:
			return agentmem.Memory{}, false, fmt.Errorf("read pattern %s: %w", cur.ID, err)
		}
		cur = item.Memory
	}
	return agentmem.Memory{}, false, agentmem.Errorf(agentmem.EConflict, "pattern %s kept changing; try again", cur.ID)
}

// confidence returns a pattern's confidence, defaultPatternConfidence when
// it has none.
func confidence(m agentmem.Memory) float64 {
	if m.Confidence == nil {
		return defaultPatternConfidence
	}
	return *m.Confidence
}
