package cli_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

// TestSeed004Document drives the management commands as a person would
// and checks the document `show` renders.
func TestSeed004Document(t *testing.T) {
	a := newAPI(t)
	o := opts{url: a.URL}
	steps := [][]string{
		{"add", "checkout", "nori", "finding", "The", "payment", "provider", "retries", "webhooks", "3", "times"},
		{"add", "checkout", "nori", "decision", "use sqlc", "--topic", "ORM", "--rationale", "typed queries, no ORM magic"},
		{"add", "checkout", "nori", "decision", "Keep REST", "--rationale", "clients | tools"},
		{"add", "checkout", "nori", "blocker", "CI has no Docker"},
		{"add", "checkout", "nori", "blocker", "Flaky test", "--status", "resolved"},
		{"add", "checkout", "nori", "note", "--pin", "Ask Koji before touching billing"},
		{"session", "checkout", "nori", "Wired the webhook handler."},
		{"session", "checkout", "nori", "Added retries."},
	}
	for _, args := range steps {
		if r := run(t, o, args...); r.code != 0 {
			t.Fatalf("%v: code %d, stderr %q", args, r.code, r.stderr)
		}
	}
	r := run(t, o, "session", "checkout", "nori", "Third.")
	if r.code != 0 || !regexp.MustCompile(`^logged session 3 for nori in checkout \([0-9A-Z]{26}\)\n$`).MatchString(r.stdout) {
		t.Errorf("session: %q", r.stdout)
	}

	r = run(t, o, "show", "checkout", "nori")
	if r.code != 0 {
		t.Fatalf("show: %d %s", r.code, r.stderr)
	}
	day := a.memories("nori", "checkout")[0].CreatedAt[:10]
	want := fmt.Sprintf(`---
agent: nori
project: checkout
created: %[1]s
updated: %[1]s
sessions: 3
---

# Agent Memory: nori (checkout)

## Findings
- The payment provider retries webhooks 3 times

## Decisions
| Decision | Choice | Rationale | Date |
|----------|--------|-----------|------|
| ORM | use sqlc | typed queries, no ORM magic | %[1]s |
|  | Keep REST | clients \| tools | %[1]s |

## Blockers
- [ ] CI has no Docker
- [x] ~~Flaky test~~

## Notes
- 📌 Ask Koji before touching billing

## Session Log
### Session 1 — %[1]s
Wired the webhook handler.

### Session 2 — %[1]s
Added retries.

### Session 3 — %[1]s
Third.
`, day)
	if r.stdout != want {
		t.Errorf("show:\ngot\n%s\nwant\n%s", r.stdout, want)
	}

	// --write saves ./nori.memory.md, the same document.
	t.Chdir(t.TempDir())
	w := run(t, o, "show", "checkout", "nori", "--write")
	if w.code != 0 || w.stdout != "" || w.stderr != "agentmem: wrote nori.memory.md (9 memories)\n" {
		t.Errorf("--write: code %d, stdout %q, stderr %q", w.code, w.stdout, w.stderr)
	}
	if got := readFile(t, "nori.memory.md"); got != want {
		t.Errorf("nori.memory.md differs from show's output:\n%s", got)
	}

	// --json: the front matter's fields and every memory.
	j := run(t, o, "show", "checkout", "nori", "--json")
	var doc struct {
		markdown.DocumentHeader
		Memories []agentmem.Memory `json:"memories"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &doc); err != nil || doc.Sessions != 3 || doc.Agent != "nori" || len(doc.Memories) != 9 || doc.Created != day {
		t.Errorf("--json: %v %+v", err, doc.DocumentHeader)
	}
}

func TestShowPagesThroughEveryMemory(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	for i := range 123 {
		a.memory("nori", "checkout", agentmem.MemoryInput{Type: agentmem.TypeFinding, Content: fmt.Sprintf("finding %03d", i)})
	}
	r := run(t, opts{url: a.URL}, "show", "checkout", "nori")
	if got := strings.Count(r.stdout, "\n- finding "); got != 123 {
		t.Fatalf("show lists %d findings, want 123", got)
	}
	if first, last := strings.Index(r.stdout, "finding 000"), strings.Index(r.stdout, "finding 122"); first > last {
		t.Errorf("findings are not oldest first")
	}
}

func TestEmptyDocument(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	r := run(t, opts{url: a.URL}, "show", "checkout", "nori")
	if r.code != 0 || !strings.Contains(r.stdout, "created: 2026-03-01\nupdated: 2026-03-01\nsessions: 0\n") {
		t.Errorf("empty show: %d %q", r.code, r.stdout)
	}
}

func TestListRmClear(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	var ids []string
	for i := range 60 {
		ids = append(ids, a.memory("nori", "checkout", agentmem.MemoryInput{Content: fmt.Sprintf("note %02d\nsecond line", i)}).ID)
	}
	a.memory("nori", "checkout", agentmem.MemoryInput{Type: agentmem.TypeDecision, Content: "use sqlc", Rationale: "typed"})
	o := opts{url: a.URL}

	r := run(t, o, "list", "checkout", "nori", "--limit", "5")
	rows := lines(r.stdout)
	if r.code != 0 || len(rows) != 6 || !strings.HasPrefix(rows[0], "ID ") || !strings.Contains(rows[1], "decision  manual      use sqlc (why: typed)") {
		t.Errorf("list --limit 5: code %d\n%s", r.code, r.stdout)
	}
	if !strings.Contains(rows[2], "note 59 second line") {
		t.Errorf("content is not on one line: %q", rows[2])
	}
	if !strings.HasPrefix(r.stderr, "agentmem: showing 5; older memories remain: --cursor ") || !strings.HasSuffix(r.stderr, " continues, --all lists every one\n") {
		t.Errorf("list stderr: %q", r.stderr)
	}
	tests := []struct {
		args     []string
		wantRows int
		more     bool
	}{
		{[]string{"--json"}, 50, true},
		{[]string{"--json", "--all"}, 61, false},
		{[]string{"--json", "--limit", "61"}, 61, false},
		{[]string{"--json", "--limit", "55"}, 55, true},
		{[]string{"--json", "--type", "decision"}, 1, false},
	}
	for _, tt := range tests {
		r := run(t, o, append([]string{"list", "checkout", "nori"}, tt.args...)...)
		var page struct {
			Memories []agentmem.Memory `json:"memories"`
			More     bool              `json:"more"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &page); err != nil || len(page.Memories) != tt.wantRows || page.More != tt.more {
			t.Errorf("list %v: %v, %d memories, more %v; want %d, %v", tt.args, err, len(page.Memories), page.More, tt.wantRows, tt.more)
		}
	}

	if r := run(t, o, "rm", "--agent", "nori", ids[0]); r.code != 0 || r.stdout != "removed "+ids[0]+"\n" {
		t.Errorf("rm: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := run(t, o, "rm", "--agent", "nori", ids[0]); r.code != cli.ExitNotFound || !strings.Contains(r.stderr, "404 not_found") {
		t.Errorf("rm again: %d %q", r.code, r.stderr)
	}
	if r := run(t, o, "rm", "--agent", "koji", ids[1]); r.code != cli.ExitNotFound {
		t.Errorf("rm another agent's memory: code %d, want 3", r.code)
	}
	r = run(t, opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori"}}, "rm", ids[1], ids[0], ids[2])
	if r.code != cli.ExitNotFound || r.stdout != "removed "+ids[1]+"\nremoved "+ids[2]+"\n" || !strings.Contains(r.stderr, "1 of 3 memories were not found") {
		t.Errorf("rm several: %d %q %q", r.code, r.stdout, r.stderr)
	}

	// clear: refused without a terminal, asked on one.
	clearTests := []struct {
		name     string
		o        opts
		args     []string
		wantCode int
		wantLeft int
		stderr   string
	}{
		{"no terminal, no --yes", opts{stdin: "y\n"}, nil, cli.ExitRefused, 58, "refusing to delete every memory of agent nori in project checkout without confirmation: standard input is not a terminal; pass --yes"},
		{"terminal, answered no", opts{stdin: "n\n", terminal: true}, nil, cli.ExitRefused, 58, "Delete all 58 memories of agent nori in project checkout? This cannot be undone. [y/N] agentmem: clear: not confirmed; nothing was deleted"},
		{"terminal, no answer", opts{terminal: true}, nil, cli.ExitRefused, 58, "not confirmed"},
		{"terminal, answered yes", opts{stdin: "yes\n", terminal: true}, nil, 0, 0, "[y/N] "},
		{"nothing left: no question", opts{terminal: true}, nil, 0, 0, "nori has no memories in checkout; nothing to delete"},
	}
	for _, tt := range clearTests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.url = a.URL
			r := run(t, tt.o, append([]string{"clear", "checkout", "nori"}, tt.args...)...)
			if r.code != tt.wantCode || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("code %d, stderr %q; want %d, %q", r.code, r.stderr, tt.wantCode, tt.stderr)
			}
			if left := len(a.memories("nori", "checkout")); left != min(tt.wantLeft, 50) {
				t.Errorf("%d memories left, want %d", left, tt.wantLeft)
			}
		})
	}
	a.memory("nori", "checkout", agentmem.MemoryInput{Content: "again"})
	if r := run(t, o, "clear", "checkout", "nori", "--yes"); r.code != 0 || len(a.memories("nori", "checkout")) != 0 {
		t.Errorf("clear --yes: %d %q", r.code, r.stderr)
	}
}

func TestPersonalityCommands(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	o := opts{url: a.URL}
	r := run(t, o, "personality", "set", "nori", "--display-name", "Nori", "--voice", "warm", "--trait", "pragmatic", "--trait", "test-first",
		"--git-name", "Nori (agent)", "--git-email", "nori@agents.example.com")
	if r.code != 0 || r.stdout != "created the personality of nori (version 1)\n" {
		t.Fatalf("set: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// Only the fields given change.
	prompt := filepath.Join(t.TempDir(), "persona.md")
	writeFile(t, prompt, "Sign commits as Nori.\n")
	if r := run(t, o, "personality", "set", "nori", "--voice", "dry", "--prompt-file", prompt); r.stdout != "updated the personality of nori (version 2)\n" {
		t.Fatalf("update: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, o, "personality", "get", "nori", "--json")
	var p agentmem.Personality
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatal(err)
	}
	if p.DisplayName != "Nori" || p.Voice != "dry" || strings.Join(p.Traits, ",") != "pragmatic,test-first" || p.Prompt != "Sign commits as Nori." || p.GitEmail != "nori@agents.example.com" || p.Version != 2 {
		t.Errorf("after a partial update: %+v", p)
	}
	if r := run(t, o, "personality", "set", "nori", "--trait", "", "--voice", ""); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = run(t, o, "personality", "get", "nori")
	if r.code != 0 || !strings.Contains(r.stdout, "display name: Nori\n") || strings.Contains(r.stdout, "traits:") || strings.Contains(r.stdout, "voice:") ||
		!strings.Contains(r.stdout, "prompt:\n  Sign commits as Nori.\n") {
		t.Errorf("get:\n%s", r.stdout)
	}
	a.personality("koji", agentmem.PersonalityInput{DisplayName: "Koji"})
	r = run(t, o, "personality", "ls")
	if rows := lines(r.stdout); len(rows) != 3 || !strings.HasPrefix(rows[1], "koji ") || !strings.HasPrefix(rows[2], "nori ") {
		t.Errorf("ls:\n%s", r.stdout)
	}
	if r := run(t, o, "personality", "rm", "nori"); r.code != 0 {
		t.Errorf("rm: %d %s", r.code, r.stderr)
	}
	if r := run(t, o, "personality", "get", "nori"); r.code != cli.ExitNotFound || !strings.Contains(r.stderr, "agent nori has no personality") {
		t.Errorf("get after rm: %d %q", r.code, r.stderr)
	}
	if r := run(t, o, "personality", "rm", "nori"); r.code != cli.ExitNotFound {
		t.Errorf("rm twice: %d", r.code)
	}
	if r := run(t, o, "personality", "set", "toro", "--voice", "loud"); r.code != cli.ExitFailure || !strings.Contains(r.stderr, "a personality needs a displayName or a prompt") {
		t.Errorf("new personality without a name: %d %q", r.code, r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "Usage: agentmem [global flags] <command>"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"personality"}, "Usage: agentmem personality <command>"},
		{[]string{"personality", "bogus"}, `unknown command "personality bogus"`},
		{[]string{"daily", "--date", "2026-11-22"}, "daily needs a command before --date: add, show"},
		{[]string{"personality", "--display-name", "Nori"}, "personality needs a command before --display-name: "},
		{[]string{"dream", "-json"}, "dream needs a command before -json: "},
		{[]string{"show", "checkout"}, "expected agentmem show <project> <agent>"},
		{[]string{"show", "checkout", "nori", "extra"}, "expected agentmem show <project> <agent>"},
		{[]string{"show", "check#out", "nori"}, `projectId "check#out" may only contain`},
		{[]string{"show", "checkout", "nori", "--write", "--json"}, "--write and --json do not go together"},
		{[]string{"add", "checkout", "nori", "findng", "x"}, `type "findng": use finding, decision, blocker, note, learning or pattern (session notes: agentmem session); did you mean "finding"?`},
		{[]string{"add", "checkout", "nori", "note", "x", "--trigger", "t"}, "--trigger, --context, --solution and --confidence are for patterns"},
		{[]string{"add", "checkout", "nori", "pattern", "x", "--confidence", "1.5"}, "--confidence must be from 0 to 1"},
		{[]string{"add", "checkout", "nori", "finding"}, "the text is missing"},
		{[]string{"add", "checkout", "nori", "finding", "x", "--rationale", "y"}, "--rationale and --topic are for decisions"},
		{[]string{"add", "checkout", "nori", "blocker", "x", "--status", "done"}, "--status must be open or resolved"},
		{[]string{"list", "checkout", "nori", "--type", "idea"}, `--type "idea" is not a memory type`},
		{[]string{"rm", "01J0000000000000000000000A"}, "--agent is required"},
		{[]string{"list", "checkout", "nori", "--timeout", "-1s"}, `timeout "-1s" must be between`},
		{[]string{"--nope"}, "unknown flag --nope"},
		{[]string{"--timout", "3s", "list"}, "unknown flag --timout; did you mean --timeout?"},
		{[]string{"list", "checkout", "nori", "--lmit", "3"}, "unknown flag --lmit; did you mean --limit?"},
		{[]string{"lsit"}, `unknown command "lsit"; did you mean "list"?`},
		{[]string{"personality", "lst"}, `unknown command "personality lst"; did you mean "ls"?`},
		{[]string{"help", "serach"}, `unknown command "serach"; did you mean "search"?`},
		{[]string{"list", "checkout", "nori", "--type", "decison"}, `--type "decison" is not a memory type; did you mean "decision"?`},
		{[]string{"list", "checkout", "nori", "--json", "--output", "table"}, "--json and --output table do not go together"},
		{[]string{"list", "checkout", "nori", "--output", "yaml"}, `invalid value "yaml" for flag -output: use json or table`},
		{[]string{"list", "checkout", "nori", "--all", "--limit", "3"}, "--all and --limit do not go together"},
	}
	for _, tt := range tests {
		r := run(t, opts{url: a.URL}, tt.args...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: code %d, stderr %q; want 2 and %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

// TestHelp: every command and subcommand has --help with its usage and at
// least one example, and agentmem help lists every command.
func TestHelp(t *testing.T) {
	t.Parallel()
	main := run(t, opts{}, "help")
	if main.code != 0 || !strings.Contains(main.stdout, "Exit codes:") || !strings.Contains(main.stdout, "AGENTMEM_API_URL") {
		t.Fatalf("help: %d\n%s", main.code, main.stdout)
	}
	for _, c := range cli.Commands() {
		if !strings.Contains(main.stdout, "\n  "+c.Name+" ") {
			t.Errorf("help does not list %s", c.Name)
		}
		paths := [][]string{{c.Name}}
		for _, s := range c.Subcommands {
			paths = append(paths, []string{c.Name, s.Name})
		}
		for _, p := range paths {
			for _, form := range [][]string{append(append([]string{}, p...), "--help"), append([]string{"help"}, p...)} {
				r := run(t, opts{}, form...)
				if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: agentmem "+strings.Join(p, " ")) || !strings.Contains(r.stdout, "\nExamples:\n  agentmem ") {
					t.Errorf("%v: code %d\n%s%s", form, r.code, r.stdout, r.stderr)
				}
			}
		}
	}
	if r := run(t, opts{}, "inject", "--help"); !strings.Contains(r.stdout, "--strict") || !strings.Contains(r.stdout, "--workspace DIR") {
		t.Errorf("inject --help lacks its flags:\n%s", r.stdout)
	}
}

func TestTimeoutSetting(t *testing.T) {
	t.Parallel()
	hung := hungURL(t)
	tests := []struct {
		env  string
		args []string
		want string
	}{
		{"0.2", nil, "timed out after 200ms"},
		{"150ms", nil, "timed out after 150ms"},
		{"5s", []string{"--timeout", "100ms"}, "timed out after 100ms"},
	}
	for _, tt := range tests {
		r := run(t, opts{url: hung, env: map[string]string{"AGENTMEM_TIMEOUT": tt.env}}, append([]string{"personality", "ls"}, tt.args...)...)
		if r.code != cli.ExitFailure || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("AGENTMEM_TIMEOUT=%s %v: %d %q", tt.env, tt.args, r.code, r.stderr)
		}
	}
}
