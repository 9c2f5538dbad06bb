package tablegrants

import (
	"testing"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/routes"
)

// TestEveryFunctionHasGrants: the stack refuses a function without them.
func TestEveryFunctionHasGrants(t *testing.T) {
	for _, fn := range routes.Functions {
		gs, ok := ByFunction[fn]
		if !ok || len(gs) == 0 {
			t.Errorf("%s: no grants", fn)
		}
		for table, g := range gs {
			if len(g.Actions) == 0 {
				t.Errorf("%s on %s: a grant without actions", fn, table)
			}
		}
	}
}

// TestItemAction: a transaction needs the action of each of its items, a
// batch its own, any other call its operation.
func TestItemAction(t *testing.T) {
	tests := []struct{ op, kind, want string }{
		{"TransactWriteItems", "Put", PutItem},
		{"TransactWriteItems", "Update", UpdateItem},
		{"TransactWriteItems", "Delete", DeleteItem},
		{"TransactWriteItems", "ConditionCheck", ConditionCheckItem},
		{"TransactGetItems", "Get", GetItem},
		{"BatchWriteItem", "DeleteRequest", BatchWriteItem},
		{"BatchWriteItem", "PutRequest", BatchWriteItem},
		{"BatchGetItem", "Get", BatchGetItem},
		{"Query", "Query", Query},
		{"Scan", "Scan", Scan},
		{"DescribeTable", "DescribeTable", "dynamodb:DescribeTable"},
	}
	for _, tt := range tests {
		if got := ItemAction(tt.op, tt.kind); got != tt.want {
			t.Errorf("ItemAction(%q, %q): got %q, want %q", tt.op, tt.kind, got, tt.want)
		}
	}
}

// TestAllows: an action on a table only when granted there; on an index
// only dynamodb:Query, only on the indexes named; with leading keys, only
// for matching partition keys.
func TestAllows(t *testing.T) {
	gs := Grants{
		Memories: {Actions: []string{GetItem, Query}, Indexes: []string{dynamostore.IDIndex}},
		Journal:  {Actions: []string{GetItem, PutItem}, LeadingKeys: []string{"idem#*", "config#*", "a?c"}},
	}
	tests := []struct {
		name string
		need Need
		want bool
	}{
		{"granted", Need{Table: Memories, Action: GetItem}, true},
		{"other action", Need{Table: Memories, Action: DeleteItem}, false},
		{"other table", Need{Table: Personalities, Action: GetItem}, false},
		{"query on a granted index", Need{Table: Memories, Action: Query, Index: dynamostore.IDIndex}, true},
		{"query on another index", Need{Table: Memories, Action: Query, Index: dynamostore.PendingIndex}, false},
		{"scan on a granted index", Need{Table: Memories, Action: Scan, Index: dynamostore.IDIndex}, false},
		{"leading key", Need{Table: Journal, Action: PutItem, Key: "idem#nori#k1"}, true},
		{"second leading key", Need{Table: Journal, Action: GetItem, Key: "config#cursor"}, true},
		{"one-character wildcard", Need{Table: Journal, Action: GetItem, Key: "abc"}, true},
		{"one-character wildcard, too long", Need{Table: Journal, Action: GetItem, Key: "abbc"}, false},
		{"other key", Need{Table: Journal, Action: PutItem, Key: "daily#nori#p"}, false},
		{"key only prefixed inside", Need{Table: Journal, Action: PutItem, Key: "x-idem#1"}, false},
		{"no key", Need{Table: Journal, Action: PutItem}, false},
		{"leading key, action not granted", Need{Table: Journal, Action: DeleteItem, Key: "idem#1"}, false},
	}
	for _, tt := range tests {
		if got := gs.Allows(tt.need); got != tt.want {
			t.Errorf("%s: Allows(%v): got %v, want %v", tt.name, tt.need, got, tt.want)
		}
	}
}
