// Package dynamostore is agentmem's DynamoDB access package, shared by every
// function. It is built on github.com/guregu/dynamo/v2 over aws-sdk-go-v2
// and speaks the domain's types and error codes: dynamo.ErrNotFound and
// failed conditions are translated here, at the store boundary.
package dynamostore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/guregu/dynamo/v2"
	"github.com/oklog/ulid/v2"
)

// Default table names (BRIEF §3).
const (
	DefaultMemoriesTable      = "agent-memories"
	DefaultPersonalitiesTable = "agent-personalities"
	DefaultJournalTable       = "agent-journal"
)

// Index names.
const (
	IDIndex      = "id-index"      // agent-memories: id -> item
	PendingIndex = "pending-index" // agent-journal: scopes with undreamed daily content
)

// Config names the tables and, for local use, the endpoint.
type Config struct {
	MemoriesTable      string
	PersonalitiesTable string
	JournalTable       string
	// Endpoint overrides the DynamoDB endpoint (DynamoDB Local). When set
	// and no AWS credentials are configured, dummy ones are used.
	Endpoint string
	// Region defaults to AWS_REGION, else us-east-1 for local use.
	Region string
}

// ConfigFromEnv reads MEMORIES_TABLE, PERSONALITIES_TABLE, JOURNAL_TABLE,
// DYNAMODB_ENDPOINT and AWS_REGION through getenv, applying the defaults.
func ConfigFromEnv(getenv func(string) string) Config {
	or := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	return Config{
		MemoriesTable:      or("MEMORIES_TABLE", DefaultMemoriesTable),
		PersonalitiesTable: or("PERSONALITIES_TABLE", DefaultPersonalitiesTable),
		JournalTable:       or("JOURNAL_TABLE", DefaultJournalTable),
		Endpoint:           getenv("DYNAMODB_ENDPOINT"),
		Region:             getenv("AWS_REGION"),
	}
}

// Store reads and writes agentmem's tables.
type Store struct {
	cfg           Config
	db            *dynamo.DB
	memories      dynamo.Table
	personalities dynamo.Table
	journal       dynamo.Table

	// Now is the clock; tests may replace it before first use.
	Now func() time.Time

	// Embedder, when set, computes the vector of every memory CreateMemory
	// writes (best effort: a failure is logged and the memory is stored
	// without one, searchable lexically). Set it before first use.
	Embedder embeddings.Embedder
	// MemoryLimit is how many memories a scope keeps before CreateMemory
	// evicts the least recently used (0: agentmem.DefaultMemoryLimit).
	// Set it before first use.
	MemoryLimit int
	// Log receives the store's warnings and eviction records
	// (nil: slog.Default()).
	Log *slog.Logger

	idMu      sync.Mutex
	idEntropy *ulid.MonotonicEntropy
}

// New connects to DynamoDB with the default AWS configuration chain, or to
// cfg.Endpoint when set.
func New(ctx context.Context, cfg Config) (*Store, error) {
	region := cfg.Region
	if region == "" && cfg.Endpoint != "" {
		region = "us-east-1"
	}
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("load AWS config: %w", err)
	}
	var ddbOpts []func(*dynamodb.Options)
	if cfg.Endpoint != "" {
		if os.Getenv("AWS_ACCESS_KEY_ID") == "" && os.Getenv("AWS_PROFILE") == "" {
			// DynamoDB Local accepts any key; don't probe the credential
			// chain (and the EC2 metadata service) for one.
			awsCfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
		}
		ddbOpts = append(ddbOpts, func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
			// DynamoDB Local's error responses carry no CRC32 the SDK
			// accepts; skip the check there only.
			o.DisableValidateResponseChecksum = true
		})
	}
	return NewWithDB(dynamo.New(awsCfg, ddbOpts...), cfg), nil
}

// NewWithDB returns a store over an existing connection.
func NewWithDB(db *dynamo.DB, cfg Config) *Store {
	return &Store{
		cfg:           cfg,
		db:            db,
		memories:      db.Table(cfg.MemoriesTable),
		personalities: db.Table(cfg.PersonalitiesTable),
		journal:       db.Table(cfg.JournalTable),
		Now:           time.Now,
		idEntropy:     ulid.Monotonic(rand.Reader, 0),
	}
}

// Config returns the store's configuration.
func (s *Store) Config() Config { return s.cfg }

// DB returns the underlying connection, for packages that add their own
// items to the journal table.
func (s *Store) DB() *dynamo.DB { return s.db }

// newID returns a new ULID; monotonic within the process, so ids made in
// the same millisecond still sort in creation order.
func (s *Store) newID(t time.Time) string {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	return ulid.MustNew(ulid.Timestamp(t), s.idEntropy).String()
}

// log returns the store's logger.
func (s *Store) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// ScopeLimit returns the per-scope memory limit in force: MemoryLimit, or
// agentmem.DefaultMemoryLimit when it is not set.
func (s *Store) ScopeLimit() int {
	if s.MemoryLimit > 0 {
		return s.MemoryLimit
	}
	return agentmem.DefaultMemoryLimit
}

// now returns the store clock's time in UTC.
func (s *Store) now() time.Time { return s.Now().UTC() }

// notFound reports whether err is guregu's "no item" error.
func notFound(err error) bool { return errors.Is(err, dynamo.ErrNotFound) }
