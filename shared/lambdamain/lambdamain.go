// Package lambdamain wires an API function for Lambda: logger and store
// from the environment, then lambda.Start. Each functions/<fn>/main.go is
// one call to Run.
package lambdamain

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/httpapi"
	"github.com/aws/aws-lambda-go/lambda"
)

// NewFunc builds a function's API handler from its dependencies.
type NewFunc func(store *dynamostore.Store, log *slog.Logger) (*httpapi.Handler, error)

// Run starts the Lambda runtime loop with the handler newFn builds. It
// returns only on a start-up error, which main reports before exiting.
func Run(newFn NewFunc) error {
	log := applog.New(os.Stdout, os.Getenv)
	slog.SetDefault(log)
	store, err := dynamostore.New(context.Background(), dynamostore.ConfigFromEnv(os.Getenv))
	if err != nil {
		return fmt.Errorf("connect to DynamoDB: %w", err)
	}
	h, err := newFn(store, log)
	if err != nil {
		return fmt.Errorf("build handler: %w", err)
	}
	lambda.Start(h.Handle)
	return nil
}
