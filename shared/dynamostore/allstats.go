package dynamostore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
	"golang.org/x/sync/errgroup"
)

// Page sizes of ListScopeCounts.
const (
	DefaultScopesPage = agentmem.DefaultScopesPage
	MaxScopesPage     = agentmem.MaxScopesPage
)

func emptyTotals() agentmem.Totals { return agentmem.Totals{Counts: newCounts()} }

// shardScopes calls fn for every scope with counters in shard, in sort key
// order, after the scope key after ("" from the start), each with its
// slots summed. fn returning false stops the walk.
func (s *Store) shardScopes(ctx context.Context, shard int, after string, fn func(agentmem.ScopeCounts) bool) error {
	q := s.journal.Get("pk", shardPK(shard))
	if after != "" {
		// "~" sorts after every slot number: skip the whole scope.
		q = q.Range("sk", dynamo.Greater, after+"#~")
	}
	it := q.Iter()
	var (
		item    dynamo.Item
		cur     string
		slots   []counterSlot
		stopped bool
	)
	emit := func() bool {
		if cur == "" || len(slots) == 0 {
			return true
		}
		return fn(scopeCountsOf(slots[0].agentName, slots[0].projectID, slots))
	}
	for it.Next(ctx, &item) {
		sl, ok := slotFromItem(item)
		item = nil
		if !ok {
			continue // not a counter slot (an old single counters item)
		}
		scope := agentmem.Scope(sl.agentName, sl.projectID)
		if scope != cur {
			if !emit() {
				stopped = true
				break
			}
			cur, slots = scope, slots[:0]
		}
		slots = append(slots, sl)
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("read %s: %w", shardPK(shard), err)
	}
	if !stopped {
		emit()
	}
	return nil
}

// GetTotals returns the counters summed over every scope, and how many
// scopes hold memories. They are derived from the scope counters (one
// Query per shard, StatsShards in parallel, never a scan), so they are as
// exact as those and no item is written by every writer; the cost grows
// with the number of scopes (about 150 bytes a counter slot, a few MB for
// ten thousand busy scopes).
func (s *Store) GetTotals(ctx context.Context) (agentmem.Totals, error) {
	parts := make([]agentmem.Totals, StatsShards)
	g, gctx := errgroup.WithContext(ctx)
	for i := range StatsShards {
		g.Go(func() error {
			t := emptyTotals()
			err := s.shardScopes(gctx, i, "", func(c agentmem.ScopeCounts) bool {
				t.Add(c.Counts)
				if c.Total > 0 {
					t.Scopes++
				}
				return true
			})
			parts[i] = t
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return agentmem.Totals{}, fmt.Errorf("sum the scope counters: %w", err)
	}
	all := emptyTotals()
	for _, t := range parts {
		all.Add(t.Counts)
		all.Scopes += t.Scopes
	}
	for k, n := range all.ByType {
		if n == 0 {
			delete(all.ByType, k)
		}
	}
	for k, n := range all.BySource {
		if n == 0 {
			delete(all.BySource, k)
		}
	}
	return all, nil
}

// scopesBinding is what a scope listing's cursor is sealed to.
const scopesBinding = "scopes"

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
		pos, err := s.openCursor(ctx, scopesBinding, cursor)
		if err != nil {
			return agentmem.ScopeCountsPage{}, err
		}
		if shard, after, err = decodeScopesPosition(pos); err != nil {
			return agentmem.ScopeCountsPage{}, err
		}
	}
	type found struct {
		shard int
		c     agentmem.ScopeCounts
	}
	var got []found
	// One more than asked tells whether another page exists.
	for ; shard < StatsShards && len(got) <= limit; shard, after = shard+1, "" {
		err := s.shardScopes(ctx, shard, after, func(c agentmem.ScopeCounts) bool {
			if c.Total > 0 {
				got = append(got, found{shard, c})
			}
			return len(got) <= limit
		})
		if err != nil {
			return agentmem.ScopeCountsPage{}, fmt.Errorf("list scopes: %w", err)
		}
	}
	page := agentmem.ScopeCountsPage{Scopes: make([]agentmem.ScopeCounts, 0, min(len(got), limit))}
	for i, f := range got {
		if i == limit {
			last := got[limit-1]
			next, err := s.sealCursor(ctx, scopesBinding, encodeScopesPosition(last.shard, agentmem.Scope(last.c.AgentName, last.c.ProjectID)))
			if err != nil {
				return agentmem.ScopeCountsPage{}, err
			}
			page.NextCursor = next
			break
		}
		page.Scopes = append(page.Scopes, f.c)
	}
	return page, nil
}

// EachScope calls fn with the agent and project of every scope that has
// counters (holding memories or not), shard by shard: the scopes the
// store knows of, which RecountAll walks. Every write keeps a scope's
// counters, so a scope with memories has them.
func (s *Store) EachScope(ctx context.Context, fn func(agentName, projectID string) error) error {
	for shard := range StatsShards {
		var ferr error
		err := s.shardScopes(ctx, shard, "", func(c agentmem.ScopeCounts) bool {
			ferr = fn(c.AgentName, c.ProjectID)
			return ferr == nil
		})
		if err != nil {
			return err
		}
		if ferr != nil {
			return ferr
		}
	}
	return nil
}

// RecountAll recounts every scope the store knows of (EachScope) and
// returns the reports of those whose counters had drifted, and how many it
// recounted. The dream function runs it for {"action":"recount"}.
func (s *Store) RecountAll(ctx context.Context) (drifted []agentmem.Recount, scopes int, err error) {
	err = s.EachScope(ctx, func(agentName, projectID string) error {
		r, err := s.recountScope(ctx, agentName, projectID)
		if err != nil {
			return err
		}
		scopes++
		if r.Drifted {
			drifted = append(drifted, r)
		}
		return nil
	})
	return drifted, scopes, err
}

// encodeScopesPosition is where a scope listing stops: the shard and the
// last scope listed.
func encodeScopesPosition(shard int, scope string) string {
	return fmt.Sprintf("%02d/%s", shard, scope)
}

// decodeScopesPosition reverses encodeScopesPosition; anything else is
// errBadCursor.
func decodeScopesPosition(pos string) (shard int, scope string, err error) {
	num, scope, ok := strings.Cut(pos, "/")
	if !ok || len(num) != 2 {
		return 0, "", errBadCursor
	}
	shard, err = strconv.Atoi(num)
	agent, project, ok := strings.Cut(scope, "#")
	if err != nil || shard < 0 || shard >= StatsShards || !ok ||
		!storedName(agentmem.ValidateAgentName(agent), agent) || !storedName(agentmem.ValidateProjectID(project), project) {
		return 0, "", errBadCursor
	}
	return shard, scope, nil
}

// storedName reports whether a name read back from a sealed cursor or a
// key is one the store may hold: valid (err nil), or a dot segment
// ("." or ".."), which the name rule refuses now but which older writes
// stored, so that a listing can page past such an item.
func storedName(err error, name string) bool { return err == nil || agentmem.IsDotSegment(name) }
