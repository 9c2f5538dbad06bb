package dynamostore

import (
	"context"
	"fmt"
	"sort"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

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
				return p, false, fmt.Errorf("read personality %s: %w", p.AgentName, err)
			default:
				prev = &old.Version
			}
		}
		p.Version = *prev + 1
		put := s.personalities.Put(p)
		if *prev == 0 {
			put = put.If("attribute_not_exists($)", "agentName")
		} else {
			put = put.If("$ = ?", "version", *prev)
		}
		err := put.Run(ctx)
		switch {
		case err == nil:
			return p, *prev == 0, nil
		case !dynamo.IsCondCheckFailed(err):
			return p, false, fmt.Errorf("put personality %s: %w", p.AgentName, err)
		case expected != nil:
			return p, false, agentmem.Errorf(agentmem.EConflict, "personality %s is not at version %d; read it again and retry", p.AgentName, *expected)
		}
		// Unconditional replace raced with another writer: read and retry.
		if err := ctx.Err(); err != nil {
			return p, false, err
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

// ListPersonalities returns every personality, sorted by agent name. The
// table holds one small item per agent, so a scan is the right tool.
func (s *Store) ListPersonalities(ctx context.Context) ([]agentmem.Personality, error) {
	var out []agentmem.Personality
	if err := s.personalities.Scan().All(ctx, &out); err != nil {
		return nil, fmt.Errorf("list personalities: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AgentName < out[j].AgentName })
	if out == nil {
		out = []agentmem.Personality{}
	}
	return out, nil
}
