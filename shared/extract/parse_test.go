package extract_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/extract"
)

const twoLearnings = `{"success": true, "summary": "Added webhook retries; make test passes.", "learnings": [
  {"type": "finding", "content": "Integration tests need DynamoDB Local; make test starts it."},
  {"type": "decision", "content": "Webhook retries back off exponentially up to 30 s.", "rationale": "The PSP retries 3 times a minute."}
]}`

func contents(ls []agentmem.Learning) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string(l.Type) + ": " + l.Content
	}
	return out
}

func TestParseFindsTheAnswer(t *testing.T) {
	t.Parallel()
	want2 := []string{
		"finding: Integration tests need DynamoDB Local; make test starts it.",
		"decision: Webhook retries back off exponentially up to 30 s.",
	}
	tests := []struct {
		name    string
		text    string
		want    []string
		summary string
		success bool
	}{
		{"plain object", twoLearnings, want2, "Added webhook retries; make test passes.", true},
		{"json fence in prose", "Here is what I found:\n\n```json\n" + twoLearnings + "\n```\n\nLet me know if you need more.", want2, "Added webhook retries; make test passes.", true},
		{"bare fence", "```\n" + twoLearnings + "\n```", want2, "Added webhook retries; make test passes.", true},
		{"prose without fence", "Sure! " + twoLearnings + " Hope this helps.", want2, "Added webhook retries; make test passes.", true},
		{"prose with brackets before", "Notes [1] and {braces} first: " + twoLearnings, want2, "Added webhook retries; make test passes.", true},
		{"byte order mark", "\uFEFF  " + twoLearnings + "\n", want2, "Added webhook retries; make test passes.", true},
		{"trailing commas", `{"success": true, "summary": "s", "learnings": [{"type": "finding", "content": "a, b",},],}`, []string{"finding: a, b"}, "s", true},
		{"extra fields", `{"success": "true", "summary": "s", "run": 3, "learnings": [{"type": "finding", "content": "x", "tags": ["a"], "importance": "high"}]}`, []string{"finding: x"}, "s", true},
		{"bare array", `[{"type": "learning", "content": "Use pgx, not lib/pq."}, {"content": "Run go generate after editing the schema."}, "Plain strings are learnings too.", 7]`, []string{"learning: Use pgx, not lib/pq.", "learning: Run go generate after editing the schema.", "learning: Plain strings are learnings too."}, "", false},
		{"empty array", "[]", []string{}, "", false},
		{"answer beats an empty list in prose", "It returns [] when empty. " + twoLearnings, want2, "Added webhook retries; make test passes.", true},
		{"example quoted before the answer", `{"learnings": []} is what an empty answer looks like; here: ` + twoLearnings, want2, "Added webhook retries; make test passes.", true},
		{"single learning", `{"type": "note", "content": "The staging DB is reset nightly."}`, []string{"note: The staging DB is reset nightly."}, "", false},
		{"no learnings", `{"success": false, "summary": "The run failed to start.", "learnings": []}`, []string{}, "The run failed to start.", false},
		{"null learnings", `{"success": true, "summary": "Trivial change.", "learnings": null}`, []string{}, "Trivial change.", true},
		{"learnings left out", `{"success": true, "summary": "Nothing new."}`, []string{}, "Nothing new.", true},
		{"braces and fences inside strings", `{"learnings": [{"type": "finding", "content": "Config is {\"a\": [1]} in ` + "```yaml```" + ` blocks."}]}`, []string{"finding: Config is {\"a\": [1]} in ```yaml``` blocks."}, "", false},
		{"last answer wins", "{\"learnings\": [{\"content\": \"draft\"}]}\n\nBetter:\n\n{\"learnings\": [{\"content\": \"final\"}]}", []string{"learning: final"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := extract.Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(contents(res.Learnings), " | "), strings.Join(tt.want, " | "); got != want {
				t.Errorf("learnings:\ngot  %s\nwant %s", got, want)
			}
			if res.Learnings == nil {
				t.Error("learnings is nil; want an empty list for JSON")
			}
			if res.Summary != tt.summary || res.Success != tt.success {
				t.Errorf("got summary %q success %v, want %q %v", res.Summary, res.Success, tt.summary, tt.success)
			}
		})
	}
}

func TestParseRefusesWhatIsNotAnAnswer(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"empty":                    "  \n",
		"refusal":                  "I'm sorry, but I can't help with that.",
		"chatter":                  "Sure! Here is the JSON you asked for:",
		"number":                   `42`,
		"list of numbers":          `[1, 2, 3]`,
		"list of short strings":    `["make test", "go vet"]`,
		"unbalanced prose":         `Result: {"learnings": [}`,
		"html error page":          `<html><body>502 Bad Gateway</body></html>`,
		"json in bad fence":        "```json\n{learnings: [content: x]}\n```",
		"cut before the learnings": `{"success": true, "summary": "The run added`,
		"cut while thinking":       "<think>\nThe answer will be {\"learnings\": [{\"content\": \"x\"}]} once I",
		"only reasoning":           "<think>No learnings here.</think>",
		"unrelated json":           `{"status": "ok", "items_processed": 12}`,
	} {
		t.Run(name, func(t *testing.T) {
			res, err := extract.Parse(text)
			if !errors.Is(err, extract.ErrUnparseable) {
				t.Fatalf("got %+v, %v; want ErrUnparseable", res, err)
			}
		})
	}
}

func TestParseNormalizesAndChecksEachLearning(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", agentmem.MaxContentBytes+1)
	text := `{"learnings": [
	  {"type": "Findings", "content": "  The cache TTL is 60 s.  ", "rationale": "dropped: findings have none"},
	  {"type": "gotcha", "content": "go test -race needs CGO."},
	  {"type": "vibe", "content": "Odd label, kept as a note."},
	  {"content": "No type means learning."},
	  {"type": "blocker", "content": "CI runner out of disk.", "status": "FIXED"},
	  {"type": "blocker", "content": "Flaky checkout test.", "status": "???"},
	  {"type": "pattern", "content": "Port 8000 in use.", "trigger": "bind: address already in use", "solution": "stop the old DynamoDB Local", "confidence": "80%"},
	  {"type": "decision", "content": "Use sqlc.", "rationale": "typed queries", "status": "open"},
	  {"type": "finding", "content": "` + big + `"},
	  {"type": "finding", "content": "   "},
	  {"type": "finding", "content": "the cache ttl is 60 s"},
	  {"type": "finding", "content": "Has a NUL \u0000 inside."},
	  42,
	  null
	]}`
	res, err := extract.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]agentmem.Learning{}
	for _, l := range res.Learnings {
		got[l.Content] = l
		if err := l.Validate(); err != nil {
			t.Errorf("%q does not validate: %v", l.Content, err)
		}
	}
	if len(res.Learnings) != extract.MaxLearnings {
		t.Fatalf("got %d learnings %v, want the first %d valid ones", len(res.Learnings), contents(res.Learnings), extract.MaxLearnings)
	}
	checks := []struct {
		content string
		typ     agentmem.Type
		check   func(agentmem.Learning) bool
	}{
		{"The cache TTL is 60 s.", agentmem.TypeFinding, func(l agentmem.Learning) bool { return l.Rationale == "" }},
		{"go test -race needs CGO.", agentmem.TypeLearning, nil},
		{"Odd label, kept as a note.", agentmem.TypeNote, nil},
		{"No type means learning.", agentmem.TypeLearning, nil},
		{"CI runner out of disk.", agentmem.TypeBlocker, func(l agentmem.Learning) bool { return l.Status == agentmem.StatusResolved }},
	}
	for _, c := range checks {
		l, ok := got[c.content]
		if !ok || l.Type != c.typ || (c.check != nil && !c.check(l)) {
			t.Errorf("%q: got %+v (present %v), want type %s", c.content, l, ok, c.typ)
		}
	}
	reasons := map[string]string{}
	for _, s := range res.Skipped {
		reasons[s.Content] = s.Reason
	}
	wantSkipped := map[string]string{
		"Flaky checkout test.":         "over the limit",
		"Port 8000 in use.":            "over the limit",
		"Use sqlc.":                    "over the limit",
		big[:agentmem.MaxContentBytes]: "invalid: content is",
		"":                             "no content",
		"the cache ttl is 60 s":        "repeats another learning",
		"Has a NUL \u0000 inside.":     "invalid: content contains a NUL",
		"42":                           "not a learning: a number",
	}
	for content, want := range wantSkipped {
		if r, ok := reasons[content]; !ok || !strings.HasPrefix(r, want) {
			t.Errorf("skipped %.40q: got reason %q (present %v), want %q…", content, r, ok, want)
		}
	}
	if len(res.Skipped) != len(wantSkipped) {
		t.Errorf("got %d skipped, want %d: %+v", len(res.Skipped), len(wantSkipped), reasons)
	}
}

func TestParseTypedFields(t *testing.T) {
	t.Parallel()
	res, err := extract.Parse(`[
	  {"type": "pattern", "content": "Port 8000 in use.", "trigger": "bind: address already in use", "solution": "stop the old DynamoDB Local", "context": "make dev", "confidence": 0.9},
	  {"type": "pattern", "content": "Percent confidence.", "trigger": "t", "solution": "s", "confidence": "80%"},
	  {"type": "pattern", "content": "Bad confidence.", "trigger": "t", "solution": "s", "confidence": -3},
	  {"type": "decision", "content": "Use sqlc.", "rationale": "typed queries", "status": "open", "confidence": 1}
	]`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Learnings) != 4 {
		t.Fatalf("got %v", contents(res.Learnings))
	}
	p := res.Learnings[0]
	if p.Trigger != "bind: address already in use" || p.Solution != "stop the old DynamoDB Local" || p.Context != "make dev" || p.Confidence == nil || *p.Confidence != 0.9 {
		t.Errorf("pattern: got %+v", p)
	}
	if c := res.Learnings[1].Confidence; c == nil || *c != 0.8 {
		t.Errorf("80%%: got %v", c)
	}
	if c := res.Learnings[2].Confidence; c != nil {
		t.Errorf("-3: got %v, want none (the default applies)", *c)
	}
	if in := res.Learnings[2].Input("p", "r"); in.Confidence == nil || *in.Confidence != 0.5 {
		t.Errorf("default confidence: got %v", in.Confidence)
	}
	d := res.Learnings[3]
	if d.Rationale != "typed queries" || d.Status != "" || d.Confidence != nil {
		t.Errorf("decision keeps only its rationale: got %+v", d)
	}
}

func TestParseRoundTrip(t *testing.T) {
	t.Parallel()
	res, err := extract.Parse(twoLearnings)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	again, err := extract.Parse(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(contents(again.Learnings)) != fmt.Sprint(contents(res.Learnings)) || again.Summary != res.Summary || again.Success != res.Success {
		t.Errorf("round trip: got %+v, want %+v", again, res)
	}
}

// TestParseKeepsCredentialsOut: a learning whose text holds a credential
// (the model repeating one from the run's output) is skipped, shown
// redacted, and a credential in the summary is redacted: memories and the
// daily log are injected into later runs.
func TestParseKeepsCredentialsOut(t *testing.T) {
	t.Parallel()
	key := "AKIA" + "IOSFODNN7EXAMPLE" // AWS's documented example
	pat := "ghp_" + strings.Repeat("a1B2", 9)
	tests := []struct {
		name, answer string
		wantSkipped  int
		wantKept     int
	}{
		{"in the content", `{"learnings":[{"type":"finding","content":"CI deploys with ` + key + ` from the runner"},{"type":"note","content":"Deploys take 4 minutes"}],"summary":"Deployed with ` + key + `.","success":true}`, 1, 1},
		{"in a pattern's solution", `{"learnings":[{"type":"pattern","content":"push fails with 403","trigger":"git push 403","solution":"use token ` + pat + `"}],"summary":"ok","success":true}`, 1, 0},
		{"in a decision's rationale", `{"learnings":[{"type":"decision","content":"Use the bot account for releases","rationale":"its key ` + key + ` has the rights"}],"summary":"ok","success":true}`, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := extract.Parse(tt.answer)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Skipped) != tt.wantSkipped || len(res.Learnings) != tt.wantKept {
				t.Fatalf("got %d learnings, skipped %+v; want %d kept, %d skipped", len(res.Learnings), res.Skipped, tt.wantKept, tt.wantSkipped)
			}
			for _, s := range res.Skipped {
				if !strings.Contains(s.Reason, "credential") || strings.Contains(s.Content, key) || strings.Contains(s.Content, pat) {
					t.Errorf("skipped %+v: want a credential reason and the credential redacted", s)
				}
			}
			if strings.Contains(res.Summary, key) {
				t.Errorf("summary %q still holds the key", res.Summary)
			}
		})
	}
}
