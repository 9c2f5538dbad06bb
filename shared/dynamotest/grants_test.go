package dynamotest

import (
	"testing"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/tablegrants"
)

// TestItemAction: a transaction needs the action of each of its items, a
// batch its own, any other call its operation.
func TestItemAction(t *testing.T) {
	tests := []struct{ op, kind, want string }{
		{"TransactWriteItems", "Put", tablegrants.PutItem},
		{"TransactWriteItems", "Update", tablegrants.UpdateItem},
		{"TransactWriteItems", "Delete", tablegrants.DeleteItem},
		{"TransactWriteItems", "ConditionCheck", tablegrants.ConditionCheckItem},
		{"TransactGetItems", "Get", tablegrants.GetItem},
		{"BatchWriteItem", "DeleteRequest", tablegrants.BatchWriteItem},
		{"BatchWriteItem", "PutRequest", tablegrants.BatchWriteItem},
		{"BatchGetItem", "Get", tablegrants.BatchGetItem},
		{"Query", "Query", tablegrants.Query},
		{"Scan", "Scan", tablegrants.Scan},
		{"DescribeTable", "DescribeTable", "dynamodb:DescribeTable"},
	}
	for _, tt := range tests {
		if got := ItemAction(tt.op, tt.kind); got != tt.want {
			t.Errorf("ItemAction(%q, %q): got %q, want %q", tt.op, tt.kind, got, tt.want)
		}
	}
}

// TestAllows: as IAM would, an action on a table only when granted
// there; on an index only dynamodb:Query, only on the indexes named; with
// leading keys, only for matching partition keys.
func TestAllows(t *testing.T) {
	gs := tablegrants.Grants{
		tablegrants.Memories: {Actions: []string{tablegrants.GetItem, tablegrants.Query}, Indexes: []string{dynamostore.IDIndex}},
		tablegrants.Journal:  {Actions: []string{tablegrants.GetItem, tablegrants.PutItem}, LeadingKeys: []string{"idem#*", "config#*", "a?c"}},
	}
	tests := []struct {
		name string
		need Need
		want bool
	}{
		{"granted", Need{Table: tablegrants.Memories, Action: tablegrants.GetItem}, true},
		{"other action", Need{Table: tablegrants.Memories, Action: tablegrants.DeleteItem}, false},
		{"other table", Need{Table: tablegrants.Personalities, Action: tablegrants.GetItem}, false},
		{"query on a granted index", Need{Table: tablegrants.Memories, Action: tablegrants.Query, Index: dynamostore.IDIndex}, true},
		{"query on another index", Need{Table: tablegrants.Memories, Action: tablegrants.Query, Index: dynamostore.PendingIndex}, false},
		{"scan on a granted index", Need{Table: tablegrants.Memories, Action: tablegrants.Scan, Index: dynamostore.IDIndex}, false},
		{"leading key", Need{Table: tablegrants.Journal, Action: tablegrants.PutItem, Key: "idem#nori#k1"}, true},
		{"second leading key", Need{Table: tablegrants.Journal, Action: tablegrants.GetItem, Key: "config#cursor"}, true},
		{"one-character wildcard", Need{Table: tablegrants.Journal, Action: tablegrants.GetItem, Key: "abc"}, true},
		{"one-character wildcard, too long", Need{Table: tablegrants.Journal, Action: tablegrants.GetItem, Key: "abbc"}, false},
		{"other key", Need{Table: tablegrants.Journal, Action: tablegrants.PutItem, Key: "daily#nori#p"}, false},
		{"key only prefixed inside", Need{Table: tablegrants.Journal, Action: tablegrants.PutItem, Key: "x-idem#1"}, false},
		{"no key", Need{Table: tablegrants.Journal, Action: tablegrants.PutItem}, false},
		{"leading key, action not granted", Need{Table: tablegrants.Journal, Action: tablegrants.DeleteItem, Key: "idem#1"}, false},
	}
	for _, tt := range tests {
		if got := allows(gs, tt.need); got != tt.want {
			t.Errorf("%s: allows(%v): got %v, want %v", tt.name, tt.need, got, tt.want)
		}
	}
}
