package dynamotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/agentmem/agentmem/shared/tablegrants"
	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// Recorder records, at the HTTP boundary, every DynamoDB call a function's
// code makes in a package's tests, and checks them against the function's
// grants (shared/tablegrants): DynamoDB Local does not enforce IAM, so a
// call the function's role may not make would otherwise pass every test
// and fail only in AWS.
//
// Give the code under test the recorded store of Stores, and do the
// test's own setup (seeding, reading back) through the other one: only
// the calls of the function's code count. Run the package through
// Recorder.Main.
type Recorder struct {
	fn     routes.Function
	grants tablegrants.Grants

	mu    sync.Mutex
	calls map[Need]Call // the first call that needed each permission
	bad   []string      // calls the recorder could not read
}

// Call is one DynamoDB call as it went over the wire.
type Call struct {
	// Operation is the X-Amz-Target's operation, as "TransactWriteItems".
	Operation string
	// Items are what the call touches: one item for a single-table call;
	// one per transaction item or batch request otherwise.
	Items []CallItem
	// Test is the test whose recorded store made the call.
	Test string
}

// CallItem is one table (or index) a call touches.
type CallItem struct {
	// Kind is the item's kind in a transaction (Put, Update, Delete,
	// ConditionCheck, Get) or a batch (PutRequest, DeleteRequest, Get);
	// the operation for a single-table call.
	Kind string
	// Table is the table's name, Index the index's ("" for the table).
	Table, Index string
	// Key is the partition key of the item (of the key condition for a
	// Query), "" when the call names none or it is not a string.
	Key string
}

// String describes the call, as "TransactWriteItems [Put journal, Delete journal]".
func (c Call) String() string {
	if len(c.Items) == 1 && c.Items[0].Kind == c.Operation {
		it := c.Items[0]
		if it.Index != "" {
			return fmt.Sprintf("%s %s/index/%s", c.Operation, it.Table, it.Index)
		}
		return c.Operation + " " + it.Table
	}
	parts := make([]string, len(c.Items))
	for i, it := range c.Items {
		parts[i] = it.Kind + " " + it.Table
	}
	return c.Operation + " [" + strings.Join(parts, ", ") + "]"
}

// NewRecorder returns a recorder checking calls against fn's grants.
func NewRecorder(fn routes.Function) *Recorder {
	return &Recorder{fn: fn, grants: tablegrants.ByFunction[fn], calls: map[Need]Call{}}
}

// Stores returns two stores over the same fresh tables (NewStore): the
// first records its calls in r, for the code under test; the second does
// not, for the test's own setup and checks. Settings a test changes on a
// store (Now, MemoryLimit, Embedder...) are its own: set them on the
// store that needs them.
func (r *Recorder) Stores(t testing.TB) (recorded, setup *dynamostore.Store) {
	t.Helper()
	setup = NewStore(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatalf("connect to DynamoDB Local: %v", err)
	}
	cfg := setup.Config()
	next := awsCfg.HTTPClient
	if next == nil {
		next = awshttp.NewBuildableClient()
	}
	awsCfg.HTTPClient = &recordingClient{next: next, rec: r, test: t.Name(), schema: cfg.Schema()}
	return dynamostore.New(awsCfg, cfg), setup
}

// Calls returns the distinct permissions the recorded calls needed, each
// with the first call that needed it.
func (r *Recorder) Calls() map[Need]Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[Need]Call, len(r.calls))
	for n, c := range r.calls {
		out[n] = c
	}
	return out
}

// Missing returns, one line each in a stable order, the recorded calls
// the function's grants do not allow, naming the call, the permission it
// needs, and the test that made it first; and the calls the recorder
// could not read.
func (r *Recorder) Missing() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for n, c := range r.calls {
		if !allows(r.grants, n) {
			out = append(out, fmt.Sprintf("%s function: %s needs %s, which shared/tablegrants does not grant it (first in %s)", r.fn, c, n, c.Test))
		}
	}
	sort.Strings(out)
	return append(out, r.bad...)
}

// Unused returns, in a stable order, the permissions the function's
// grants give that no recorded call needed: a grant the code may no longer
// need, or code the package's tests do not run (a leading-key grant
// counts as used when any call used the action).
func (r *Recorder) Unused() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	used := map[Need]bool{}
	for n := range r.calls {
		n.Key = ""
		used[n] = true
	}
	var out []string
	for table, g := range r.grants {
		for _, a := range g.Actions {
			if n := (Need{Table: table, Action: a}); !used[n] {
				out = append(out, n.String())
			}
		}
		for _, ix := range g.Indexes {
			if n := (Need{Table: table, Action: tablegrants.Query, Index: ix}); !used[n] {
				out = append(out, n.String())
			}
		}
	}
	sort.Strings(out)
	return out
}

// Main runs the package's tests (Main), then fails the run when the code
// under test made a DynamoDB call the function's role may not make, naming
// each. With -v it also lists the grants no call needed (Unused). Use it
// from TestMain: os.Exit(recorder.Main(m)).
func (r *Recorder) Main(m *testing.M) int {
	code := Main(m)
	if unused := r.Unused(); testing.Verbose() && len(unused) > 0 {
		fmt.Fprintf(os.Stderr, "grants of the %s function no recorded call needed:\n\t%s\n", r.fn, strings.Join(unused, "\n\t"))
	}
	if missing := r.Missing(); len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: DynamoDB calls the %s function's role may not make (grant them in shared/tablegrants, or stop making them):\n\t%s\n",
			r.fn, strings.Join(missing, "\n\t"))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// record adds a call and the permissions it needs.
func (r *Recorder) record(c Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, it := range c.Items {
		n := Need{Table: tablegrants.Table(it.Table), Action: ItemAction(c.Operation, it.Kind), Index: it.Index}
		if len(r.grants[n.Table].LeadingKeys) > 0 {
			n.Key = it.Key // only where it matters, so the set stays small
		}
		if _, ok := r.calls[n]; !ok {
			r.calls[n] = c
		}
	}
}

// recordingClient is the recorded store's HTTP client: it reads each
// request's operation and body, records the call, and sends it on.
type recordingClient struct {
	next   aws.HTTPClient
	rec    *Recorder
	test   string
	schema dynamostore.Schema
}

var _ aws.HTTPClient = (*recordingClient)(nil)

// Do records the call req makes and sends it.
func (c *recordingClient) Do(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, fmt.Errorf("record %s: read the request: %w", op, err)
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	items, err := c.items(op, body)
	if err != nil {
		c.rec.mu.Lock()
		c.rec.bad = append(c.rec.bad, fmt.Sprintf("%s function: %s in %s: %v", c.rec.fn, op, c.test, err))
		c.rec.mu.Unlock()
	} else {
		c.rec.record(Call{Operation: op, Items: items, Test: c.test})
	}
	return c.next.Do(req)
}

// wireRequest is the part of a DynamoDB request the recorder reads.
type wireRequest struct {
	TableName                 string
	IndexName                 string
	Key                       map[string]json.RawMessage
	Item                      map[string]json.RawMessage
	KeyConditionExpression    string
	KeyConditions             map[string]struct{ AttributeValueList []json.RawMessage }
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues map[string]json.RawMessage
	RequestItems              map[string]json.RawMessage
	TransactItems             []map[string]wireRequest
}

// items reads what a request touches; its tables are named by their role
// (tablegrants.Table) when they are the store's, by name otherwise.
func (c *recordingClient) items(op string, body []byte) ([]CallItem, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("decode the request: %w", err)
	}
	switch op {
	case "TransactWriteItems", "TransactGetItems":
		var out []CallItem
		for _, ti := range w.TransactItems {
			for kind, sub := range ti {
				out = append(out, c.item(kind, sub))
			}
		}
		return out, nil
	case "BatchWriteItem":
		var out []CallItem
		for _, name := range slices.Sorted(maps.Keys(w.RequestItems)) {
			var reqs []map[string]wireRequest
			if err := json.Unmarshal(w.RequestItems[name], &reqs); err != nil {
				return nil, fmt.Errorf("decode the requests on %s: %w", name, err)
			}
			for _, r := range reqs {
				for kind, sub := range r {
					sub.TableName = name
					out = append(out, c.item(kind, sub))
				}
			}
		}
		return out, nil
	case "BatchGetItem":
		var out []CallItem
		for _, name := range slices.Sorted(maps.Keys(w.RequestItems)) {
			var get struct{ Keys []map[string]json.RawMessage }
			if err := json.Unmarshal(w.RequestItems[name], &get); err != nil {
				return nil, fmt.Errorf("decode the keys on %s: %w", name, err)
			}
			for _, k := range get.Keys {
				out = append(out, c.item("Get", wireRequest{TableName: name, Key: k}))
			}
		}
		return out, nil
	}
	if w.TableName == "" {
		return nil, fmt.Errorf("the request names no table")
	}
	return []CallItem{c.item(op, w)}, nil
}

// item is one table or index a request (or one of its items) touches.
func (c *recordingClient) item(kind string, w wireRequest) CallItem {
	it := CallItem{Kind: kind, Table: w.TableName, Index: w.IndexName}
	var pk string
	for role, ts := range map[tablegrants.Table]dynamostore.TableSchema{
		tablegrants.Memories: c.schema.Memories, tablegrants.Personalities: c.schema.Personalities, tablegrants.Journal: c.schema.Journal,
	} {
		if ts.Name != w.TableName {
			continue
		}
		it.Table, pk = string(role), ts.PartitionKey
		for _, ix := range ts.Indexes {
			if ix.Name == w.IndexName {
				pk = ix.PartitionKey
			}
		}
	}
	if pk == "" {
		return it
	}
	switch {
	case w.Key != nil:
		it.Key = stringValue(w.Key[pk])
	case w.Item != nil:
		it.Key = stringValue(w.Item[pk])
	case len(w.KeyConditions[pk].AttributeValueList) == 1:
		it.Key = stringValue(w.KeyConditions[pk].AttributeValueList[0])
	case w.KeyConditionExpression != "":
		for _, m := range equality.FindAllStringSubmatch(w.KeyConditionExpression, -1) {
			name := m[1]
			if alias, ok := w.ExpressionAttributeNames[name]; ok {
				name = alias
			}
			if name == pk {
				it.Key = stringValue(w.ExpressionAttributeValues[m[2]])
			}
		}
	}
	return it
}

// equality finds the "name = :value" terms of a key condition.
var equality = regexp.MustCompile(`(#?[^\s=()<>]+)\s*=\s*(:[^\s()]+)`)

// stringValue is the string of a DynamoDB attribute value ({"S": "..."}),
// "" when it is not a string.
func stringValue(raw json.RawMessage) string {
	var v struct{ S string }
	if raw == nil || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v.S
}
