// Package apitest serves the real agentmem API for tests: every function's
// handler (functions.Handlers, as make dev serves them) behind an
// httptest server, over fresh DynamoDB Local tables (shared/dynamotest),
// with no LLM configured. Tests of API clients (the CLI, the entrypoint
// example) run against it instead of a fake.
package apitest

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentmem/agentmem/functions"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/lambdamain"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/localapi"
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
	store := dynamotest.NewStore(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	handlers, err := functions.Handlers(lambdamain.Deps{Store: store, Log: quiet, LLM: llm.Disabled{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatalf("build the function handlers: %v", err)
	}
	var h http.Handler = localapi.New(handlers, quiet)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, Store: store}
}
