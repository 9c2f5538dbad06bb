package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// hostileText holds what acts on a terminal instead of being shown: colour
// (CSI), a clipboard write (OSC 52) ended by BEL, a carriage return and a
// backspace that overwrite what was printed, and C1's one-byte CSI.
const hostileText = "\x1b[31mRED\x1b[0m \x1b]52;c;cHduZWQ=\x07 \rover\b \u009b2J end"

// hostileLine is hostileText for the fields that must be one line.
var hostileLine = strings.ReplaceAll(hostileText, "\r", "")

// TestStoredTextIsPrintedWithoutTerminalControls: stored text is written
// by agents from untrusted runs; whatever the CLI prints of it for people
// carries no control character but tab and newline, and its words.
func TestStoredTextIsPrintedWithoutTerminalControls(t *testing.T) {
	t.Parallel()
	a := newAPI(t)
	o := opts{url: a.URL}
	add := run(t, o, "add", "p", "nori", "note", hostileText, "--json")
	var m struct{ ID string }
	if add.code != 0 || json.Unmarshal([]byte(add.stdout), &m) != nil || m.ID == "" {
		t.Fatalf("add: %d %q %q", add.code, add.stdout, add.stderr)
	}
	for _, args := range [][]string{
		{"personality", "set", "nori", "--display-name", "Nori" + hostileLine, "--voice", hostileText, "--prompt", hostileText},
		{"session-context", "set", "k", hostileText, "--project", "p", "--session", "s"},
		{"edit", m.ID, "--agent", "nori", hostileText + " (edited)", "--note", hostileText},
	} {
		if r := run(t, o, args...); r.code != 0 {
			t.Fatalf("%v: %d %q", args, r.code, r.stderr)
		}
	}
	tests := []struct {
		name string
		args []string
	}{
		{"list", []string{"list", "p", "nori"}},
		{"search", []string{"search", "p", "nori", "RED"}},
		{"history", []string{"history", m.ID, "--agent", "nori"}},
		{"show", []string{"show", "p", "nori"}},
		{"personality get", []string{"personality", "get", "nori"}},
		{"personality ls", []string{"personality", "ls"}},
		{"session-context get", []string{"session-context", "get", "k", "--project", "p", "--session", "s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, o, tt.args...)
			if r.code != 0 {
				t.Fatalf("%v: exit %d, stderr %q", tt.args, r.code, r.stderr)
			}
			out := r.stdout + r.stderr
			if i := strings.IndexFunc(out, func(c rune) bool { return c != '\n' && c != '\t' && unicode.IsControl(c) }); i >= 0 {
				t.Errorf("%v printed control character %U: %q", tt.args, []rune(out[i:])[0], out)
			}
			if !strings.Contains(out, "RED") || !strings.Contains(out, "end") {
				t.Errorf("%v: got %q, want the text's words", tt.args, out)
			}
		})
	}
	if r := run(t, o, "session-context", "get", "k", "--project", "p", "--session", "s", "--raw"); r.stdout != hostileText {
		t.Errorf("session-context get --raw: got %q, want the value as stored", r.stdout)
	}
}
