package cli_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
)

// envScope is AGENTMEM_AGENT and AGENTMEM_PROJECT.
func envScope(agent, project string) map[string]string {
	return map[string]string{"AGENTMEM_AGENT": agent, "AGENTMEM_PROJECT": project}
}

// TestScopeForms: every way of giving a read command its agent and
// project reads the same scope, and the ways that disagree or leave
// something out are usage errors that say what to give.
func TestScopeForms(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	nori := a.memory("nori", "checkout", agentmem.MemoryInput{Content: "nori's checkout note"})
	kai := a.memory("kai", "billing", agentmem.MemoryInput{Content: "kai's billing note"})

	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string // in stdout (code 0) or stderr
	}{
		{"flags", nil, []string{"list", "--agent", "nori", "--project", "checkout"}, 0, nori.ID},
		{"flags with =", nil, []string{"list", "--project=checkout", "--agent=nori", "--json"}, 0, nori.ID},
		{"environment", envScope("nori", "checkout"), []string{"list"}, 0, nori.ID},
		{"project flag, agent from the environment", map[string]string{"AGENTMEM_AGENT": "nori"}, []string{"list", "--project", "checkout"}, 0, nori.ID},
		{"flags over the environment", envScope("kai", "billing"), []string{"list", "--agent", "nori", "--project", "checkout"}, 0, nori.ID},
		{"one flag over the environment", envScope("kai", "checkout"), []string{"list", "--agent", "nori"}, 0, nori.ID},
		{"shorthand", nil, []string{"list", "checkout", "nori"}, 0, nori.ID},
		{"shorthand over the environment", envScope("nori", "checkout"), []string{"list", "billing", "kai"}, 0, kai.ID},
		{"shorthand and the same flags", nil, []string{"list", "checkout", "nori", "--agent", "nori", "--project", "checkout"}, 0, nori.ID},
		{"shorthand and a different agent flag", nil, []string{"list", "checkout", "nori", "--agent", "kai"}, 2, "--agent kai and the <agent> argument nori differ: give the agent once"},
		{"shorthand and a different project flag", envScope("nori", "checkout"), []string{"list", "--project", "billing", "checkout", "nori"}, 2, "--project billing and the <project> argument checkout differ"},
		{"nothing", nil, []string{"list"}, 2, "--agent and --project are required (or AGENTMEM_AGENT and AGENTMEM_PROJECT, or the shorthand agentmem list <project> <agent>)"},
		{"no project", nil, []string{"list", "--agent", "nori"}, 2, "--project is required (or AGENTMEM_PROJECT"},
		{"no agent", map[string]string{"AGENTMEM_PROJECT": "checkout"}, []string{"show"}, 2, "--agent is required (or AGENTMEM_AGENT"},
		{"one argument", envScope("nori", "checkout"), []string{"list", "checkout"}, 2, "expected agentmem list <project> <agent>, or no arguments with --agent NAME --project ID; got 1 argument"},
		{"a bad agent in the environment", envScope("no#pe", "checkout"), []string{"list"}, 2, `AGENTMEM_AGENT: agentName "no#pe" may only contain`},
		{"a bad project flag", nil, []string{"list", "--agent", "nori", "--project", "a b"}, 2, `--project: projectId "a b" may only contain`},
		{"a bad shorthand project", nil, []string{"list", "a/b", "nori"}, 2, `projectId "a/b" may only contain`},
		{"subcommand with flags", nil, []string{"dream", "ls", "--agent", "nori", "--project", "checkout"}, 0, ""},
		{"subcommand from the environment", envScope("nori", "checkout"), []string{"daily", "show", "--date", "2026-01-01"}, 3, "no daily records"},
		{"personality, agent flag", nil, []string{"personality", "get", "--agent", "nori"}, 3, "agent nori has no personality"},
		{"personality, agent from the environment", map[string]string{"AGENTMEM_AGENT": "nori"}, []string{"personality", "get"}, 3, "agent nori has no personality"},
		{"personality, shorthand and a different flag", nil, []string{"personality", "get", "nori", "--agent", "kai"}, 2, "--agent kai and the <agent> argument nori differ"},
		{"personality, nothing", nil, []string{"personality", "rm"}, 2, "--agent is required (or AGENTMEM_AGENT, or the shorthand agentmem personality rm <agent>)"},
		{"stats of one scope by flags", nil, []string{"stats", "--agent", "nori", "--project", "checkout"}, 0, "scope:     nori in checkout\n"},
		{"stats with one flag", nil, []string{"stats", "--agent", "nori"}, 2, "agentmem stats takes both --agent and --project (one scope), or neither (every scope)"},
		{"stats ignores the environment", envScope("nori", "checkout"), []string{"stats"}, 0, "scopes:    2\n"},
		{"rm, no agent", nil, []string{"rm", nori.ID}, 2, "--agent is required (or AGENTMEM_AGENT)"},
		{"inject, no project", map[string]string{"AGENTMEM_AGENT": "nori"}, []string{"inject", "--strict"}, 2, "--project is required (or AGENTMEM_PROJECT)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, opts{url: a.URL, env: tt.env}, tt.args...)
			out := r.stdout
			if tt.code != 0 {
				out = r.stderr
			}
			if r.code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("got code %d, stdout %q, stderr %q; want %d and %q", r.code, r.stdout, r.stderr, tt.code, tt.want)
			}
			if tt.code == cli.ExitUsage && !strings.Contains(r.stderr, "--help)") {
				t.Errorf("a usage error without the pointer to --help: %q", r.stderr)
			}
		})
	}
	if len(a.memories("nori", "checkout")) != 1 || len(a.memories("kai", "billing")) != 1 {
		t.Errorf("a read changed the memories")
	}
}

// TestScopeBeforeWords: commands whose scope may come before free words
// (add, session, daily add, search) tell the shorthand from the words,
// with or without a scope in the flags and the environment, and refuse
// what could be either.
func TestScopeBeforeWords(t *testing.T) {
	t.Parallel()
	a := newTierAPI(t, nil)
	a.memory("nori", "checkout", agentmem.MemoryInput{Content: "The payment provider retries webhooks"})

	type stored struct{ agent, project, content string }
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want stored // the memory or daily record written (code 0)
		msg  string // in stderr (code != 0)
	}{
		{"add, flags", nil, []string{"add", "--agent", "nori", "--project", "checkout", "finding", "one"}, 0, stored{"nori", "checkout", "one"}, ""},
		{"add, environment", envScope("nori", "checkout"), []string{"add", "note", "two", "words"}, 0, stored{"nori", "checkout", "two words"}, ""},
		{"add, shorthand", nil, []string{"add", "checkout", "nori", "finding", "three"}, 0, stored{"nori", "checkout", "three"}, ""},
		{"add, shorthand over the environment", envScope("kai", "billing"), []string{"add", "checkout", "nori", "learning", "four"}, 0, stored{"nori", "checkout", "four"}, ""},
		{"add, shorthand repeating the flags", nil, []string{"add", "--agent", "nori", "--project", "checkout", "checkout", "nori", "note", "five"}, 0, stored{"nori", "checkout", "five"}, ""},
		{"add, type word in the text", envScope("nori", "checkout"), []string{"add", "note", "a", "b", "finding", "c"}, 0, stored{"nori", "checkout", "a b finding c"}, ""},
		{"add, shorthand against a flag", nil, []string{"add", "--agent", "kai", "checkout", "nori", "note", "x"}, 2, stored{}, "--agent kai and the <agent> argument nori differ"},
		{"add, no scope", nil, []string{"add", "note", "x"}, 2, stored{}, "--agent and --project are required (or AGENTMEM_AGENT and AGENTMEM_PROJECT, or the shorthand agentmem add <project> <agent> finding|decision|blocker|note|learning|pattern <text...>)"},
		{"session, environment", envScope("nori", "checkout"), []string{"session", "Wired", "the", "handler."}, 0, stored{"nori", "checkout", "Wired the handler."}, ""},
		{"session, shorthand repeating the environment", envScope("nori", "checkout"), []string{"session", "checkout", "nori", "Added", "retries."}, 0, stored{"nori", "checkout", "Added retries."}, ""},
		{"session, flags: the words are text", nil, []string{"session", "--project", "checkout", "--agent", "nori", "billing", "kai", "came", "up"}, 0, stored{"nori", "checkout", "billing kai came up"}, ""},
		{"session, environment: other words are text", envScope("nori", "checkout"), []string{"session", "billing", "kai", "came", "up"}, 0, stored{"nori", "checkout", "billing kai came up"}, ""},
		{"session, ambiguous agent", envScope("nori", "checkout"), []string{"session", "billing", "nori", "x"}, 2, stored{}, `"billing nori" could be <project> <agent> or the start of the text (AGENTMEM_PROJECT is checkout, AGENTMEM_AGENT is nori): give --project and --agent`},
		{"session, ambiguous project", envScope("nori", "checkout"), []string{"session", "checkout", "kai", "x"}, 2, stored{}, `"checkout kai" could be <project> <agent>`},
		{"session, a flag and the environment", map[string]string{"AGENTMEM_PROJECT": "checkout"}, []string{"session", "--agent", "nori", "solo"}, 0, stored{"nori", "checkout", "solo"}, ""},
		{"session, a flag and no project", nil, []string{"session", "--agent", "nori", "checkout", "x"}, 2, stored{}, "--project is required (or AGENTMEM_PROJECT"},
		{"daily add, environment", envScope("nori", "checkout"), []string{"daily", "add", "--title", "t", "Retries", "fixed."}, 0, stored{"nori", "checkout", "Retries fixed."}, ""},
		{"daily add, shorthand", nil, []string{"daily", "add", "checkout", "nori", "--title", "t", "Backfill."}, 0, stored{"nori", "checkout", "Backfill."}, ""},
		{"daily add, shorthand with a partial environment", map[string]string{"AGENTMEM_AGENT": "kai"}, []string{"daily", "add", "checkout", "nori", "Shorthand", "wins."}, 0, stored{"nori", "checkout", "Shorthand wins."}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, opts{url: a.URL, env: tt.env}, tt.args...)
			if r.code != tt.code || (tt.code != 0 && !strings.Contains(r.stderr, tt.msg)) {
				t.Fatalf("got code %d, stdout %q, stderr %q; want %d and %q", r.code, r.stdout, r.stderr, tt.code, tt.msg)
			}
			if tt.code != 0 {
				return
			}
			var found []string
			for _, m := range a.memories(tt.want.agent, tt.want.project) {
				found = append(found, m.Content)
			}
			for _, d := range a.day(tt.want.agent, tt.want.project, "2026-03-01") {
				found = append(found, d.Content)
			}
			if !slices.Contains(found, tt.want.content) {
				t.Errorf("%q is not stored for %s in %s: %q", tt.want.content, tt.want.agent, tt.want.project, found)
			}
		})
	}
	for _, agent := range []string{"nori", "kai"} {
		for _, project := range []string{"checkout", "billing"} {
			for _, m := range a.memories(agent, project) {
				if m.Content == "x" || (agent == "kai" && project == "billing") {
					t.Errorf("%q stored for %s in %s", m.Content, agent, project)
				}
			}
		}
	}

	// search: the query is what is left after the scope, and finds the
	// memory about payment webhooks first (related terms may add others:
	// "billing" for "payment").
	searches := []struct {
		env       map[string]string
		args      []string
		wantQuery string
	}{
		{envScope("nori", "checkout"), []string{"search", "payment", "webhooks"}, "payment webhooks"},
		{envScope("nori", "checkout"), []string{"search", "checkout", "nori", "webhook"}, "webhook"},
		{nil, []string{"search", "checkout", "nori", "webhook"}, "webhook"},
		{nil, []string{"search", "--agent", "nori", "--project", "checkout", "provider", "payment"}, "provider payment"},
	}
	for _, tt := range searches {
		r := run(t, opts{url: a.URL, env: tt.env}, append(tt.args, "--json")...)
		var res agentmem.SearchResult
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Query != tt.wantQuery || len(res.Results) == 0 || res.Results[0].Content != "The payment provider retries webhooks" {
			t.Errorf("%q: code %d, query %q, results %+v, stderr %q; want the query %q and the payment webhooks memory first", tt.args, r.code, res.Query, res.Results, r.stderr, tt.wantQuery)
		}
	}
}

// TestHelpShowsTheFlagForm: a command that takes an agent or a project
// shows --agent/--project first, its shorthand second, and its flags say
// which environment variable stands in for them.
func TestHelpShowsTheFlagForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path      []string
		usage     string
		shorthand string
	}{
		{[]string{"list"}, "Usage: agentmem list --agent NAME --project ID [flags]\n", "   or: agentmem list <project> <agent> [flags]\n"},
		{[]string{"add"}, "Usage: agentmem add --agent NAME --project ID finding|decision|blocker|note|learning|pattern <text...> [flags]\n", "   or: agentmem add <project> <agent> finding|"},
		{[]string{"search"}, "Usage: agentmem search --agent NAME --project ID <query...> [flags]\n", "   or: agentmem search <project> <agent> <query...> [flags]\n"},
		{[]string{"daily", "show"}, "Usage: agentmem daily show --agent NAME --project ID [flags]\n", "   or: agentmem daily show <project> <agent> [flags]\n"},
		{[]string{"dream", "revert"}, "Usage: agentmem dream revert --agent NAME --project ID [flags]\n", "   or: agentmem dream revert <project> <agent> [flags]\n"},
		{[]string{"personality", "set"}, "Usage: agentmem personality set --agent NAME [flags]\n", "   or: agentmem personality set <agent> [flags]\n"},
		{[]string{"stats"}, "Usage: agentmem stats [--agent NAME --project ID] [flags]\n", "   or: agentmem stats <project> <agent> [flags]\n"},
		{[]string{"inject"}, "Usage: agentmem inject --agent NAME --project ID [flags]\n", ""},
		{[]string{"rm"}, "Usage: agentmem rm --agent NAME ID... [flags]\n", ""},
		{[]string{"session-context", "get"}, "Usage: agentmem session-context get --project ID <key> [flags]\n", ""},
	}
	for _, tt := range tests {
		r := run(t, opts{}, append(tt.path, "--help")...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, tt.usage) {
			t.Errorf("%v --help: code %d, starts %q; want %q", tt.path, r.code, firstLine(r.stdout), tt.usage)
			continue
		}
		rest := r.stdout[len(tt.usage):]
		if tt.shorthand != "" && !strings.HasPrefix(rest, tt.shorthand) {
			t.Errorf("%v --help: second line %q, want %q", tt.path, firstLine(rest), tt.shorthand)
		}
		if tt.shorthand == "" && strings.HasPrefix(rest, "   or:") {
			t.Errorf("%v --help offers a shorthand: %q", tt.path, firstLine(rest))
		}
		for flag, variable := range map[string]string{"--agent NAME": "AGENTMEM_AGENT", "--project ID": "AGENTMEM_PROJECT"} {
			if strings.Contains(tt.usage, flag) && tt.path[0] != "stats" && !regexp.MustCompile(`\n  `+flag+` +[^\n]*\(env `+variable+`\)\n`).MatchString(r.stdout) {
				t.Errorf("%v --help: the flag %s does not name %s:\n%s", tt.path, flag, variable, r.stdout)
			}
		}
	}
}

// TestNoInternalVocabulary: nothing the CLI prints as help speaks of the
// requirement documents or the tracker ("seed 004", "issue 4").
func TestNoInternalVocabulary(t *testing.T) {
	t.Parallel()
	internal := regexp.MustCompile(`(?i)\bseeds?\b|\bissues? #?\d|\bdecision \d`)
	pages := [][]string{{"help"}}
	for _, c := range cli.Commands() {
		pages = append(pages, []string{"help", c.Name})
		for _, s := range c.Subcommands {
			pages = append(pages, []string{"help", c.Name, s.Name})
		}
	}
	for _, p := range pages {
		r := run(t, opts{}, p...)
		if r.code != 0 {
			t.Errorf("%v: code %d", p, r.code)
		}
		if m := internal.FindString(r.stdout); m != "" {
			t.Errorf("%v says %q:\n%s", p, m, r.stdout)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestVersion: agentmem --version and agentmem version print the same
// line, with what main was given at link time.
func TestVersion(t *testing.T) {
	t.Parallel()
	build := cli.Build{Version: "v1.2.0", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-03-02T08:00:00Z"}
	var lines []string
	for _, args := range [][]string{{"--version"}, {"version"}, {"--timeout", "5s", "--version"}} {
		var stdout, stderr strings.Builder
		code := cli.Main(t.Context(), args, cli.Env{Stdout: &stdout, Stderr: &stderr, Build: build})
		want := "agentmem v1.2.0 (commit 0123456789abcdef0123456789abcdef01234567, built 2026-03-02T08:00:00Z, go"
		if code != 0 || !strings.HasPrefix(stdout.String(), want) || !strings.HasSuffix(stdout.String(), ")\n") || stderr.Len() != 0 {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want 0 and %q...", args, code, stdout.String(), stderr.String(), want)
		}
		lines = append(lines, stdout.String())
	}
	if lines[0] != lines[1] || lines[1] != lines[2] {
		t.Errorf("the forms differ: %q", lines)
	}
	if r := run(t, opts{}, "version", "extra"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra: code %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, opts{}, "help"); !strings.Contains(r.stdout, "agentmem --version") {
		t.Errorf("help does not mention --version")
	}
}
