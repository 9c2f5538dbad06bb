// Package lambdamain wires a function for Lambda: logger, the process's
// AWS configuration (loaded once, awsconfig.Load), store and (for the
// functions that need them) LLM client and embedder from the environment,
// then the Lambda runtime loop with a typed entry point (Entry[TIn, TOut],
// whose signature the compiler checks). Each functions/<fn>/main.go is one
// call to Run (API functions) or RunEntry (the dream function, whose Entry
// takes its schedule, SQS and API events); cmd/devserver builds the same
// Deps with DepsFromEnv and serves every function in one process.
//
// The LLM client and the embedder come in as options
// (WithLLM(providers.FromEnv), WithEmbedder(embedders.FromEnv)) rather than
// being built here, so that only the binaries that need them link the
// providers and their SDKs.
package lambdamain

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/agentmem/agentmem/shared/agentaccess"
	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/awsconfig"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/settings"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
)

// Deps are what a function's handler is built from.
type Deps struct {
	Store *dynamostore.Store
	Log   *slog.Logger
	// LLM is the configured model client; llm.Disabled{} when none is
	// configured or the function was not given WithLLM.
	LLM llm.Client
	// Embedder computes vectors for semantic search; nil when none is
	// configured (AGENTMEM_EMBEDDINGS=none): search is lexical then.
	// DepsFromEnv also sets it on Store, so every memory written gets
	// its vector.
	Embedder embeddings.Embedder
	// Getenv reads the function's other settings (os.Getenv in Lambda),
	// each through its shared/settings entry.
	Getenv func(string) string
	// AWS is the process's AWS configuration, which the store, the LLM
	// and the embedder were built from; a function builds its other AWS
	// clients from it (the dream dispatcher's SQS queue).
	AWS aws.Config
	// AgentAccess maps agents to their task roles (AGENTMEM_AGENT_ROLES);
	// nil when unset. Every API handler restricts its callers with it
	// (httpapi.Handler.RestrictAgents).
	AgentAccess *agentaccess.Map
}

// NewFunc builds a function's API handler from its dependencies.
type NewFunc func(Deps) (*httpapi.Handler, error)

// Option adds an optional dependency to DepsFromEnv.
type Option func(*options)

type options struct {
	llm      func(getenv func(string) string, awsCfg aws.Config) (llm.Client, error)
	embedder func(getenv func(string) string, awsCfg aws.Config) (embeddings.Embedder, error)
}

// WithLLM builds Deps.LLM with fromEnv (providers.FromEnv in the functions
// that need a model) from the settings and the process's AWS
// configuration.
func WithLLM(fromEnv func(getenv func(string) string, awsCfg aws.Config) (llm.Client, error)) Option {
	return func(o *options) { o.llm = fromEnv }
}

// WithEmbedder builds Deps.Embedder with fromEnv (embedders.FromEnv in the
// functions that write or search memories) from the settings and the
// process's AWS configuration, and sets it on the store, so that every
// memory written gets its vector.
func WithEmbedder(fromEnv func(getenv func(string) string, awsCfg aws.Config) (embeddings.Embedder, error)) Option {
	return func(o *options) { o.embedder = fromEnv }
}

// DepsFromEnv loads the process's AWS configuration (awsconfig.Load, once
// per process), connects to DynamoDB as getenv configures it
// (dynamostore.ConfigFromEnv, the per-scope memory limit
// AGENTMEM_MEMORY_LIMIT, default agentmem.DefaultMemoryLimit, the retention
// of daily records and dreams, AGENTMEM_DAILY_RETENTION_DAYS and
// AGENTMEM_DREAM_RETENTION_DAYS, the cursor key AGENTMEM_CURSOR_KEY), reads
// the agent role mapping (AGENTMEM_AGENT_ROLES) and builds
// the optional dependencies opts ask for from the same AWS configuration. storeCfg, when not nil, replaces
// the store configuration read from the environment (cmd/devserver points
// it at the DynamoDB Local it started).
func DepsFromEnv(ctx context.Context, getenv func(string) string, log *slog.Logger, storeCfg *dynamostore.Config, opts ...Option) (Deps, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	cfg := dynamostore.ConfigFromEnv(getenv)
	if storeCfg != nil {
		cfg = *storeCfg
	}
	awsCfg, err := awsconfig.Load(ctx)
	if err != nil {
		return Deps{}, err
	}
	store := dynamostore.New(awsCfg, cfg)
	deps := Deps{Store: store, Log: log, LLM: llm.Disabled{}, Getenv: getenv, AWS: awsCfg}
	if o.llm != nil {
		if deps.LLM, err = o.llm(getenv, awsCfg); err != nil {
			return Deps{}, err
		}
	}
	if o.embedder != nil {
		if deps.Embedder, err = o.embedder(getenv, awsCfg); err != nil {
			return Deps{}, err
		}
	}
	if v := settings.MemoryLimit.Get(getenv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Deps{}, fmt.Errorf("%s=%q: want a positive number of memories per scope", settings.MemoryLimit, v)
		}
		store.MemoryLimit = n
	}
	if store.DailyRetention, err = retention(getenv, settings.DailyRetentionDays, DefaultDailyRetentionDays, MinDailyRetentionDays); err != nil {
		return Deps{}, err
	}
	if store.DreamRetention, err = retention(getenv, settings.DreamRetentionDays, DefaultDreamRetentionDays, 1); err != nil {
		return Deps{}, err
	}
	if v := settings.CursorKey.Get(getenv); v != "" {
		if len(v) < 16 {
			return Deps{}, fmt.Errorf("%s is %d bytes: want at least 16", settings.CursorKey, len(v))
		}
		store.CursorKey = []byte(v)
	}
	if deps.AgentAccess, err = agentaccess.Parse(settings.AgentRoles.Get(getenv)); err != nil {
		return Deps{}, fmt.Errorf("%s: %w", settings.AgentRoles, err)
	}
	store.Embedder, store.Log = deps.Embedder, log
	return deps, nil
}

// Retention defaults, in days (AGENTMEM_DAILY_RETENTION_DAYS,
// AGENTMEM_DREAM_RETENTION_DAYS). A daily record must outlive the longest
// window a dream reads (30 days).
const (
	DefaultDailyRetentionDays = 90
	MinDailyRetentionDays     = 31
	DefaultDreamRetentionDays = 365
)

// retention reads a retention in days: def when unset, 0 (keep forever)
// or at least minDays.
func retention(getenv func(string) string, st *settings.Setting, def, minDays int) (time.Duration, error) {
	days := def
	if v := st.Get(getenv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 0 && n < minDays || n > 36500 {
			return 0, fmt.Errorf("%s=%q: want a number of days from %d to 36500, or 0 to keep forever", st, v, minDays)
		}
		days = n
	}
	return time.Duration(days) * 24 * time.Hour, nil
}

// Entry is a typed Lambda entry point: the Lambda runtime decodes each
// event's JSON into TIn and encodes the TOut it returns. The compiler
// checks the signature that lambda.Start would check at start-up.
type Entry[TIn, TOut any] func(ctx context.Context, in TIn) (TOut, error)

// Run starts the Lambda runtime loop with the API handler newFn builds
// (an Entry from API Gateway HTTP API v2 requests to their responses). It
// returns only on a start-up error, which main reports before exiting.
func Run(newFn NewFunc, opts ...Option) error {
	return RunEntry(func(deps Deps) (Entry[events.APIGatewayV2HTTPRequest, events.APIGatewayV2HTTPResponse], error) {
		h, err := newFn(deps)
		if err != nil {
			return nil, err
		}
		h.RestrictAgents(deps.AgentAccess)
		return h.Handle, nil
	}, opts...)
}

// RunEntry is Run for a function whose events are not only API requests
// (the dream function takes its schedule, its SQS batches and its routes
// through one Entry): it builds the dependencies, the entry point with
// newEntry, and starts the Lambda runtime loop with it.
func RunEntry[TIn, TOut any](newEntry func(Deps) (Entry[TIn, TOut], error), opts ...Option) error {
	log := applog.New(os.Stdout, os.Getenv)
	slog.SetDefault(log)
	deps, err := DepsFromEnv(context.Background(), os.Getenv, log, nil, opts...)
	if err != nil {
		return err
	}
	entry, err := newEntry(deps)
	if err != nil {
		return fmt.Errorf("build handler: %w", err)
	}
	lambda.StartHandlerFunc((func(context.Context, TIn) (TOut, error))(entry))
	return nil
}
