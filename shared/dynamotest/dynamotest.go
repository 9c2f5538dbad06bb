// Package dynamotest gives tests a real store: fresh, uniquely named tables
// in DynamoDB Local. It uses $DYNAMODB_ENDPOINT when set (make test starts
// one DynamoDB Local for the whole run) and otherwise starts one DynamoDB
// Local per test binary. It never skips: without DynamoDB Local a test fails
// with instructions.
package dynamotest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamolocal"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/settings"
)

var (
	once     sync.Once
	endpoint string
	server   *dynamolocal.Server
	startErr error
)

// Endpoint returns the DynamoDB Local endpoint for this test binary,
// starting DynamoDB Local if DYNAMODB_ENDPOINT is not set.
func Endpoint(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		if endpoint = settings.DynamoDBEndpoint.Get(os.Getenv); endpoint != "" {
			return
		}
		server, startErr = dynamolocal.Start(context.Background(), dynamolocal.Options{})
		if startErr == nil {
			endpoint = server.Endpoint
		}
	})
	if startErr != nil {
		t.Fatalf("DynamoDB Local is needed: set DYNAMODB_ENDPOINT or run `make test` (which installs it): %v", startErr)
	}
	return endpoint
}

// Main runs the tests of a package and stops the DynamoDB Local it may
// have started. Use it from TestMain: os.Exit(dynamotest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if server != nil {
		server.Stop()
	}
	return code
}

// Config returns a store configuration with table names unique to this
// call, so that tests and packages running in parallel never share data.
func Config(t testing.TB) dynamostore.Config {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	prefix := "t" + hex.EncodeToString(b[:]) + "-"
	return dynamostore.Config{
		MemoriesTable:      prefix + dynamostore.DefaultMemoriesTable,
		PersonalitiesTable: prefix + dynamostore.DefaultPersonalitiesTable,
		JournalTable:       prefix + dynamostore.DefaultJournalTable,
		Endpoint:           Endpoint(t),
		Region:             "us-east-1",
	}
}

// NewStore returns a store on fresh tables, deleted when the test ends.
func NewStore(t testing.TB) *dynamostore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		t.Fatalf("connect to DynamoDB Local: %v", err)
	}
	st := dynamostore.New(awsCfg, Config(t))
	if err := st.EnsureTables(ctx); err != nil {
		t.Fatalf("create tables: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := st.DeleteTables(ctx); err != nil {
			t.Errorf("delete tables: %v", err)
		}
	})
	return st
}

// Env returns environment settings (as KEY=VALUE) pointing a child process
// at the store's tables, for tests that run built binaries.
func Env(cfg dynamostore.Config) []string {
	return []string{
		settings.DynamoDBEndpoint.Name + "=" + cfg.Endpoint,
		settings.MemoriesTable.Name + "=" + cfg.MemoriesTable,
		settings.PersonalitiesTable.Name + "=" + cfg.PersonalitiesTable,
		settings.JournalTable.Name + "=" + cfg.JournalTable,
		settings.AWSRegion.Name + "=" + cfg.Region,
		settings.AWSAccessKeyID.Name + "=local",
		"AWS_SECRET_ACCESS_KEY=local",
	}
}
