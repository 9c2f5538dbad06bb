package dream

import (
	"context"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
)

// Revert restores the core of a scope as it was before the last dream of
// date ("YYYY-MM-DD"): every memory the dream updated or retired gets its
// version from before the dream back (from its history, same id and
// createdAt), and every memory it added is retired (it stays in its
// history). Memories written or changed since by others are not touched:
// such a change is skipped and listed in the revert's notes. Only the
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
	_, err := d.withLease(ctx, agent, project, func(l *lease, _ dynamostore.DreamState) error {
		var err error
		rev, err = d.revert(ctx, agent, project, date, l.owner)
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
		RevertOf: dreamRefOf(*target),
	}
	undo := undoPlan(plan, agentmem.ChangeBy{Kind: agentmem.ByDream, DreamID: id, Note: "revert of dream " + target.ID})
	rev.Created = len(undo.Create) + len(undo.Ops) - len(plan.Create)
	rev.Deleted = len(undo.Delete) + len(plan.Create)
	if legacy(plan) {
		rev.Created, rev.Deleted = len(undo.Create), len(undo.Delete)
	}
	if err := d.Store.BeginDream(ctx, rev, undo, id); err != nil {
		return agentmem.Dream{}, err
	}
	notes, err := d.apply(ctx, agent, undo)
	if err != nil {
		return agentmem.Dream{}, fmt.Errorf("apply revert %s (the next dream of the scope finishes it): %w", id, err)
	}
	rev.Notes = notes
	rev.FinishedAt = agentmem.FormatTime(d.now())
	if err := d.Store.FinishDream(ctx, rev, ""); err != nil {
		return agentmem.Dream{}, fmt.Errorf("finish revert %s: %w", id, err)
	}
	rev.Status = agentmem.DreamCommitted
	d.Log.InfoContext(ctx, "reverted dream", "agent", agent, "project", project, "dream", target.ID, "revert", id,
		"restored", rev.Created, "removed", rev.Deleted, "skipped", len(notes))
	return rev, nil
}

// legacy reports whether a plan is from before operations: it deleted
// the memories it replaced, and its revert puts them back and deletes
// what it wrote.
func legacy(plan dynamostore.DreamPlan) bool { return len(plan.Ops) == 0 && len(plan.Delete) > 0 }

// undoPlan is the plan that undoes plan, made by by. Every memory the
// dream updated or retired gets the version before the dream's back
// (restored from its history, expecting the version the dream made, so
// that a change made since by someone else is not overwritten: it is
// skipped and said so); every memory the dream added is retired
// (restorable from its history), expecting its first version. A plan
// from before operations is undone as it was: what it deleted is put
// back, what it wrote deleted.
func undoPlan(plan dynamostore.DreamPlan, by agentmem.ChangeBy) dynamostore.DreamPlan {
	if legacy(plan) {
		return dynamostore.DreamPlan{Create: plan.Delete, Delete: plan.Create}
	}
	undo := dynamostore.DreamPlan{Create: plan.Delete}
	for _, op := range plan.Ops {
		if op.Kind == dynamostore.PlanUpdate || op.Kind == dynamostore.PlanRetire {
			undo.Ops = append(undo.Ops, dynamostore.PlanOp{Kind: dynamostore.PlanRestore, Before: op.Before,
				Restore: op.Expect, Expect: op.Expect + 1, By: by})
		}
	}
	for _, m := range plan.Create {
		undo.Ops = append(undo.Ops, dynamostore.PlanOp{Kind: dynamostore.PlanRetire, Before: m, Expect: 1, By: by})
	}
	return undo
}

// dreamRefOf is the "<date>#<id>" reference of a diary entry.
func dreamRefOf(d agentmem.Dream) string { return d.Date + "#" + d.ID }
