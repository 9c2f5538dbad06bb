// Package tablegrants is the one declaration of what each Lambda function
// may do on agentmem's DynamoDB tables: per function and per table, the
// IAM actions its code calls, the indexes it queries and the partition keys
// it is confined to. The CDK stack (infra/stack) builds each function's role
// from it; the tests of each function record the calls its code really
// makes against DynamoDB Local (shared/dynamotest) and check them against
// it, since DynamoDB Local does not enforce IAM.
//
// It has no CDK dependency, so that the functions' tests can import it.
package tablegrants

import (
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/routes"
)

// Table names one of agentmem's tables by what it holds (its name is
// configured: dynamostore.Config).
type Table string

// The tables.
const (
	Memories      Table = "memories"
	Personalities Table = "personalities"
	Journal       Table = "journal"
)

// Tables lists the tables in a stable order.
var Tables = []Table{Memories, Personalities, Journal}

// The DynamoDB IAM actions agentmem's code calls, and those a call may
// need that no function is granted (named so a check can say what is
// missing).
const (
	GetItem            = "dynamodb:GetItem"
	Query              = "dynamodb:Query"
	PutItem            = "dynamodb:PutItem"
	UpdateItem         = "dynamodb:UpdateItem"
	DeleteItem         = "dynamodb:DeleteItem"
	BatchWriteItem     = "dynamodb:BatchWriteItem"
	BatchGetItem       = "dynamodb:BatchGetItem"
	ConditionCheckItem = "dynamodb:ConditionCheckItem"
	Scan               = "dynamodb:Scan"
)

// Grant is what a function may do on one table.
type Grant struct {
	// Actions are the actions it may take on the table itself.
	Actions []string
	// Indexes are the indexes it queries (dynamodb:Query only).
	Indexes []string
	// LeadingKeys, when set, confines it to the items whose partition key
	// matches one of these patterns (dynamodb:LeadingKeys, StringLike:
	// "*" matches any run of characters).
	LeadingKeys []string
}

// Grants are a function's grants by table; a table it does not touch has
// no entry.
type Grants map[Table]Grant

// ByFunction is what each function may do on each table: exactly the
// DynamoDB actions its code calls (a transaction needs the action of each
// of its items: Put→PutItem, Update→UpdateItem, Delete→DeleteItem,
// ConditionCheck→ConditionCheckItem; TransactGetItems→GetItem), on the
// tables and the indexes it queries.
var ByFunction = map[routes.Function]Grants{
	routes.Memories: {
		// Reads, creates (transactions), deletes and their jobs, touches
		// (lastAccessedAt); the id-index finds a memory by id.
		Memories: {Actions: []string{GetItem, Query, PutItem, UpdateItem, DeleteItem}, Indexes: []string{dynamostore.IDIndex}},
		// The bootstrap route reads the personality.
		Personalities: {Actions: []string{GetItem}},
		// Counters, idempotency records, jobs, the cursor key, daily log,
		// session context (ending a session is a batch delete).
		Journal: {Actions: []string{GetItem, Query, PutItem, UpdateItem, DeleteItem, BatchWriteItem}},
	},
	routes.Personalities: {
		Personalities: {Actions: []string{GetItem, PutItem, DeleteItem}, Indexes: []string{dynamostore.NameIndex}},
		// Idempotency records of its puts and the cursor key, nothing else.
		Journal: {Actions: []string{GetItem, PutItem}, LeadingKeys: []string{"idem#*", "config#*"}},
	},
	routes.Extraction: {
		// Duplicate checks, creates, pattern raises, undoing a failed run.
		Memories: {Actions: []string{GetItem, Query, PutItem, UpdateItem, DeleteItem}, Indexes: []string{dynamostore.IDIndex}},
		// Run claims, counters, the run summary's daily record; the
		// history of the memories a create evicts (a batch delete).
		Journal: {Actions: []string{GetItem, Query, PutItem, UpdateItem, DeleteItem, BatchWriteItem}},
	},
	routes.Dream: {
		// Plans restored and deleted, jobs, recounts.
		Memories: {Actions: []string{GetItem, Query, PutItem, DeleteItem}, Indexes: []string{dynamostore.IDIndex}},
		// State, leases, diary, plan chunks (a batch write), counters,
		// jobs; a revert that brings a retired memory back deletes its
		// gone record; the dispatcher reads the pending-index.
		Journal: {Actions: []string{GetItem, Query, PutItem, UpdateItem, DeleteItem, BatchWriteItem}, Indexes: []string{dynamostore.PendingIndex}},
	},
}
