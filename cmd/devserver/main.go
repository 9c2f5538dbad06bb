// Command devserver is `make dev`: it takes the port (a busy one is an
// error before anything starts), locks the data directory (a second dev
// server on the same data, or make dev-reset, is refused), starts DynamoDB
// Local (data kept in .data/ so a restart keeps memories), creates the
// tables, and serves the whole agentmem API on http://127.0.0.1:3000 by
// passing each request through the same Lambda handlers API Gateway would
// invoke. It says it is ready once GET /api/health answers 200.
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
	"io"
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

	// The port first: a busy one fails here, before DynamoDB Local starts.
	ln, err := net.Listen("tcp", net.JoinHostPort(*addr, strconv.Itoa(*port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("port %d on %s is in use (another make dev?): stop what holds it, or pick another port: PORT=%d make dev", *port, *addr, *port+1)
		}
		return fmt.Errorf("listen: %w (set PORT to use another port)", err)
	}
	defer ln.Close()

	cfg := dynamostore.ConfigFromEnv(os.Getenv)
	var db *supervisor
	if cfg.Endpoint == "" {
		opts := dynamolocal.Options{}
		where := "in memory"
		if !*inMemory {
			lock, err := lockData(*data)
			if err != nil {
				return err
			}
			defer lock.release()
			opts.DBPath = filepath.Join(*data, "dynamodb")
			where = "data in " + opts.DBPath
		}
		fmt.Printf("devserver: starting DynamoDB Local (%s; a few seconds)...\n", where)
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
	fmt.Println("devserver: creating the tables if they are missing...")
	if err := deps.Store.EnsureTables(ctx); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	if db != nil {
		db.prepareWith(deps.Store.EnsureTables)
	}
	handlers, err := functions.Handlers(deps)
	if err != nil {
		return err
	}

	var api http.Handler = localapi.New(handlers, log)
	if db != nil {
		api = db.guard(api)
	}
	srv := &http.Server{Handler: api, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	base := "http://" + ln.Addr().String()
	if err := waitHealthy(ctx, base); err != nil {
		return err
	}
	where := "in memory"
	if !*inMemory && settings.DynamoDBEndpoint.Get(os.Getenv) == "" {
		where = "data in " + *data
	}
	fmt.Printf("agentmem API ready at %s (GET /api/health answered 200; DynamoDB Local at %s, %s; the API's description: %s/api/openapi.json; Ctrl-C stops)\n",
		base, cfg.Endpoint, where, base)

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

// waitHealthy asks the server's own health route until it answers: ready
// on 200, an error with the route's account otherwise.
func waitHealthy(ctx context.Context, base string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/health", nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			return fmt.Errorf("GET /api/health answered %d: %s", resp.StatusCode, body)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("GET /api/health: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
