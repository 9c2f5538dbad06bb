package stack_test

import (
	"context"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/guregu/dynamo/v2"
)

// tableShape is what must agree between the CDK table and the table
// dynamostore.EnsureTables creates: keys, key attribute types, global
// secondary indexes and the TTL attribute.
type tableShape struct {
	Hash, Range string
	Attributes  map[string]string // name -> S, N or B
	Indexes     map[string]string // name -> "hash range projection"
	TTL         string
}

// TestTablesMatchEnsureTables: the stack's tables have the keys, key
// types, indexes and TTL attribute that dynamostore.EnsureTables gives the
// tables it creates in DynamoDB Local, so that the deployed tables and
// the code's cannot drift apart.
func TestTablesMatchEnsureTables(t *testing.T) {
	s := synth(t)[defaultStack]
	store := dynamotest.NewStore(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	local := store.Config().Schema().Tables()
	for i, ts := range s.st.Schema.Tables() {
		t.Run(ts.Name, func(t *testing.T) {
			desc, err := store.DB().Table(local[i].Name).Describe().Run(ctx)
			if err != nil {
				t.Fatalf("describe %s: %v", local[i].Name, err)
			}
			want := tableShape{Hash: desc.HashKey, Range: desc.RangeKey, Attributes: map[string]string{}, Indexes: map[string]string{}}
			addAttr := func(name string, typ dynamo.KeyType) {
				if name != "" {
					want.Attributes[name] = string(typ)
				}
			}
			addAttr(desc.HashKey, desc.HashKeyType)
			addAttr(desc.RangeKey, desc.RangeKeyType)
			for _, g := range desc.GSI {
				want.Indexes[g.Name] = g.HashKey + " " + g.RangeKey + " " + string(g.ProjectionType)
				addAttr(g.HashKey, g.HashKeyType)
				addAttr(g.RangeKey, g.RangeKeyType)
			}
			ttl, err := store.DB().Table(local[i].Name).DescribeTTL().Run(ctx)
			if err != nil {
				t.Fatalf("describe TTL of %s: %v", local[i].Name, err)
			}
			if ttl.Enabled() {
				want.TTL = ttl.Attribute
			}

			p := props(s.resources("AWS::DynamoDB::Table")[s.logicalID(s.st.Tables[ts.Name])])
			if got := render(p["TableName"]); got != ts.Name {
				t.Errorf("table name %q, want %q", got, ts.Name)
			}
			got := tableShape{Attributes: map[string]string{}, Indexes: map[string]string{}}
			got.Hash, got.Range = keySchema(p["KeySchema"])
			for _, a := range list(p["AttributeDefinitions"]) {
				got.Attributes[render(obj(a)["AttributeName"])] = render(obj(a)["AttributeType"])
			}
			for _, g := range list(p["GlobalSecondaryIndexes"]) {
				hash, rng := keySchema(obj(g)["KeySchema"])
				got.Indexes[render(obj(g)["IndexName"])] = hash + " " + rng + " " + render(obj(obj(g)["Projection"])["ProjectionType"])
			}
			if spec := obj(p["TimeToLiveSpecification"]); spec["Enabled"] == true {
				got.TTL = render(spec["AttributeName"])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("CDK table\n got %+v\nEnsureTables in DynamoDB Local\nwant %+v", got, want)
			}
		})
	}
}

func keySchema(v any) (hash, rng string) {
	for _, k := range list(v) {
		switch render(obj(k)["KeyType"]) {
		case "HASH":
			hash = render(obj(k)["AttributeName"])
		case "RANGE":
			rng = render(obj(k)["AttributeName"])
		}
	}
	return hash, rng
}

// TestTableProtection: on-demand, point-in-time recovery, deletion
// protection and RETAIN by default; a throwaway stage drops both; AWS owned
// encryption by default, the customer key when one is given.
func TestTableProtection(t *testing.T) {
	for name, s := range synth(t) {
		tables := s.resources("AWS::DynamoDB::Table")
		ids := make([]string, 0, len(tables))
		for id := range tables {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			res := tables[id]
			p := props(res)
			wantPolicy, wantProtected := "Retain", true
			if s.cfg.Throwaway {
				wantPolicy, wantProtected = "Delete", false
			}
			if res["DeletionPolicy"] != wantPolicy || res["UpdateReplacePolicy"] != wantPolicy {
				t.Errorf("%s %s: deletion policy %v/%v, want %s", name, id, res["DeletionPolicy"], res["UpdateReplacePolicy"], wantPolicy)
			}
			if got := p["DeletionProtectionEnabled"] == true; got != wantProtected {
				t.Errorf("%s %s: deletion protection %v, want %v", name, id, got, wantProtected)
			}
			if got := obj(p["PointInTimeRecoverySpecification"])["PointInTimeRecoveryEnabled"]; got != true {
				t.Errorf("%s %s: point-in-time recovery %v, want true", name, id, got)
			}
			if got := p["BillingMode"]; got != "PAY_PER_REQUEST" {
				t.Errorf("%s %s: billing %v, want PAY_PER_REQUEST", name, id, got)
			}
			sse := obj(p["SSESpecification"])
			if s.cfg.TableKMSKeyARN != "" {
				if sse["SSEEnabled"] != true || sse["SSEType"] != "KMS" || render(sse["KMSMasterKeyId"]) != s.cfg.TableKMSKeyARN {
					t.Errorf("%s %s: encryption %v, want the customer key %s", name, id, sse, s.cfg.TableKMSKeyARN)
				}
			} else if sse["SSEEnabled"] == true {
				t.Errorf("%s %s: encryption %v, want the AWS owned key (no SSESpecification)", name, id, sse)
			}
		}
	}
}
