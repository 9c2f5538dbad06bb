package dynamostore

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// PendingShards is how many partitions of the pending-index list the
// scopes with undreamed daily content: the dispatcher's PendingShards
// queries read exactly those scopes, never the others.
const PendingShards = 16

// Journal sort keys of Deep Dream's items, all in the partition
// "dream#<agent>#<project>".
const (
	dreamStateSK = "state"
	diaryPrefix  = "diary#" // diary#<date>#<dream id>: a diary entry
	planPrefix   = "plan#"  // plan#<dream id>#<NNN>: the entry's plan, in chunks
	// planChunkBytes keeps each plan chunk well under DynamoDB's 400 KB
	// item limit.
	planChunkBytes = 300 << 10
)

func dreamPK(agentName, projectID string) string {
	return "dream#" + agentmem.Scope(agentName, projectID)
}

func pendingShard(agentName, projectID string) string {
	return "pending#" + shardOf(agentmem.Scope(agentName, projectID), PendingShards)
}

// DreamState is the Deep Dream state of one agent+project scope: what the
// last dream processed, whether daily content is waiting, and the lease of
// the dream running now, if any.
type DreamState struct {
	AgentName string `json:"agentName" dynamo:"agentName"`
	ProjectID string `json:"projectId" dynamo:"projectId"`
	// LastHash is the hash of the daily content the last dream consumed.
	LastHash    string `json:"lastHash,omitempty" dynamo:"lastHash,omitempty"`
	LastDreamAt string `json:"lastDreamAt,omitempty" dynamo:"lastDreamAt,omitempty"`
	LastDreamID string `json:"lastDreamId,omitempty" dynamo:"lastDreamId,omitempty"`
	// AppendSeq counts the daily records ever appended; a dream clears the
	// pending mark only if no record arrived since it read the window.
	AppendSeq    int64  `json:"appendSeq" dynamo:"appendSeq"`
	LastAppendAt string `json:"lastAppendAt,omitempty" dynamo:"lastAppendAt,omitempty"`
	// PendingShard and PendingSince are set while daily content waits for
	// a dream; they are the keys of the sparse pending-index.
	PendingShard string `json:"pendingShard,omitempty" dynamo:"pendingShard,omitempty"`
	PendingSince string `json:"pendingSince,omitempty" dynamo:"pendingSince,omitempty"`
	// LeaseOwner holds the scope until LeaseUntil (Unix milliseconds).
	LeaseOwner string `json:"leaseOwner,omitempty" dynamo:"leaseOwner,omitempty"`
	LeaseUntil int64  `json:"leaseUntil,omitempty" dynamo:"leaseUntil,omitempty"`
	// Committing names the diary entry ("<date>#<id>") whose plan is being
	// applied; the next dream of the scope finishes it.
	Committing string `json:"committing,omitempty" dynamo:"committing,omitempty"`
}

// Pending reports whether daily content waits for a dream.
func (st DreamState) Pending() bool { return st.PendingShard != "" }

type dreamStateItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	DreamState
}

// GetDreamState returns the dream state of a scope (zero when the scope
// never had a daily record or a dream).
func (s *Store) GetDreamState(ctx context.Context, agentName, projectID string) (DreamState, error) {
	var it dreamStateItem
	err := s.journal.Get("pk", dreamPK(agentName, projectID)).Range("sk", dynamo.Equal, dreamStateSK).
		Consistent(true).One(ctx, &it)
	switch {
	case notFound(err):
		return DreamState{AgentName: agentName, ProjectID: projectID}, nil
	case err != nil:
		return DreamState{}, fmt.Errorf("get dream state of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	return it.DreamState, nil
}

// AcquireDreamLease takes the scope's dream lease for owner until now+ttl,
// with a conditional write: it succeeds only if no lease is held or the
// held one has expired, so two dreams of one scope never run at once. It
// returns the scope's state as of the acquisition; EBusy when another
// owner holds the lease.
func (s *Store) AcquireDreamLease(ctx context.Context, agentName, projectID, owner string, ttl time.Duration) (DreamState, error) {
	now := s.now()
	var it dreamStateItem
	wrote, err := s.journal.Update("pk", dreamPK(agentName, projectID)).Range("sk", dreamStateSK).
		Set("leaseOwner", owner).Set("leaseUntil", now.Add(ttl).UnixMilli()).
		Set("agentName", agentName).Set("projectId", projectID).
		If("attribute_not_exists($) OR $ < ?", "leaseUntil", "leaseUntil", now.UnixMilli()).
		CurrentValue(ctx, &it)
	switch {
	case err != nil:
		return DreamState{}, fmt.Errorf("acquire dream lease of %s: %w", agentmem.Scope(agentName, projectID), err)
	case !wrote && it.LeaseOwner == owner:
		// The client sent the update again after its first answer was
		// lost: the lease is this call's.
	case !wrote:
		return DreamState{}, agentmem.Errorf(agentmem.EBusy, "a dream of %s/%s is already running (lease held until %s); try again later",
			agentName, projectID, time.UnixMilli(it.LeaseUntil).UTC().Format(time.RFC3339))
	}
	return it.DreamState, nil
}

// RenewDreamLease extends owner's lease of the scope to now+ttl, with a
// conditional write on the holder: it succeeds while owner holds the
// lease, even one past its time that no one took since. EBusy when another
// dream holds it, or no one does (it was taken and given back meanwhile):
// owner lost it. A renewal sent again after its answer was lost finds the
// same holder and succeeds again.
func (s *Store) RenewDreamLease(ctx context.Context, agentName, projectID, owner string, ttl time.Duration) error {
	err := s.journal.Update("pk", dreamPK(agentName, projectID)).Range("sk", dreamStateSK).
		Set("leaseUntil", s.now().Add(ttl).UnixMilli()).
		If("$ = ?", "leaseOwner", owner).
		Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return agentmem.Errorf(agentmem.EBusy, "the dream lease of %s/%s is no longer held by %s: another dream took it", agentName, projectID, owner)
	case err != nil:
		return fmt.Errorf("renew dream lease of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	return nil
}

// ReleaseDreamLease gives the lease back if owner still holds it.
func (s *Store) ReleaseDreamLease(ctx context.Context, agentName, projectID, owner string) error {
	err := s.journal.Update("pk", dreamPK(agentName, projectID)).Range("sk", dreamStateSK).
		Remove("leaseOwner", "leaseUntil").
		If("$ = ?", "leaseOwner", owner).
		Run(ctx)
	if err != nil && !dynamo.IsCondCheckFailed(err) {
		return fmt.Errorf("release dream lease of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	return nil
}

// ClearPending removes the scope from the pending-index if no daily record
// was appended since the dream read appendSeq (seq); it reports whether it
// did. A record appended meanwhile keeps the scope pending for the next
// dispatch.
func (s *Store) ClearPending(ctx context.Context, agentName, projectID string, seq int64) (bool, error) {
	u := s.journal.Update("pk", dreamPK(agentName, projectID)).Range("sk", dreamStateSK).
		Remove("pendingShard", "pendingSince")
	if seq == 0 {
		u = u.If("attribute_exists($) AND attribute_not_exists($)", "pk", "appendSeq")
	} else {
		u = u.If("$ = ?", "appendSeq", seq)
	}
	err := u.Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("clear pending mark of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	return true, nil
}

// ReadStats tells how much a read cost: items DynamoDB examined and the
// read capacity it reports (0 where it reports none).
type ReadStats struct {
	Items    int64   `json:"items"`
	Capacity float64 `json:"capacity"`
}

// EachPendingScope calls fn for every scope with undreamed daily content:
// PendingShards queries of the sparse pending-index, which holds only
// those scopes, so the cost grows with their number and not with the
// number of scopes. fn receives AgentName, ProjectID and PendingSince.
func (s *Store) EachPendingScope(ctx context.Context, fn func(DreamState) error) (ReadStats, error) {
	var sm dynamo.ScanMetrics
	var cc dynamo.ConsumedCapacity
	for shard := range PendingShards {
		it := s.journal.Get("pendingShard", fmt.Sprintf("pending#%02d", shard)).Index(PendingIndex).
			Project("agentName", "projectId", "pendingSince").
			ScanMetrics(&sm).ConsumedCapacity(&cc).Iter()
		var st DreamState
		for it.Next(ctx, &st) {
			if err := fn(st); err != nil {
				return ReadStats{sm.Scanned, cc.Total}, err
			}
			st = DreamState{}
		}
		if err := it.Err(); err != nil {
			return ReadStats{sm.Scanned, cc.Total}, fmt.Errorf("read pending scopes (shard %d): %w", shard, err)
		}
	}
	return ReadStats{sm.Scanned, cc.Total}, nil
}

// DreamPlan is what a dream (or a revert) changes in the core: the
// memories it writes, with their ids and createdAt fixed in advance so
// that replaying the plan is idempotent; the changes to memories that keep
// their id (Ops: updates, retirements, restores, each conditional on the
// version read, each kept in the memory's history); and the memories it
// deletes, kept whole so that a revert can restore them (dreams from
// before operations, and their reverts). Sources are the cited sources'
// texts, for people reviewing the dream.
type DreamPlan struct {
	Create []agentmem.Memory
	// CreatedBy says, by id, who writes each memory of Create (a dream's
	// id, citations and note), for its history; the system otherwise.
	CreatedBy map[string]agentmem.ChangeBy
	Ops       []PlanOp
	Delete    []agentmem.Memory
	Sources   []agentmem.DreamSource
}

// Kinds of PlanOp.
const (
	PlanUpdate  = "update"  // UpdateMemory to After, expecting version Expect
	PlanRetire  = "retire"  // RetireMemory, expecting version Expect
	PlanRestore = "restore" // RestoreVersion of Restore, expecting version Expect
)

// PlanOp is one change of a plan to a memory that keeps its id.
type PlanOp struct {
	Kind string `json:"kind"`
	// Before is the memory as the dream read it (its Version is the one
	// the change expects, unless Expect says otherwise).
	Before agentmem.Memory `json:"before"`
	// After is an update's new memory (content, type, typed fields).
	After *agentmem.Memory `json:"after,omitempty"`
	// Expect is the version the memory must be at for the change to
	// apply: another means someone changed it since, and the change is
	// skipped.
	Expect int `json:"expect"`
	// Restore is the version a restore puts back.
	Restore int `json:"restore,omitempty"`
	// By is who makes the change (a dream's id, citations and note).
	By agentmem.ChangeBy `json:"by"`
}

// Written lists what the plan writes: its new memories, the new versions
// of those it updates, and the versions it restores.
func (p DreamPlan) Written() []agentmem.Memory {
	out := append([]agentmem.Memory(nil), p.Create...)
	for _, op := range p.Ops {
		switch {
		case op.Kind == PlanUpdate && op.After != nil:
			out = append(out, *op.After)
		case op.Kind == PlanRestore:
			out = append(out, op.Before)
		}
	}
	return out
}

// Replaced lists the memories as they were before the plan changed them:
// those it updates or retires, and those it deletes.
func (p DreamPlan) Replaced() []agentmem.Memory {
	out := append([]agentmem.Memory(nil), p.Delete...)
	for _, op := range p.Ops {
		if op.Kind == PlanUpdate || op.Kind == PlanRetire {
			out = append(out, op.Before)
		}
	}
	return out
}

// planMemory carries a memory's embedding, which its JSON form leaves out.
type planMemory struct {
	agentmem.Memory
	Embedding []byte `json:"embedding,omitempty"`
}

type planJSON struct {
	Create    []planMemory                 `json:"create"`
	CreatedBy map[string]agentmem.ChangeBy `json:"createdBy,omitempty"`
	Ops       []PlanOp                     `json:"ops,omitempty"`
	Delete    []planMemory                 `json:"delete"`
	Sources   []agentmem.DreamSource       `json:"sources,omitempty"`
}

func encodePlan(p DreamPlan) ([]byte, error) {
	conv := func(ms []agentmem.Memory) []planMemory {
		out := make([]planMemory, len(ms))
		for i, m := range ms {
			out[i] = planMemory{Memory: m, Embedding: m.Embedding}
		}
		return out
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(planJSON{Create: conv(p.Create), CreatedBy: p.CreatedBy, Ops: p.Ops, Delete: conv(p.Delete), Sources: p.Sources}); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodePlan(data []byte) (DreamPlan, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return DreamPlan{}, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return DreamPlan{}, err
	}
	var pj planJSON
	if err := json.Unmarshal(raw, &pj); err != nil {
		return DreamPlan{}, err
	}
	conv := func(ps []planMemory) []agentmem.Memory {
		out := make([]agentmem.Memory, len(ps))
		for i, p := range ps {
			out[i] = p.Memory
			out[i].Embedding = p.Embedding
		}
		return out
	}
	return DreamPlan{Create: conv(pj.Create), CreatedBy: pj.CreatedBy, Ops: pj.Ops, Delete: conv(pj.Delete), Sources: pj.Sources}, nil
}

// dreamItem is a diary entry as stored.
type dreamItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	agentmem.Dream
	PlanChunks int `dynamo:"planChunks,omitempty"`
	// ExpiresAt ends the entry's retention (Store.DreamRetention); 0
	// keeps it.
	ExpiresAt int64 `dynamo:"expiresAt,omitempty"`
}

type planChunk struct {
	PK        string `dynamo:"pk,hash"`
	SK        string `dynamo:"sk,range"`
	Data      []byte `dynamo:"data"`
	ExpiresAt int64  `dynamo:"expiresAt,omitempty"`
}

// dreamExpiry is when a diary entry or plan written now expires: 0 (never)
// without a DreamRetention.
func (s *Store) dreamExpiry() int64 {
	if s.DreamRetention <= 0 {
		return 0
	}
	return s.now().Add(s.DreamRetention).Unix()
}

// dreamRef is the part of a diary sort key after "diary#":
// "<date>#<id>". DreamState.Committing holds one.
func dreamRef(d agentmem.Dream) string { return d.Date + "#" + d.ID }

// BeginDream starts the commit of a dream or revert: it stores the plan
// and the diary entry d (status committing) and, in the same transaction,
// marks the scope's state as committing d, on condition that owner still
// holds the lease. From then on the plan is the truth: ApplyDreamPlan and
// FinishDream complete it, and if the process dies first, the next dream
// of the scope completes it (roll forward).
func (s *Store) BeginDream(ctx context.Context, d agentmem.Dream, plan DreamPlan, owner string) error {
	data, err := encodePlan(plan)
	if err != nil {
		return fmt.Errorf("encode dream plan %s: %w", d.ID, err)
	}
	pk := dreamPK(d.AgentName, d.ProjectID)
	var chunks []any
	for i := 0; i == 0 || i*planChunkBytes < len(data); i++ {
		part := data[i*planChunkBytes : min(len(data), (i+1)*planChunkBytes)]
		chunks = append(chunks, planChunk{PK: pk, SK: fmt.Sprintf("%s%s#%03d", planPrefix, d.ID, i), Data: part, ExpiresAt: s.dreamExpiry()})
	}
	if _, err := s.journal.Batch("pk", "sk").Write().Put(chunks...).Run(ctx); err != nil {
		return fmt.Errorf("store dream plan %s: %w", d.ID, err)
	}
	d.Status = agentmem.DreamCommitting
	now := s.now()
	put := s.journal.Put(dreamItem{PK: pk, SK: diaryPrefix + dreamRef(d), Dream: d, PlanChunks: len(chunks), ExpiresAt: s.dreamExpiry()}).
		If("attribute_not_exists($)", "pk")
	mark := s.journal.Update("pk", pk).Range("sk", dreamStateSK).
		Set("committing", dreamRef(d)).
		If("$ = ? AND $ > ?", "leaseOwner", owner, "leaseUntil", now.UnixMilli())
	err = s.db.WriteTx().Idempotent(true).Put(put).Update(mark).Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return agentmem.Errorf(agentmem.EBusy, "dream %s of %s/%s lost its lease before committing; nothing changed", d.ID, d.AgentName, d.ProjectID)
	case err != nil:
		return fmt.Errorf("begin dream %s: %w", d.ID, err)
	}
	return nil
}

// DreamPlanOf reads back the plan stored with a diary entry.
func (s *Store) DreamPlanOf(ctx context.Context, d agentmem.Dream) (DreamPlan, error) {
	var chunks []planChunk
	err := s.journal.Get("pk", dreamPK(d.AgentName, d.ProjectID)).
		Range("sk", dynamo.BeginsWith, planPrefix+d.ID+"#").
		Order(dynamo.Ascending).Consistent(true).All(ctx, &chunks)
	if err != nil {
		return DreamPlan{}, fmt.Errorf("read plan of dream %s: %w", d.ID, err)
	}
	if len(chunks) == 0 {
		return DreamPlan{}, agentmem.Errorf(agentmem.ENotFound, "dream %s has no stored plan", d.ID)
	}
	var data []byte
	for _, c := range chunks {
		data = append(data, c.Data...)
	}
	plan, err := decodePlan(data)
	if err != nil {
		return DreamPlan{}, fmt.Errorf("decode plan of dream %s: %w", d.ID, err)
	}
	return plan, nil
}

// FinishDream completes the commit BeginDream started (at d.FinishedAt,
// default now), in one transaction:
// the diary entry becomes committed (with d's counts, and d's notes when
// it has any: what the apply skipped); the scope's state forgets the commit
// marker and, for a dream (hash set), records the processed hash; for a
// revert, the dream it undid is marked reverted. Finishing twice is
// harmless: a commit already finished is left as it is.
func (s *Store) FinishDream(ctx context.Context, d agentmem.Dream, hash string) error {
	pk := dreamPK(d.AgentName, d.ProjectID)
	now := d.FinishedAt
	if now == "" {
		now = agentmem.FormatTime(s.now())
	}
	tx := s.db.WriteTx().Idempotent(true)
	entry := s.journal.Update("pk", pk).Range("sk", diaryPrefix+dreamRef(d)).
		Set("status", agentmem.DreamCommitted).Set("finishedAt", now).
		Set("created", d.Created).Set("deleted", d.Deleted).Set("updated", d.Updated).Set("retired", d.Retired)
	if len(d.Notes) > 0 {
		entry = entry.Set("notes", d.Notes)
	}
	tx.Update(entry)
	state := s.journal.Update("pk", pk).Range("sk", dreamStateSK).
		Remove("committing").
		If("$ = ?", "committing", dreamRef(d))
	if hash != "" {
		state = state.Set("lastHash", hash).Set("lastDreamAt", now).Set("lastDreamId", d.ID)
	}
	tx.Update(state)
	if d.Kind == agentmem.DreamKindRevert && d.RevertOf != "" {
		tx.Update(s.journal.Update("pk", pk).Range("sk", diaryPrefix+d.RevertOf).
			Set("status", agentmem.DreamReverted).Set("revertedBy", d.ID).
			If("attribute_exists($)", "pk"))
	}
	err := tx.Run(ctx)
	switch {
	case dynamo.IsCondCheckFailed(err):
		return nil // finished before (a roll forward raced this one)
	case err != nil:
		return fmt.Errorf("finish dream %s: %w", d.ID, err)
	}
	return nil
}

// RecordDream stores a diary entry that changed nothing (a failed dream).
func (s *Store) RecordDream(ctx context.Context, d agentmem.Dream) error {
	err := s.journal.Put(dreamItem{PK: dreamPK(d.AgentName, d.ProjectID), SK: diaryPrefix + dreamRef(d), Dream: d, ExpiresAt: s.dreamExpiry()}).
		If("attribute_not_exists($)", "pk").Run(ctx)
	if err != nil {
		return fmt.Errorf("record dream %s: %w", d.ID, err)
	}
	return nil
}

// DreamByRef returns the diary entry "<date>#<id>" of a scope.
func (s *Store) DreamByRef(ctx context.Context, agentName, projectID, ref string) (agentmem.Dream, error) {
	var it dreamItem
	err := s.journal.Get("pk", dreamPK(agentName, projectID)).Range("sk", dynamo.Equal, diaryPrefix+ref).
		Consistent(true).One(ctx, &it)
	switch {
	case notFound(err):
		return agentmem.Dream{}, agentmem.Errorf(agentmem.ENotFound, "no dream %s for %s/%s", ref, agentName, projectID)
	case err != nil:
		return agentmem.Dream{}, fmt.Errorf("get dream %s: %w", ref, err)
	}
	return it.Dream, nil
}

// DreamsOn returns the diary entries of one UTC day, oldest first.
func (s *Store) DreamsOn(ctx context.Context, agentName, projectID, date string) ([]agentmem.Dream, error) {
	if _, err := agentmem.ParseDate(date); err != nil {
		return nil, err
	}
	var items []dreamItem
	err := s.journal.Get("pk", dreamPK(agentName, projectID)).Range("sk", dynamo.BeginsWith, diaryPrefix+date+"#").
		Order(dynamo.Ascending).Consistent(true).All(ctx, &items)
	if err != nil {
		return nil, fmt.Errorf("read dreams of %s: %w", date, err)
	}
	return dreamsOf(items), nil
}

func dreamsOf(items []dreamItem) []agentmem.Dream {
	out := make([]agentmem.Dream, len(items))
	for i, it := range items {
		out[i] = it.Dream
	}
	return out
}

// ListDreams returns a scope's diary entries, newest first, limit per page
// (1..50, default 20); cursor continues a previous page.
func (s *Store) ListDreams(ctx context.Context, agentName, projectID string, limit int, cursor string) (agentmem.DreamPage, error) {
	if limit <= 0 || limit > agentmem.MaxListLimit {
		limit = agentmem.DefaultDreamsPage
	}
	binding := "dreams\x00" + agentName + "\x00" + projectID
	q := s.journal.Get("pk", dreamPK(agentName, projectID)).Order(dynamo.Descending)
	if cursor != "" {
		ref, err := s.openCursor(ctx, binding, cursor)
		if err != nil {
			return agentmem.DreamPage{}, err
		}
		if !validDreamRef(ref) {
			return agentmem.DreamPage{}, errBadCursor
		}
		// Nothing in the partition sorts below "diary#", so "less than the
		// cursor" is "older entries".
		q = q.Range("sk", dynamo.Less, diaryPrefix+ref)
	} else {
		q = q.Range("sk", dynamo.BeginsWith, diaryPrefix)
	}
	var items []dreamItem
	if err := q.Limit(limit+1).All(ctx, &items); err != nil {
		return agentmem.DreamPage{}, fmt.Errorf("list dreams of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	page := agentmem.DreamPage{Dreams: dreamsOf(items[:min(limit, len(items))])}
	if len(items) > limit {
		next, err := s.sealCursor(ctx, binding, dreamRef(items[limit-1].Dream))
		if err != nil {
			return agentmem.DreamPage{}, err
		}
		page.NextCursor = next
	}
	return page, nil
}

// validDreamRef reports whether ref is a diary entry reference,
// "<YYYY-MM-DD>#<id>".
func validDreamRef(ref string) bool {
	date, id, ok := strings.Cut(ref, "#")
	_, err := agentmem.ParseDate(date)
	return ok && err == nil && id != "" && !strings.Contains(id, "#")
}

// LatestCommittedDream returns the newest diary entry of kind dream that
// changed the core (committed, or since reverted); ENotFound if none.
func (s *Store) LatestCommittedDream(ctx context.Context, agentName, projectID string) (agentmem.Dream, error) {
	var it dreamItem
	err := s.journal.Get("pk", dreamPK(agentName, projectID)).Range("sk", dynamo.BeginsWith, diaryPrefix).
		Filter("$ = ? AND ($ = ? OR $ = ?)", "kind", agentmem.DreamKindDream,
			"status", agentmem.DreamCommitted, "status", agentmem.DreamReverted).
		Order(dynamo.Descending).Consistent(true).Limit(1).One(ctx, &it)
	switch {
	case notFound(err):
		return agentmem.Dream{}, agentmem.Errorf(agentmem.ENotFound, "%s/%s has no committed dream", agentName, projectID)
	case err != nil:
		return agentmem.Dream{}, fmt.Errorf("find latest dream of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	return it.Dream, nil
}
