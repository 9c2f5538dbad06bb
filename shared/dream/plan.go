package dream

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/oklog/ulid/v2"
)

// planSourceBytes bounds each cited source's text kept in a plan.
const planSourceBytes = 400

// changeBy is who makes a dream's change: the dream, its citations and
// the model's note (cut to what a history keeps).
func changeBy(dreamID string, cites []string, note string) agentmem.ChangeBy {
	by := agentmem.ChangeBy{Kind: agentmem.ByDream, DreamID: dreamID, Citations: cites,
		Note: truncate(strings.ToValidUTF8(strings.ReplaceAll(oneLine(note), "\x00", ""), ""), agentmem.MaxNoteBytes-8)}
	if len(by.Citations) > agentmem.MaxCitations {
		by.Citations = by.Citations[:agentmem.MaxCitations]
	}
	if by.Validate() != nil {
		by.Note = ""
	}
	return by
}

// planOf turns accepted changes into a plan: additions get their ids and
// createdAt now (the answer's order is their priority: the first is the
// newest), updates and retirements expect the version the dream read.
// The plan keeps the texts of every source an operation cited, dropped
// ones included, for people reviewing the dream. originals maps the id
// of each change the restate pass rewrote to the change as the model
// first wrote it.
func (d *Dreamer) planOf(dreamID string, changes []change, src sourceIndex, dropped []agentmem.DroppedBullet, now time.Time) (plan dynamostore.DreamPlan, originals map[string]string) {
	plan = dynamostore.DreamPlan{CreatedBy: map[string]agentmem.ChangeBy{}}
	originals = map[string]string{}
	adds := 0
	for _, c := range changes {
		if c.op == agentmem.OpAdd {
			adds++
		}
	}
	cited := map[string]bool{}
	var order []string
	cite := func(ids []string) {
		for _, id := range ids {
			if !cited[id] {
				cited[id] = true
				order = append(order, id)
			}
		}
	}
	i := 0
	for _, c := range changes {
		cite(c.cites)
		by := changeBy(dreamID, c.cites, c.note)
		switch c.op {
		case agentmem.OpAdd:
			m := c.memory
			m.ID = ulid.Make().String()
			m.CreatedAt = agentmem.FormatTime(now.Add(time.Duration(adds - i)))
			i++
			plan.Create = append(plan.Create, m)
			plan.CreatedBy[m.ID] = by
			if c.restated != "" {
				originals[m.ID] = c.restated
			}
		case agentmem.OpUpdate:
			if c.restated != "" {
				originals[c.memory.ID] = c.restated
			}
			after := c.memory
			plan.Ops = append(plan.Ops, dynamostore.PlanOp{Kind: dynamostore.PlanUpdate, Before: snapshotOf(c.before), After: &after,
				Expect: versionOf(c.before), By: by})
		case agentmem.OpRetire:
			plan.Ops = append(plan.Ops, dynamostore.PlanOp{Kind: dynamostore.PlanRetire, Before: snapshotOf(c.memory),
				Expect: versionOf(c.memory), By: withRule(by, c.rule)})
		}
	}
	for _, b := range dropped {
		cite(b.Citations)
	}
	for _, id := range order {
		if m, ok := src.memories[id]; ok {
			plan.Sources = append(plan.Sources, agentmem.DreamSource{ID: id, Kind: "memory", Type: m.Type, At: m.CreatedAt,
				Text: truncate(oneLine(markdown.Bullet(snapshotOf(m))), planSourceBytes)})
		} else if r, ok := src.records[id]; ok {
			plan.Sources = append(plan.Sources, agentmem.DreamSource{ID: id, Kind: "daily", Title: r.Title, At: r.At,
				Text: truncate(r.Content, planSourceBytes)})
		}
	}
	return plan, originals
}

// withRule adds the retirement rule to a change's note.
func withRule(by agentmem.ChangeBy, rule string) agentmem.ChangeBy {
	prefix := "retired (" + rule + ")"
	if by.Note == "" {
		by.Note = prefix
	} else {
		by.Note = truncate(prefix+": "+by.Note, agentmem.MaxNoteBytes-8)
	}
	return by
}

// addCompression adds a compression to a plan: its items are additions
// citing the memories they summarise, and those memories are retired
// (they stay in their history), each citing the item that took it in.
func (d *Dreamer) addCompression(plan *dynamostore.DreamPlan, dreamID string, cp compression) {
	takenBy := map[string]string{}
	for _, m := range cp.create {
		plan.Create = append(plan.Create, m)
		plan.CreatedBy[m.ID] = changeBy(dreamID, m.SourceIDs, "compressed from older memories")
		for _, id := range m.SourceIDs {
			takenBy[id] = m.ID
		}
	}
	for _, m := range cp.remove {
		plan.Ops = append(plan.Ops, dynamostore.PlanOp{Kind: dynamostore.PlanRetire, Before: snapshotOf(m), Expect: versionOf(m),
			By: changeBy(dreamID, []string{takenBy[m.ID]}, "retired (compressed): summarised into "+takenBy[m.ID])})
	}
}

// operationsOf lists a plan's changes for the diary.
func operationsOf(plan dynamostore.DreamPlan) []agentmem.DreamOperation {
	var out []agentmem.DreamOperation
	for _, m := range plan.Create {
		by := plan.CreatedBy[m.ID]
		out = append(out, agentmem.DreamOperation{Op: agentmem.OpAdd, MemoryID: m.ID, Type: m.Type, Content: bulletText(m),
			Version: 1, Citations: nonNil(by.Citations), Note: by.Note})
	}
	for _, op := range plan.Ops {
		o := agentmem.DreamOperation{MemoryID: op.Before.ID, Type: op.Before.Type, Version: op.Expect + 1,
			Citations: nonNil(op.By.Citations), Note: op.By.Note}
		switch op.Kind {
		case dynamostore.PlanUpdate:
			o.Op, o.Type, o.Content = agentmem.OpUpdate, op.After.Type, bulletText(*op.After)
			o.Before, o.BeforeType = bulletText(op.Before), op.Before.Type
		case dynamostore.PlanRetire:
			o.Op, o.Content = agentmem.OpRetire, bulletText(op.Before)
			if rule, _, ok := strings.Cut(strings.TrimPrefix(op.By.Note, "retired ("), ")"); ok && strings.HasPrefix(op.By.Note, "retired (") {
				o.Rule = rule
			}
		default:
			continue
		}
		out = append(out, o)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// bulletText is a memory as one line of MEMORY.md, cut for the diary.
func bulletText(m agentmem.Memory) string {
	m.Pinned = false
	return truncate(oneLine(markdown.Bullet(m)), 600)
}

func snapshotOf(m agentmem.Memory) agentmem.Memory {
	m.Embedding = nil
	m.Version = versionOf(m)
	return m
}

func versionOf(m agentmem.Memory) int { return max(m.Version, 1) }

// apply writes a plan: the new memories first, then the changes of
// memories that keep their id (updates, retirements, restores, in order),
// then the deletes of plans from before operations, so that a crash in
// between leaves a superset of the old core, never a hole. Every step is
// idempotent, so a replay after a crash writes nothing twice:
// RestoreMemoriesBy skips the memories an earlier attempt wrote; a change
// is conditional on the version the plan read, and one that finds another
// version looks in the memory's history whether this dream made it (done)
// or someone else did since (skipped, and said so in the returned notes:
// a later change by a person is never overwritten); deletes are
// conditional on the id.
func (d *Dreamer) apply(ctx context.Context, agent string, plan dynamostore.DreamPlan) ([]string, error) {
	by := func(m agentmem.Memory) agentmem.ChangeBy {
		if b, ok := plan.CreatedBy[m.ID]; ok {
			return b
		}
		return agentmem.ChangeBy{Kind: agentmem.BySystem, Note: "written with its id and createdAt fixed in advance (a dream's plan or its revert)"}
	}
	if _, err := d.Store.RestoreMemoriesBy(ctx, plan.Create, by); err != nil {
		return nil, err
	}
	if err := d.hit("created"); err != nil {
		return nil, err
	}
	var notes []string
	for _, op := range plan.Ops {
		note, err := d.applyOp(ctx, agent, op)
		if err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		if err := d.hit("op"); err != nil {
			return nil, err
		}
	}
	if _, err := d.Store.DeleteMemories(ctx, plan.Delete); err != nil {
		return nil, err
	}
	return notes, d.hit("deleted")
}

// applyOp applies one change; a change someone else's write made
// impossible is skipped with a note.
func (d *Dreamer) applyOp(ctx context.Context, agent string, op dynamostore.PlanOp) (string, error) {
	id := op.Before.ID
	var err error
	switch op.Kind {
	case dynamostore.PlanUpdate:
		a := *op.After
		if a.Type == "" {
			a.Type = agentmem.TypeNote
		}
		expect := op.Expect
		patch := agentmem.MemoryPatch{Version: &expect, Content: &a.Content, Type: &a.Type, Rationale: &a.Rationale, Status: &a.Status,
			Trigger: &a.Trigger, Context: &a.Context, Solution: &a.Solution, Confidence: a.Confidence}
		_, _, err = d.Store.UpdateMemory(ctx, agent, id, patch, op.By)
	case dynamostore.PlanRetire:
		_, err = d.Store.RetireMemory(ctx, agent, id, op.Expect, op.By)
	case dynamostore.PlanRestore:
		expect := op.Expect
		_, err = d.Store.RestoreVersion(ctx, agent, id, op.Restore, &expect, op.By)
	default:
		return "", fmt.Errorf("plan: unknown change %q of memory %s", op.Kind, id)
	}
	switch agentmem.ErrorCode(err) {
	case "":
		return "", nil
	case agentmem.EConflict, agentmem.ENotFound:
		done, herr := d.madeBy(ctx, agent, id, op.By.DreamID)
		if herr != nil {
			return "", herr
		}
		if done {
			return "", nil // a replay: this dream made it before the crash
		}
		d.Log.WarnContext(ctx, "dream change skipped: the memory changed since the dream read it", "memory", id, "change", op.Kind, "err", err)
		return fmt.Sprintf("%s of memory %s skipped: %s", op.Kind, id, agentmem.ErrorMessage(err)), nil
	}
	return "", fmt.Errorf("%s memory %s: %w", op.Kind, id, err)
}

// madeBy reports whether one of the newest versions of memory id was made
// by the dream (or revert) dreamID.
func (d *Dreamer) madeBy(ctx context.Context, agent, id, dreamID string) (bool, error) {
	if dreamID == "" {
		return false, nil
	}
	h, err := d.Store.MemoryHistory(ctx, agent, id, 10, "")
	switch {
	case agentmem.ErrorCode(err) == agentmem.ENotFound:
		return false, nil
	case err != nil:
		return false, err
	}
	for _, v := range h.Versions {
		if v.By.Kind == agentmem.ByDream && v.By.DreamID == dreamID {
			return true, nil
		}
	}
	return false, nil
}
