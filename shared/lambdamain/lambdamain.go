// Package lambdamain wires an API function for Lambda: logger, store and
// LLM client from the environment, then lambda.Start. Each
// functions/<fn>/main.go is one call to Run; cmd/devserver builds the same
// Deps with DepsFromEnv and serves every function in one process.
package lambdamain

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/aws/aws-lambda-go/lambda"
)

// Deps are what a function's handler is built from.
type Deps struct {
	Store *dynamostore.Store
	Log   *slog.Logger
	// LLM is the configured model client; llm.Disabled{} when none is
	// configured. Functions that need no model ignore it.
	LLM llm.Client
	// Getenv reads the function's other settings (os.Getenv in Lambda).
	Getenv func(string) string
}

// NewFunc builds a function's API handler from its dependencies.
type NewFunc func(Deps) (*httpapi.Handler, error)

// DepsFromEnv connects to DynamoDB and builds the LLM client as getenv
// configures them (dynamostore.ConfigFromEnv, llm.ConfigFromEnv).
// storeCfg, when not nil, replaces the store configuration read from the
// environment (cmd/devserver points it at the DynamoDB Local it started).
func DepsFromEnv(ctx context.Context, getenv func(string) string, log *slog.Logger, storeCfg *dynamostore.Config) (Deps, error) {
	cfg := dynamostore.ConfigFromEnv(getenv)
	if storeCfg != nil {
		cfg = *storeCfg
	}
	store, err := dynamostore.New(ctx, cfg)
	if err != nil {
		return Deps{}, fmt.Errorf("connect to DynamoDB: %w", err)
	}
	llmCfg, err := llm.ConfigFromEnv(getenv)
	if err != nil {
		return Deps{}, err
	}
	client, err := llm.New(ctx, llmCfg)
	if err != nil {
		return Deps{}, fmt.Errorf("configure LLM: %w", err)
	}
	return Deps{Store: store, Log: log, LLM: client, Getenv: getenv}, nil
}

// Run starts the Lambda runtime loop with the handler newFn builds. It
// returns only on a start-up error, which main reports before exiting.
func Run(newFn NewFunc) error {
	return RunEvents(func(deps Deps) (any, error) {
		h, err := newFn(deps)
		if err != nil {
			return nil, err
		}
		return h.Handle, nil
	})
}

// RunEvents is Run for a function that handles more than API Gateway
// events: newHandler returns any handler lambda.Start accepts (the dream
// function tells its event shapes apart itself).
func RunEvents(newHandler func(Deps) (any, error)) error {
	log := applog.New(os.Stdout, os.Getenv)
	slog.SetDefault(log)
	deps, err := DepsFromEnv(context.Background(), os.Getenv, log, nil)
	if err != nil {
		return err
	}
	h, err := newHandler(deps)
	if err != nil {
		return fmt.Errorf("build handler: %w", err)
	}
	lambda.Start(h)
	return nil
}
