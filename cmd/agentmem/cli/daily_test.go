package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/transcript"
)

// sessionFixture is a realistic Claude Code 2.x transcript (see
// shared/transcript/testdata).
var sessionFixture = filepath.Join("..", "..", "..", "shared", "transcript", "testdata", "session.jsonl")

func (a *api) day(agent, project, date string) []agentmem.DailyRecord {
	a.t.Helper()
	recs, err := a.Store.DailyDay(context.Background(), agent, project, date)
	if err != nil {
		a.t.Fatal(err)
	}
	return recs
}

func TestDailyAddAndShow(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	o := opts{url: a.URL}
	r := run(t, o, "daily", "add", "checkout", "nori", "--title", "run-41", "The payment provider retries webhooks 3 times.")
	if want := "appended \"run-41 (12:00)\" to the daily log of nori in checkout for 2026-03-01\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("daily add: code %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	o.stdin = "- fixed the retries\n- decided on idempotency keys\n"
	if r := run(t, o, "daily", "add", "checkout", "nori", "-"); r.code != 0 {
		t.Fatalf("daily add -: %d %q", r.code, r.stderr)
	}
	o.stdin = ""
	if r := run(t, o, "daily", "add", "checkout", "nori", "--at", "2026-02-28T23:59:00Z", "Backfilled", "from", "yesterday"); r.code != 0 ||
		!strings.HasSuffix(r.stdout, "for 2026-02-28\n") {
		t.Fatalf("daily add --at: %d %q %q", r.code, r.stdout, r.stderr)
	}

	r = run(t, o, "daily", "show", "checkout", "nori")
	want := "# Daily Memory: 2026-03-01\n\n## run-41 (12:00)\nThe payment provider retries webhooks 3 times.\n\n## Note (12:00)\n- fixed the retries\n- decided on idempotency keys\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("daily show:\n%s\nwant:\n%s\n(code %d, stderr %q)", r.stdout, want, r.code, r.stderr)
	}
	r = run(t, o, "daily", "show", "checkout", "nori", "--date", "yesterday", "--json")
	var day agentmem.DailyDay
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &day) != nil || day.Date != "2026-02-28" || len(day.Records) != 1 || day.Records[0].Content != "Backfilled from yesterday" {
		t.Errorf("daily show --json: code %d, %q", r.code, r.stdout)
	}

	tests := []struct {
		name string
		o    opts
		args []string
		code int
		want string
	}{
		{"empty day", opts{}, []string{"daily", "show", "checkout", "nori", "--date", "2026-01-01"}, 3, "no daily records in project checkout on 2026-01-01"},
		{"other agent", opts{}, []string{"daily", "show", "checkout", "kai"}, 3, "agent kai has no daily records"},
		{"bad date", opts{}, []string{"daily", "show", "checkout", "nori", "--date", "01/03/2026"}, 2, `--date "01/03/2026": use YYYY-MM-DD, today or yesterday`},
		{"no text", opts{}, []string{"daily", "add", "checkout", "nori"}, 2, "the text is missing"},
		{"two-line title", opts{}, []string{"daily", "add", "checkout", "nori", "--title", "a\nb", "text"}, 2, "title must be a single line"},
		{"bad at", opts{}, []string{"daily", "add", "checkout", "nori", "--at", "yesterday", "text"}, 2, `at "yesterday" is not an RFC 3339 time`},
		{"at in the future", opts{}, []string{"daily", "add", "checkout", "nori", "--at", "2026-03-02T12:00:00Z", "text"}, 1, "400 invalid: at 2026-03-02T12:00:00Z is in the future"},
		{"text too long", opts{stdin: strings.Repeat("x", agentmem.MaxDailyContentBytes+1)}, []string{"daily", "add", "checkout", "nori", "-"}, 2, "content is 16385 bytes"},
		{"stdin is a terminal", opts{terminal: true}, []string{"daily", "add", "checkout", "nori", "-"}, 2, "standard input is a terminal"},
		{"missing agent", opts{}, []string{"daily", "show", "checkout"}, 2, "expected agentmem daily show <project> <agent>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.url = a.URL
			r := run(t, tt.o, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) || len(lines(r.stderr)) != 1 {
				t.Errorf("got code %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}
	if got := len(a.day("nori", "checkout", "2026-03-01")); got != 2 {
		t.Errorf("the failed adds wrote records: %d on the day, want 2", got)
	}
}

// TestContextFlush: a Claude Code transcript becomes a "Trimmed Context"
// record of the daily log, and --print-summary prints what it appended:
// not the rest of the day.
func TestContextFlush(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	f, err := os.Open(sessionFixture)
	if err != nil {
		t.Fatal(err)
	}
	session, err := transcript.Parse(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	digest := session.Summary()
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}}

	if r := run(t, o, "daily", "add", "--title", "run-41", "An earlier record of the day."); r.code != 0 {
		t.Fatalf("daily add: %d %q", r.code, r.stderr)
	}
	r := run(t, o, "context", "flush", "--transcript", sessionFixture, "--print-summary")
	wantNote := `agentmem: context flush: session 5f1c2a8e, 21 messages (4 user, 9 assistant, 8 tool results), 159597 tokens, 1 malformed line skipped, 4 lines of other types ignored; appended "Trimmed Context (12:00)" to the daily log of nori in checkout for 2026-03-01` + "\n"
	wantDay := "## Trimmed Context (12:00)\n" + digest + "\n"
	if r.code != 0 || r.stderr != wantNote || r.stdout != wantDay {
		t.Fatalf("flush: code %d\nstderr %q\nwant   %q\nstdout:\n%s\nwant:\n%s", r.code, r.stderr, wantNote, r.stdout, wantDay)
	}
	for _, want := range []string{"Messages: 4 user, 9 assistant, 8 tool results, 1 from subagents.", "Tokens: 16 input, 1,917 output, 11,821 cache write, 145,843 cache read", "Request: Fix the webhook retries", "Files changed: internal/webhooks/handler.go"} {
		if !strings.Contains(digest, want) {
			t.Errorf("the digest lacks %q:\n%s", want, digest)
		}
	}

	// As a Claude Code hook: the transcript's path comes on stdin.
	hook := fmt.Sprintf(`{"session_id":"5f1c2a8e-0b7d-4c1e-9a55-3e9d2c1b7a60","transcript_path":%q,"cwd":"/workspace","hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`, sessionFixture)
	o.stdin = hook
	if r := run(t, o, "context", "flush", "--hook", "--quiet"); r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("--hook: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// From standard input, with --json.
	b, _ := os.ReadFile(sessionFixture)
	o.stdin = string(b)
	r = run(t, o, "context", "flush", "--transcript", "-", "--json", "--quiet")
	var out struct {
		Context transcript.Session   `json:"context"`
		Digest  string               `json:"digest"`
		Record  agentmem.DailyRecord `json:"record"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Digest != digest || out.Record.Title != "Trimmed Context" || out.Context.Usage.Total() != 159597 {
		t.Errorf("--json: code %d, stdout %.300q", r.code, r.stdout)
	}
	// --dry-run prints the digest and writes nothing.
	o.stdin = ""
	if r := run(t, o, "context", "flush", "--transcript", sessionFixture, "--dry-run"); r.code != 0 || r.stdout != digest+"\n" {
		t.Errorf("--dry-run: code %d, stdout %q", r.code, r.stdout)
	}

	recs := a.day("nori", "checkout", "2026-03-01")
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4 (daily add, flush, --hook, stdin)", len(recs))
	}
	for _, rec := range recs[1:] {
		if rec.Title != "Trimmed Context" || rec.Content != digest {
			t.Errorf("record %q: %.100q", rec.Title, rec.Content)
		}
	}
}

// TestContextFlushFailures: flush is best effort (one warning, exit 0),
// --strict exits non-zero; nothing is written.
func TestContextFlushFailures(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	dir := t.TempDir()
	noMessages := filepath.Join(dir, "snapshots.jsonl")
	writeFile(t, noMessages, `{"type":"file-history-snapshot","messageId":"x","snapshot":{}}`+"\nnot json\n")
	base := []string{"context", "flush", "--agent", "nori", "--project", "checkout"}
	tests := []struct {
		name   string
		url    string
		stdin  string
		args   []string
		strict int
		want   string
	}{
		{"missing transcript", a.URL, "", []string{"--transcript", filepath.Join(dir, "nope.jsonl")}, 1, "read the transcript: open"},
		{"a directory", a.URL, "", []string{"--transcript", dir}, 1, "is a directory"},
		{"no messages", a.URL, "", []string{"--transcript", noMessages}, 1, "holds no messages (2 lines, 1 malformed): nothing to flush"},
		{"no transcript flag", a.URL, "", nil, 2, "--transcript FILE (or --hook in a Claude Code hook) is required"},
		{"both sources", a.URL, "", []string{"--hook", "--transcript", sessionFixture}, 2, "--hook and --transcript do not go together"},
		{"hook input not JSON", a.URL, "PreCompact", []string{"--hook"}, 2, "standard input is not a Claude Code hook's JSON input"},
		{"hook input without a path", a.URL, `{"session_id":"s"}`, []string{"--hook"}, 2, "the hook input has no transcript_path"},
		{"API stopped", stoppedURL(t), "", []string{"--transcript", sessionFixture}, 1, "cannot reach"},
		{"bad agent", a.URL, "", []string{"--transcript", sessionFixture, "--agent", "a/b"}, 2, "--agent: agentName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{}, base...), tt.args...)
			r := run(t, opts{url: tt.url, stdin: tt.stdin}, args...)
			if r.code != 0 || r.stdout != "" || len(lines(r.stderr)) != 1 ||
				!strings.HasPrefix(r.stderr, "agentmem: warning: context flush failed, the session's context was not saved to the daily log: ") || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("got code %d, stdout %q, stderr %q; want 0 and one warning with %q", r.code, r.stdout, r.stderr, tt.want)
			}
			r = run(t, opts{url: tt.url, stdin: tt.stdin}, append(args, "--strict")...)
			if r.code != tt.strict || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("--strict: code %d, stderr %q; want %d", r.code, r.stderr, tt.strict)
			}
		})
	}
	if got := a.day("nori", "checkout", "2026-03-01"); len(got) != 0 {
		t.Errorf("failed flushes wrote %d records", len(got))
	}
}
