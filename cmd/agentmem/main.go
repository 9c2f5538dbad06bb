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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.OSEnv())
	stop()
	os.Exit(code)
}
