package dream_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

// restateScript answers the dream prompt with dreamText, the restate
// prompt with restate(prompt) and the verifier's with "supports" for
// every change; it keeps the prompts it was asked, by kind.
type restateScript struct {
	mu      sync.Mutex
	restate []string
	verify  []string
}

func (s *restateScript) answer(dreamText string, restate func(prompt string) llmtest.Reply) llmtest.Answer {
	return func(_ context.Context, prompt string) llmtest.Reply {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case strings.Contains(prompt, "<claims>"):
			s.restate = append(s.restate, prompt)
			return restate(prompt)
		case strings.Contains(prompt, "<changes>"):
			s.verify = append(s.verify, prompt)
			n := strings.Count(prompt, "### Change ")
			var vs []string
			for i := 1; i <= n; i++ {
				vs = append(vs, fmt.Sprintf(`{"n": %d, "verdict": "supports"}`, i))
			}
			return llmtest.Reply{Text: `{"verdicts": [` + strings.Join(vs, ", ") + `]}`}
		}
		return llmtest.Reply{Text: dreamText}
	}
}

// restateReply is a restate answer of entries, in a fence after prose.
func restateReply(entries ...string) llmtest.Reply {
	return llmtest.Reply{Text: "Here they are.\n```json\n{\"claims\": [" + strings.Join(entries, ", ") + "]}\n```"}
}

// The claims of these tests, against the seed's records (r1: the payment
// provider retries webhooks 3 times...; r2: the flaky checkout e2e test
// fixed by waiting for the network idle event; r3: staging reset every
// Sunday).
const (
	// paraphrase is faithful to r1, in too few of its words.
	paraphrase = "Webhooks get redelivered thrice by the billing vendor, so handlers have to tolerate duplicates"
	inWords    = "The payment provider retries webhooks 3 times; handlers must be idempotent"
	// wrongNumber is refused for a number r1 lacks: never restated.
	wrongNumber = "The payment provider retries webhooks 5 times"
	// negated says the opposite of r2.
	negated = "The flaky checkout e2e test was not fixed by waiting for the network idle event"
)

func TestTheRestatePassBringsBackFaithfulClaimsInTheSourcesWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	var script restateScript
	_, client := newChat(t, script.answer(ops(
		add(agentmem.TypeFinding, paraphrase, "r1"),
		add(agentmem.TypeFinding, wrongNumber, "r1"),
		update(s.stale.ID, agentmem.TypeNote, "Staging data gets wiped at the end of each week, on Sundays now, by the nightly job", "r3"),
	), func(prompt string) llmtest.Reply {
		// Out of order: each answer goes by its ref.
		return restateReply(`{"ref": "c2", "text": "`+inWords+`", "why": "r1's words"}`, `{"ref": "c1", "text": "The staging database is reset every Sunday"}`)
	}))
	res, err := run(dream.New(f.dreamStore, client, quiet, dream.Config{}), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	dr := res.Dream
	if len(script.restate) != 1 {
		t.Fatalf("%d restate calls, want 1", len(script.restate))
	}
	prompt := script.restate[0]
	// Updates come before additions; the wrong number is not asked about.
	for _, want := range []string{"### Claim c1 (a note; refused: ", "text: Staging data gets wiped", "### Claim c2 (a finding; refused: ",
		"text: " + paraphrase, "- cited record " + s.records[0].ID + ": run-41\nThe payment provider retries webhooks 3 times."} {
		if !strings.Contains(prompt, strings.ReplaceAll(want, "\n", " ")) {
			t.Errorf("the restate prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, wrongNumber) {
		t.Errorf("a claim refused for a missing number was sent to be restated:\n%s", prompt)
	}
	if dr.Created != 1 || dr.Updated != 1 || len(dr.Dropped) != 1 || dr.Dropped[0].Class != "number_missing" {
		t.Fatalf("dream: created %d, updated %d, dropped %+v", dr.Created, dr.Updated, dr.Dropped)
	}
	core := f.core()
	if got := core[s.stale.ID].Content; got != "The staging database is reset every Sunday" {
		t.Errorf("the restated update: got %q", got)
	}
	found := false
	for _, m := range core {
		found = found || m.Content == inWords
	}
	if !found {
		t.Errorf("the restated addition is not in the core: %q", f.contents())
	}
	want := map[string]string{agentmem.OpAdd: paraphrase, agentmem.OpUpdate: "Staging data gets wiped at the end of each week, on Sundays now, by the nightly job"}
	for _, op := range dr.Operations {
		if !strings.Contains(op.Restated, want[op.Op]) || op.Verified != "" && op.Verified != agentmem.VerdictSupports {
			t.Errorf("%s %s: restated %q, want the original %q", op.Op, op.MemoryID, op.Restated, want[op.Op])
		}
	}
	// The restated changes went through the verifier.
	if len(script.verify) != 1 || !strings.Contains(script.verify[0], inWords) || !strings.Contains(script.verify[0], "The staging database is reset every Sunday") {
		t.Errorf("the verifier was not asked about the restated changes: %q", script.verify)
	}
	rep := dr.Restate
	if rep == nil || rep.Status != agentmem.RestateRan || rep.Asked != 2 || rep.Restated != 2 || rep.Declined != 0 ||
		rep.Usage.Calls != 1 || rep.Usage.InputTokens == 0 || rep.Usage.OutputTokens == 0 {
		t.Errorf("restate report: %+v", rep)
	}
	if dr.Usage.Calls != 1 {
		t.Errorf("the dream's own usage counts %d calls, want 1 (the restate pass has its own)", dr.Usage.Calls)
	}
	// The diary, as stored, says so.
	e := f.diary("2026-11-22")
	if len(e) != 1 || e[0].Restate == nil || e[0].Restate.Usage.Calls != 1 || len(e[0].Operations) != 2 {
		t.Fatalf("diary: %+v", e)
	}
	for _, op := range e[0].Operations {
		if op.Restated == "" {
			t.Errorf("the stored diary does not show %s %s restated", op.Op, op.MemoryID)
		}
	}
	f.countersConsistent()
}

func TestARestatementThatKeepsAFabricationStaysRefused(t *testing.T) {
	t.Parallel()
	for name, entry := range map[string]string{
		"negation kept":      `{"ref": "c1", "text": "The checkout e2e test was not fixed by waiting for network idle"}`,
		"another negation":   `{"ref": "c1", "text": "Never wait for the network idle event in the checkout e2e test"}`,
		"a number invented":  `{"ref": "c1", "text": "The flaky checkout e2e test was fixed after 4 retries"}`,
		"dropped by a model": `{"ref": "c1", "drop": true}`,
		"text and drop":      `{"ref": "c1", "text": "Fixed the flaky checkout e2e test by waiting for the network idle event", "drop": true}`,
		"another ref":        `{"ref": "c7", "text": "Fixed the flaky checkout e2e test by waiting for the network idle event"}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.seed()
			var script restateScript
			_, client := newChat(t, script.answer(ops(
				add(agentmem.TypeFinding, negated, "r2"),
				add(agentmem.TypeBlocker, "The CI runner ran out of disk", "r2"),
			), func(string) llmtest.Reply { return restateReply(entry) }))
			res, err := run(dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true}), dream.Request{})
			if err != nil {
				t.Fatal(err)
			}
			dr := res.Dream
			if len(script.restate) != 1 {
				t.Fatalf("%d restate calls, want 1", len(script.restate))
			}
			if dr.Created != 1 || len(dr.Dropped) != 1 {
				t.Fatalf("created %d, dropped %+v", dr.Created, dr.Dropped)
			}
			if got := dr.Dropped[0]; got.Class != "negation" || got.Content != negated {
				t.Errorf("dropped: got %s %q, want the first refusal (negation, %q)", got.Class, got.Content, negated)
			}
			for _, m := range f.core() {
				if strings.Contains(m.Content, "network idle") {
					t.Errorf("a fabrication was committed: %q", m.Content)
				}
			}
			wantDeclined := 0
			if name == "dropped by a model" {
				wantDeclined = 1
			}
			if rep := dr.Restate; rep == nil || rep.Status != agentmem.RestateRan || rep.Asked != 1 || rep.Restated != 0 || rep.Declined != wantDeclined {
				t.Errorf("restate report: %+v", rep)
			}
		})
	}
}

// TestAFailedRestateLeavesTheRefusals: an error, a cut-off or unreadable
// answer leaves the refusals as they were and the dream commits the rest.
func TestAFailedRestateLeavesTheRefusals(t *testing.T) {
	t.Parallel()
	for name, reply := range map[string]llmtest.Reply{
		"server error":   {Status: 500, Text: "boom"},
		"garbage":        {Text: "Sure! c1 should say the provider retries."},
		"cut off":        {Text: `{"claims": [{"ref": "c1", "text": "` + inWords + `"}]}`, Finish: "length"},
		"unfinished":     {Text: `{"claims": [{"ref": "c1", "text": "` + inWords},
		"not strict":     {Text: `{"claims": [{"ref": "c1", "text": "` + inWords + `"},]}`},
		"another key":    {Text: `{"restatements": [{"ref": "c1", "text": "` + inWords + `"}]}`},
		"two for one":    {Text: `{"claims": [{"ref": "c1", "text": "` + inWords + `"}, {"ref": "1", "drop": true}]}`},
		"a list of text": {Text: `{"claims": ["` + inWords + `"]}`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.seed()
			var script restateScript
			_, client := newChat(t, script.answer(ops(
				add(agentmem.TypeFinding, paraphrase, "r1"),
				add(agentmem.TypeBlocker, "The CI runner ran out of disk", "r2"),
			), func(string) llmtest.Reply { return reply }))
			res, err := run(dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true}), dream.Request{})
			if err != nil {
				t.Fatal(err)
			}
			dr := res.Dream
			if dr.Created != 1 || len(dr.Dropped) != 1 || dr.Dropped[0].Content != paraphrase || dr.Dropped[0].Class != "low_overlap" {
				t.Errorf("created %d, dropped %+v", dr.Created, dr.Dropped)
			}
			if got := f.contents(); !strings.Contains(strings.Join(got, "\n"), "The CI runner ran out of disk") || strings.Contains(strings.Join(got, "\n"), "webhooks") {
				t.Errorf("core: %q", got)
			}
			rep := dr.Restate
			failed := name == "server error" || name == "garbage" || name == "cut off" || name == "unfinished" || name == "not strict" || name == "another key"
			if failed {
				if rep == nil || rep.Status != agentmem.RestateFailed || rep.Error == "" || rep.Restated != 0 {
					t.Errorf("restate report: %+v", rep)
				}
				if !strings.Contains(strings.Join(dr.Notes, "\n"), "the restate pass failed") {
					t.Errorf("the diary does not say the restate pass failed: %q", dr.Notes)
				}
			} else if rep == nil || rep.Status != agentmem.RestateRan || rep.Restated != 0 {
				t.Errorf("restate report: %+v", rep)
			}
		})
	}
}

func TestTheRestatePassCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.seed()
	var script restateScript
	chat, client := newChat(t, script.answer(ops(
		add(agentmem.TypeFinding, paraphrase, "r1"),
		add(agentmem.TypeBlocker, "The CI runner ran out of disk", "r2"),
	), func(string) llmtest.Reply {
		t.Error("the restate pass was asked although it is off")
		return restateReply(`{"ref": "c1", "text": "` + inWords + `"}`)
	}))
	cfg, err := dream.ConfigFromEnv(func(k string) string {
		return map[string]string{"AGENTMEM_DREAM_RESTATE": "false", "AGENTMEM_DREAM_VERIFY": "false"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := run(dream.New(f.dreamStore, client, quiet, cfg), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(chat.Prompts()); n != 1 || res.Dream.Restate == nil || res.Dream.Restate.Status != agentmem.RestateOff || len(res.Dream.Dropped) != 1 {
		t.Errorf("%d calls, restate %+v, dropped %+v", n, res.Dream.Restate, res.Dream.Dropped)
	}
	if _, err := dream.ConfigFromEnv(func(k string) string { return map[string]string{"AGENTMEM_DREAM_RESTATE": "maybe"}[k] }); err == nil ||
		!strings.Contains(err.Error(), "AGENTMEM_DREAM_RESTATE") {
		t.Errorf("a bad value: got %v, want an error naming the setting", err)
	}
}

// TestRestateBatches: more refused claims than one call carries are
// asked in batches of at most 16, and each claim's answer is its own.
func TestRestateBatches(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	var list []string
	for range 20 {
		list = append(list, add(agentmem.TypeFinding, paraphrase, "r1"))
	}
	list = append(list, add(agentmem.TypeBlocker, "The CI runner ran out of disk", "r2"))
	var script restateScript
	_, client := newChat(t, script.answer(ops(list...), func(prompt string) llmtest.Reply {
		n := strings.Count(prompt, "### Claim c")
		var es []string
		for i := 1; i <= n; i++ {
			es = append(es, fmt.Sprintf(`{"ref": "c%d", "text": %q}`, i, inWords))
		}
		return restateReply(es...)
	}))
	res, err := run(dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true}), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	_ = s
	if len(script.restate) != 2 {
		t.Fatalf("%d restate calls, want 2 (16 + 4 claims)", len(script.restate))
	}
	for _, p := range script.restate {
		if n := strings.Count(p, "### Claim c"); n > 16 {
			t.Errorf("a restate call carries %d claims", n)
		}
	}
	dr := res.Dream
	// The first restated addition is added; the 19 others say the same.
	if dr.Created != 2 || dr.Restate.Asked != 20 || dr.Restate.Restated != 1 || len(dr.Dropped) != 19 || dr.Restate.Usage.Calls != 2 {
		t.Errorf("created %d, restate %+v, %d dropped", dr.Created, dr.Restate, len(dr.Dropped))
	}
	for _, b := range dr.Dropped {
		if b.Class != "low_overlap" || b.Content != paraphrase {
			t.Errorf("dropped: %s %q, want the first refusal", b.Class, b.Content)
		}
	}
}

func TestParseRestatements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		n    int
		want []dream.Restatement
		err  bool
	}{
		{"plain", `{"claims": [{"ref": "c1", "text": " a "}, {"ref": "c2", "drop": true}]}`, 2,
			[]dream.Restatement{{Content: "a"}, {Drop: true}}, false},
		{"numbers and fields", `{"claims": [{"ref": 2, "text": "b", "rationale": "r", "solution": ""}, {"ref": "1", "text": "a"}]}`, 2,
			[]dream.Restatement{{Content: "a"}, {Content: "b", Fields: map[string]string{"rationale": "r", "solution": ""}}}, false},
		{"the last object after prose and an example", "Example: {\"claims\": [{\"ref\": \"c1\", \"text\": \"x\"}]}\n```json\n{\"claims\": [{\"ref\": \"c1\", \"text\": \"y\"}]}\n```", 1,
			[]dream.Restatement{{Content: "y"}}, false},
		{"reasoning removed", "<think>{\"claims\": [{\"ref\": \"c1\", \"text\": \"x\"}]}</think>\n{\"claims\": [{\"ref\": \"c1\", \"drop\": true}]}", 1,
			[]dream.Restatement{{Drop: true}}, false},
		{"a cut-off last object: the earlier complete one", "{\"claims\": [{\"ref\": \"c1\", \"text\": \"x\"}]}\n{\"claims\": [{\"ref\": \"c1\", \"te", 1,
			[]dream.Restatement{{Content: "x"}}, false},
		{"bad entries give no answer", `{"claims": [{"ref": "c9", "text": "x"}, {"ref": "c1", "drop": false}, {"ref": "c2", "text": 3}, {"ref": "c3", "text": "x", "trigger": 1}, "c1"]}`, 3,
			[]dream.Restatement{{}, {}, {}}, false},
		{"an empty list", `{"claims": []}`, 1, []dream.Restatement{{}}, false},
		{"no object", "drop them all", 1, nil, true},
		{"a bare list", `[{"ref": "c1", "text": "x"}]`, 1, nil, true},
		{"trailing comma", `{"claims": [{"ref": "c1", "text": "x"},]}`, 1, nil, true},
		{"claims not a list", `{"claims": {"c1": "x"}}`, 1, nil, true},
	}
	for _, tt := range tests {
		got, err := dream.ParseRestatements(tt.text, tt.n)
		if (err != nil) != tt.err {
			t.Errorf("%s: got error %v, want error %v", tt.name, err, tt.err)
			continue
		}
		if tt.err && !errors.Is(err, dream.ErrNoRestatements) {
			t.Errorf("%s: got %v, want ErrNoRestatements", tt.name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// FuzzParseRestatements: any text gives n answers, each a drop or a
// non-empty valid text (or none), or ErrNoRestatements.
func FuzzParseRestatements(f *testing.F) {
	f.Add(`{"claims": [{"ref": "c1", "text": "a"}, {"ref": "c2", "drop": true}]}`, 2)
	f.Add("```json\n{\"claims\": [{\"ref\": 1, \"text\": \"a\", \"rationale\": \"\"}]}\n```", 1)
	f.Add("prose {\"claims\": [{\"ref\": \"c1\", \"text\": \"\xff\"}]}\n{\"claims\": [", 1)
	f.Add("<think>{\"claims\": []}</think>{\"claims\": [{\"ref\": \"c1\", \"drop\": true, \"text\": \"x\"}]}", 1)
	f.Fuzz(func(t *testing.T, text string, n int) {
		if n < 0 || n > 64 {
			return
		}
		got, err := dream.ParseRestatements(text, n)
		if err != nil {
			if !errors.Is(err, dream.ErrNoRestatements) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(got) != n {
			t.Fatalf("%d answers for %d claims", len(got), n)
		}
		for _, x := range got {
			if x.Drop && (x.Content != "" || x.Fields != nil) {
				t.Fatalf("a drop with a text: %+v", x)
			}
			if x.Content != strings.TrimSpace(x.Content) || !utf8.ValidString(x.Content) {
				t.Fatalf("text %q", x.Content)
			}
			if x.Content == "" && x.Fields != nil {
				t.Fatalf("fields without a text: %+v", x)
			}
			for k, v := range x.Fields {
				switch k {
				case "rationale", "trigger", "context", "solution":
				default:
					t.Fatalf("field %q", k)
				}
				if !utf8.ValidString(v) {
					t.Fatalf("field %s %q", k, v)
				}
			}
		}
	})
}
