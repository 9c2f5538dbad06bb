package dynamostore

// Key attributes of the three tables, as the item types' dynamo tags declare
// them (EnsureTables creates the tables from those tags). The CDK stack
// builds its tables from Schema; infra's stack tests compare the synthesized
// tables with what EnsureTables creates in DynamoDB Local, so the two cannot
// drift apart. Every key attribute is a string (S).
const (
	MemoriesPartitionKey      = "scope"     // agent-memories: "agentName#projectId"
	MemoriesSortKey           = "createdAt" // agent-memories: ISO 8601 UTC, unique per scope
	IDIndexPartitionKey       = "id"        // id-index: the memory's ULID
	PersonalitiesPartitionKey = "agentName" // agent-personalities
	JournalPartitionKey       = "pk"        // agent-journal
	JournalSortKey            = "sk"
	PendingIndexPartitionKey  = "pendingShard" // pending-index (sparse)
	PendingIndexSortKey       = "pendingSince"
)

// TableSchema is one table's keys, global secondary indexes and TTL
// attribute, as EnsureTables creates it.
type TableSchema struct {
	Name         string
	PartitionKey string
	SortKey      string // "" when the table has none
	// Indexes are global secondary indexes; each projects all attributes.
	Indexes      []IndexSchema
	TTLAttribute string // "" when the table has none
}

// IndexSchema is one global secondary index.
type IndexSchema struct {
	Name         string
	PartitionKey string
	SortKey      string // "" when the index has none
}

// Schema describes the three tables under the configured names.
type Schema struct {
	Memories, Personalities, Journal TableSchema
}

// Schema returns the tables' schema under c's table names.
func (c Config) Schema() Schema {
	return Schema{
		Memories: TableSchema{
			Name:         c.MemoriesTable,
			PartitionKey: MemoriesPartitionKey,
			SortKey:      MemoriesSortKey,
			Indexes:      []IndexSchema{{Name: IDIndex, PartitionKey: IDIndexPartitionKey}},
		},
		Personalities: TableSchema{
			Name:         c.PersonalitiesTable,
			PartitionKey: PersonalitiesPartitionKey,
		},
		Journal: TableSchema{
			Name:         c.JournalTable,
			PartitionKey: JournalPartitionKey,
			SortKey:      JournalSortKey,
			Indexes:      []IndexSchema{{Name: PendingIndex, PartitionKey: PendingIndexPartitionKey, SortKey: PendingIndexSortKey}},
			TTLAttribute: TTLAttribute,
		},
	}
}

// Tables lists the three tables: memories, personalities, journal.
func (s Schema) Tables() []TableSchema {
	return []TableSchema{s.Memories, s.Personalities, s.Journal}
}
