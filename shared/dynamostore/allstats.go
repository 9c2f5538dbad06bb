package dynamostore

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// totalsSK is the sort key of a shard's totals item, next to the scope
// counters in partition "stats#NN". '~' sorts after every character a
// scope key may hold, so the totals item comes last.
const totalsSK = "~totals"

// Page sizes of ListScopeCounts.
const (
	DefaultScopesPage = agentmem.DefaultScopesPage
	MaxScopesPage     = agentmem.MaxScopesPage
)

func emptyTotals() agentmem.Totals { return agentmem.Totals{Counts: newCounts()} }

func shardPK(i int) string { return fmt.Sprintf("stats#%02d", i) }

// GetTotals returns the counters summed over every scope: the shard totals
// items kept next to the scope counters by every write (one BatchGetItem
// of StatsShards keys, however many scopes there are).
func (s *Store) GetTotals(ctx context.Context) (agentmem.Totals, error) {
	keys := make([]dynamo.Keyed, StatsShards)
	for i := range keys {
		keys[i] = dynamo.Keys{shardPK(i), totalsSK}
	}
	var items []dynamo.Item
	err := s.journal.Batch("pk", "sk").Get(keys...).All(ctx, &items)
	if err != nil && !notFound(err) {
		return agentmem.Totals{}, fmt.Errorf("get shard totals: %w", err)
	}
	t := emptyTotals()
	for _, item := range items {
		t.Add(countsFromItem(item).Counts)
		t.Scopes += intAttr(item, "scopes")
	}
	return t, nil
}

// RecountTotals rebuilds every shard's totals from the scope counters (one
// Query per shard, never a scan) and returns the sum. Operators run it to
// repair drift, e.g. after a process died between a scope update and its
// shard update.
func (s *Store) RecountTotals(ctx context.Context) (agentmem.Totals, error) {
	all := emptyTotals()
	for i := range StatsShards {
		var items []dynamo.Item
		if err := s.journal.Get("pk", shardPK(i)).Range("sk", dynamo.Less, totalsSK).All(ctx, &items); err != nil {
			return agentmem.Totals{}, fmt.Errorf("read %s: %w", shardPK(i), err)
		}
		shard := emptyTotals()
		for _, item := range items {
			c := countsFromItem(item)
			shard.Add(c.Counts)
			shard.Scopes += boolInt(c.Total > 0)
		}
		shard.UpdatedAt = agentmem.FormatTime(s.now())
		item := countsItem(shard.Counts)
		item["pk"], item["sk"] = &types.AttributeValueMemberS{Value: shardPK(i)}, &types.AttributeValueMemberS{Value: totalsSK}
		item["scopes"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(shard.Scopes, 10)}
		if err := s.journal.Put(item).Run(ctx); err != nil {
			return agentmem.Totals{}, fmt.Errorf("put totals of %s: %w", shardPK(i), err)
		}
		all.Add(shard.Counts)
		all.Scopes += shard.Scopes
	}
	return all, nil
}

// ListScopeCounts returns the counters of the scopes holding memories, up
// to limit of them (1..MaxScopesPage, 0: DefaultScopesPage), walking the
// StatsShards counter partitions in order: a page costs a Query or a few,
// never a scan. Pass the previous page's NextCursor to continue.
func (s *Store) ListScopeCounts(ctx context.Context, cursor string, limit int) (agentmem.ScopeCountsPage, error) {
	if limit <= 0 || limit > MaxScopesPage {
		limit = DefaultScopesPage
	}
	shard, after := 0, ""
	if cursor != "" {
		var err error
		if shard, after, err = DecodeScopesCursor(cursor); err != nil {
			return agentmem.ScopeCountsPage{}, err
		}
	}
	type found struct {
		shard int
		sk    string
		c     agentmem.ScopeCounts
	}
	var got []found
	// One more than asked tells whether another page exists.
	for ; shard < StatsShards && len(got) <= limit; shard, after = shard+1, "" {
		q := s.journal.Get("pk", shardPK(shard)).
			Filter("$ > ? AND attribute_exists($)", "total", 0, "agentName")
		if after != "" {
			q = q.Range("sk", dynamo.Greater, after)
		}
		var items []dynamo.Item
		if err := q.Limit(limit+1-len(got)).All(ctx, &items); err != nil {
			return agentmem.ScopeCountsPage{}, fmt.Errorf("list %s: %w", shardPK(shard), err)
		}
		for _, item := range items {
			got = append(got, found{shard, strAttr(item, "sk"), countsFromItem(item)})
		}
	}
	page := agentmem.ScopeCountsPage{Scopes: make([]agentmem.ScopeCounts, 0, min(len(got), limit))}
	for i, f := range got {
		if i == limit {
			last := got[limit-1]
			page.NextCursor = EncodeScopesCursor(last.shard, last.sk)
			break
		}
		page.Scopes = append(page.Scopes, f.c)
	}
	return page, nil
}

// EncodeScopesCursor makes the opaque cursor that continues a scope
// listing after the scope key sk of shard.
func EncodeScopesCursor(shard int, sk string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%02d/%s", shard, sk)))
}

// DecodeScopesCursor reverses EncodeScopesCursor; anything else is
// EInvalid.
func DecodeScopesCursor(cursor string) (shard int, sk string, err error) {
	bad := agentmem.Errorf(agentmem.EInvalid, "cursor is malformed")
	b, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil || len(b) < 4 || b[2] != '/' || b[0] < '0' || b[0] > '9' || b[1] < '0' || b[1] > '9' {
		return 0, "", bad
	}
	shard = int(b[0]-'0')*10 + int(b[1]-'0')
	sk = string(b[3:])
	agent, project, ok := strings.Cut(sk, "#")
	if shard >= StatsShards || !ok || agentmem.ValidateAgentName(agent) != nil || agentmem.ValidateProjectID(project) != nil {
		return 0, "", bad
	}
	return shard, sk, nil
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
