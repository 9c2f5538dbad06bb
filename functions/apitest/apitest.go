// Package apitest serves the real agentmem API for tests: every function's
// handler (functions.Handlers, as make dev serves them) behind an
// httptest server, over fresh DynamoDB Local tables (shared/dynamotest),
// with no LLM configured, every answer checked against the OpenAPI
// document (openapitest). Tests of API clients (apiclient, the MCP
// server, the CLI, the entrypoint example) run against it instead of a
// fake. It lives beside package functions, whose handlers it serves: the
// shared packages' own code never imports it, only their tests.
package apitest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/localapi"
	"github.com/agentmem/agentmem/shared/openapi/openapitest"
)

// Server is the API on a local URL.
type Server struct {
	URL   string
	Store *dynamostore.Store
}

// New starts the API for the test; it stops when the test ends. wrap,
// when not nil, wraps the API's handler (e.g. to record requests).
func New(t testing.TB, wrap func(http.Handler) http.Handler) *Server {
	t.Helper()
	return Start(t, Options{Wrap: wrap})
}

// Options configure Start.
type Options struct {
	// Wrap, when not nil, wraps the API's handler.
	Wrap func(http.Handler) http.Handler
	// LLM is the server's model client (extraction, dreams); nil means
	// none is configured. Tests give it a real client talking to an
	// httptest stand-in of the provider.
	LLM llm.Client
	// Now, when not nil, is the store's clock (the server's "now": days
	// of the daily log, dream windows, session expiry, forget cutoffs).
	Now func() time.Time
}

// Start is New with options.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	store := dynamotest.NewStore(t)
	if opt.Now != nil {
		store.Now = opt.Now
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	client := opt.LLM
	if client == nil {
		client = llm.Disabled{}
	}
	handlers, err := functions.Handlers(lambdamain.Deps{Store: store, Log: quiet, LLM: client, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatalf("build the function handlers: %v", err)
	}
	var h http.Handler = localapi.New(handlers, quiet)
	h = checkAnswers(t, h)
	if opt.Wrap != nil {
		h = opt.Wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, Store: store}
}

// checkAnswers holds every answer of the API to the OpenAPI document
// (openapitest): a status, header, content type or body the document does not
// describe fails the test, with what to change. Answers to a method and
// path that name no route (404 no_route, 405) have no operation to check.
func checkAnswers(t testing.TB, next http.Handler) http.Handler {
	v, err := openapitest.New()
	if err != nil {
		t.Fatalf("the OpenAPI document: %v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		err := v.Answer(r.Method, r.URL.EscapedPath(), rec.status, rec.Header(), rec.body.Bytes())
		if err != nil && !errors.Is(err, openapitest.ErrNoOperation) {
			t.Errorf("the answer does not match the OpenAPI document (shared/routes/contracts.go, the agentmem types): %v", err)
		}
	})
}

// recorder passes an answer on and keeps a copy of its status and body.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

// build compiles the main package at pkg (a path go build understands,
// e.g. "." or "../cmd/agentmem") into out as a static binary
// (CGO_ENABLED=0), for tests that run the binary; it is meant for TestMain.
func build(pkg, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// MainWithBinary is a TestMain for tests that run a built binary: it
// builds pkg (CGO_ENABLED=0) into a temporary directory, stores the binary's
// path in *path, runs the tests (with dynamotest.Main) and cleans up. Use
// it as os.Exit(apitest.MainWithBinary(m, "../cmd/agentmem", &binary)).
func MainWithBinary(m *testing.M, pkg string, path *string) int {
	dir, err := os.MkdirTemp("", "agentmem-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	*path = filepath.Join(dir, filepath.Base(pkg))
	if pkg == "." {
		*path = filepath.Join(dir, "main")
	}
	if err := build(pkg, *path); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return dynamotest.Main(m)
}
