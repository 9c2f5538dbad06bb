package dynamotest

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/tablegrants"
	"github.com/guregu/dynamo/v2"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// journalItem and memoryItem are bare items of the journal and memories
// tables, keyed as the tables are.
type journalItem struct {
	PK string `dynamo:"pk,hash"`
	SK string `dynamo:"sk,range"`
}

type memoryItem struct {
	Scope     string `dynamo:"scope,hash"`
	CreatedAt string `dynamo:"createdAt,range"`
	ID        string `dynamo:"id"`
}

// TestRecorderReadsEachCall: each kind of call is recorded with the
// permission IAM checks for it (a transaction's items each their own
// action, a batch the batch's action, an index query the index), and
// Missing names the calls the function's grants do not allow, with the
// permission, the table and the test.
func TestRecorderReadsEachCall(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		fn   routes.Function
		call func(st *dynamostore.Store) error
		want Need
		// missing: a line of Missing holds it; "" when the call is granted.
		missing string
	}{
		{"put", routes.Memories, func(st *dynamostore.Store) error {
			return st.DB().Table(st.Config().JournalTable).Put(journalItem{"x#1", "a"}).Run(ctx)
		}, Need{Table: tablegrants.Journal, Action: tablegrants.PutItem}, ""},
		{"query on an index", routes.Dream, func(st *dynamostore.Store) error {
			var out []memoryItem
			return st.DB().Table(st.Config().MemoriesTable).Get(dynamostore.IDIndexPartitionKey, "01J").Index(dynamostore.IDIndex).All(ctx, &out)
		}, Need{Table: tablegrants.Memories, Action: tablegrants.Query, Index: dynamostore.IDIndex}, ""},
		{"query on an index not granted", routes.Extraction, func(st *dynamostore.Store) error {
			var out []journalItem
			return st.DB().Table(st.Config().JournalTable).Get(dynamostore.PendingIndexPartitionKey, "0").Index(dynamostore.PendingIndex).All(ctx, &out)
		}, Need{Table: tablegrants.Journal, Action: tablegrants.Query, Index: dynamostore.PendingIndex},
			"extraction function: Query journal/index/pending-index needs dynamodb:Query on journal/index/pending-index"},
		{"transaction delete", routes.Dream, func(st *dynamostore.Store) error {
			j := st.DB().Table(st.Config().JournalTable)
			return st.DB().WriteTx().Delete(j.Delete("pk", "gone#1").Range("sk", "a")).Put(j.Put(journalItem{"x#2", "a"})).Run(ctx)
		}, Need{Table: tablegrants.Journal, Action: tablegrants.DeleteItem}, ""},
		{"transaction condition check", routes.Memories, func(st *dynamostore.Store) error {
			j := st.DB().Table(st.Config().JournalTable)
			_ = st.DB().WriteTx().Check(j.Check("pk", "x#3").Range("sk", "a").IfNotExists()).Put(j.Put(journalItem{"x#4", "a"})).Run(ctx)
			return nil
		}, Need{Table: tablegrants.Journal, Action: tablegrants.ConditionCheckItem},
			"TransactWriteItems [ConditionCheck journal, Put journal] needs dynamodb:ConditionCheckItem on journal"},
		{"transaction get", routes.Personalities, func(st *dynamostore.Store) error {
			m := st.DB().Table(st.Config().MemoriesTable)
			if err := st.DB().GetTx().GetOne(m.Get("scope", "nori#p").Range("createdAt", dynamo.Equal, "x"), &memoryItem{}).Run(ctx); err != dynamo.ErrNotFound {
				return err
			}
			return nil
		}, Need{Table: tablegrants.Memories, Action: tablegrants.GetItem},
			"personalities function: TransactGetItems [Get memories] needs dynamodb:GetItem on memories"},
		{"batch delete", routes.Extraction, func(st *dynamostore.Store) error {
			_, err := st.DB().Table(st.Config().JournalTable).Batch("pk", "sk").Write().Delete(dynamo.Keys{"h#1", "a"}, dynamo.Keys{"h#1", "b"}).Run(ctx)
			return err
		}, Need{Table: tablegrants.Journal, Action: tablegrants.BatchWriteItem}, ""},
		{"batch delete not granted", routes.Personalities, func(st *dynamostore.Store) error {
			_, err := st.DB().Table(st.Config().JournalTable).Batch("pk", "sk").Write().Delete(dynamo.Keys{"idem#1", "a"}).Run(ctx)
			return err
		}, Need{Table: tablegrants.Journal, Action: tablegrants.BatchWriteItem, Key: "idem#1"},
			"BatchWriteItem [DeleteRequest journal] needs dynamodb:BatchWriteItem on journal (partition key idem#1)"},
		{"leading key granted", routes.Personalities, func(st *dynamostore.Store) error {
			return st.DB().Table(st.Config().JournalTable).Put(journalItem{"idem#nori", "a"}).Run(ctx)
		}, Need{Table: tablegrants.Journal, Action: tablegrants.PutItem, Key: "idem#nori"}, ""},
		{"leading key not granted", routes.Personalities, func(st *dynamostore.Store) error {
			return st.DB().Table(st.Config().JournalTable).Put(journalItem{"daily#nori#p", "a"}).Run(ctx)
		}, Need{Table: tablegrants.Journal, Action: tablegrants.PutItem, Key: "daily#nori#p"},
			"PutItem journal needs dynamodb:PutItem on journal (partition key daily#nori#p)"},
		{"query's leading key", routes.Personalities, func(st *dynamostore.Store) error {
			var out []journalItem
			return st.DB().Table(st.Config().JournalTable).Get("pk", "counts#nori").All(ctx, &out)
		}, Need{Table: tablegrants.Journal, Action: tablegrants.Query, Key: "counts#nori"},
			"Query journal needs dynamodb:Query on journal (partition key counts#nori)"},
		{"table not granted", routes.Personalities, func(st *dynamostore.Store) error {
			return st.DB().Table(st.Config().MemoriesTable).Put(memoryItem{"nori#p", "2026", "01J"}).Run(ctx)
		}, Need{Table: tablegrants.Memories, Action: tablegrants.PutItem},
			"PutItem memories needs dynamodb:PutItem on memories, which shared/tablegrants does not grant it (first in TestRecorderReadsEachCall/table_not_granted)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := NewRecorder(tt.fn)
			recorded, _ := rec.Stores(t)
			if err := tt.call(recorded); err != nil {
				t.Fatal(err)
			}
			calls := rec.Calls()
			if _, ok := calls[tt.want]; !ok {
				t.Errorf("got needs %v, want one of them %v", keys(calls), tt.want)
			}
			missing := rec.Missing()
			found := slices.ContainsFunc(missing, func(line string) bool { return tt.missing != "" && strings.Contains(line, tt.missing) })
			if got, want := found, tt.missing != ""; got != want || (!want && len(missing) > 0) {
				t.Errorf("missing: got %q, want a line with %q", missing, tt.missing)
			}
		})
	}
}

// TestSetupStoreIsNotRecorded: the calls of the setup store, and the
// creation of the tables, are not the function's and are not recorded.
func TestSetupStoreIsNotRecorded(t *testing.T) {
	rec := NewRecorder(routes.Personalities)
	recorded, setup := rec.Stores(t)
	ctx := context.Background()
	if err := setup.DB().Table(setup.Config().MemoriesTable).Put(memoryItem{"nori#p", "2026", "01J"}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rec.Calls(); len(got) != 0 {
		t.Errorf("after setup: got %v, want no calls", keys(got))
	}
	// The recorded store reads what the setup store wrote: same tables.
	var m memoryItem
	if err := recorded.DB().Table(recorded.Config().MemoriesTable).Get("scope", "nori#p").Range("createdAt", dynamo.Equal, "2026").One(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if got, want := m.ID, "01J"; got != want {
		t.Errorf("got id %q, want %q", got, want)
	}
	if got, want := len(rec.Calls()), 1; got != want {
		t.Errorf("got %d needs (%v), want %d", got, keys(rec.Calls()), want)
	}
}

func keys(m map[Need]Call) []string {
	var out []string
	for n := range m {
		out = append(out, n.String())
	}
	slices.Sort(out)
	return out
}
