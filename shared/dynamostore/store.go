// Package dynamostore is agentmem's DynamoDB access package, shared by every
// function. It is built on github.com/guregu/dynamo/v2 over aws-sdk-go-v2
// and speaks the domain's types and error codes: dynamo.ErrNotFound and
// failed conditions are translated here, at the store boundary.
package dynamostore

import (
	"crypto/rand"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/cursor"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/aws/aws-sdk-go-v2/aws"
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
	// Endpoint overrides the DynamoDB endpoint (DynamoDB Local).
	Endpoint string
	// Region overrides the AWS configuration's region; against an
	// Endpoint with no region anywhere, us-east-1.
	Region string
	// UseAWSCredentials keeps the AWS configuration's credentials for an
	// Endpoint (ConfigFromEnv sets it when AWS_ACCESS_KEY_ID or
	// AWS_PROFILE is set: a VPC endpoint, SAM). Otherwise an Endpoint gets
	// dummy credentials, which DynamoDB Local accepts, so that the
	// credential chain (and the EC2 metadata service) is never probed.
	UseAWSCredentials bool
}

// ConfigFromEnv reads MEMORIES_TABLE, PERSONALITIES_TABLE, JOURNAL_TABLE,
// DYNAMODB_ENDPOINT and AWS_REGION through getenv, applying the defaults,
// and notes whether AWS_ACCESS_KEY_ID or AWS_PROFILE configures
// credentials.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{
		MemoriesTable:      settings.MemoriesTable.Or(getenv, DefaultMemoriesTable),
		PersonalitiesTable: settings.PersonalitiesTable.Or(getenv, DefaultPersonalitiesTable),
		JournalTable:       settings.JournalTable.Or(getenv, DefaultJournalTable),
		Endpoint:           settings.DynamoDBEndpoint.Get(getenv),
		Region:             settings.AWSRegion.Get(getenv),
		UseAWSCredentials:  settings.AWSAccessKeyID.Get(getenv) != "" || settings.AWSProfile.Get(getenv) != "",
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
	// DailyRetention is how long a daily record is kept after it is
	// written, DreamRetention a dream diary entry and its plan (their
	// TTL); 0 keeps them. Set them before first use.
	DailyRetention, DreamRetention time.Duration
	// CursorKey, when set, is the key page cursors are signed with
	// (AGENTMEM_CURSOR_KEY); otherwise the store keeps a random one in
	// the journal table (cursors.go). Set it before first use.
	CursorKey []byte

	idMu      sync.Mutex
	idEntropy *ulid.MonotonicEntropy

	cursorMu sync.Mutex
	cursors  *cursor.Sealer
}

// New returns a store over DynamoDB as awsCfg (the process's AWS
// configuration, awsconfig.Load) and cfg configure it. Its client retries
// with the process's policy (awsconfig.NewRetryer) plus transaction
// conflicts (dynamo.RetryTxConflicts): a write transaction cancelled
// because a concurrent one touched the same item is sent again after a
// backoff, while a failed condition is returned at once.
func New(awsCfg aws.Config, cfg Config) *Store {
	ddbOpts := []func(*dynamodb.Options){func(o *dynamodb.Options) {
		o.Retryer = awsconfig.NewRetryer(dynamo.RetryTxConflicts)
		if cfg.Region != "" {
			o.Region = cfg.Region
		}
		o.APIOptions = append(o.APIOptions, markUnavailable)
	}}
	if cfg.Endpoint != "" {
		ddbOpts = append(ddbOpts, func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
			if o.Region == "" {
				o.Region = "us-east-1"
			}
			if !cfg.UseAWSCredentials {
				o.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
			}
			// DynamoDB Local's error responses carry no CRC32 the SDK
			// accepts; skip the check there only.
			o.DisableValidateResponseChecksum = true
		})
	}
	return NewWithDB(dynamo.New(awsCfg, ddbOpts...), cfg)
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
