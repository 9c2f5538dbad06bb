package dynamostore

import (
	"context"
	"fmt"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// dailyItem is a daily record as stored in the journal table: partition
// "daily#<agent>#<project>", sort key "<at>#<id>" (at in TimeLayout, so a
// day is a range of sort keys and a window of days another).
type dailyItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
	agentmem.DailyRecord
	// ExpiresAt ends the record's retention (Store.DailyRetention after
	// it was written); 0 keeps it.
	ExpiresAt int64 `dynamo:"expiresAt,omitempty"`
}

func dailyPK(agentName, projectID string) string {
	return "daily#" + agentmem.Scope(agentName, projectID)
}

// AppendDaily appends r to its day's log and returns it with its id and
// time. Records are append-only: the put is conditional on the key being
// new, and nothing ever rewrites a record. In the same transaction the
// scope is marked pending in the journal's sparse pending-index (its dream
// state item gets pendingShard and pendingSince, and its appendSeq grows by
// one), so that the nightly dispatcher finds it without a scan. The record
// expires DailyRetention after it is written (when set).
//
// r.AgentName, r.ProjectID, r.Title and r.Content must be set and valid
// (agentmem.DailyInput's rules: EInvalid otherwise); r.At defaults to now.
// The extraction function writes its run summaries here.
func (s *Store) AppendDaily(ctx context.Context, r agentmem.DailyRecord) (agentmem.DailyRecord, error) {
	rec, _, err := s.appendDaily(ctx, r, nil)
	return rec, err
}

// AppendDailyOnce is AppendDaily made idempotent by once: a call with a
// key already used for the same request returns the record that call
// stored, with replayed true, and appends nothing.
func (s *Store) AppendDailyOnce(ctx context.Context, r agentmem.DailyRecord, once Once) (_ agentmem.DailyRecord, replayed bool, _ error) {
	if once.Key == "" {
		return s.appendDaily(ctx, r, nil)
	}
	return s.appendDaily(ctx, r, &once)
}

func (s *Store) appendDaily(ctx context.Context, r agentmem.DailyRecord, once *Once) (agentmem.DailyRecord, bool, error) {
	now := s.now()
	if err := agentmem.ValidateAgentName(r.AgentName); err != nil {
		return agentmem.DailyRecord{}, false, err
	}
	in := agentmem.DailyInput{ProjectID: r.ProjectID, Title: r.Title, Content: r.Content, At: r.At}
	in.Normalize()
	if err := in.Validate(now); err != nil {
		return agentmem.DailyRecord{}, false, err
	}
	r = in.Record(r.AgentName, now)
	r.ID = s.newID(now)
	scope := agentmem.Scope(r.AgentName, r.ProjectID)
	item := dailyItem{PK: dailyPK(r.AgentName, r.ProjectID), SK: r.At + "#" + r.ID, DailyRecord: r}
	if s.DailyRetention > 0 {
		item.ExpiresAt = now.Add(s.DailyRetention).Unix()
	}
	put := s.journal.Put(item).If("attribute_not_exists($)", "pk")
	mark := s.journal.Update("pk", dreamPK(r.AgentName, r.ProjectID)).Range("sk", dreamStateSK).
		Set("agentName", r.AgentName).Set("projectId", r.ProjectID).
		Set("pendingShard", pendingShard(r.AgentName, r.ProjectID)).
		SetIfNotExists("pendingSince", agentmem.FormatTime(now)).
		Set("lastAppendAt", agentmem.FormatTime(now)).
		Add("appendSeq", 1)
	// A conflict with a concurrent transaction on the state item is
	// retried by the client's retryer (dynamo.RetryTxConflicts).
	tx := s.db.WriteTx().Idempotent(true).Put(put).Update(mark)
	if once != nil {
		rec, err := s.onceRecord(*once, r)
		if err != nil {
			return agentmem.DailyRecord{}, false, err
		}
		tx = tx.Put(rec)
	}
	err := tx.Run(ctx)
	reasons := cancelReasons(err)
	switch {
	case err == nil:
		return r, false, nil
	case once != nil && condFailed(reasons, 2):
		var first agentmem.DailyRecord
		err := s.replayAfterConflict(ctx, *once, &first)
		return first, err == nil, err
	case dynamo.IsCondCheckFailed(err):
		return agentmem.DailyRecord{}, false, agentmem.Errorf(agentmem.EConflict, "daily record %s already exists in %s", r.ID, scope)
	}
	return agentmem.DailyRecord{}, false, fmt.Errorf("append daily record to %s: %w", scope, err)
}

// DailyRecords returns the records of agent+project dated in [from, to),
// oldest first.
func (s *Store) DailyRecords(ctx context.Context, agentName, projectID string, from, to time.Time) ([]agentmem.DailyRecord, error) {
	return s.dailyRecords(ctx, agentName, projectID, dynamo.Between, agentmem.FormatTime(from), agentmem.FormatTime(to))
}

// DailyDay returns the records of one UTC day ("YYYY-MM-DD"), oldest
// first; an empty slice for a day with nothing. A day's records are those
// whose sort key starts with the day: a range up to the next midnight
// would be refused for 9999-12-31, whose next day ("10000-01-01...")
// sorts before it.
func (s *Store) DailyDay(ctx context.Context, agentName, projectID, date string) ([]agentmem.DailyRecord, error) {
	if _, err := agentmem.ParseDate(date); err != nil {
		return nil, err
	}
	return s.dailyRecords(ctx, agentName, projectID, dynamo.BeginsWith, date+"T")
}

// dailyRecords returns the records of agent+project whose sort key
// satisfies op with values, oldest first.
func (s *Store) dailyRecords(ctx context.Context, agentName, projectID string, op dynamo.Operator, values ...any) ([]agentmem.DailyRecord, error) {
	var items []dailyItem
	err := s.journal.Get("pk", dailyPK(agentName, projectID)).
		Range("sk", op, values...).
		Order(dynamo.Ascending).Consistent(true).
		All(ctx, &items)
	if err != nil {
		return nil, fmt.Errorf("read daily records of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	out := make([]agentmem.DailyRecord, 0, len(items))
	for _, it := range items {
		out = append(out, it.DailyRecord)
	}
	return out, nil
}
