package cli_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
)

// TestEditHistoryRestore drives a correction as a person would: a repeat
// is not added, the memory is edited in place, its history read, an old
// version restored, and a replacement added.
func TestEditHistoryRestore(t *testing.T) {
	a := newAPI(t)
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "checkout"}}
	r := run(t, o, "add", "finding", "CI runs on Node 18")
	if r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	id := a.memories("nori", "checkout")[0].ID

	r = run(t, o, "add", "finding", "ci runs on `node 18`.")
	if r.code != 0 || !strings.Contains(r.stdout, "not added: finding "+id+" already says this") {
		t.Errorf("add a repeat: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = run(t, o, "add", "finding", "ci runs on node 18", "--allow-duplicate"); r.code != 0 || !strings.HasPrefix(r.stdout, "added finding") {
		t.Errorf("add a repeat, insisting: %d %q", r.code, r.stdout)
	}
	if n := len(a.memories("nori", "checkout")); n != 2 {
		t.Fatalf("%d memories, want 2", n)
	}

	r = run(t, o, "edit", id, "CI runs on Node 20", "--note", "workflow upgraded", "--pin")
	if r.code != 0 || r.stdout != "edited "+id+": version 2 (agentmem history "+id+" lists the versions)\n" {
		t.Fatalf("edit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = run(t, o, "edit", id, "CI runs on Node 22", "--version", "1"); r.code != cli.ExitFailure || !strings.Contains(r.stderr, "version 2, not 1") {
		t.Errorf("stale edit: %d %q", r.code, r.stderr)
	}
	if r = run(t, o, "edit", id, "--pin"); r.code != 0 || !strings.Contains(r.stdout, "nothing changed (version 2)") {
		t.Errorf("no-op edit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	usage := [][]string{
		{"edit", id},
		{"edit", "nope", "x"},
		{"edit", id, "--pin", "--unpin"},
		{"edit", id, "--confidence", "2"},
		{"edit", id, "--type", "nonsense"},
		{"history"},
		{"history", "nope"},
		{"restore", id},
		{"restore", id, "zero"},
		{"restore", id, "0"},
	}
	for _, args := range usage {
		if r := run(t, o, args...); r.code != cli.ExitUsage {
			t.Errorf("%v: code %d (%s), want usage", args, r.code, r.stderr)
		}
	}
	if r = run(t, o, "edit", "01JD5Q8Z3K7M2N4P6R8T0V2X4Y", "x"); r.code != cli.ExitNotFound {
		t.Errorf("edit of an unknown memory: code %d, want %d", r.code, cli.ExitNotFound)
	}

	r = run(t, o, "history", id)
	if r.code != 0 {
		t.Fatalf("history: %d %s", r.code, r.stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`memory ` + id + ` \(nori in checkout\): live, version 2`),
		regexp.MustCompile(`(?m)^2 +\S+ \S+ +updated \(content, pinned\) +manual: workflow upgraded +📌 CI runs on Node 20$`),
		regexp.MustCompile(`(?m)^1 +\S+ \S+ +created +manual +CI runs on Node 18$`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("history lacks %s:\n%s", want, r.stdout)
		}
	}
	r = run(t, o, "history", id, "--json")
	var h agentmem.MemoryHistory
	if err := json.Unmarshal([]byte(r.stdout), &h); err != nil || len(h.Versions) != 2 {
		t.Errorf("history --json: %v %q", err, r.stdout)
	}

	if r = run(t, o, "restore", id, "1", "--note", "back to 18", "--current", "2"); r.code != 0 || r.stdout != "restored version 1 of "+id+": it is version 3 now\n" {
		t.Fatalf("restore: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// Run again (its answer lost, say): it is done, nothing changes.
	if r = run(t, o, "restore", id, "1", "--current", "2"); r.code != 0 || r.stdout != "restored version 1 of "+id+": it is version 3 now\n" {
		t.Errorf("the same restore again: %d %q %q; want version 3 as it is", r.code, r.stdout, r.stderr)
	}
	if r = run(t, o, "restore", id, "2", "--current", "2"); r.code != cli.ExitFailure {
		t.Errorf("restore with a stale --current: code %d, want failure", r.code)
	}

	r = run(t, o, "add", "finding", "CI runs on Node 22", "--replaces", id)
	if r.code != 0 || !strings.Contains(r.stdout, "it replaces "+id) {
		t.Fatalf("add --replaces: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, m := range a.memories("nori", "checkout") {
		if m.ID == id {
			t.Errorf("the replaced memory is still listed")
		}
	}
	if r = run(t, o, "list", "--state", "superseded"); r.code != 0 || !strings.Contains(r.stdout, id) {
		t.Errorf("list --state superseded: %d %q %q, want %s listed", r.code, r.stdout, r.stderr, id)
	}
	if r = run(t, o, "list", "--state", "retired"); r.code != 0 || strings.Contains(r.stdout, id) || !strings.Contains(r.stderr, "no retired memories") {
		t.Errorf("list --state retired: %d %q %q, want none", r.code, r.stdout, r.stderr)
	}
	if r = run(t, o, "list", "--state", "supersded"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, "superseded") {
		t.Errorf("list --state with a typo: %d %q, want usage naming superseded", r.code, r.stderr)
	}
	if r = run(t, o, "history", id); !strings.Contains(r.stdout, "superseded by ") {
		t.Errorf("history of the replaced:\n%s", r.stdout)
	}
	if r = run(t, o, "restore", id, "3"); r.code != 0 || !strings.Contains(r.stdout, "it is version 5 now") {
		t.Errorf("restore the replaced: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
