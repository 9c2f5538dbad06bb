// Package lambdamain wires a function for Lambda: logger, store and (for
// the functions that need one) LLM client from the environment, then the
// Lambda runtime loop with a typed entry point (Entry[TIn, TOut], whose
// signature the compiler checks). Each functions/<fn>/main.go is one call
// to Run (API functions) or RunEntry (the dream function, whose Entry
// takes its schedule, SQS and API events); cmd/devserver builds the same
// Deps with DepsFromEnv and serves every function in one process.
//
// The LLM client comes in as an option (WithLLM(providers.FromEnv)) rather
// than being built here, so that only the binaries that need a model link
// the provider SDKs.
package lambdamain

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"

	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/embeddings"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
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
	// Getenv reads the function's other settings (os.Getenv in Lambda).
	Getenv func(string) string
}

// NewFunc builds a function's API handler from its dependencies.
type NewFunc func(Deps) (*httpapi.Handler, error)

// Option adds an optional dependency to DepsFromEnv.
type Option func(*options)

type options struct {
	llm      func(context.Context, func(string) string) (llm.Client, error)
	embedder func(context.Context, func(string) string) (embeddings.Embedder, error)
}

// WithLLM builds Deps.LLM with fromEnv (providers.FromEnv in the functions
// that need a model).
func WithLLM(fromEnv func(ctx context.Context, getenv func(string) string) (llm.Client, error)) Option {
	return func(o *options) { o.llm = fromEnv }
}

// WithEmbedder builds Deps.Embedder with fromEnv (embeddings.FromEnv in
// the functions that write or search memories) and sets it on the store,
// so that every memory written gets its vector.
func WithEmbedder(fromEnv func(ctx context.Context, getenv func(string) string) (embeddings.Embedder, error)) Option {
	return func(o *options) { o.embedder = fromEnv }
}

// DepsFromEnv connects to DynamoDB as getenv configures it
// (dynamostore.ConfigFromEnv, and the per-scope memory limit
// AGENTMEM_MEMORY_LIMIT, default agentmem.DefaultMemoryLimit) and builds
// the optional dependencies opts ask for. storeCfg, when not nil, replaces
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
	store, err := dynamostore.New(ctx, cfg)
	if err != nil {
		return Deps{}, fmt.Errorf("connect to DynamoDB: %w", err)
	}
	deps := Deps{Store: store, Log: log, LLM: llm.Disabled{}, Getenv: getenv}
	if o.llm != nil {
		if deps.LLM, err = o.llm(ctx, getenv); err != nil {
			return Deps{}, err
		}
	}
	if o.embedder != nil {
		if deps.Embedder, err = o.embedder(ctx, getenv); err != nil {
			return Deps{}, err
		}
	}
	if v := getenv("AGENTMEM_MEMORY_LIMIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Deps{}, fmt.Errorf("AGENTMEM_MEMORY_LIMIT=%q: want a positive number of memories per scope", v)
		}
		store.MemoryLimit = n
	}
	store.Embedder, store.Log = deps.Embedder, log
	return deps, nil
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
