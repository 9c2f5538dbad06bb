package dynamostore

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// Scope counters. A scope's counters (agentmem.ScopeCounts: how many
// memories, their counted bytes, by type and by source) are kept in
// CounterSlots journal items, in partition "stats#NN" (NN from a hash of
// the scope, StatsShards of them) under sort keys "<agent>#<project>#<s>".
// Slot s counts exactly the memories whose id hashes to s (slotOf), and is
// written in the same transaction as every write that creates, deletes or
// rewrites one of them (scopeWrite): counters and memories cannot drift
// apart, whatever dies when. Spreading a scope over slots keeps concurrent
// writers of one scope from serialising on one item, and a scope's
// counters are one Query of at most CounterSlots small items.
//
// The totals over every scope are derived on read from the scope counters
// (GetTotals), so they cannot drift either and no item is written by every
// writer.
const (
	StatsShards  = 16
	CounterSlots = 8
)

// countedBytesAttr is the attribute of a memory item holding its counted
// size (MemorySize at the time it was written), so that a delete knows
// what to subtract from a partial read of the item (eviction reads no
// vectors).
const countedBytesAttr = "countedBytes"

// volatileAttrs are the memory attributes rewritten in place without the
// counters knowing: when it was last used, and a pattern's confidence,
// which reinforcement raises. MemorySize leaves them out, so that a touch
// or a raise never changes what a later delete subtracts.
var volatileAttrs = map[string]bool{"lastAccessedAt": true, "confidence": true, countedBytesAttr: true}

func newCounts() agentmem.Counts { return agentmem.NewCounts() }

// countDelta is a change to a scope's counters.
type countDelta struct {
	total, bytes int64
	byType       map[agentmem.Type]int64
	bySource     map[agentmem.Source]int64
}

// deltaOf returns the change that adding (sign 1) or removing (sign -1) a
// memory of type typ and source src with counted size bytes makes.
func deltaOf(typ agentmem.Type, src agentmem.Source, bytes int64, sign int64) countDelta {
	if typ == "" {
		typ = agentmem.TypeNote
	}
	return countDelta{
		total:    sign,
		bytes:    sign * bytes,
		byType:   map[agentmem.Type]int64{typ: sign},
		bySource: map[agentmem.Source]int64{src: sign},
	}
}

// add accumulates o into d.
func (d *countDelta) add(o countDelta) {
	d.total += o.total
	d.bytes += o.bytes
	if d.byType == nil {
		d.byType, d.bySource = map[agentmem.Type]int64{}, map[agentmem.Source]int64{}
	}
	for k, v := range o.byType {
		d.byType[k] += v
	}
	for k, v := range o.bySource {
		d.bySource[k] += v
	}
}

// counts returns d as counters.
func (d countDelta) counts() agentmem.Counts {
	c := newCounts()
	c.Total, c.Bytes = d.total, d.bytes
	for t, n := range d.byType {
		if n != 0 {
			c.ByType[t] = n
		}
	}
	for s, n := range d.bySource {
		if n != 0 {
			c.BySource[s] = n
		}
	}
	return c
}

// MemorySize approximates the stored size of a memory item in bytes, as
// DynamoDB counts item size (attribute names plus values), leaving out the
// volatile attributes (lastAccessedAt, confidence): what the scope's
// counters count for it.
func MemorySize(m agentmem.Memory) int {
	item, err := dynamo.MarshalItem(memoryItem{Scope: agentmem.Scope(m.AgentName, m.ProjectID), Memory: m})
	if err != nil {
		return len(m.Content)
	}
	n := 0
	for k, v := range item {
		if !volatileAttrs[k] {
			n += len(k) + attrSize(v)
		}
	}
	return n
}

func attrSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + attrSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + attrSize(e)
		}
		return n
	}
	return 1
}

// hash32 is the FNV-1a hash that places scopes in shards and memories in
// counter slots.
func hash32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// shardOf spreads scopes over n shards: a stable two-digit shard name from
// a hash of the scope.
func shardOf(scope string, n uint32) string {
	return fmt.Sprintf("%02d", hash32(scope)%n)
}

// slotOf is the counter slot of the memory with id.
func slotOf(id string) int { return int(hash32(id) % CounterSlots) }

func shardPK(i int) string { return fmt.Sprintf("stats#%02d", i) }

// statsPK is the journal partition holding a scope's counters.
func statsPK(agentName, projectID string) string {
	return "stats#" + shardOf(agentmem.Scope(agentName, projectID), StatsShards)
}

// slotPrefix is the sort key prefix of a scope's counter slots.
func slotPrefix(agentName, projectID string) string {
	return agentmem.Scope(agentName, projectID) + "#"
}

// slotSK is the sort key of one counter slot.
func slotSK(agentName, projectID string, slot int) string {
	return slotPrefix(agentName, projectID) + strconv.Itoa(slot)
}

// Counter attribute names: top-level numbers, so that ADD can create them.
const (
	typeCounterPrefix   = "t_"
	sourceCounterPrefix = "s_"
)

// slotUpdate is the update that applies d to one counter slot of a scope,
// for a transaction with the memory writes d stands for. Every such update
// adds one to the slot's seq (the scope's Version sums them) and moves
// changedAt.
func (s *Store) slotUpdate(agentName, projectID string, slot int, d countDelta, now time.Time) *dynamo.Update {
	stamp := agentmem.FormatTime(now)
	u := s.journal.Update("pk", statsPK(agentName, projectID)).Range("sk", slotSK(agentName, projectID, slot)).
		Set("agentName", agentName).Set("projectId", projectID).Set("slot", slot).
		Set("updatedAt", stamp).Set("changedAt", stamp).
		Add("seq", 1)
	if d.total != 0 {
		u = u.Add("total", d.total)
	}
	if d.bytes != 0 {
		u = u.Add("bytes", d.bytes)
	}
	for t, n := range d.byType {
		if n != 0 {
			u = u.Add(typeCounterPrefix+string(t), n)
		}
	}
	for src, n := range d.bySource {
		if n != 0 {
			u = u.Add(sourceCounterPrefix+string(src), n)
		}
	}
	return u
}

// counterSlot is one stored counter slot.
type counterSlot struct {
	agentName, projectID string
	slot                 int
	seq                  int64
	counts               agentmem.Counts
	changedAt            string
}

// slotFromItem decodes a counter slot item; ok is false for items that are
// not slots (an old single counters item, or anything else).
func slotFromItem(item dynamo.Item) (counterSlot, bool) {
	sk := strAttr(item, "sk")
	i := strings.LastIndexByte(sk, '#')
	if i < 0 || strings.Count(sk, "#") != 2 {
		return counterSlot{}, false
	}
	n, err := strconv.Atoi(sk[i+1:])
	if err != nil || n < 0 || n >= CounterSlots {
		return counterSlot{}, false
	}
	c := counterSlot{
		agentName: strAttr(item, "agentName"), projectID: strAttr(item, "projectId"),
		slot: n, seq: intAttr(item, "seq"), counts: newCounts(), changedAt: strAttr(item, "changedAt"),
	}
	c.counts.UpdatedAt = strAttr(item, "updatedAt")
	for k, v := range item {
		nv, ok := v.(*types.AttributeValueMemberN)
		if !ok {
			continue
		}
		x, err := strconv.ParseInt(nv.Value, 10, 64)
		if err != nil {
			continue
		}
		switch {
		case k == "total":
			c.counts.Total = x
		case k == "bytes":
			c.counts.Bytes = x
		case strings.HasPrefix(k, typeCounterPrefix) && x != 0:
			c.counts.ByType[agentmem.Type(strings.TrimPrefix(k, typeCounterPrefix))] = x
		case strings.HasPrefix(k, sourceCounterPrefix) && x != 0:
			c.counts.BySource[agentmem.Source(strings.TrimPrefix(k, sourceCounterPrefix))] = x
		}
	}
	return c, true
}

// scopeCountsOf sums the slots of one scope.
func scopeCountsOf(agentName, projectID string, slots []counterSlot) agentmem.ScopeCounts {
	c := emptyCounts(agentName, projectID)
	for _, sl := range slots {
		c.Counts.Add(sl.counts)
		c.Version += sl.seq
		c.ChangedAt = max(c.ChangedAt, sl.changedAt)
	}
	for t, n := range c.ByType {
		if n == 0 {
			delete(c.ByType, t)
		}
	}
	for src, n := range c.BySource {
		if n == 0 {
			delete(c.BySource, src)
		}
	}
	return c
}

func emptyCounts(agentName, projectID string) agentmem.ScopeCounts {
	return agentmem.ScopeCounts{AgentName: agentName, ProjectID: projectID, Counts: newCounts()}
}

// scopeSlots reads a scope's counter slots: one strongly consistent Query.
func (s *Store) scopeSlots(ctx context.Context, agentName, projectID string) ([]counterSlot, error) {
	var items []dynamo.Item
	err := s.journal.Get("pk", statsPK(agentName, projectID)).
		Range("sk", dynamo.BeginsWith, slotPrefix(agentName, projectID)).
		Consistent(true).All(ctx, &items)
	if err != nil {
		return nil, fmt.Errorf("get counters of %s: %w", agentmem.Scope(agentName, projectID), err)
	}
	slots := make([]counterSlot, 0, len(items))
	for _, item := range items {
		if sl, ok := slotFromItem(item); ok {
			slots = append(slots, sl)
		}
	}
	return slots, nil
}

// GetScopeCounts returns the counters of agent+project (one strongly
// consistent Query of its slots); a scope that never had a memory has zero
// counts.
func (s *Store) GetScopeCounts(ctx context.Context, agentName, projectID string) (agentmem.ScopeCounts, error) {
	slots, err := s.scopeSlots(ctx, agentName, projectID)
	if err != nil {
		return agentmem.ScopeCounts{}, err
	}
	return scopeCountsOf(agentName, projectID, slots), nil
}

// maxRecountAttempts bounds RecountScope's retries when writers change the
// scope while it counts.
const maxRecountAttempts = 16

// RecountScope rebuilds the counters of agent+project from its memories and
// reports them as they were and as they are now. It is safe while writers
// are busy: it reads the slots, then the memories (strongly consistent),
// and writes each slot that differs on condition that its seq has not
// moved since; a slot a writer changed meanwhile is counted again (the
// others are settled). Deep Dream calls it after finishing an interrupted
// commit; operators run it through POST /api/admin/recount (agentmem admin
// recount) and the dream function's {"action":"recount"}.
func (s *Store) RecountScope(ctx context.Context, agentName, projectID string) (agentmem.Recount, error) {
	if err := agentmem.ValidateAgentName(agentName); err != nil {
		return agentmem.Recount{}, err
	}
	if err := agentmem.ValidateProjectID(projectID); err != nil {
		return agentmem.Recount{}, err
	}
	return s.recountScope(ctx, agentName, projectID)
}

// recountScope is RecountScope without the name rule, for scopes read from
// the store: one written before the rule refused dot segments ("." and
// "..") is still recounted.
func (s *Store) recountScope(ctx context.Context, agentName, projectID string) (agentmem.Recount, error) {
	settled := make([]bool, CounterSlots)
	before, after := make([]countDelta, CounterSlots), make([]countDelta, CounterSlots)
	wrote := false
	for attempt := range maxRecountAttempts {
		if attempt > 0 && !awsconfig.Backoff.Wait(ctx, min(attempt, 3), 0) {
			break
		}
		stored, err := s.scopeSlots(ctx, agentName, projectID)
		if err != nil {
			return agentmem.Recount{}, err
		}
		want := make([]countDelta, CounterSlots)
		err = s.eachScopeItem(ctx, agentName, projectID, true, func(it memoryItem) error {
			want[slotOf(it.ID)].add(deltaOf(it.Type, it.Source, int64(MemorySize(it.Memory)), 1))
			return nil
		})
		if err != nil {
			return agentmem.Recount{}, err
		}
		bySlot := map[int]counterSlot{}
		for _, sl := range stored {
			bySlot[sl.slot] = sl
		}
		done := true
		for slot := range CounterSlots {
			if settled[slot] {
				continue
			}
			ok, changed, err := s.writeSlot(ctx, agentName, projectID, slot, bySlot[slot], want[slot])
			if err != nil {
				return agentmem.Recount{}, err
			}
			if !ok {
				done = false // a writer moved it while we counted
				continue
			}
			settled[slot], wrote = true, wrote || changed
			before[slot], after[slot] = countsDelta(bySlot[slot].counts, 1), want[slot]
		}
		if !done {
			continue
		}
		var b, a countDelta
		for slot := range CounterSlots {
			b.add(before[slot])
			a.add(after[slot])
		}
		// Before is what each slot held when its memories were counted,
		// so the drift is what was wrong, not what writers added since.
		r := agentmem.Recount{AgentName: agentName, ProjectID: projectID, Before: b.counts(), After: a.counts(), Drifted: wrote}
		diff := countsDelta(r.After, 1)
		diff.add(countsDelta(r.Before, -1))
		r.Drift = diff.counts()
		if r.Drifted {
			s.log().WarnContext(ctx, "scope counters had drifted; repaired", "agent", agentName, "project", projectID,
				"total", r.Drift.Total, "bytes", r.Drift.Bytes)
		}
		return r, nil
	}
	return agentmem.Recount{}, &agentmem.Error{Code: agentmem.EBusy, RetryAfter: time.Second,
		Message: fmt.Sprintf("the memories of %s/%s kept changing while they were counted; try again", agentName, projectID)}
}

// writeSlot replaces one counter slot with want when it differs, on
// condition that its seq is still cur's (or that it still does not
// exist); ok is false when the condition failed (a writer moved it),
// changed tells whether it was replaced.
func (s *Store) writeSlot(ctx context.Context, agentName, projectID string, slot int, cur counterSlot, want countDelta) (ok, changed bool, err error) {
	exists := cur.counts.ByType != nil
	c := want.counts()
	if exists && sameCounts(cur.counts, c) || !exists && c.Total == 0 && c.Bytes == 0 {
		return true, false, nil
	}
	now := agentmem.FormatTime(s.now())
	item := countsItem(c)
	item["pk"] = &types.AttributeValueMemberS{Value: statsPK(agentName, projectID)}
	item["sk"] = &types.AttributeValueMemberS{Value: slotSK(agentName, projectID, slot)}
	item["agentName"] = &types.AttributeValueMemberS{Value: agentName}
	item["projectId"] = &types.AttributeValueMemberS{Value: projectID}
	item["slot"] = &types.AttributeValueMemberN{Value: strconv.Itoa(slot)}
	item["seq"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(cur.seq+1, 10)}
	item["updatedAt"] = &types.AttributeValueMemberS{Value: now}
	item["changedAt"] = &types.AttributeValueMemberS{Value: now}
	put := s.journal.Put(item)
	if exists {
		put = put.If("$ = ?", "seq", cur.seq)
	} else {
		put = put.If("attribute_not_exists($)", "pk")
	}
	switch err := put.Run(ctx); {
	case dynamo.IsCondCheckFailed(err):
		return false, false, nil
	case err != nil:
		return false, false, fmt.Errorf("put counters of %s slot %d: %w", agentmem.Scope(agentName, projectID), slot, err)
	}
	return true, true, nil
}

// sameCounts reports whether two counters agree (UpdatedAt aside).
func sameCounts(a, b agentmem.Counts) bool {
	if a.Total != b.Total || a.Bytes != b.Bytes {
		return false
	}
	for t, n := range a.ByType {
		if b.ByType[t] != n {
			return false
		}
	}
	for t, n := range b.ByType {
		if a.ByType[t] != n {
			return false
		}
	}
	for src, n := range a.BySource {
		if b.BySource[src] != n {
			return false
		}
	}
	for src, n := range b.BySource {
		if a.BySource[src] != n {
			return false
		}
	}
	return true
}

// countsItem encodes counters as the attributes of a counters item.
func countsItem(c agentmem.Counts) dynamo.Item {
	item := dynamo.Item{
		"total": &types.AttributeValueMemberN{Value: strconv.FormatInt(c.Total, 10)},
		"bytes": &types.AttributeValueMemberN{Value: strconv.FormatInt(c.Bytes, 10)},
	}
	for t, n := range c.ByType {
		item[typeCounterPrefix+string(t)] = &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
	}
	for src, n := range c.BySource {
		item[sourceCounterPrefix+string(src)] = &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
	}
	return item
}

// countsDelta returns c as a change to counters, times sign.
func countsDelta(c agentmem.Counts, sign int64) countDelta {
	d := countDelta{total: sign * c.Total, bytes: sign * c.Bytes,
		byType: map[agentmem.Type]int64{}, bySource: map[agentmem.Source]int64{}}
	for t, n := range c.ByType {
		d.byType[t] = sign * n
	}
	for src, n := range c.BySource {
		d.bySource[src] = sign * n
	}
	return d
}

func strAttr(item dynamo.Item, k string) string {
	if v, ok := item[k].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

func intAttr(item dynamo.Item, k string) int64 {
	if v, ok := item[k].(*types.AttributeValueMemberN); ok {
		n, _ := strconv.ParseInt(v.Value, 10, 64)
		return n
	}
	return 0
}
