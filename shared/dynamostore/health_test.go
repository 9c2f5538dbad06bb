package dynamostore_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A port nothing listens on: a closed listener's.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	missing := dynamotest.Config(t) // tables never created

	tests := []struct {
		name      string
		store     *dynamostore.Store
		ok        bool
		errSubstr string
	}{
		{"every table answers", dynamotest.NewStore(t), true, ""},
		{"tables missing", dynamostore.New(awsCfg, missing), false, "does not exist"},
		{"DynamoDB unreachable", dynamostore.New(awsCfg, dynamostore.Config{MemoriesTable: "m", PersonalitiesTable: "p", JournalTable: "j", Endpoint: closed, Region: "us-east-1"}), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			tables, ok := tt.store.Health(ctx)
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v (%+v)", ok, tt.ok, tables)
			}
			if len(tables) != 3 {
				t.Fatalf("got %d tables, want 3", len(tables))
			}
			roles := []string{"memories", "personalities", "journal"}
			for i, th := range tables {
				want := agentmem.HealthOK
				if !tt.ok {
					want = agentmem.HealthUnavailable
				}
				if th.Table != roles[i] || th.Name == "" || th.Status != want {
					t.Errorf("table %d: got %+v, want role %s, status %s", i, th, roles[i], want)
				}
				if !tt.ok && (th.Error == "" || !strings.Contains(th.Error, tt.errSubstr)) {
					t.Errorf("table %s: error %q, want one containing %q", th.Table, th.Error, tt.errSubstr)
				}
			}
		})
	}
}
