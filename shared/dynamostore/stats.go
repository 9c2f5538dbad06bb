package dynamostore

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// StatsShards is how many journal partitions hold the scope counters. A
// scope's counters live in partition "stats#NN" (NN from a hash of the
// scope) under sort key "<agent>#<project>", so that listing every scope is
// StatsShards queries instead of a table scan, and no single partition
// takes every write.
const StatsShards = 16

// ScopeCounts are the running counters of one agent+project scope. Every
// write path of the store keeps them (ADD on the counters item after each
// successful write or delete); RecountScope rebuilds them from the
// memories when they have drifted (a process killed between the two
// writes).
type ScopeCounts struct {
	AgentName string `json:"agentName"`
	ProjectID string `json:"projectId"`
	Total     int64  `json:"total"`
	// Bytes approximates the memories' stored size (attribute names plus
	// values, as DynamoDB counts item size).
	Bytes     int64                     `json:"bytes"`
	ByType    map[agentmem.Type]int64   `json:"byType"`
	BySource  map[agentmem.Source]int64 `json:"bySource"`
	UpdatedAt string                    `json:"updatedAt,omitempty"`
}

// countDelta is a change to a scope's counters.
type countDelta struct {
	total, bytes int64
	byType       map[agentmem.Type]int64
	bySource     map[agentmem.Source]int64
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

// adjustCounts applies d to the counters of agent+project. The memory
// write it follows has already succeeded, so a failure here is logged, not
// returned: the caller's write must not be retried because of it.
func (s *Store) adjustCounts(ctx context.Context, agentName, projectID string, d countDelta) {
	if d.total == 0 && d.bytes == 0 {
		return
	}
	pk, sk := countsKey(agentName, projectID)
	u := s.journal.Update("pk", pk).Range("sk", sk).
		Add("total", d.total).Add("bytes", d.bytes).
		Set("agentName", agentName).Set("projectId", projectID).
		Set("updatedAt", agentmem.FormatTime(s.now()))
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
	if err := u.Run(ctx); err != nil {
		slog.Default().WarnContext(ctx, "scope counters not updated; RecountScope repairs them",
			"agent", agentName, "project", projectID, "err", err)
	}
}

// GetScopeCounts returns the counters of agent+project; a scope that never
// had a memory has zero counts.
func (s *Store) GetScopeCounts(ctx context.Context, agentName, projectID string) (ScopeCounts, error) {
	pk, sk := countsKey(agentName, projectID)
	var item dynamo.Item
	err := s.journal.Get("pk", pk).Range("sk", dynamo.Equal, sk).Consistent(true).One(ctx, &item)
	switch {
	case notFound(err):
		return emptyCounts(agentName, projectID), nil
	case err != nil:
		return ScopeCounts{}, fmt.Errorf("get counters of %s: %w", sk, err)
	}
	return countsFromItem(item), nil
}

func emptyCounts(agentName, projectID string) ScopeCounts {
	return ScopeCounts{AgentName: agentName, ProjectID: projectID,
		ByType: map[agentmem.Type]int64{}, BySource: map[agentmem.Source]int64{}}
}

// countsFromItem decodes a counters item; zero counters are left out of
// the maps.
func countsFromItem(item dynamo.Item) ScopeCounts {
	str := func(k string) string {
		if v, ok := item[k].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	c := emptyCounts(str("agentName"), str("projectId"))
	c.UpdatedAt = str("updatedAt")
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
// and returns them. Deep Dream calls it after rewriting a scope; operators
// can call it to repair drift.
func (s *Store) RecountScope(ctx context.Context, agentName, projectID string) (ScopeCounts, error) {
	var d countDelta
	err := s.EachMemory(ctx, agentName, projectID, func(m agentmem.Memory) error {
		d.add(deltaOf(m, 1))
		return nil
	})
	if err != nil {
		return ScopeCounts{}, err
	}
	pk, sk := countsKey(agentName, projectID)
	c := emptyCounts(agentName, projectID)
	c.Total, c.Bytes, c.UpdatedAt = d.total, d.bytes, agentmem.FormatTime(s.now())
	item := dynamo.Item{
		"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk},
		"agentName": &types.AttributeValueMemberS{Value: agentName}, "projectId": &types.AttributeValueMemberS{Value: projectID},
		"updatedAt": &types.AttributeValueMemberS{Value: c.UpdatedAt},
		"total":     &types.AttributeValueMemberN{Value: strconv.FormatInt(d.total, 10)},
		"bytes":     &types.AttributeValueMemberN{Value: strconv.FormatInt(d.bytes, 10)},
	}
	for t, n := range d.byType {
		if n != 0 {
			c.ByType[t] = n
			item[typeCounterPrefix+string(t)] = &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
		}
	}
	for src, n := range d.bySource {
		if n != 0 {
			c.BySource[src] = n
			item[sourceCounterPrefix+string(src)] = &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
		}
	}
	if err := s.journal.Put(item).Run(ctx); err != nil {
		return ScopeCounts{}, fmt.Errorf("put counters of %s: %w", sk, err)
	}
	return c, nil
}
