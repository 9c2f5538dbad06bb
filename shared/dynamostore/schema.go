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
	NameIndexPartitionKey     = "listed"    // name-index: one value for every personality
	NameIndexSortKey          = "agentName" // name-index: the listing's order
)

// Index projections, as DynamoDB names them.
const (
	ProjectKeysOnly = "KEYS_ONLY" // the table's keys and the index's
	ProjectInclude  = "INCLUDE"   // those and the attributes listed
	ProjectAll      = "ALL"       // the whole item
)

// TableSchema is one table's keys, global secondary indexes and TTL
// attribute, as EnsureTables creates it.
type TableSchema struct {
	Name         string
	PartitionKey string
	SortKey      string // "" when the table has none
	// Indexes are global secondary indexes.
	Indexes      []IndexSchema
	TTLAttribute string // "" when the table has none
}

// IndexSchema is one global secondary index.
type IndexSchema struct {
	Name         string
	PartitionKey string
	SortKey      string // "" when the index has none
	// Projection is what the index holds of each item: ProjectKeysOnly,
	// ProjectInclude (the keys and Include) or ProjectAll.
	Projection string
	Include    []string
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
			// GetMemory and DeleteMemory only need where a memory is: the
			// index holds keys, not a second copy of every item.
			Indexes: []IndexSchema{{Name: IDIndex, PartitionKey: IDIndexPartitionKey, Projection: ProjectKeysOnly}},
		},
		Personalities: TableSchema{
			Name:         c.PersonalitiesTable,
			PartitionKey: PersonalitiesPartitionKey,
			// ListPersonalities answers whole personalities, a page a Query.
			Indexes: []IndexSchema{{Name: NameIndex, PartitionKey: NameIndexPartitionKey, SortKey: NameIndexSortKey, Projection: ProjectAll}},
		},
		Journal: TableSchema{
			Name:         c.JournalTable,
			PartitionKey: JournalPartitionKey,
			SortKey:      JournalSortKey,
			// The dispatcher reads which scopes are pending, nothing else.
			Indexes: []IndexSchema{{Name: PendingIndex, PartitionKey: PendingIndexPartitionKey, SortKey: PendingIndexSortKey,
				Projection: ProjectInclude, Include: []string{"agentName", "projectId"}}},
			TTLAttribute: TTLAttribute,
		},
	}
}

// Tables lists the three tables: memories, personalities, journal.
func (s Schema) Tables() []TableSchema {
	return []TableSchema{s.Memories, s.Personalities, s.Journal}
}
