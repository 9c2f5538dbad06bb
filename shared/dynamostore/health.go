package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/guregu/dynamo/v2"
)

// healthKey is the key the health reads ask for: no item has it (a scope
// and a project id never start with '~'), so each read is the cheapest
// GetItem a table answers, and proves the table exists and that the
// caller may read it.
const healthKey = "~health"

// Health reads one absent item of each table, the three at once, and
// reports what each answered; ok is false when any read failed (the
// table is missing, unreachable, or refuses the credentials). ctx bounds
// the reads, retries included.
func (s *Store) Health(ctx context.Context) (tables []agentmem.TableHealth, ok bool) {
	reads := []struct {
		role string
		name string
		get  *dynamo.Query
	}{
		{"memories", s.cfg.MemoriesTable, s.memories.Get(MemoriesPartitionKey, healthKey).Range(MemoriesSortKey, dynamo.Equal, healthKey)},
		{"personalities", s.cfg.PersonalitiesTable, s.personalities.Get(PersonalitiesPartitionKey, healthKey)},
		{"journal", s.cfg.JournalTable, s.journal.Get(JournalPartitionKey, healthKey).Range(JournalSortKey, dynamo.Equal, healthKey)},
	}
	tables = make([]agentmem.TableHealth, len(reads))
	var wg sync.WaitGroup
	for i, r := range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			var item dynamo.Item
			err := r.get.One(ctx, &item)
			th := agentmem.TableHealth{Table: r.role, Name: r.name, Status: agentmem.HealthOK,
				Millis: float64(time.Since(start).Microseconds()) / 1000}
			if err != nil && !notFound(err) {
				th.Status = agentmem.HealthUnavailable
				th.Error = healthError(err)
			}
			tables[i] = th
		}()
	}
	wg.Wait()
	ok = true
	for _, t := range tables {
		ok = ok && t.Status == agentmem.HealthOK
	}
	return tables, ok
}

// healthError says why a table could not be read, in words an operator
// can act on, without the request's internals.
func healthError(err error) string {
	switch {
	case isNotFoundTable(err):
		return "the table does not exist"
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return "no answer in time"
	}
	return fmt.Sprintf("read failed: %v", err)
}
