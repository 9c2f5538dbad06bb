// Command agentmem is the agent-side CLI of agentmem: `inject` and
// `extract` around an agent's run, and commands for people to curate
// memories and personalities. `agentmem help` lists them. main only wires
// package cli to the process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
)

// A release build sets these with -ldflags, e.g.
//
//	go build -ldflags "-X main.version=v1.2.0 -X main.commit=$(git rev-parse HEAD) -X main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" ./cmd/agentmem
//
// Without them `agentmem version` reports what go build recorded: the
// commit of the checkout and its date.
var version, commit, date string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	env := cli.OSEnv()
	env.Build = cli.Build{Version: version, Commit: commit, Date: date}
	code := cli.Main(ctx, os.Args[1:], env)
	stop()
	os.Exit(code)
}
