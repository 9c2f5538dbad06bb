package cli_test

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

const role = "# Coder\n\nYou write the code. Tests first.\n"

var importBlock = markdown.MemoryImportBegin + "\n" + markdown.MemoryImport + "\n" + markdown.MemoryImportEnd + "\n"

var nori = agentmem.PersonalityInput{DisplayName: "Nori", Voice: "warm and terse", Traits: []string{"pragmatic"},
	GitName: "Nori (agent)", GitEmail: "nori@agents.example.com"}

// workspace returns a fresh workspace, with the role CLAUDE.md when role
// is not empty.
func workspace(t *testing.T, role string) string {
	t.Helper()
	dir := t.TempDir()
	if role != "" {
		writeFile(t, filepath.Join(dir, "CLAUDE.md"), role)
	}
	return dir
}

func inject(t *testing.T, a *api, ws string, extra ...string) result {
	t.Helper()
	args := append([]string{"inject", "--agent", "nori", "--project", "checkout", "--workspace", ws}, extra...)
	return run(t, opts{url: a.URL}, args...)
}

// TestInjectWritesFilesExactly covers the inject contract: the
// personality section above the role instructions, MEMORY.md with the 50
// newest memories, the import line once, byte for byte.
func TestInjectWritesFilesExactly(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	p := a.personality("nori", nori)
	for i := range 55 {
		a.memory("nori", "checkout", agentmem.MemoryInput{Content: fmt.Sprintf("finding %02d", i), Type: agentmem.TypeFinding})
	}
	ws := workspace(t, role)

	r := inject(t, a, ws)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("inject: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if want := "agentmem: inject: personality Nori, 50 memories; updated .claude/memory/MEMORY.md, CLAUDE.md\n"; r.stderr != want {
		t.Errorf("stderr: got %q, want %q", r.stderr, want)
	}
	wantClaude := markdown.PersonalitySection(p) + importBlock + "\n" + role
	if got := readFile(t, filepath.Join(ws, "CLAUDE.md")); got != wantClaude {
		t.Errorf("CLAUDE.md:\ngot\n%s\nwant\n%s", got, wantClaude)
	}
	wantMemory := markdown.MemoryFile("nori", "checkout", a.memories("nori", "checkout"))
	gotMemory := readFile(t, filepath.Join(ws, ".claude/memory/MEMORY.md"))
	if gotMemory != wantMemory {
		t.Errorf("MEMORY.md:\ngot\n%s\nwant\n%s", gotMemory, wantMemory)
	}
	if n := strings.Count(gotMemory, "\n- finding "); n != 50 || strings.Contains(gotMemory, "finding 04") {
		t.Errorf("MEMORY.md has %d findings, want the 50 newest", n)
	}

	// Re-running changes nothing, not even a modification time.
	stamp := time.Now().Add(-time.Hour)
	for _, f := range []string{"CLAUDE.md", ".claude/memory/MEMORY.md"} {
		if err := os.Chtimes(filepath.Join(ws, f), stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	r = inject(t, a, ws)
	if r.code != 0 || !strings.HasSuffix(r.stderr, "; workspace already up to date\n") {
		t.Fatalf("re-run: code %d, stderr %q", r.code, r.stderr)
	}
	if got := readFile(t, filepath.Join(ws, "CLAUDE.md")); got != wantClaude {
		t.Errorf("re-run changed CLAUDE.md:\n%s", got)
	}
	for _, f := range []string{"CLAUDE.md", ".claude/memory/MEMORY.md"} {
		if info, err := os.Stat(filepath.Join(ws, f)); err != nil || !info.ModTime().Equal(stamp) {
			t.Errorf("re-run rewrote %s", f)
		}
	}
	assertNoTempFiles(t, ws)
}

// TestInjectScenarios runs inject over a sequence of service states and
// checks the workspace after each, as a pipeline re-using a workspace
// would see it.
func TestInjectScenarios(t *testing.T) {
	t.Parallel()
	type state struct {
		personality bool
		memories    int
	}
	tests := []struct {
		name  string
		role  string // initial CLAUDE.md ("" for none)
		extra map[string]string
		steps []state
		// want CLAUDE.md after the last step ("-" for no file) and whether
		// MEMORY.md exists.
		wantClaude func(section string) string
		wantMemory bool
	}{
		{"personality, no memories: no memory file, no import", role, nil,
			[]state{{true, 0}}, func(s string) string { return s + "\n" + role }, false},
		{"memories, no personality", role, nil,
			[]state{{false, 2}}, func(string) string { return importBlock + "\n" + role }, true},
		{"nothing at all: no file is created", "", nil,
			[]state{{false, 0}}, func(string) string { return "-" }, false},
		{"no role file: CLAUDE.md is created", "", nil,
			[]state{{true, 1}}, func(s string) string { return s + importBlock }, true},
		{"memories cleared since: stale MEMORY.md and import removed", role, nil,
			[]state{{true, 3}, {true, 0}}, func(s string) string { return s + "\n" + role }, false},
		{"personality deleted since: section removed", role, nil,
			[]state{{true, 1}, {false, 1}}, func(string) string { return importBlock + "\n" + role }, true},
		{"everything gone since: the role file is back as it was", role, nil,
			[]state{{true, 2}, {false, 0}}, func(string) string { return role }, false},
		{"role already imports MEMORY.md: not twice", "# Coder\n@.claude/memory/MEMORY.md\n", nil,
			[]state{{true, 1}, {true, 1}}, func(s string) string { return s + "\n# Coder\n@.claude/memory/MEMORY.md\n" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newAPI(t)
			ws := workspace(t, tt.role)
			var section string
			for i, st := range tt.steps {
				ctx := t.Context()
				if st.personality {
					section = markdown.PersonalitySection(a.personality("nori", nori))
				} else if err := a.Store.DeletePersonality(ctx, "nori"); err != nil && agentmem.ErrorCode(err) != agentmem.ENotFound {
					t.Fatal(err)
				}
				if _, err := a.Store.DeleteScope(ctx, "nori", "checkout"); err != nil {
					t.Fatal(err)
				}
				for j := range st.memories {
					a.memory("nori", "checkout", agentmem.MemoryInput{Content: fmt.Sprintf("memory %d", j)})
				}
				if r := inject(t, a, ws); r.code != 0 || strings.Contains(r.stderr, "warning") {
					t.Fatalf("step %d: code %d, stderr %q", i, r.code, r.stderr)
				}
			}
			claude := filepath.Join(ws, "CLAUDE.md")
			want := tt.wantClaude(section)
			switch {
			case want == "-" && exists(claude):
				t.Errorf("CLAUDE.md was created: %q", readFile(t, claude))
			case want != "-" && readFile(t, claude) != want:
				t.Errorf("CLAUDE.md:\ngot\n%s\nwant\n%s", readFile(t, claude), want)
			}
			memory := filepath.Join(ws, ".claude/memory/MEMORY.md")
			if exists(memory) != tt.wantMemory {
				t.Errorf("MEMORY.md exists: %v, want %v", exists(memory), tt.wantMemory)
			}
			if !tt.wantMemory && len(tt.steps) == 1 && exists(filepath.Join(ws, ".claude")) {
				t.Errorf("inject created .claude/ without memories")
			}
			assertNoTempFiles(t, ws)
		})
	}
}

func TestInjectLeavesForeignMemoryFileAlone(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	ws := workspace(t, role)
	if err := os.MkdirAll(filepath.Join(ws, ".claude/memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, mine := range []string{
		"# Notes kept by the team\n",
		"# Memory: decisions the team made\n\n- we deploy on Tuesdays\n", // agentmem's title, not its file
	} {
		writeFile(t, filepath.Join(ws, ".claude/memory/MEMORY.md"), mine)
		r := inject(t, a, ws)
		if r.code != 0 || !strings.Contains(r.stderr, "left .claude/memory/MEMORY.md alone") {
			t.Errorf("code %d, stderr %q", r.code, r.stderr)
		}
		if got := readFile(t, filepath.Join(ws, ".claude/memory/MEMORY.md")); got != mine {
			t.Errorf("foreign MEMORY.md changed: %q, want %q", got, mine)
		}
	}
}

func TestInjectKeepsPermissionsAndReplacesSymlinks(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	a.personality("nori", nori)
	ws := workspace(t, role)
	claude := filepath.Join(ws, "CLAUDE.md")
	if err := os.Chmod(claude, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := inject(t, a, ws); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if info, err := os.Stat(claude); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("CLAUDE.md mode: got %v, want 0600", info.Mode())
	}

	// A CLAUDE.md linked to a shared role file: inject replaces the link
	// and never writes through it.
	ws2 := workspace(t, "")
	shared := filepath.Join(t.TempDir(), "coder.md")
	writeFile(t, shared, role)
	if err := os.Symlink(shared, filepath.Join(ws2, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	if r := inject(t, a, ws2); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if got := readFile(t, shared); got != role {
		t.Errorf("the shared role file was written through the link: %q", got)
	}
	if info, _ := os.Lstat(filepath.Join(ws2, "CLAUDE.md")); !info.Mode().IsRegular() || !strings.HasSuffix(readFile(t, filepath.Join(ws2, "CLAUDE.md")), role) {
		t.Errorf("CLAUDE.md should now be a regular file ending with the role")
	}
}

// TestInjectFailsBeforeTouchingCLAUDEmd: when MEMORY.md cannot be written,
// CLAUDE.md is left as it was (it must never import a missing file).
func TestInjectFailsBeforeTouchingCLAUDEmd(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	a.personality("nori", nori)
	a.memory("nori", "checkout", agentmem.MemoryInput{Content: "x"})
	ws := workspace(t, role)
	writeFile(t, filepath.Join(ws, ".claude"), "a file where a directory should be")
	r := inject(t, a, ws)
	if r.code != 0 || len(lines(r.stderr)) != 1 || !strings.HasPrefix(r.stderr, "agentmem: warning: inject failed, the agent runs without injected memory: create ") {
		t.Errorf("code %d, stderr %q: want one warning and exit 0", r.code, r.stderr)
	}
	if got := readFile(t, filepath.Join(ws, "CLAUDE.md")); got != role {
		t.Errorf("CLAUDE.md changed although MEMORY.md failed: %q", got)
	}
	if r := inject(t, a, ws, "--strict"); r.code != 1 {
		t.Errorf("--strict: code %d, want 1", r.code)
	}
}

func TestInjectTaskIsPassedThrough(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	ws := workspace(t, role)
	long := strings.Repeat("é", 600) // 1200 bytes: cut to 1 KiB on a character boundary
	for _, task := range []string{"fix the webhook retries & add tests", long} {
		if r := inject(t, a, ws, "--task", task); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	q := a.bootstrapQueries()
	if len(q) != 2 {
		t.Fatalf("got %d bootstrap calls, want 2", len(q))
	}
	want := []string{"fix the webhook retries & add tests", strings.Repeat("é", 512)}
	for i, raw := range q {
		v, err := url.ParseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		if v.Get("task") != want[i] || v.Get("projectId") != "checkout" {
			t.Errorf("call %d: task %q (%d bytes), projectId %q", i, v.Get("task"), len(v.Get("task")), v.Get("projectId"))
		}
	}
	if r := inject(t, a, ws); r.code != 0 || strings.Contains(a.bootstrapQueries()[2], "task=") {
		t.Errorf("no --task: query %q", a.bootstrapQueries()[2])
	}
}

func TestInjectGitIdentity(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	ws := workspace(t, role)
	if out, err := exec.Command("git", "-C", ws, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	gitConfig := func(key string) string {
		out, _ := exec.Command("git", "-C", ws, "config", "--local", key).Output()
		return strings.TrimSpace(string(out))
	}
	// No personality: --git leaves the identity alone.
	if r := inject(t, a, ws, "--git"); r.code != 0 || gitConfig("user.name") != "" {
		t.Fatalf("without personality: code %d, user.name %q", r.code, gitConfig("user.name"))
	}
	a.personality("nori", nori)
	if r := inject(t, a, ws, "--git"); r.code != 0 || !strings.Contains(r.stderr, "git identity Nori (agent) <nori@agents.example.com>") {
		t.Fatalf("code %d, stderr %q", r.code, r.stderr)
	}
	if gitConfig("user.name") != "Nori (agent)" || gitConfig("user.email") != "nori@agents.example.com" {
		t.Errorf("git config: %q <%q>", gitConfig("user.name"), gitConfig("user.email"))
	}
	// No gitName: the display name.
	a.personality("nori", agentmem.PersonalityInput{DisplayName: "Nori the Second"})
	if r := inject(t, a, ws, "--git"); r.code != 0 || gitConfig("user.name") != "Nori the Second" {
		t.Errorf("display name fallback: user.name %q (%s)", gitConfig("user.name"), r.stderr)
	}
	// Not a git repository: a warning, exit 0.
	plain := workspace(t, role)
	r := inject(t, a, plain, "--git")
	if r.code != 0 || !strings.HasPrefix(r.stderr, "agentmem: warning: inject failed") || !strings.Contains(r.stderr, "git config user.name") {
		t.Errorf("not a repository: code %d, stderr %q", r.code, r.stderr)
	}
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".agentmem-") {
			t.Errorf("temporary file left behind: %s", path)
		}
		return nil
	})
}
