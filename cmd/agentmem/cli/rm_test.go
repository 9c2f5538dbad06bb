package cli_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
)

// rmAnswer is rm --json's answer.
type rmAnswer struct {
	Removed  []string `json:"removed"`
	NotFound []string `json:"notFound"`
	Failed   []struct {
		ID, Error string
	} `json:"failed"`
	NotTried []string `json:"notTried"`
}

// TestRmSaysWhatItDidWhenOneIDFails: rm of several ids tries every id the
// API refuses on its own (not found, not a memory id), and when the API
// fails (a 5xx) it stops and says, on stdout as JSON too, what it removed,
// what failed and what it did not try, so a script loses track of nothing.
func TestRmSaysWhatItDidWhenOneIDFails(t *testing.T) {
	t.Parallel()
	a := newFailingAPI(t, func(r *http.Request) bool { return r.Method == http.MethodDelete })
	var ids []string
	for _, c := range []string{"one", "two", "three", "four"} {
		ids = append(ids, a.memory("nori", "p", agentmem.MemoryInput{Content: "memory " + c}).ID)
	}
	o := opts{url: a.URL}

	// A bad id between good ones: every id is tried.
	r := run(t, o, "rm", "--agent", "nori", "--json", ids[0], "not-an-id", ids[1])
	var got rmAnswer
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("bad id: stdout is not JSON (%v): %q, stderr %q", err, r.stdout, r.stderr)
	}
	if r.code != cli.ExitFailure || strings.Join(got.Removed, ",") != ids[0]+","+ids[1] ||
		len(got.Failed) != 1 || got.Failed[0].ID != "not-an-id" || got.Failed[0].Error == "" || len(got.NotTried) != 0 {
		t.Errorf("bad id: code %d, answer %+v, stderr %q; want code %d, %s and %s removed, not-an-id failed", r.code, got, r.stderr, cli.ExitFailure, ids[0], ids[1])
	}

	// The API failing on the second id: rm stops there and says so.
	a.failNth(2)
	r = run(t, o, "rm", "--agent", "nori", "--json", ids[2], ids[3], "01JD5Q8Z3K7M2N4P6R8T0V2X4Y")
	got = rmAnswer{}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("server failure: stdout is not JSON (%v): %q, stderr %q", err, r.stdout, r.stderr)
	}
	if r.code != cli.ExitFailure || strings.Join(got.Removed, ",") != ids[2] || len(got.Failed) != 1 || got.Failed[0].ID != ids[3] ||
		strings.Join(got.NotTried, ",") != "01JD5Q8Z3K7M2N4P6R8T0V2X4Y" || !strings.Contains(r.stderr, "500") {
		t.Errorf("server failure: code %d, answer %+v, stderr %q", r.code, got, r.stderr)
	}
	// As text: what was removed on stdout, what was not on stderr.
	a.failNth(1)
	r = run(t, o, "rm", "--agent", "nori", ids[3], "01JD5Q8Z3K7M2N4P6R8T0V2X4Y")
	if r.code != cli.ExitFailure || r.stdout != "" || !strings.Contains(r.stderr, ids[3]) || !strings.Contains(r.stderr, "not tried: 01JD5Q8Z3K7M2N4P6R8T0V2X4Y") {
		t.Errorf("server failure as text: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := a.Store.GetMemory(t.Context(), "nori", ids[3]); err != nil {
		t.Errorf("%s, which the failed call did not delete, is gone: %v", ids[3], err)
	}
}
