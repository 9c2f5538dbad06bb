// Command devserver is `make dev`: it starts DynamoDB Local (data kept in
// .data/ so a restart keeps memories), creates the tables, and serves the
// whole agentmem API on http://127.0.0.1:3000 by passing each request
// through the same Lambda handlers API Gateway would invoke.
//
// Usage:
//
//	devserver [-addr 127.0.0.1] [-port 3000] [-data .data] [-in-memory]
//
// PORT overrides the default port; DYNAMODB_ENDPOINT uses an already
// running DynamoDB instead of starting one. The functions' settings
// (AGENTMEM_LLM and friends, shared/settings) are read from the
// environment as in Lambda.
//
// When the DynamoDB Local it started dies, the server stays up: it answers
// 503 (JSON, with Retry-After) while it starts DynamoDB Local again on the
// same port and data, then serves as before. Each request gets its
// function's deadline (routes.RequestTimeout), as in Lambda.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/shared/applog"
	"github.com/agentmem/agentmem/shared/dynamolocal"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/embeddings/embedders"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm/providers"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/settings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
}

func run() error {
	defPort := 3000
	if p, err := strconv.Atoi(settings.Port.Get(os.Getenv)); err == nil {
		defPort = p
	}
	addr := flag.String("addr", "127.0.0.1", "address to listen on")
	port := flag.Int("port", defPort, "port to listen on (env PORT)")
	data := flag.String("data", ".data", "directory for DynamoDB Local's data")
	inMemory := flag.Bool("in-memory", false, "keep nothing: run DynamoDB Local in memory")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: devserver [flags]\n\nServes the agentmem API locally over DynamoDB Local.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := applog.New(os.Stderr, func(k string) string {
		if k == settings.LogFormat.Name && os.Getenv(k) == "" {
			return "text"
		}
		return os.Getenv(k)
	})

	cfg := dynamostore.ConfigFromEnv(os.Getenv)
	var db *supervisor
	if cfg.Endpoint == "" {
		opts := dynamolocal.Options{}
		if !*inMemory {
			opts.DBPath = filepath.Join(*data, "dynamodb")
		}
		var err error
		if db, err = supervise(ctx, opts, log); err != nil {
			return err
		}
		defer db.stop()
		cfg.Endpoint = db.endpoint
	}
	deps, err := lambdamain.DepsFromEnv(ctx, os.Getenv, log, &cfg, lambdamain.WithLLM(providers.FromEnv), lambdamain.WithEmbedder(embedders.FromEnv))
	if err != nil {
		return err
	}
	if err := deps.Store.EnsureTables(ctx); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	if db != nil {
		db.afterStart = deps.Store.EnsureTables
	}
	handlers, err := functions.Handlers(deps)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", net.JoinHostPort(*addr, strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("listen: %w (set PORT to use another port)", err)
	}
	var api http.Handler = localapi.New(handlers, log)
	if db != nil {
		api = db.guard(api)
	}
	srv := &http.Server{Handler: api, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	where := "in memory"
	if !*inMemory && settings.DynamoDBEndpoint.Get(os.Getenv) == "" {
		where = "data in " + *data
	}
	fmt.Printf("agentmem API ready at http://%s (DynamoDB Local at %s, %s; Ctrl-C stops)\n", ln.Addr(), cfg.Endpoint, where)

	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("serve: %w", err)
		}
	case <-ctx.Done():
	}
	log.Info("stopping")
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
