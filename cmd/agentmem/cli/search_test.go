package cli_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func confidence(c float64) *float64 { return &c }

// searchScope stores a small realistic memory of nori in checkout, and a
// memory of another agent with the same words.
func searchScope(t *testing.T, a *api) map[string]agentmem.Memory {
	t.Helper()
	byName := map[string]agentmem.Memory{}
	for name, in := range map[string]agentmem.MemoryInput{
		"webhook":  {Type: agentmem.TypeFinding, Content: "The payment provider retries webhooks 3 times with a 30 s backoff"},
		"sqlc":     {Type: agentmem.TypeDecision, Content: "ORM: use sqlc", Rationale: "typed queries, no ORM magic"},
		"docker":   {Type: agentmem.TypeBlocker, Content: "CI has no Docker, so the e2e suite cannot start Postgres", Status: agentmem.StatusOpen},
		"cache":    {Type: agentmem.TypeNote, Content: "The cart service caches prices for 60 s"},
		"idem":     {Type: agentmem.TypePattern, Content: "Make webhook handlers idempotent", Trigger: "a webhook may be delivered more than once", Solution: "store processed event ids and skip repeats", Confidence: confidence(0.92)},
		"flaky":    {Type: agentmem.TypePattern, Content: "Retry flaky webhook tests once", Trigger: "a webhook test fails on CI only", Solution: "rerun it once before investigating", Confidence: confidence(0.5)},
		"billing":  {Type: agentmem.TypeNote, Content: "Ask Koji before touching billing", Pinned: true},
		"snake_id": {Type: agentmem.TypeNote, Content: "payment_intent_id is stored as idempotency_key in the ledger"},
	} {
		byName[name] = a.memory("nori", "checkout", in)
	}
	a.memory("kai", "checkout", agentmem.MemoryInput{Content: "Webhook retries are kai's business"})
	return byName
}

func TestSearch(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	m := searchScope(t, a)
	o := opts{url: a.URL}

	r := run(t, o, "search", "checkout", "nori", "webhook", "retries")
	rows := lines(r.stdout)
	if r.code != 0 || len(rows) < 2 || !strings.HasPrefix(rows[0], "SCORE  ID  ") {
		t.Fatalf("search: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(rows[1], m["webhook"].ID+"  finding  The payment provider retries webhooks 3 times") {
		t.Errorf("best match: %q, want the webhook finding", rows[1])
	}
	if strings.Contains(r.stdout, "kai's business") {
		t.Errorf("search crossed into another agent's memories:\n%s", r.stdout)
	}
	if want := fmt.Sprintf("agentmem: lexical search of 8 memories: %d results\n", len(rows)-1); r.stderr != want {
		t.Errorf("note: %q, want %q", r.stderr, want)
	}

	// Code identifiers are split; --type and --limit narrow the search.
	r = run(t, o, "search", "checkout", "nori", "idempotency key", "--type", "note", "--limit", "1", "--json")
	var res agentmem.SearchResult
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || len(res.Results) != 1 || res.Results[0].ID != m["snake_id"].ID || res.Results[0].Score <= 0 {
		t.Errorf("search --type --limit --json: code %d, stdout %q", r.code, r.stdout)
	}
	r = run(t, o, "search", "checkout", "nori", "kubernetes")
	if r.code != 0 || r.stdout != "" || r.stderr != "agentmem: lexical search of 8 memories: 0 results\n" {
		t.Errorf("no match: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"search", "checkout", "nori"}, "the query is missing"},
		{[]string{"search", "checkout", "nori", "x", "--limit", "51"}, "--limit must be from 1 to 50"},
		{[]string{"search", "checkout", "nori", "x", "--type", "idea"}, `--type "idea" is not a memory type`},
		{[]string{"search", "checkout", "nori", strings.Repeat("word ", 500)}, "the query is 2499 bytes; the limit is 2048"},
		{[]string{"patterns", "checkout", "nori"}, "--task is required"},
		{[]string{"patterns", "checkout", "nori", "--task", "x", "--min-confidence", "1.5"}, "--min-confidence must be from 0 to 1"},
	}
	for _, tt := range tests {
		if r := run(t, o, tt.args...); r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%q: code %d, stderr %q; want 2 and %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

func TestPatterns(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	m := searchScope(t, a)
	o := opts{url: a.URL}

	r := run(t, o, "patterns", "checkout", "nori", "--task", "make the webhook handler idempotent")
	want := "1 pattern for \"make the webhook handler idempotent\" (confidence above 0.70), most relevant first:\n\n" +
		"- Make webhook handlers idempotent\n  When: a webhook may be delivered more than once\n  Do: store processed event ids and skip repeats\n  Confidence: 0.92\n"
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) || !strings.HasSuffix(r.stdout, ", id "+m["idem"].ID+"\n") {
		t.Errorf("patterns: code %d, stdout:\n%s\nwant it to start with:\n%s", r.code, r.stdout, want)
	}
	r = run(t, o, "patterns", "checkout", "nori", "--task", "webhook tests fail on CI", "--min-confidence", "0.4", "--json")
	var s agentmem.Suggestions
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &s) != nil || len(s.Patterns) != 2 || s.Patterns[0].ID != m["flaky"].ID || s.MinConfidence != 0.4 {
		t.Errorf("patterns --min-confidence --json: code %d, stdout %q", r.code, r.stdout)
	}
	r = run(t, o, "patterns", "checkout", "nori", "--task", "upgrade the kubernetes cluster")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "no pattern of nori in checkout with a confidence above 0.70 matches the task") {
		t.Errorf("no pattern: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestForget: forget asks on a terminal (with the count), refuses without
// one, and deletes the old unpinned memories only.
func TestForget(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	a.clock.set(cliNow.AddDate(0, 0, -45))
	old := []agentmem.Memory{
		a.memory("nori", "checkout", agentmem.MemoryInput{Content: "The staging database was on Postgres 13"}),
		a.memory("nori", "checkout", agentmem.MemoryInput{Content: "Deploys went through Jenkins"}),
		a.memory("nori", "checkout", agentmem.MemoryInput{Content: "Ask Koji before touching billing", Pinned: true}),
	}
	a.clock.set(cliNow)
	recent := a.memory("nori", "checkout", agentmem.MemoryInput{Content: "Deploys go through GitHub Actions"})
	o := opts{url: a.URL}
	count := func() int { return len(a.memories("nori", "checkout")) }

	tests := []struct {
		name  string
		o     opts
		args  []string
		code  int
		want  string
		count int
	}{
		{"no terminal, no --yes", opts{stdin: "y\n"}, nil, 4, "refusing to forget the memories of agent nori in project checkout older than 30d without confirmation", 4},
		{"declined", opts{terminal: true, stdin: "n\n"}, nil, 4, "Forget 2 memories of agent nori in project checkout created before 2026-01-30 12:00 UTC (1 pinned kept)? This cannot be undone. [y/N] agentmem: forget: not confirmed; nothing was forgotten", 4},
		{"nothing that old", opts{terminal: true}, []string{"--older-than", "60d"}, 0, "nori has no memories in checkout older than 60d; nothing to forget", 4},
		{"bad age", opts{}, []string{"--older-than", "30 days"}, 2, `--older-than: "30 days" must be a whole number followed by h, d or w`, 4},
		{"no age", opts{}, []string{"--older-than", ""}, 2, "--older-than is required", 4},
		{"confirmed", opts{terminal: true, stdin: "yes\n"}, nil, 0, "[y/N] ", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.url = a.URL
			args := append([]string{"forget", "checkout", "nori", "--older-than", "30d"}, tt.args...)
			r := run(t, tt.o, args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("got code %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
			if got := count(); got != tt.count {
				t.Errorf("%d memories left, want %d", got, tt.count)
			}
		})
	}
	left := map[string]bool{}
	for _, m := range a.memories("nori", "checkout") {
		left[m.ID] = true
	}
	if !left[old[2].ID] || !left[recent.ID] || left[old[0].ID] || left[old[1].ID] {
		t.Errorf("left %v; want the pinned and the recent memory", left)
	}
	r := run(t, o, "forget", "checkout", "nori", "--older-than", "4w", "--include-pinned", "--yes", "--json")
	var f agentmem.Forgotten
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &f) != nil || f.Removed != 1 || count() != 1 {
		t.Errorf("--include-pinned --yes: code %d, stdout %q, %d left", r.code, r.stdout, count())
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	searchScope(t, a)
	for i := range 3 {
		a.memory(fmt.Sprintf("agent-%d", i), "billing", agentmem.MemoryInput{Content: "a note"})
	}
	o := opts{url: a.URL}
	if r := run(t, o, "session-context", "set", "--project", "checkout", "--session", "run-1", "k", "value"); r.code != 0 {
		t.Fatal(r.stderr)
	}

	r := run(t, o, "stats", "checkout", "nori")
	for _, want := range []string{
		"scope:     nori in checkout\n",
		"memories:  8 (",
		"limit 1000 (beyond it the least recently used are evicted)\n",
		"by type:   pattern 2, decision 1, blocker 1, finding 1, note 3\n",
		"by source: manual 8\n",
		"by scope:  project 8 memories (",
		"session context of checkout: 1 key in 1 live session (",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stats lacks %q:\n%s", want, r.stdout)
		}
	}
	r = run(t, o, "stats", "checkout", "nori", "--json")
	var s agentmem.Stats
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &s) != nil || s.Total != 8 || s.ByType[agentmem.TypePattern] != 2 || s.ByScope.Session.Total != 1 {
		t.Errorf("stats --json: code %d, stdout %q", r.code, r.stdout)
	}

	// Every scope, two per page: every page is read.
	o.scopesPage = 2
	r = run(t, o, "stats")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "scopes:    5\nmemories:  12 (") || !strings.Contains(r.stdout, "by type:   pattern 2, decision 1, blocker 1, finding 1, note 7\n") {
		t.Errorf("stats: code %d, stdout:\n%s", r.code, r.stdout)
	}
	if rows := lines(r.stdout[strings.Index(r.stdout, "AGENT"):]); len(rows) != 6 {
		t.Errorf("stats lists %d scopes, want 5:\n%s", len(rows)-1, r.stdout)
	}
	r = run(t, o, "stats", "--limit", "3", "--json")
	var all struct {
		agentmem.AllStats
		More bool `json:"more"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &all) != nil || len(all.Scopes) != 3 || !all.More || all.Totals.Total != 12 || all.Totals.Scopes != 5 {
		t.Errorf("stats --limit 3 --json: code %d, stdout %q", r.code, r.stdout)
	}
	if r := run(t, o, "stats", "checkout"); r.code != 2 {
		t.Errorf("stats with one argument: code %d", r.code)
	}
	if r := run(t, o, "stats", "checkout", "nori", "--limit", "2"); r.code != 2 || !strings.Contains(r.stderr, "--limit and --cursor are for every scope") {
		t.Errorf("stats of a scope with --limit: code %d, stderr %q", r.code, r.stderr)
	}
}
