package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/oklog/ulid/v2"
)

// invented is a bullet no source supports: the fabrication guard drops it.
const invented = "The team deploys to production every Friday from the Zurich office"

// dreamAnswer adds what the daily records TestDream writes say, citing
// them, plus the invented addition.
const dreamAnswer = "```json\n" + `{"operations": [
  {"op": "add", "type": "finding", "content": "The payment provider retries webhooks 3 times", "cite": ["r1"]},
  {"op": "add", "type": "decision", "content": "Use idempotency keys on every payment POST", "cite": ["r2"]},
  {"op": "add", "type": "note", "content": "` + invented + `", "cite": ["r1"]}
 ], "dream": "Two runs on the webhook handler: the provider retries, so every payment POST now carries an idempotency key."}` + "\n```\n"

// seedDreamScope writes the daily records and the manual memory TestDream
// consolidates.
func seedDreamScope(t *testing.T, a *api) {
	t.Helper()
	steps := [][]string{
		{"daily", "add", "checkout", "nori", "--title", "run-41", "The payment provider retries webhooks 3 times."},
		{"daily", "add", "checkout", "nori", "--title", "run-42", "We decided to use idempotency keys on every payment POST."},
		{"add", "checkout", "nori", "note", "Ask Koji before touching billing"},
	}
	for _, args := range steps {
		if r := run(t, opts{url: a.URL}, args...); r.code != 0 {
			t.Fatalf("%v: code %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestDream runs, lists, shows and reverts a Deep Dream through the CLI
// against the real API, whose model is the real OpenAI-compatible client
// talking to a scripted chat completions stand-in.
func TestDream(t *testing.T) {
	t.Parallel()
	chat := llmtest.NewChat(t, llmtest.Fixed(dreamAnswer))
	a := newTierAPI(t, chat.Client(t, 5*time.Second))
	seedDreamScope(t, a)
	o := opts{url: a.URL}

	r := run(t, o, "dream", "run", "checkout", "nori")
	want := "dreamed nori in checkout: 2 memories added, 0 updated, 0 retired, 0 unchanged, 1 kept as they were (pinned or manual); 1 operation refused (the diary says why)\n" +
		"the diary: agentmem dream show --agent nori --project checkout --date 2026-03-01\n"
	if r.code != 0 || r.stdout != want || !strings.HasPrefix(r.stderr, "agentmem: dream: nori in checkout: asking the server to dream") {
		t.Fatalf("dream run: code %d\nstdout %q\nwant   %q\nstderr %q", r.code, r.stdout, want, r.stderr)
	}
	// The refused operation is offered to the restate pass, whose answer
	// (the fixed dream answer) it cannot read: it stays refused.
	if got := len(chat.Prompts()); got != 3 {
		t.Fatalf("the model was asked %d times, want 3 (the dream, the restate pass and the verifier)", got)
	}
	core := map[string]agentmem.Source{}
	for _, m := range a.memories("nori", "checkout") {
		core[m.Content] = m.Source
	}
	wantCore := map[string]agentmem.Source{"The payment provider retries webhooks 3 times": agentmem.SourceSystem,
		"Use idempotency keys on every payment POST": agentmem.SourceSystem, "Ask Koji before touching billing": agentmem.SourceManual}
	if len(core) != len(wantCore) {
		t.Errorf("core after the dream: %v", core)
	}
	for c, s := range wantCore {
		if core[c] != s {
			t.Errorf("core: %q has source %q, want %q", c, core[c], s)
		}
	}

	// Nothing new since: skipped, without asking the model.
	r = run(t, o, "dream", "run", "checkout", "nori")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "skipped: ") || !strings.HasSuffix(r.stdout, "(--force dreams anyway)\n") || len(chat.Prompts()) != 3 {
		t.Errorf("second dream: code %d, stdout %q, %d prompts", r.code, r.stdout, len(chat.Prompts()))
	}

	r = run(t, o, "dream", "ls", "checkout", "nori")
	rows := lines(r.stdout)
	if r.code != 0 || len(rows) != 2 || !strings.HasPrefix(rows[0], "DATE") ||
		!regexp.MustCompile(`^2026-03-01  12:00  +dream  committed  \+2 ~0 -0 =0 kept 1, dropped 1  [0-9A-Z]{26}$`).MatchString(rows[1]) {
		t.Errorf("dream ls: code %d, stdout:\n%s", r.code, r.stdout)
	}

	r = run(t, o, "dream", "show", "checkout", "nori")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "# Dream Diary: 2026-03-01\n") || !strings.Contains(r.stdout, "### Dropped (refused operations, with the reason)") ||
		!strings.Contains(r.stdout, invented) || !strings.Contains(r.stdout, "Two runs on the webhook handler") {
		t.Errorf("dream show: code %d, stdout:\n%s", r.code, r.stdout)
	}
	r = run(t, o, "dream", "show", "checkout", "nori", "--date", "today", "--plan")
	if r.code != 0 || !strings.Contains(r.stdout, "\n### Written: 2\n- [finding] The payment provider retries webhooks 3 times `") || !strings.Contains(r.stdout, "### Replaced (a revert puts these back): 0\n") {
		t.Errorf("dream show --plan: code %d, stdout:\n%s", r.code, r.stdout)
	}
	r = run(t, o, "dream", "show", "checkout", "nori", "--plan", "--json")
	var day agentmem.DreamDay
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &day) != nil || len(day.Dreams) != 1 || len(day.Dreams[0].Written) != 2 || len(day.Dreams[0].Dropped) != 1 {
		t.Errorf("dream show --plan --json: code %d, stdout %.400q", r.code, r.stdout)
	}

	r = run(t, o, "dream", "revert", "checkout", "nori")
	if r.code != 0 || !regexp.MustCompile(`^reverted dream [0-9A-Z]{26} of 2026-03-01: 0 memories put back, 2 retired \(revert [0-9A-Z]{26}\)\n$`).MatchString(r.stdout) {
		t.Errorf("dream revert: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if m := a.memories("nori", "checkout"); len(m) != 1 || m[0].Content != "Ask Koji before touching billing" {
		t.Errorf("core after the revert: %+v", m)
	}
	if r := run(t, o, "dream", "revert", "checkout", "nori"); r.code != 3 || !strings.Contains(r.stderr, "nori has no committed dream to revert in checkout") {
		t.Errorf("revert again: code %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, o, "dream", "revert", "checkout", "nori", "--date", "2026-03-01"); r.code != 1 || !strings.Contains(r.stderr, "409 conflict") || !strings.Contains(r.stderr, "already reverted") {
		t.Errorf("revert again by date: code %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, o, "dream", "ls", "checkout", "nori", "--limit", "1"); r.code != 0 || len(lines(r.stdout)) != 2 || !strings.Contains(r.stdout, "revert  committed  +0 -2 (undid ") ||
		!strings.Contains(r.stderr, "showing 1; older entries remain: --cursor ") {
		t.Errorf("dream ls --limit 1: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestDreamFailures: a failing model, a dream already running, no model,
// a timeout, nothing to show; each a clear error and the core unchanged.
func TestDreamFailures(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	var once sync.Once
	chat := llmtest.NewChat(t, func(ctx context.Context, _ string) llmtest.Reply {
		once.Do(func() { started <- struct{}{} })
		select {
		case <-release:
			return llmtest.Reply{Text: dreamAnswer}
		case <-ctx.Done():
			return llmtest.Reply{Status: 503, Text: "client went away"}
		}
	})
	a := newTierAPI(t, chat.Client(t, 5*time.Second))
	seedDreamScope(t, a)
	o := opts{url: a.URL}

	// A dream already running: the second one is refused as busy.
	first := make(chan result, 1)
	go func() { first <- run(t, o, "dream", "run", "checkout", "nori") }()
	<-started
	if r := run(t, o, "dream", "run", "checkout", "nori"); r.code != 1 || !strings.Contains(r.stderr, "409 busy") {
		t.Errorf("concurrent dream: code %d, stderr %q", r.code, r.stderr)
	}
	close(release)
	if r := <-first; r.code != 0 || !strings.HasPrefix(r.stdout, "dreamed nori in checkout") {
		t.Errorf("first dream: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	before := a.memories("nori", "checkout")
	chat.SetAnswer(func(context.Context, string) llmtest.Reply {
		return llmtest.Reply{Status: 500, Text: "model crashed"}
	})
	if r := run(t, o, "dream", "run", "checkout", "nori", "--force"); r.code != 1 || !strings.Contains(r.stderr, "502 llm_failed") {
		t.Errorf("failing model: code %d, stderr %q", r.code, r.stderr)
	}
	chat.SetAnswer(func(ctx context.Context, _ string) llmtest.Reply {
		<-ctx.Done()
		return llmtest.Reply{Status: 503, Text: "client went away"}
	})
	if r := run(t, o, "dream", "run", "checkout", "nori", "--force", "--timeout", "300ms"); r.code != 1 ||
		!strings.Contains(r.stderr, "timed out after 300ms") || !strings.Contains(r.stderr, "the dream may still finish on the server: agentmem dream ls --agent nori --project checkout") {
		t.Errorf("timeout: code %d, stderr %q", r.code, r.stderr)
	}
	if got := a.memories("nori", "checkout"); len(got) != len(before) {
		t.Errorf("failed dreams changed the core: %d memories, want %d", len(got), len(before))
	}

	noModel := newTierAPI(t, nil)
	seedDreamScope(t, noModel)
	tests := []struct {
		name string
		url  string
		args []string
		code int
		want string
	}{
		{"no model on the server", noModel.URL, []string{"dream", "run", "checkout", "nori"}, 1, "503 llm_unavailable"},
		{"nothing to show", noModel.URL, []string{"dream", "show", "checkout", "nori"}, 3, "nori has no dreams in checkout"},
		{"no dream that day", a.URL, []string{"dream", "show", "checkout", "nori", "--date", "2026-01-01"}, 3, "404 not_found"},
		{"nothing to revert", noModel.URL, []string{"dream", "revert", "checkout", "nori"}, 3, "no committed dream to revert"},
		{"bad lookback", a.URL, []string{"dream", "run", "checkout", "nori", "--lookback-days", "0"}, 2, "--lookback-days must be at least 1"},
		{"lookback over the server's bound", a.URL, []string{"dream", "run", "checkout", "nori", "--lookback-days", "31"}, 1, "400 invalid: lookbackDays must be from 1 to 30"},
		{"bad date", a.URL, []string{"dream", "show", "checkout", "nori", "--date", "March 1"}, 2, `--date "March 1"`},
		{"no subcommand", a.URL, []string{"dream"}, 2, "Usage: agentmem dream <command>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, opts{url: tt.url}, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("got code %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}
}

// bigScope gives agent/project n memories written in the last hours, at
// once, and the two daily records TestDream consolidates.
func bigScope(t *testing.T, a *api, agent, project string, n int) {
	t.Helper()
	var ms []agentmem.Memory
	for i := range n {
		ms = append(ms, agentmem.Memory{ID: ulid.Make().String(), AgentName: agent, ProjectID: project, Source: agentmem.SourceExtraction, Type: agentmem.TypeFinding,
			Content:   fmt.Sprintf("Service %d of the checkout flow retries its calls to the payment provider with backoff number %d", i, i),
			CreatedAt: agentmem.FormatTime(cliNow.Add(-time.Duration(i+1) * time.Minute))})
	}
	if _, err := a.Store.RestoreMemories(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"daily", "add", project, agent, "--title", "run-41", "The payment provider retries webhooks 3 times."},
		{"daily", "add", project, agent, "--title", "run-42", "We decided to use idempotency keys on every payment POST."},
	} {
		if r := run(t, opts{url: a.URL}, args...); r.code != 0 {
			t.Fatalf("%v: code %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestDreamOfALargeScopeFollowsItsJob: a scope too large for one request
// dreams in the background; dream run follows the job, shows where it
// stands and prints the outcome as for a dream in the request; --wait 0
// leaves it to the server.
func TestDreamOfALargeScopeFollowsItsJob(t *testing.T) {
	t.Parallel()
	// The model holds its first answer until the CLI has been told the
	// dream is in review, so that the CLI has progress to show.
	seenReview := make(chan struct{})
	var seenOnce, holdOnce sync.Once
	chat := llmtest.NewChat(t, func(ctx context.Context, prompt string) llmtest.Reply {
		hold := false
		holdOnce.Do(func() { hold = true })
		if hold {
			select {
			case <-seenReview:
			case <-ctx.Done():
				return llmtest.Reply{Status: 503, Text: "client went away"}
			}
		}
		if strings.Contains(prompt, "You may add memories in this part.") {
			return llmtest.Reply{Text: dreamAnswer}
		}
		return llmtest.Reply{Text: "```json\n{\"operations\": [], \"dream\": \"Nothing to change in this part.\"}\n```"}
	})
	clock := &testClock{}
	clock.set(cliNow)
	srv := apitest.Start(t, apitest.Options{LLM: chat.Client(t, 5*time.Second), Now: clock.now, Wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if strings.Contains(r.URL.Path, "/jobs/") && strings.Contains(rec.Body.String(), `"phase":"review"`) {
				seenOnce.Do(func() { close(seenReview) })
			}
			maps.Copy(w.Header(), rec.Header())
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		})
	}})
	a := &api{t: t, URL: srv.URL, Store: srv.Store, clock: clock}
	bigScope(t, a, "nori", "checkout", 250)

	r := run(t, opts{url: a.URL}, "dream", "run", "checkout", "nori")
	want := "dreamed nori in checkout: 2 memories added, 0 updated, 0 retired, 250 unchanged, 0 kept as they were (pinned or manual); 1 operation refused (the diary says why)\n" +
		"the diary: agentmem dream show --agent nori --project checkout --date 2026-03-01\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("dream run: code %d\nstdout %q\nwant   %q\nstderr %q", r.code, r.stdout, want, r.stderr)
	}
	for _, line := range []string{
		"agentmem: dream: the scope's review takes ",
		"the dream runs in the background as job ",
		"agentmem: dream: asking the model: ",
	} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("stderr lacks %q:\n%s", line, r.stderr)
		}
	}
	if c, err := a.Store.GetScopeCounts(context.Background(), "nori", "checkout"); err != nil || c.Total != 252 {
		t.Errorf("after the dream: %+v, %v; want 252 memories", c, err)
	}

	// --wait 0: the command says where the dream goes on and ends.
	bigScope(t, a, "kai", "checkout", 250)
	r = run(t, opts{url: a.URL}, "dream", "run", "checkout", "kai", "--wait", "0", "--json")
	var res agentmem.DreamResult
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Status != agentmem.DreamStatusQueued || res.JobID == "" {
		t.Fatalf("--wait 0 --json: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	client, err := apiclient.New(context.Background(), apiclient.Config{URL: a.URL, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if j, err := client.WaitJob(ctx, "kai", res.JobID); err != nil || j.Status != agentmem.JobDone || j.DreamResult.Dream.Created != 2 {
		t.Errorf("the background dream: %+v, %v", j, err)
	}
	if r := run(t, opts{url: a.URL}, "dream", "run", "checkout", "kai", "--wait", "-1s"); r.code != 2 || !strings.Contains(r.stderr, "--wait must be 0") {
		t.Errorf("--wait -1s: code %d, stderr %q", r.code, r.stderr)
	}
}
