package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func TestSessionContext(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	flags := []string{"--project", "checkout", "--session", "run-42"}
	sc := func(o opts, sub string, args ...string) result {
		t.Helper()
		o.url = a.URL
		return run(t, o, append(append([]string{"session-context", sub}, flags...), args...)...)
	}

	r := sc(opts{}, "set", "auth-pattern", "JWT", "with", "refresh", "tokens")
	if want := "set auth-pattern in session run-42 of checkout (23 bytes, expires 2026-03-02 12:00 UTC)\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("set: code %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	if r := sc(opts{}, "get", "auth-pattern"); r.code != 0 || r.stdout != "JWT with refresh tokens\n" {
		t.Errorf("get: code %d, stdout %q", r.code, r.stdout)
	}
	if r := sc(opts{}, "get", "--raw", "auth-pattern"); r.code != 0 || r.stdout != "JWT with refresh tokens" {
		t.Errorf("get --raw: code %d, stdout %q", r.code, r.stdout)
	}
	// Standard input is stored byte for byte, and get gives it back so
	// (a value ending with a newline gets no other).
	value := "--- FAIL: TestCharge\n\thandler_test.go:12: charged 3 times\n"
	if r := sc(opts{stdin: value}, "set", "last-test-run", "--ttl", "30m"); r.code != 0 || !strings.HasPrefix(r.stdout, "set last-test-run") || !strings.HasSuffix(r.stdout, "expires 2026-03-01 12:30 UTC)\n") {
		t.Errorf("set from stdin: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := sc(opts{}, "get", "last-test-run"); r.stdout != value {
		t.Errorf("get: %q, want %q", r.stdout, value)
	}
	if r := sc(opts{}, "set", "auth-pattern", "--ttl", "2d", "Sessions in Redis"); r.code != 0 || !strings.HasPrefix(r.stdout, "replaced auth-pattern") || !strings.Contains(r.stdout, "expires 2026-03-03 12:00") {
		t.Errorf("replace: code %d, stdout %q", r.code, r.stdout)
	}
	if r := sc(opts{}, "set", "empty", ""); r.code != 0 {
		t.Errorf("set an empty value: code %d, stderr %q", r.code, r.stderr)
	}

	// The environment names the project and the session.
	env := map[string]string{"AGENTMEM_PROJECT": "checkout", "AGENTMEM_SESSION_ID": "run-42"}
	r = run(t, opts{url: a.URL, env: env}, "session-context", "get", "auth-pattern", "--json")
	var e agentmem.SessionEntry
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &e) != nil || e.Value != "Sessions in Redis" || e.SessionID != "run-42" || e.AccessedAt == "" {
		t.Errorf("get --json: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// The pipeline's run id names the session when AGENTMEM_SESSION_ID
	// does not.
	r = run(t, opts{url: a.URL, env: map[string]string{"AGENTMEM_PROJECT": "checkout", "AGENTMEM_RUN_ID": "run-42"}}, "session-context", "get", "auth-pattern")
	if r.code != 0 || r.stdout != "Sessions in Redis\n" {
		t.Errorf("get with AGENTMEM_RUN_ID: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// Another session does not see the keys.
	if r := run(t, opts{url: a.URL, env: env}, "session-context", "get", "auth-pattern", "--session", "run-43"); r.code != 3 {
		t.Errorf("get from another session: code %d, stdout %q", r.code, r.stdout)
	}

	if r := sc(opts{}, "rm", "empty"); r.code != 0 || r.stdout != "removed empty from session run-42 of checkout\n" {
		t.Errorf("rm: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := sc(opts{}, "get", "empty"); r.code != 3 || !strings.Contains(r.stderr, "404 not_found") {
		t.Errorf("get a removed key: code %d, stderr %q", r.code, r.stderr)
	}
	if r := sc(opts{}, "end"); r.code != 0 || r.stdout != "ended session run-42 of checkout: 2 keys deleted\n" {
		t.Errorf("end: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := sc(opts{}, "get", "auth-pattern"); r.code != 3 {
		t.Errorf("get after end: code %d", r.code)
	}
	if r := sc(opts{}, "end"); r.code != 0 || r.stdout != "ended session run-42 of checkout: 0 keys deleted\n" {
		t.Errorf("end again: code %d, stdout %q", r.code, r.stdout)
	}

	tests := []struct {
		name string
		o    opts
		args []string
		want string
	}{
		{"no session", opts{}, []string{"session-context", "get", "--project", "checkout", "k"}, "--project and --session are required (or AGENTMEM_PROJECT, and AGENTMEM_SESSION_ID or AGENTMEM_RUN_ID)"},
		{"bad session id", opts{}, []string{"session-context", "get", "--project", "checkout", "--session", "run 42", "k"}, "--session: sessionId \"run 42\" may only contain"},
		{"bad key", opts{}, append(append([]string{"session-context", "get"}, flags...), "a/b"), "key \"a/b\" may only contain"},
		{"no key", opts{}, append([]string{"session-context", "get"}, flags...), "expected agentmem session-context get <key>"},
		{"no value on a terminal", opts{terminal: true}, append(append([]string{"session-context", "set"}, flags...), "k"), "no value: give it after the key, or pipe it in"},
		{"ttl too short", opts{}, append(append([]string{"session-context", "set"}, flags...), "k", "v", "--ttl", "30s"), `--ttl "30s" must be whole seconds from 1m to 7d`},
		{"ttl too long", opts{}, append(append([]string{"session-context", "set"}, flags...), "k", "v", "--ttl", "8d"), `--ttl "8d" must be whole seconds`},
		{"ttl not a duration", opts{}, append(append([]string{"session-context", "set"}, flags...), "k", "v", "--ttl", "soon"), `--ttl "soon": use a duration such as 30m, 24h or 7d`},
		{"end takes no key", opts{}, append(append([]string{"session-context", "end"}, flags...), "k"), `unexpected argument "k"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.url = a.URL
			r := run(t, tt.o, tt.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("got code %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
	// A value over the limit is refused by the API, and nothing is stored.
	r = sc(opts{stdin: strings.Repeat("v", agentmem.MaxSessionValueBytes+1)}, "set", "big")
	if r.code != 1 || !strings.Contains(r.stderr, "400 invalid") {
		t.Errorf("set a value over the limit: code %d, stderr %q", r.code, r.stderr)
	}
	if r := sc(opts{}, "get", "big"); r.code != 3 {
		t.Errorf("an over-long value was stored: code %d", r.code)
	}
}
