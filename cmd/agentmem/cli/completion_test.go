package cli_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
)

// TestBashCompletion loads the generated bash script in bash and asks it
// what completes a command line, as bash does on Tab.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	r := run(t, opts{}, "completion", "bash")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("completion bash: %d %q", r.code, r.stderr)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "agentmem.bash")
	writeFile(t, script, r.stdout)
	writeFile(t, filepath.Join(dir, "session.jsonl"), "{}\n")

	var all []string
	for _, c := range cli.Commands() {
		all = append(all, c.Name)
	}
	tests := []struct {
		line string // the words; the last is the one being completed
		want string // COMPREPLY, space-separated
	}{
		{"agentmem li", "list"},
		{"agentmem personality ", "get set rm ls"},
		{"agentmem session-context l", "ls"},
		{"agentmem dream r", "run revert"},
		{"agentmem list --ty", "--type"},
		{"agentmem list --type de", "decision"},
		{"agentmem list --agent nori --output j", "json"},
		{"agentmem --api-url http://127.0.0.1:3000 --auth n", "none"},
		{"agentmem --api-url http://127.0.0.1:3000 li", "list"},
		{"agentmem list -type d", "decision"},
		{"agentmem add --status r", "resolved"},
		{"agentmem add finding --tr", "--trigger"},
		{"agentmem help pers", "personality"},
		{"agentmem completion ", ""},
		{"agentmem context flush --transcript " + dir + "/sess", dir + "/session.jsonl"},
		{"agentmem --v", "--version"},
	}
	for _, tt := range tests {
		words := strings.Split(tt.line, " ")
		cmd := exec.Command("bash", "-c", `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _agentmem; echo "${COMPREPLY[*]}"`, "bash", script)
		cmd.Args = append(cmd.Args, words...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", tt.line, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != tt.want {
			t.Errorf("%q completes to %q, want %q", tt.line, got, tt.want)
		}
	}
	// Every command of the table completes from nothing.
	cmd := exec.Command("bash", "-c", `source "$1"; COMP_WORDS=(agentmem ""); COMP_CWORD=1; _agentmem; echo "${COMPREPLY[*]}"`, "bash", script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(out))
	for _, name := range all {
		if !contains(got, name) {
			t.Errorf("agentmem <Tab> does not offer %s (got %v)", name, got)
		}
	}
	if len(got) != len(all) {
		t.Errorf("agentmem <Tab> offers %d words, the table has %d commands", len(got), len(all))
	}
}

// TestCompletionScripts: zsh and fish get scripts of their own, naming
// every command; an unknown shell is a usage error.
func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"zsh", "fish"} {
		r := run(t, opts{}, "completion", shell)
		if r.code != 0 {
			t.Errorf("completion %s: %d %q", shell, r.code, r.stderr)
		}
		for _, c := range cli.Commands() {
			if !strings.Contains(r.stdout, c.Name) {
				t.Errorf("the %s script lacks %s", shell, c.Name)
			}
		}
	}
	if !strings.HasPrefix(run(t, opts{}, "completion", "zsh").stdout, "#compdef agentmem\n") {
		t.Errorf("the zsh script does not start with #compdef")
	}
	if r := run(t, opts{}, "completion", "bsh"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, `did you mean "bash"?`) {
		t.Errorf("completion bsh: %d %q", r.code, r.stderr)
	}
	if r := run(t, opts{}, "completion"); r.code != cli.ExitUsage {
		t.Errorf("completion without a shell: %d %q", r.code, r.stderr)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
