package cli_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/llm"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

// api is the real agentmem API (every function's handler, as make dev
// serves it) over fresh DynamoDB Local tables.
type api struct {
	t     testing.TB
	URL   string
	Store *dynamostore.Store
	clock *testClock // newTierAPI's server clock

	mu      sync.Mutex
	queries []string // raw query strings of bootstrap calls
}

// cliNow is the CLI's clock in run.
var cliNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// testClock is the server's clock in newTierAPI: it reads base plus 1 ms
// per reading (so that records written in a row keep their order), and
// a test may move base (to write memories in the past).
type testClock struct{ base, ticks atomic.Int64 }

func (c *testClock) now() time.Time {
	return time.Unix(0, c.base.Load()).UTC().Add(time.Duration(c.ticks.Add(1)) * time.Millisecond)
}

func (c *testClock) set(t time.Time) { c.base.Store(t.UnixNano()) }

// newTierAPI is the real API with model as the server's LLM (nil: none)
// and a server clock starting at cliNow, so that the CLI and the server
// agree on what "today" is.
func newTierAPI(t testing.TB, model llm.Client) *api {
	t.Helper()
	clock := &testClock{}
	clock.set(cliNow)
	srv := apitest.Start(t, apitest.Options{LLM: model, Now: clock.now})
	return &api{t: t, URL: srv.URL, Store: srv.Store, clock: clock}
}

// failingAPI is the real API answering 500 (internal) to the n-th request
// that matches from the last failNth on, as a server failing halfway
// through a command does.
type failingAPI struct {
	*api
	seen, failOn atomic.Int32
}

// newFailingAPI is a failingAPI failing the requests that match, once
// failNth says which.
func newFailingAPI(t testing.TB, match func(*http.Request) bool) *failingAPI {
	t.Helper()
	f := &failingAPI{}
	srv := apitest.New(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if match(r) && f.seen.Add(1) == f.failOn.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"error":{"code":"internal","message":"internal error"}}`))
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	f.api = &api{t: t, URL: srv.URL, Store: srv.Store}
	return f
}

// failNth makes the n-th matching request from now on fail.
func (f *failingAPI) failNth(n int32) {
	f.seen.Store(0)
	f.failOn.Store(n)
}

func newAPI(t testing.TB) *api {
	t.Helper()
	a := &api{t: t}
	srv := apitest.New(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/bootstrap") {
				a.mu.Lock()
				a.queries = append(a.queries, r.URL.RawQuery)
				a.mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	})
	a.URL, a.Store = srv.URL, srv.Store
	return a
}

func (a *api) bootstrapQueries() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.queries...)
}

// memory stores a memory straight through the store.
func (a *api) memory(agent, project string, in agentmem.MemoryInput) agentmem.Memory {
	a.t.Helper()
	in.ProjectID = project
	in.Normalize()
	if err := in.Validate(); err != nil {
		a.t.Fatal(err)
	}
	m, err := a.Store.CreateMemory(context.Background(), in.Memory(agent, agentmem.SourceManual))
	if err != nil {
		a.t.Fatal(err)
	}
	return m
}

func (a *api) personality(agent string, in agentmem.PersonalityInput) agentmem.Personality {
	a.t.Helper()
	p, _, err := a.Store.PutPersonality(context.Background(), in.Personality(agent), nil)
	if err != nil {
		a.t.Fatal(err)
	}
	return p
}

func (a *api) memories(agent, project string) []agentmem.Memory {
	a.t.Helper()
	page, err := a.Store.ListMemories(context.Background(), dynamostore.ListOptions{AgentName: agent, ProjectID: project})
	if err != nil {
		a.t.Fatal(err)
	}
	return page.Memories
}

// result is one CLI run.
type result struct {
	stdout, stderr string
	code           int
}

// opts are the process around a CLI run.
type opts struct {
	url      string
	stdin    string
	terminal bool
	env      map[string]string
	// scopesPage is Env.ScopesPage (0: the API's maximum).
	scopesPage int
	// openBrowser is Env.OpenBrowser (nil: the system's browser).
	openBrowser func(ctx context.Context, url string) error
}

// run runs the CLI in-process against url (AGENTMEM_AUTH=none).
func run(t testing.TB, o opts, args ...string) result {
	t.Helper()
	env := map[string]string{"AGENTMEM_API_URL": o.url, "AGENTMEM_AUTH": "none"}
	for k, v := range o.env {
		env[k] = v
	}
	var stdout, stderr bytes.Buffer
	code := cli.Main(context.Background(), args, cli.Env{
		Stdin: strings.NewReader(o.stdin), Stdout: &stdout, Stderr: &stderr,
		Getenv:          func(k string) string { return env[k] },
		StdinIsTerminal: func() bool { return o.terminal },
		Now:             func() time.Time { return cliNow },
		ScopesPage:      o.scopesPage,
		OpenBrowser:     o.openBrowser,
	})
	return result{stdout.String(), stderr.String(), code}
}

// stoppedURL is the URL of a server that is no longer there.
func stoppedURL(t testing.TB) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	return u
}

// hungURL is a server that accepts requests and never answers until the
// test ends.
func hungURL(t testing.TB) string {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv.URL
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// envMap is an environment for cli.Env.Getenv.
type envMap map[string]string

func (m envMap) get(k string) string { return m[k] }
