package dynamostore

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

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
	schema := s.cfg.Schema()
	specs := []struct {
		schema TableSchema
		from   any
	}{
		{schema.Memories, memoryItem{}},
		{schema.Personalities, personalityItem{}},
		{schema.Journal, journalKeys{}},
	}
	for _, sp := range specs {
		name := sp.schema.Name
		if _, err := s.db.Table(name).Describe().Run(ctx); err == nil {
			continue
		} else if !isNotFoundTable(err) {
			return fmt.Errorf("describe table %s: %w", name, err)
		}
		ct := s.db.CreateTable(name, sp.from).OnDemand(true)
		for _, ix := range sp.schema.Indexes {
			ct = ct.Project(ix.Name, dynamo.IndexProjection(ix.Projection), ix.Include...)
		}
		if err := ct.Run(ctx); err != nil && !isInUse(err) {
			return fmt.Errorf("create table %s: %w", name, err)
		}
		if err := s.db.Table(name).Wait(ctx); err != nil {
			return fmt.Errorf("wait for table %s: %w", name, err)
		}
		if sp.schema.TTLAttribute != "" {
			if err := s.db.Table(name).UpdateTTL(sp.schema.TTLAttribute, true).Run(ctx); err != nil && !isInUse(err) {
				return fmt.Errorf("enable TTL on %s: %w", name, err)
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
