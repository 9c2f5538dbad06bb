package cli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// TestAdminRecount: the operator's recount of one scope says whether the
// counters had drifted and by how much; without a scope it recounts every
// scope and sums up.
func TestAdminRecount(t *testing.T) {
	a := newAPI(t)
	a.memory("nori", "checkout", agentmem.MemoryInput{Content: "counted"})
	a.memory("kai", "checkout", agentmem.MemoryInput{Content: "counted too"})
	o := opts{url: a.URL}
	if r := run(t, o, "admin", "recount", "--agent", "nori", "--project", "checkout"); r.code != 0 || !strings.Contains(r.stdout, "nori in checkout: 1 memory") || !strings.HasSuffix(r.stdout, "counters exact\n") {
		t.Errorf("exact counters: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// Drift: a memory written behind the store's back.
	lost := map[string]any{"scope": "nori#checkout", "createdAt": "2026-01-01T00:00:00.000000000Z", "id": "01JD5Q8Z3K7M2N4P6R8T0V2X4Y",
		"agentName": "nori", "projectId": "checkout", "content": "lost", "type": "decision", "source": "manual"}
	if err := a.Store.DB().Table(a.Store.Config().MemoriesTable).Put(lost).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := run(t, o, "admin", "recount")
	if r.code != 0 || !strings.Contains(r.stdout, "nori in checkout: 2 memories") || !strings.Contains(r.stdout, "drift repaired: memories +1, bytes +") ||
		!strings.Contains(r.stdout, "decision +1") || !strings.HasSuffix(r.stdout, "recounted 2 scopes: 1 had drifted and was repaired\n") {
		t.Errorf("every scope: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, o, "admin", "recount", "checkout", "nori", "--json")
	var rc agentmem.Recount
	if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil || rc.Drifted || rc.After.Total != 2 {
		t.Errorf("--json after the repair: %v %+v", err, rc)
	}
	if r := run(t, o, "admin", "recount", "--agent", "nori"); r.code != 2 {
		t.Errorf("agent without project: code %d, want 2 (%q)", r.code, r.stderr)
	}
	if r := run(t, o, "admin", "recount", "--help"); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "Rebuild counters from the memories") {
		t.Errorf("--help: %d %q", r.code, r.stdout+r.stderr)
	}
}
