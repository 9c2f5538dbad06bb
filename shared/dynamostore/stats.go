package dynamostore

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// StatsShards is how many journal partitions hold the scope counters. A
// scope's counters live in partition "stats#NN" (NN from a hash of the
// scope) under sort key "<agent>#<project>", so that listing every scope is
// StatsShards queries instead of a table scan, and no single partition
// takes every write.
//
// Every write path of the store keeps a scope's counters
// (agentmem.ScopeCounts: ADD on the counters item after each successful
// write or delete); RecountScope rebuilds them from the memories when they
// have drifted (a process killed between the two writes).
const StatsShards = 16

func newCounts() agentmem.Counts { return agentmem.NewCounts() }

// countDelta is a change to a scope's counters.
type countDelta struct {
	total, bytes int64
	byType       map[agentmem.Type]int64
	bySource     map[agentmem.Source]int64
	// content is set when memories were created, deleted or changed in
	// what they say (not only lastAccessedAt): it moves ChangedAt.
	content bool
}

// deltaOf returns the change that adding (sign 1) or removing (sign -1) m
// makes to its scope's counters.
func deltaOf(m agentmem.Memory, sign int64) countDelta {
	t := m.Type
	if t == "" {
		t = agentmem.TypeNote
	}
	return countDelta{
		total:    sign,
		bytes:    sign * int64(MemorySize(m)),
		byType:   map[agentmem.Type]int64{t: sign},
		bySource: map[agentmem.Source]int64{m.Source: sign},
		content:  true,
	}
}

// add accumulates o into d.
func (d *countDelta) add(o countDelta) {
	d.total += o.total
	d.bytes += o.bytes
	d.content = d.content || o.content
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

// MemorySize approximates the stored size of a memory item in bytes:
// attribute names plus values, as DynamoDB counts item size.
func MemorySize(m agentmem.Memory) int {
	item, err := dynamo.MarshalItem(memoryItem{Scope: agentmem.Scope(m.AgentName, m.ProjectID), Memory: m})
	if err != nil {
		return len(m.Content)
	}
	n := 0
	for k, v := range item {
		n += len(k) + attrSize(v)
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

// countsKey returns the journal key of a scope's counters.
func countsKey(agentName, projectID string) (pk, sk string) {
	scope := agentmem.Scope(agentName, projectID)
	return "stats#" + shardOf(scope, StatsShards), scope
}

// shardOf spreads scopes over n shards: a stable two-digit shard name from
// a hash of the scope.
func shardOf(scope string, n uint32) string {
	h := fnv.New32a()
	h.Write([]byte(scope))
	return fmt.Sprintf("%02d", h.Sum32()%n)
}

// Counter attribute names: top-level numbers, so that ADD can create them.
const (
	typeCounterPrefix   = "t_"
	sourceCounterPrefix = "s_"
)

// adjustCounts applies d to the counters of agent+project, then to the
// totals of its shard, and returns the scope's new total (-1 when the
// counters could not be updated). The memory write it follows has already
// succeeded, so a failure here is logged, not returned: the caller's write
// must not be retried because of it.
func (s *Store) adjustCounts(ctx context.Context, agentName, projectID string, d countDelta) int64 {
	if d.total == 0 && d.bytes == 0 && !d.content {
		return -1
	}
	pk, sk := countsKey(agentName, projectID)
	var old struct {
		Total *int64 `dynamo:"total"`
	}
	u := applyDelta(s.journal.Update("pk", pk).Range("sk", sk), d, s.now()).
		Set("agentName", agentName).Set("projectId", projectID)
	if d.content {
		u = u.Set("changedAt", agentmem.FormatTime(s.now()))
	}
	err := u.OnlyUpdatedOldValue(ctx, &old)
	if err != nil {
		s.log().WarnContext(ctx, "scope counters not updated; RecountScope repairs them",
			"agent", agentName, "project", projectID, "err", err)
		return -1
	}
	before := int64(0)
	if old.Total != nil {
		before = *old.Total
	}
	after := before + d.total
	s.adjustTotals(ctx, pk, d, boolInt(after > 0)-boolInt(before > 0))
	return after
}

// adjustTotals applies d, and a change in the number of scopes holding
// memories, to the totals item of shard pk.
func (s *Store) adjustTotals(ctx context.Context, pk string, d countDelta, scopes int64) {
	u := applyDelta(s.journal.Update("pk", pk).Range("sk", totalsSK), d, s.now())
	if scopes != 0 {
		u = u.Add("scopes", scopes)
	}
	if err := u.Run(ctx); err != nil {
		s.log().WarnContext(ctx, "shard totals not updated; RecountTotals repairs them", "shard", pk, "err", err)
	}
}

// applyDelta adds d's counters to the update u.
func applyDelta(u *dynamo.Update, d countDelta, now time.Time) *dynamo.Update {
	u = u.Add("total", d.total).Add("bytes", d.bytes).Set("updatedAt", agentmem.FormatTime(now))
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

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// GetScopeCounts returns the counters of agent+project; a scope that never
// had a memory has zero counts.
func (s *Store) GetScopeCounts(ctx context.Context, agentName, projectID string) (agentmem.ScopeCounts, error) {
	pk, sk := countsKey(agentName, projectID)
	var item dynamo.Item
	err := s.journal.Get("pk", pk).Range("sk", dynamo.Equal, sk).Consistent(true).One(ctx, &item)
	switch {
	case notFound(err):
		return emptyCounts(agentName, projectID), nil
	case err != nil:
		return agentmem.ScopeCounts{}, fmt.Errorf("get counters of %s: %w", sk, err)
	}
	return countsFromItem(item), nil
}

func emptyCounts(agentName, projectID string) agentmem.ScopeCounts {
	return agentmem.ScopeCounts{AgentName: agentName, ProjectID: projectID, Counts: newCounts()}
}

// countsFromItem decodes a counters item; zero counters are left out of
// the maps.
func countsFromItem(item dynamo.Item) agentmem.ScopeCounts {
	c := emptyCounts(strAttr(item, "agentName"), strAttr(item, "projectId"))
	c.UpdatedAt = strAttr(item, "updatedAt")
	c.ChangedAt = strAttr(item, "changedAt")
	for k, v := range item {
		nv, ok := v.(*types.AttributeValueMemberN)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(nv.Value, 10, 64)
		if err != nil {
			continue
		}
		switch {
		case k == "total":
			c.Total = n
		case k == "bytes":
			c.Bytes = n
		case strings.HasPrefix(k, typeCounterPrefix) && n != 0:
			c.ByType[agentmem.Type(strings.TrimPrefix(k, typeCounterPrefix))] = n
		case strings.HasPrefix(k, sourceCounterPrefix) && n != 0:
			c.BySource[agentmem.Source(strings.TrimPrefix(k, sourceCounterPrefix))] = n
		}
	}
	return c
}

// RecountScope rebuilds the counters of agent+project from its memories
// and returns them; the shard totals move by the difference. Deep Dream
// calls it after rewriting a scope; operators can call it to repair drift.
func (s *Store) RecountScope(ctx context.Context, agentName, projectID string) (agentmem.ScopeCounts, error) {
	var d countDelta
	err := s.EachMemory(ctx, agentName, projectID, func(m agentmem.Memory) error {
		d.add(deltaOf(m, 1))
		return nil
	})
	if err != nil {
		return agentmem.ScopeCounts{}, err
	}
	pk, sk := countsKey(agentName, projectID)
	c := emptyCounts(agentName, projectID)
	c.Total, c.Bytes, c.UpdatedAt = d.total, d.bytes, agentmem.FormatTime(s.now())
	c.ChangedAt = c.UpdatedAt
	for t, n := range d.byType {
		if n != 0 {
			c.ByType[t] = n
		}
	}
	for src, n := range d.bySource {
		if n != 0 {
			c.BySource[src] = n
		}
	}
	item := countsItem(c.Counts)
	item["pk"], item["sk"] = &types.AttributeValueMemberS{Value: pk}, &types.AttributeValueMemberS{Value: sk}
	item["agentName"], item["projectId"] = &types.AttributeValueMemberS{Value: agentName}, &types.AttributeValueMemberS{Value: projectID}
	item["changedAt"] = &types.AttributeValueMemberS{Value: c.ChangedAt}
	var oldItem dynamo.Item
	err = s.journal.Put(item).OldValue(ctx, &oldItem)
	if err != nil && !notFound(err) {
		return agentmem.ScopeCounts{}, fmt.Errorf("put counters of %s: %w", sk, err)
	}
	old := countsFromItem(oldItem)
	diff := countsDelta(c.Counts, 1)
	diff.add(countsDelta(old.Counts, -1))
	s.adjustTotals(ctx, pk, diff, boolInt(c.Total > 0)-boolInt(old.Total > 0))
	return c, nil
}

// countsItem encodes counters as the attributes of a counters item.
func countsItem(c agentmem.Counts) dynamo.Item {
	item := dynamo.Item{
		"updatedAt": &types.AttributeValueMemberS{Value: c.UpdatedAt},
		"total":     &types.AttributeValueMemberN{Value: strconv.FormatInt(c.Total, 10)},
		"bytes":     &types.AttributeValueMemberN{Value: strconv.FormatInt(c.Bytes, 10)},
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
