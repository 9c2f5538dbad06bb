package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/e2e/anthropictest"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// TestContextFlushHooks registers `agentmem context flush --hook` as
// PreCompact and SessionEnd hooks in the workspace's .claude/settings.json,
// as README.md shows, and has Claude Code send them: a session, then a
// /compact of it. The hook also keeps the payload it got, so the test
// checks both what Claude Code sent and that agentmem handled it.
func TestContextFlushHooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, anthropictest.Say("E2E-REPLY Done; the summary of the session so far."))
	dump := filepath.Join(e.root, "hooks")
	if err := os.MkdirAll(dump, 0o755); err != nil {
		t.Fatal(err)
	}
	hook := func(event string) []any {
		// tee keeps the payload; agentmem's exit status and output are kept
		// beside it.
		command := "tee " + dump + "/" + event + "-$$.json | " + agentmemBin + " context flush --hook --strict > " +
			dump + "/" + event + "-$$.out 2>&1; echo $? > " + dump + "/" + event + "-$$.code"
		return []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}}
	}
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreCompact": hook("PreCompact"), "SessionEnd": hook("SessionEnd")}})
	write(t, filepath.Join(e.workspace, ".claude", "settings.json"), string(settings))

	firstDay := time.Now().UTC().Format(time.DateOnly)
	e.claude("E2E-PROMPT Add retries to the webhook handler.")
	e.claude("/compact", "--continue")
	lastDay := time.Now().UTC().Format(time.DateOnly)

	payloads := map[string][]map[string]any{}
	entries, err := os.ReadDir(dump)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range entries {
		name, ok := strings.CutSuffix(f.Name(), ".json")
		if !ok {
			continue
		}
		var p map[string]any
		if err := json.Unmarshal([]byte(read(t, filepath.Join(dump, f.Name()))), &p); err != nil {
			t.Fatalf("%s: %v", f.Name(), err)
		}
		event := strings.Split(name, "-")[0]
		payloads[event] = append(payloads[event], p)
		if code := strings.TrimSpace(read(t, filepath.Join(dump, name+".code"))); code != "0" {
			t.Errorf("%s: agentmem context flush --hook exited %s: %s", f.Name(), code, read(t, filepath.Join(dump, name+".out")))
		}
	}
	if len(payloads["PreCompact"]) != 1 || len(payloads["SessionEnd"]) != 2 {
		t.Fatalf("hooks run: PreCompact %d, SessionEnd %d; want 1 and 2", len(payloads["PreCompact"]), len(payloads["SessionEnd"]))
	}
	pre := payloads["PreCompact"][0]
	if pre["hook_event_name"] != "PreCompact" || pre["trigger"] != "manual" || pre["session_id"] == "" {
		t.Errorf("PreCompact payload %v", pre)
	}
	for _, p := range append(payloads["SessionEnd"], pre) {
		path, _ := p["transcript_path"].(string)
		if !strings.HasPrefix(path, filepath.Join(e.home, ".claude", "projects")) || !strings.HasSuffix(path, ".jsonl") {
			t.Errorf("%v: transcript_path %q, want the session's transcript under the home", p["hook_event_name"], path)
		}
	}
	if p := payloads["SessionEnd"][0]; p["reason"] == nil {
		t.Errorf("SessionEnd payload %v has no reason", p)
	}

	// Every hook run appended the session's digest to the daily log (of
	// the day or two the runs took).
	var day string
	for _, d := range slices.Compact([]string{firstDay, lastDay}) {
		md, err := e.client.DailyMarkdown(t.Context(), e.agent, e.project, d)
		if err != nil && !apiclient.IsNotFound(err) {
			t.Fatal(err)
		}
		day += md
	}
	if n := strings.Count(day, "## Trimmed Context ("); n != 3 {
		t.Errorf("the daily log holds %d Trimmed Context records, want 3:\n%s", n, day)
	}
	if !strings.Contains(day, "E2E-PROMPT Add retries") {
		t.Errorf("the digest lacks the session's request:\n%s", day)
	}
}
