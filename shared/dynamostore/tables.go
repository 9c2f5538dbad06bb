package dynamostore

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// memoryItem is a memory as stored: the domain type plus its partition key.
type memoryItem struct {
	Scope string `dynamo:"scope,hash"`
	agentmem.Memory
}

// journalKeys declares the journal table's keys and its sparse index for
// CreateTable; the items themselves are declared where they are used.
type journalKeys struct {
	PK           string `dynamo:"pk,hash"`
	SK           string `dynamo:"sk,range"`
	PendingShard string `dynamo:"pendingShard,omitempty" index:"pending-index,hash"`
	PendingSince string `dynamo:"pendingSince,omitempty" index:"pending-index,range"`
}

// TTLAttribute is the journal table's time-to-live attribute (epoch seconds).
const TTLAttribute = "expiresAt"

// EnsureTables creates the three tables and their indexes when they are
// missing and waits until they are active. It is safe to run concurrently
// and repeatedly (make dev, tests).
func (s *Store) EnsureTables(ctx context.Context) error {
	specs := []struct {
		name  string
		from  any
		index string
		ttl   bool
	}{
		{s.cfg.MemoriesTable, memoryItem{}, IDIndex, false},
		{s.cfg.PersonalitiesTable, agentmem.Personality{}, "", false},
		{s.cfg.JournalTable, journalKeys{}, PendingIndex, true},
	}
	for _, sp := range specs {
		if _, err := s.db.Table(sp.name).Describe().Run(ctx); err == nil {
			continue
		} else if !isNotFoundTable(err) {
			return fmt.Errorf("describe table %s: %w", sp.name, err)
		}
		ct := s.db.CreateTable(sp.name, sp.from).OnDemand(true)
		if sp.index != "" {
			ct = ct.Project(sp.index, dynamo.AllProjection)
		}
		if err := ct.Run(ctx); err != nil && !isInUse(err) {
			return fmt.Errorf("create table %s: %w", sp.name, err)
		}
		if err := s.db.Table(sp.name).Wait(ctx); err != nil {
			return fmt.Errorf("wait for table %s: %w", sp.name, err)
		}
		if sp.ttl {
			if err := s.db.Table(sp.name).UpdateTTL(TTLAttribute, true).Run(ctx); err != nil && !isInUse(err) {
				return fmt.Errorf("enable TTL on %s: %w", sp.name, err)
			}
		}
	}
	return nil
}

// DeleteTables removes the three tables (tests).
func (s *Store) DeleteTables(ctx context.Context) error {
	var errs []error
	for _, name := range []string{s.cfg.MemoriesTable, s.cfg.PersonalitiesTable, s.cfg.JournalTable} {
		if err := s.db.Table(name).DeleteTable().Run(ctx); err != nil && !isNotFoundTable(err) {
			errs = append(errs, fmt.Errorf("delete table %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

func isNotFoundTable(err error) bool {
	var rnf *types.ResourceNotFoundException
	return errors.As(err, &rnf)
}

func isInUse(err error) bool {
	var riu *types.ResourceInUseException
	return errors.As(err, &riu)
}
