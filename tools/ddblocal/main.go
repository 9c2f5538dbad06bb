// Command ddblocal runs a command with DynamoDB Local started on a free port
// and DYNAMODB_ENDPOINT pointing at it, then stops DynamoDB Local. `make
// test` uses it so that one DynamoDB Local serves the whole test run.
//
// Usage:
//
//	go run ./tools/ddblocal -- go test -race ./...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/agentmem/agentmem/shared/dynamolocal"
	"github.com/agentmem/agentmem/shared/settings"
)

func main() {
	code, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ddblocal:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

func run() (int, error) {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: ddblocal -- COMMAND [ARGS...]\n\nRuns COMMAND with DynamoDB Local on a free port (DYNAMODB_ENDPOINT set).\n")
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		return 2, nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ddb, err := dynamolocal.Start(ctx, dynamolocal.Options{})
	if err != nil {
		return 1, err
	}
	defer ddb.Stop()
	fmt.Fprintf(os.Stderr, "ddblocal: DynamoDB Local at %s\n", ddb.Endpoint)

	cmd := exec.CommandContext(ctx, flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), settings.DynamoDBEndpoint.Name+"="+ddb.Endpoint)
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 1, fmt.Errorf("run %s: %w", flag.Arg(0), err)
	}
	return 0, nil
}
