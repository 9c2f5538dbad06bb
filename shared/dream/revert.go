package dream

import (
	"context"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
)

// Revert restores the core of a scope as it was before the last dream of
// date ("YYYY-MM-DD"): the memories that dream wrote are deleted (those
// still there) and the ones it replaced are put back with their ids and
// createdAt. Memories written since by others are not touched. Only the
// scope's most recent committed dream can be reverted (EConflict
// otherwise, or when it was reverted already); ENotFound when the day has
// no committed dream. The revert is a commit like a dream's, all or
// nothing, and gets its own diary entry; the dream is marked reverted.
// The last processed hash is kept, so the next dream waits for new daily
// content (or a forced dream).
func (d *Dreamer) Revert(ctx context.Context, agent, project, date string) (agentmem.Dream, error) {
	if err := agentmem.ValidateAgentName(agent); err != nil {
		return agentmem.Dream{}, err
	}
	if err := agentmem.ValidateProjectID(project); err != nil {
		return agentmem.Dream{}, err
	}
	if _, err := agentmem.ParseDate(date); err != nil {
		return agentmem.Dream{}, err
	}
	var rev agentmem.Dream
	_, err := d.withLease(ctx, agent, project, func(id string, _ dynamostore.DreamState) error {
		var err error
		rev, err = d.revert(ctx, agent, project, date, id)
		return err
	})
	return rev, err
}

func (d *Dreamer) revert(ctx context.Context, agent, project, date, id string) (agentmem.Dream, error) {
	day, err := d.Store.DreamsOn(ctx, agent, project, date)
	if err != nil {
		return agentmem.Dream{}, err
	}
	var target *agentmem.Dream
	for i := len(day) - 1; i >= 0 && target == nil; i-- {
		if day[i].Kind == agentmem.DreamKindDream && (day[i].Status == agentmem.DreamCommitted || day[i].Status == agentmem.DreamReverted) {
			target = &day[i]
		}
	}
	if target == nil {
		return agentmem.Dream{}, agentmem.Errorf(agentmem.ENotFound, "%s/%s has no committed dream on %s", agent, project, date)
	}
	if target.Status == agentmem.DreamReverted {
		return agentmem.Dream{}, agentmem.Errorf(agentmem.EConflict, "the last dream of %s (%s) was already reverted", date, target.ID)
	}
	latest, err := d.Store.LatestCommittedDream(ctx, agent, project)
	if err != nil {
		return agentmem.Dream{}, err
	}
	if latest.ID != target.ID {
		return agentmem.Dream{}, agentmem.Errorf(agentmem.EConflict, "a later dream (%s on %s) changed the core since; revert that one first", latest.ID, latest.Date)
	}
	plan, err := d.Store.DreamPlanOf(ctx, *target)
	if err != nil {
		return agentmem.Dream{}, err
	}
	now := d.now()
	rev := agentmem.Dream{
		ID: id, AgentName: agent, ProjectID: project, Kind: agentmem.DreamKindRevert, Trigger: agentmem.TriggerAPI,
		Date: now.Format(agentmem.DateLayout), StartedAt: agentmem.FormatTime(now),
		RevertOf: dreamRefOf(*target), Created: len(plan.Delete), Deleted: len(plan.Create),
	}
	undo := dynamostore.DreamPlan{Create: plan.Delete, Delete: plan.Create}
	if err := d.Store.BeginDream(ctx, rev, undo, id); err != nil {
		return agentmem.Dream{}, err
	}
	if err := d.apply(ctx, undo); err != nil {
		return agentmem.Dream{}, fmt.Errorf("apply revert %s (the next dream of the scope finishes it): %w", id, err)
	}
	rev.FinishedAt = agentmem.FormatTime(d.now())
	if err := d.Store.FinishDream(ctx, rev, ""); err != nil {
		return agentmem.Dream{}, fmt.Errorf("finish revert %s: %w", id, err)
	}
	rev.Status = agentmem.DreamCommitted
	d.Log.InfoContext(ctx, "reverted dream", "agent", agent, "project", project, "dream", target.ID, "revert", id,
		"restored", rev.Created, "removed", rev.Deleted)
	return rev, nil
}

// dreamRefOf is the "<date>#<id>" reference of a diary entry.
func dreamRefOf(d agentmem.Dream) string { return d.Date + "#" + d.ID }
