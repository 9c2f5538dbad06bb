package cli_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
)

// TestListAllFailingHalfway: list --all prints pages as they come; when
// the API fails on a later page, --json still prints one JSON document,
// which says more remain and the cursor that continues (as the note on
// stderr does for the table), and the exit status is a failure.
func TestListAllFailingHalfway(t *testing.T) {
	t.Parallel()
	a := newFailingAPI(t, func(r *http.Request) bool {
		return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/memories")
	})
	const total = 70 // two pages of the API's 50
	for i := range total {
		a.memory("nori", "p", agentmem.MemoryInput{Content: fmt.Sprintf("memory %03d", i)})
	}
	o := opts{url: a.URL, env: map[string]string{"AGENTMEM_AGENT": "nori", "AGENTMEM_PROJECT": "p"}}

	for _, format := range []string{"json", "table"} {
		t.Run(format, func(t *testing.T) {
			a.failNth(2)
			r := run(t, o, "list", "--all", "--output", format)
			if r.code != cli.ExitFailure || !strings.Contains(r.stderr, "500") {
				t.Fatalf("code %d, stderr %q; want %d and the API's failure", r.code, r.stderr, cli.ExitFailure)
			}
			var cursor string
			if format == "json" {
				r.code = 0 // decodeList wants a success
				l := decodeList(t, r)
				if len(l.Memories) != 50 || !l.More || l.NextCursor == "" {
					t.Fatalf("got %d memories, more %v, nextCursor %q; want the first page, more and the cursor of the rest", len(l.Memories), l.More, l.NextCursor)
				}
				cursor = l.NextCursor
			} else {
				if got := len(lines(r.stdout)); got != 51 {
					t.Errorf("got %d lines, want the header and the first page", got)
				}
				_, after, ok := strings.Cut(r.stderr, "--cursor ")
				if !ok {
					t.Fatalf("stderr %q does not say how to continue", r.stderr)
				}
				cursor = strings.Fields(after)[0]
			}
			// The cursor continues where the listing stopped.
			rest := decodeList(t, run(t, o, "list", "--all", "--json", "--cursor", cursor))
			if len(rest.Memories) != total-50 || rest.Memories[len(rest.Memories)-1].Content != "memory 000" {
				t.Errorf("continuing: %d memories, want %d ending with the oldest", len(rest.Memories), total-50)
			}
		})
	}
}
