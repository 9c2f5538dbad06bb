package dynamostore

import (
	"context"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// NameIndex lists the personalities by agent name: every item carries the
// same value in its partition key (personalityItem.Listed), so a page of
// the listing is one Query of the index, in name order, never a scan.
// Writes to personalities are rare; the one index partition is no hot
// spot.
const NameIndex = "name-index"

// listedAll is the one value of personalityItem.Listed.
const listedAll = "all"

// personalityItem is a personality as stored.
type personalityItem struct {
	agentmem.Personality
	// Listed is the partition key of NameIndex (listedAll).
	Listed string `dynamo:"listed" index:"name-index,hash"`
}

// GetPersonality returns the personality of agentName.
func (s *Store) GetPersonality(ctx context.Context, agentName string) (agentmem.Personality, error) {
	var p agentmem.Personality
	err := s.personalities.Get("agentName", agentName).Consistent(true).One(ctx, &p)
	switch {
	case notFound(err):
		return p, agentmem.Errorf(agentmem.ENotFound, "agent %s has no personality", agentName)
	case err != nil:
		return p, fmt.Errorf("get personality %s: %w", agentName, err)
	}
	return p, nil
}

// PutPersonality creates or replaces the personality p.AgentName and
// returns what was stored and whether it was created. With expected set the
// write is optimistic: it succeeds only if the stored version still equals
// *expected (0: only if there is none yet), else EConflict. Without it the
// write replaces whatever is there. Either way the version increases by one.
func (s *Store) PutPersonality(ctx context.Context, p agentmem.Personality, expected *int) (agentmem.Personality, bool, error) {
	out, created, _, err := s.putPersonality(ctx, p, expected, nil)
	return out, created, err
}

// PutPersonalityOnce is PutPersonality made idempotent by once: a call
// with a key already used for the same request returns what that call
// stored and whether it created it, with replayed true, and writes
// nothing.
func (s *Store) PutPersonalityOnce(ctx context.Context, p agentmem.Personality, expected *int, once Once) (_ agentmem.Personality, created, replayed bool, _ error) {
	if once.Key == "" {
		return s.putPersonality(ctx, p, expected, nil)
	}
	return s.putPersonality(ctx, p, expected, &once)
}

// personalityResult is what an idempotent personality put keeps.
type personalityResult struct {
	Personality agentmem.Personality `json:"personality"`
	Created     bool                 `json:"created"`
}

func (s *Store) putPersonality(ctx context.Context, p agentmem.Personality, expected *int, once *Once) (agentmem.Personality, bool, bool, error) {
	p.UpdatedAt = agentmem.FormatTime(s.now())
	for {
		var old agentmem.Personality
		var prev *int
		if expected != nil {
			prev = expected
		} else {
			err := s.personalities.Get("agentName", p.AgentName).Consistent(true).One(ctx, &old)
			switch {
			case notFound(err):
				zero := 0
				prev = &zero
			case err != nil:
				return p, false, false, fmt.Errorf("read personality %s: %w", p.AgentName, err)
			default:
				prev = &old.Version
			}
		}
		p.Version = *prev + 1
		put := s.personalities.Put(personalityItem{Personality: p, Listed: listedAll})
		if *prev == 0 {
			put = put.If("attribute_not_exists($)", "agentName")
		} else {
			put = put.If("$ = ?", "version", *prev)
		}
		tx := s.db.WriteTx().Idempotent(true).Put(put)
		if once != nil {
			rec, err := s.onceRecord(*once, personalityResult{Personality: p, Created: *prev == 0})
			if err != nil {
				return p, false, false, err
			}
			tx = tx.Put(rec)
		}
		err := tx.Run(ctx)
		reasons := cancelReasons(err)
		switch {
		case err == nil:
			return p, *prev == 0, false, nil
		case once != nil && condFailed(reasons, 1):
			var first personalityResult
			err := s.replayAfterConflict(ctx, *once, &first)
			return first.Personality, first.Created, err == nil, err
		case !condFailed(reasons, 0):
			return p, false, false, fmt.Errorf("put personality %s: %w", p.AgentName, err)
		case expected != nil:
			return p, false, false, agentmem.Errorf(agentmem.EConflict, "personality %s is not at version %d; read it again and retry", p.AgentName, *expected)
		}
		// Unconditional replace raced with another writer: read and retry.
		if err := ctx.Err(); err != nil {
			return p, false, false, err
		}
	}
}

// DeletePersonality deletes the personality of agentName; ENotFound if
// there is none.
func (s *Store) DeletePersonality(ctx context.Context, agentName string) error {
	err := s.personalities.Delete("agentName", agentName).If("attribute_exists($)", "agentName").Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return agentmem.Errorf(agentmem.ENotFound, "agent %s has no personality", agentName)
	case err != nil:
		return fmt.Errorf("delete personality %s: %w", agentName, err)
	}
	return nil
}

// Page sizes of ListPersonalities.
const (
	DefaultPersonalitiesPage = agentmem.DefaultPersonalitiesPage
	MaxPersonalitiesPage     = agentmem.MaxPersonalitiesPage
)

// personalitiesBinding is what a personality listing's cursor is sealed
// to.
const personalitiesBinding = "personalities"

// ListPersonalities returns a page of personalities in agent name order:
// limit of them (1..MaxPersonalitiesPage, 0: DefaultPersonalitiesPage),
// after the previous page's NextCursor. One Query of NameIndex a page.
func (s *Store) ListPersonalities(ctx context.Context, limit int, cursor string) (agentmem.PersonalityPage, error) {
	if limit <= 0 || limit > MaxPersonalitiesPage {
		limit = DefaultPersonalitiesPage
	}
	q := s.personalities.Get("listed", listedAll).Index(NameIndex).Order(dynamo.Ascending)
	if cursor != "" {
		after, err := s.openCursor(ctx, personalitiesBinding, cursor)
		if err != nil {
			return agentmem.PersonalityPage{}, err
		}
		if !storedName(agentmem.ValidateAgentName(after), after) {
			return agentmem.PersonalityPage{}, errBadCursor
		}
		q = q.Range("agentName", dynamo.Greater, after)
	}
	var items []agentmem.Personality
	if err := q.Limit(limit+1).All(ctx, &items); err != nil {
		return agentmem.PersonalityPage{}, fmt.Errorf("list personalities: %w", err)
	}
	page := agentmem.PersonalityPage{Personalities: items[:min(limit, len(items))]}
	if page.Personalities == nil {
		page.Personalities = []agentmem.Personality{}
	}
	if len(items) > limit {
		next, err := s.sealCursor(ctx, personalitiesBinding, items[limit-1].AgentName)
		if err != nil {
			return agentmem.PersonalityPage{}, err
		}
		page.NextCursor = next
	}
	return page, nil
}
