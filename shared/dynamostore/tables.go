package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"

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
		if desc, err := s.db.Table(name).Describe().Run(ctx); err == nil {
			if err := s.addMissingIndexes(ctx, sp.schema, desc); err != nil {
				return err
			}
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

// addMissingIndexes adds to an existing table the indexes of its schema
// it lacks (tables created by an older version under make dev, whose data
// is kept), waits until they are active, and fills in what a new index
// needs of the items already there (the personalities' listed key).
func (s *Store) addMissingIndexes(ctx context.Context, ts TableSchema, desc dynamo.Description) error {
	have := map[string]bool{}
	for _, g := range desc.GSI {
		have[g.Name] = true
	}
	for _, ix := range ts.Indexes {
		if have[ix.Name] {
			continue
		}
		idx := dynamo.Index{Name: ix.Name, HashKey: ix.PartitionKey, HashKeyType: dynamo.StringType,
			ProjectionType: dynamo.IndexProjection(ix.Projection), ProjectionAttribs: ix.Include}
		if ix.SortKey != "" {
			idx.RangeKey, idx.RangeKeyType = ix.SortKey, dynamo.StringType
		}
		if _, err := s.db.Table(ts.Name).UpdateTable().CreateIndex(idx).Run(ctx); err != nil && !isInUse(err) {
			return fmt.Errorf("add index %s to %s: %w", ix.Name, ts.Name, err)
		}
		if err := s.waitIndex(ctx, ts.Name, ix.Name); err != nil {
			return err
		}
		if ix.Name == NameIndex {
			if err := s.listEveryPersonality(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// waitIndex waits until index of table is active.
func (s *Store) waitIndex(ctx context.Context, table, index string) error {
	for {
		desc, err := s.db.Table(table).Describe().Run(ctx)
		if err != nil {
			return fmt.Errorf("describe table %s: %w", table, err)
		}
		for _, g := range desc.GSI {
			if g.Name == index && g.Status == dynamo.ActiveStatus && !g.Backfilling {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for index %s of %s: %w", index, table, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// listEveryPersonality gives the personalities stored before NameIndex
// existed its key, so that the listing finds them (make dev's kept data).
func (s *Store) listEveryPersonality(ctx context.Context) error {
	var items []agentmem.Personality
	if err := s.personalities.Scan().Filter("attribute_not_exists($)", "listed").All(ctx, &items); err != nil {
		return fmt.Errorf("find unlisted personalities: %w", err)
	}
	for _, p := range items {
		if err := s.personalities.Update("agentName", p.AgentName).Set("listed", listedAll).Run(ctx); err != nil {
			return fmt.Errorf("list personality %s: %w", p.AgentName, err)
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
