package dream_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/agentmem/agentmem/shared/markdown"
)

// seeded is nori/p with a core of five memories and four daily records
// (r1..r4 in the prompt, in time order).
type seeded struct {
	manual, pinned, stale, kept, jenkins agentmem.Memory
	records                              []agentmem.DailyRecord
}

func (f *fixture) seed() seeded {
	var s seeded
	s.manual = f.memory(agentmem.Memory{Content: "Run make test before pushing", Source: agentmem.SourceManual})
	s.pinned = f.memory(agentmem.Memory{Content: "The cart service caches prices for 60 s", Type: agentmem.TypeFinding, Pinned: true})
	s.stale = f.memory(agentmem.Memory{Content: "The staging database is reset every Monday"})
	s.kept = f.memory(agentmem.Memory{Content: "Checkout uses the orders-v2 queue", Type: agentmem.TypeFinding})
	s.jenkins = f.memory(agentmem.Memory{Content: "Deploys go through Jenkins", Type: agentmem.TypeFinding})
	s.records = []agentmem.DailyRecord{
		f.daily("run-41", "The payment provider retries webhooks 3 times. Handlers must be idempotent; we decided to use idempotency keys on every payment POST.", "2026-11-21T10:00:00Z"),
		f.daily("Trimmed Context", "Fixed the flaky checkout e2e test by waiting for the network idle event. The CI runner ran out of disk again.", "2026-11-21T16:30:00Z"),
		f.daily("run-42", "The staging database is now reset every Sunday.", "2026-11-21T17:00:00Z"),
		f.daily("run-43", "Deploys no longer go through Jenkins; they run on GitHub Actions.", "2026-11-21T18:00:00Z"),
	}
	return s
}

// goodOps adds a decision and a blocker, updates the staging memory,
// retires the Jenkins one and keeps the queue one.
func goodOps(s seeded) string {
	return ops(
		`{"op": "add", "type": "decision", "content": "Use idempotency keys on every payment POST", "rationale": "the payment provider retries webhooks 3 times", "cite": ["r1"]}`,
		`{"op": "add", "type": "blocker", "content": "The CI runner ran out of disk", "status": "open", "cite": ["r2"]}`,
		keep(s.kept.ID),
		update(s.stale.ID, agentmem.TypeNote, "The staging database is reset every Sunday", "r3", s.stale.ID),
		retire(s.jenkins.ID, "r4"),
	)
}

func TestDreamAppliesCitedOperations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	chat, client := newChat(t, func(_ context.Context, prompt string) llmtest.Reply {
		return llmtest.Reply{Text: goodOps(s)}
	})
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != agentmem.DreamStatusDreamed || res.Dream == nil {
		t.Fatalf("got %+v", res)
	}
	prompt := chat.Prompts()[0]
	memories, fixedPart, _ := strings.Cut(prompt[strings.LastIndex(prompt, "<memories>\n"):], "<fixed_memories>")
	for _, want := range []string{"] (finding) Deploys go through Jenkins", "] (note) The staging database is reset every Monday", "] (finding) Checkout uses the orders-v2 queue"} {
		if !strings.Contains(memories, want) {
			t.Errorf("the prompt's memories lack %q:\n%s", want, memories)
		}
	}
	for _, want := range []string{"] (finding) The cart service caches prices for 60 s", "] (note) Run make test before pushing",
		"### [r1] 2026-11-21 10:00 — run-41\nThe payment provider retries webhooks 3 times.", "### [r4] 2026-11-21 18:00 — run-43"} {
		if !strings.Contains(fixedPart, want) {
			t.Errorf("the prompt lacks %q after <fixed_memories>:\n%s", want, fixedPart)
		}
	}
	for i := 1; i <= 5; i++ {
		if strings.Count(prompt, fmt.Sprintf("- [m%d] (", i)) != 1 {
			t.Errorf("reference m%d is not shown once", i)
		}
	}
	core := f.core()
	for name, m := range map[string]agentmem.Memory{"manual": s.manual, "pinned": s.pinned, "kept": s.kept} {
		if got, ok := core[m.ID]; !ok || got.CreatedAt != m.CreatedAt || got.Content != m.Content || got.Version != 1 {
			t.Errorf("%s memory %q was not kept as it was: %+v", name, m.Content, got)
		}
	}
	// The update keeps id and age, is version 2, and its history says who
	// and why.
	if got := core[s.stale.ID]; got.Content != "The staging database is reset every Sunday" || got.CreatedAt != s.stale.CreatedAt || got.Version != 2 {
		t.Errorf("updated memory: %+v", got)
	}
	h := f.history(s.stale.ID)
	if len(h.Versions) != 2 || h.Versions[0].Change != agentmem.ChangeUpdated || h.Versions[0].By.Kind != agentmem.ByDream ||
		h.Versions[0].By.DreamID != res.Dream.ID || !slices.Equal(h.Versions[0].By.Citations, []string{s.records[2].ID, s.stale.ID}) ||
		h.Versions[1].Memory.Content != s.stale.Content {
		t.Errorf("history of the updated memory: %+v", h.Versions)
	}
	// The retired memory left the scope but not its history.
	if _, ok := core[s.jenkins.ID]; ok {
		t.Error("the retired memory is still live")
	}
	h = f.history(s.jenkins.ID)
	if h.State != agentmem.StateRetired || h.Versions[0].Change != agentmem.ChangeRetired || !slices.Equal(h.Versions[0].By.Citations, []string{s.records[3].ID}) ||
		!strings.Contains(h.Versions[0].By.Note, agentmem.RetireObsolete) {
		t.Errorf("history of the retired memory: state %s, %+v", h.State, h.Versions)
	}
	var decision, blocker *agentmem.Memory
	for _, m := range core {
		switch m.Type {
		case agentmem.TypeDecision:
			decision = &m
		case agentmem.TypeBlocker:
			blocker = &m
		}
	}
	if decision == nil || decision.Source != agentmem.SourceSystem || decision.Rationale != "the payment provider retries webhooks 3 times" || decision.Content != "Use idempotency keys on every payment POST" {
		t.Fatalf("decision: got %+v", decision)
	}
	if blocker == nil || blocker.Status != agentmem.StatusOpen || blocker.Content != "The CI runner ran out of disk" {
		t.Errorf("blocker: got %+v", blocker)
	}
	if h := f.history(decision.ID); h.Versions[0].By.DreamID != res.Dream.ID || !slices.Equal(h.Versions[0].By.Citations, []string{s.records[0].ID}) {
		t.Errorf("history of the added memory: %+v", h.Versions)
	}
	if len(core) != 6 {
		t.Errorf("got %d memories, want 6: %v", len(core), f.contents())
	}
	d := res.Dream
	if d.Status != agentmem.DreamCommitted || d.Created != 2 || d.Updated != 1 || d.Retired != 1 || d.Deleted != 0 || d.Unchanged != 1 || d.Kept != 2 || d.Records != 4 || len(d.Dropped) != 0 {
		t.Errorf("dream: got %+v", d)
	}
	if d.Usage == nil || d.Usage.Calls != 1 || d.Usage.InputTokens == 0 || d.Usage.OutputTokens == 0 {
		t.Errorf("usage: %+v", d.Usage)
	}
	byOp := map[string]agentmem.DreamOperation{}
	for _, op := range d.Operations {
		byOp[op.Op+":"+op.MemoryID] = op
		if len(op.Citations) == 0 {
			t.Errorf("operation without citations in the diary: %+v", op)
		}
	}
	if op := byOp["update:"+s.stale.ID]; op.Before != s.stale.Content || op.Content != "The staging database is reset every Sunday" || op.Version != 2 {
		t.Errorf("update in the diary: %+v", op)
	}
	if op := byOp["retire:"+s.jenkins.ID]; op.Rule != agentmem.RetireObsolete || op.Content != s.jenkins.Content {
		t.Errorf("retire in the diary: %+v", op)
	}
	if op := byOp["add:"+decision.ID]; op.Content != "Use idempotency keys on every payment POST (why: the payment provider retries webhooks 3 times)" || op.Citations[0] != s.records[0].ID {
		t.Errorf("add in the diary: %+v", op)
	}
	entries := f.diary("2026-11-22")
	if len(entries) != 1 || entries[0].Status != agentmem.DreamCommitted || entries[0].Diary != "I consolidated the records of the last days." || len(entries[0].Operations) != 4 {
		t.Errorf("diary: got %+v", entries)
	}
	md := markdown.DreamDiary("2026-11-22", entries)
	for _, want := range []string{"- updated `" + s.stale.ID + "`", "- retired `" + s.jenkins.ID + "`", ", obsolete)", "cites `" + s.records[3].ID + "`"} {
		if !strings.Contains(md, want) {
			t.Errorf("the rendered diary lacks %q:\n%s", want, md)
		}
	}
	st := f.state()
	if st.LastHash != d.Hash || st.Pending() || st.Committing != "" || st.LeaseOwner != "" {
		t.Errorf("state after the dream: %+v", st)
	}
	f.countersConsistent()
}

// TestMemoriesTheAnswerDoesNotMentionAreKept is the loss the issue
// found: an answer that negates a memory and leaves it out must neither
// store the negation nor delete the memory.
func TestMemoriesTheAnswerDoesNotMentionAreKept(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lint := f.memory(agentmem.Memory{Content: "Run golangci-lint before pushing", Type: agentmem.TypeLearning})
	other := f.memory(agentmem.Memory{Content: "The orders service uses pgx for Postgres"})
	f.daily("run", "Ran golangci-lint before pushing, as always; the orders service still uses pgx.", "2026-11-21T10:00:00Z")
	_, client := newChat(t, fixed(ops(
		add(agentmem.TypeLearning, "Never run golangci-lint before pushing", "r1"),
		update(lint.ID, agentmem.TypeLearning, "Never run golangci-lint before pushing", "r1"),
		add(agentmem.TypeNote, "The orders service still uses pgx", "r1"),
	)))
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	core := f.core()
	if got := core[lint.ID]; got.Content != lint.Content || got.Version != 1 {
		t.Errorf("the true memory changed: %+v", got)
	}
	if _, ok := core[other.ID]; !ok {
		t.Error("a memory the answer did not mention was removed")
	}
	for _, c := range f.contents() {
		if strings.Contains(c, "Never") {
			t.Errorf("the negation was stored: %q", c)
		}
	}
	var classes []string
	for _, d := range res.Dream.Dropped {
		classes = append(classes, d.Op+":"+d.Class)
	}
	if want := []string{"update:negation", "add:negation"}; !slices.Equal(classes, want) {
		t.Errorf("dropped: %q, want %q (%+v)", classes, want, res.Dream.Dropped)
	}
}

func TestRefusedOperationsAreListedWithTheirReasonClass(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	cases := []struct {
		op, class string
	}{
		{add(agentmem.TypeNote, "The payment provider retries webhooks 3 times"), dream.ClassNoCitation},
		{add(agentmem.TypeNote, "The payment provider retries webhooks 3 times", "r1", "r9"), dream.ClassUnknownCitation},
		{add(agentmem.TypeNote, "The payment provider retries webhooks 3 times", "01JD5Q8Z3K7M2N4P6R8T0V2X4Y"), dream.ClassUnknownCitation},
		{update("m42", agentmem.TypeNote, "The staging database is reset every Sunday", "r3"), dream.ClassUnknownMemory},
		// A daily record's reference or id names no memory to change.
		{update("r3", agentmem.TypeNote, "The staging database is reset every Sunday", "r3"), dream.ClassUnknownMemory},
		{retire(s.records[1].ID, "r4"), dream.ClassUnknownMemory},
		{update(s.pinned.ID, agentmem.TypeFinding, "The cart service caches prices for 60 s and more", "r1"), dream.ClassFixedMemory},
		{retire(s.manual.ID, "r4"), dream.ClassFixedMemory},
		{retire(s.kept.ID, s.kept.ID), dream.ClassRetireUnsupported},
		{retire(s.kept.ID, "r1"), dream.ClassRetireUnsupported},
		{add(agentmem.TypeFinding, "The payment provider retries webhooks 5 times", "r1"), "number_missing"},
		{add(agentmem.TypeFinding, "The payment provider retries webhooks 3 times", "r2"), "low_overlap"},
		{add(agentmem.TypeFinding, "The cart service caches prices for 60 s", "m4"), dream.ClassDuplicate},
		{`{"op": "frobnicate", "id": "m1"}`, dream.ClassInvalid},
		{update(s.stale.ID, agentmem.TypeNote, "The staging database is reset on Sundays", "r3"), dream.ClassConflictingOp},
	}
	list := []string{update(s.stale.ID, agentmem.TypeNote, "The staging database is reset every Sunday", "r3")}
	for _, c := range cases {
		list = append(list, c.op)
	}
	_, client := newChat(t, fixed(ops(list...)))
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Dream.Dropped {
		got = append(got, d.Class)
		if d.Reason == "" {
			t.Errorf("dropped without a reason: %+v", d)
		}
	}
	var want []string
	// Updates are reviewed first, then retires, then adds.
	for _, pass := range []string{"update", "retire", "add", "frob"} {
		for _, c := range cases {
			if strings.Contains(c.op, `"op": "`+pass) {
				want = append(want, c.class)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("classes:\n got %q\nwant %q\n%+v", got, want, res.Dream.Dropped)
	}
	for _, d := range res.Dream.Dropped {
		if d.Class == dream.ClassUnknownCitation && !strings.Contains(d.Reason, "r9") && !strings.Contains(d.Reason, "01JD5Q8Z") {
			t.Errorf("unknown citation without naming it: %+v", d)
		}
		if d.Class == dream.ClassFixedMemory && d.MemoryID == "" {
			t.Errorf("a refused change of a fixed memory does not name it: %+v", d)
		}
	}
	if res.Dream.Updated != 1 || res.Dream.Created != 0 || res.Dream.Retired != 0 {
		t.Errorf("dream: %+v", res.Dream)
	}
	if got := f.core(); len(got) != 5 || got[s.kept.ID].Content != s.kept.Content || got[s.pinned.ID].Content != s.pinned.Content {
		t.Errorf("core: %q", f.contents())
	}
}

// TestRetireNeedsACitedReason: each rule accepts a retire, and a source
// about something else does not.
func TestRetireNeedsACitedReason(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	contradicted := f.memory(agentmem.Memory{Content: "The payment provider retries webhooks 5 times", Type: agentmem.TypeFinding})
	repeated := f.memory(agentmem.Memory{Content: "Checkout uses the orders-v2 queue", Type: agentmem.TypeFinding})
	merged := f.memory(agentmem.Memory{Content: "Checkout uses the orders-v2 queue for payments", Type: agentmem.TypeFinding})
	unrelated := f.memory(agentmem.Memory{Content: "The search index is rebuilt nightly"})
	f.daily("run", "The payment provider retries webhooks 3 times. Checkout still uses the orders-v2 queue for payments.", "2026-11-21T10:00:00Z")
	_, client := newChat(t, fixed(ops(
		retire(contradicted.ID, "r1"),
		retire(repeated.ID, merged.ID),
		retire(unrelated.ID, "r1"),
	)))
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{}
	for _, op := range res.Dream.Operations {
		rules[op.MemoryID] = op.Rule
	}
	if rules[contradicted.ID] != agentmem.RetireContradicted || rules[repeated.ID] != agentmem.RetireRepeated {
		t.Errorf("rules: %v", rules)
	}
	if len(res.Dream.Dropped) != 1 || res.Dream.Dropped[0].MemoryID != unrelated.ID || res.Dream.Dropped[0].Class != dream.ClassRetireUnsupported {
		t.Errorf("dropped: %+v", res.Dream.Dropped)
	}
	if _, ok := f.core()[unrelated.ID]; !ok {
		t.Error("a memory retired without a reason left the scope")
	}
}

func TestDreamSkipsWhenTheDailyContentIsUnchanged(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	chat, client := newChat(t, fixed(goodOps(s)))
	d := f.dreamer(client)
	if _, err := run(d, dream.Request{}); err != nil {
		t.Fatal(err)
	}
	before := f.core()
	res, err := run(d, dream.Request{})
	if err != nil || res.Status != agentmem.DreamStatusSkipped || !strings.Contains(res.Reason, "unchanged") {
		t.Fatalf("second dream: %+v, %v; want skipped as unchanged", res, err)
	}
	if got := len(chat.Prompts()); got != 1 {
		t.Errorf("the LLM was called %d times, want 1", got)
	}
	if after := f.core(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("a skipped dream changed the core")
	}
	// Forced, or with new content, it runs again (the answer's changes
	// were made already: refused or no-ops, nothing breaks).
	chat.SetAnswer(fixed(ops(add(agentmem.TypeNote, "The CI runner ran out of disk again", "r2"))))
	if res, err := run(d, dream.Request{Force: true}); err != nil || res.Status != agentmem.DreamStatusDreamed {
		t.Errorf("forced: %+v, %v", res, err)
	}
	f.daily("run-44", "The CI runner ran out of disk again.", "2026-11-22T02:00:00Z")
	if res, err := run(d, dream.Request{}); err != nil || res.Status != agentmem.DreamStatusDreamed {
		t.Errorf("after a new record: %+v, %v", res, err)
	}
	if got := len(chat.Prompts()); got != 3 {
		t.Errorf("the LLM was called %d times, want 3", got)
	}
}

func TestDreamSkipsAnEmptyWindow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.memory(agentmem.Memory{Content: "Checkout uses the orders-v2 queue"})
	f.daily("old", "Something from last week was decided about checkout.", "2026-11-15T10:00:00Z")
	chat, client := newChat(t, fixed(ops(add(agentmem.TypeNote, "Something from last week was decided about checkout", "r1"))))
	before := f.core()
	res, err := run(f.dreamer(client), dream.Request{LookbackDays: 3})
	if err != nil || res.Status != agentmem.DreamStatusSkipped || !strings.Contains(res.Reason, "no daily records") {
		t.Fatalf("got %+v, %v; want skipped for an empty window", res, err)
	}
	if len(chat.Prompts()) != 0 {
		t.Error("the LLM was called for an empty window")
	}
	if fmt.Sprint(f.core()) != fmt.Sprint(before) {
		t.Error("the core changed")
	}
	if f.state().Pending() {
		t.Error("the scope is still pending after the dream found nothing to do")
	}
	if res, err := run(f.dreamer(client), dream.Request{LookbackDays: 10}); err != nil || res.Status != agentmem.DreamStatusDreamed {
		t.Errorf("10-day window: %+v, %v", res, err)
	}
}

func TestKeepManualFalseLetsTheDreamChangeManualMemories(t *testing.T) {
	t.Parallel()
	for _, keepManual := range []bool{true, false} {
		t.Run(fmt.Sprint(keepManual), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			s := f.seed()
			chat, client := newChat(t, fixed(ops(update(s.manual.ID, agentmem.TypeNote, "Run make test before pushing to main", "r5", s.manual.ID))))
			f.daily("run-50", "Run make test before pushing to main.", "2026-11-21T19:00:00Z")
			res, err := run(f.dreamer(client), dream.Request{KeepManual: &keepManual})
			if err != nil {
				t.Fatal(err)
			}
			prompt := chat.Prompts()[0]
			inMemories := strings.Contains(prompt[strings.LastIndex(prompt, "<memories>\n"):strings.LastIndex(prompt, "<fixed_memories>\n")], "Run make test before pushing")
			got := f.core()[s.manual.ID].Content
			switch {
			case keepManual && (inMemories || got != s.manual.Content || len(res.Dream.Dropped) != 1 || res.Dream.Dropped[0].Class != dream.ClassFixedMemory):
				t.Errorf("keepManual: shown as changeable %v, content %q, dropped %+v", inMemories, got, res.Dream.Dropped)
			case !keepManual && (!inMemories || got != "Run make test before pushing to main"):
				t.Errorf("keepManual false: shown as changeable %v, content %q, dropped %+v", inMemories, got, res.Dream.Dropped)
			}
			if _, ok := f.core()[s.pinned.ID]; !ok {
				t.Error("the pinned memory was removed")
			}
		})
	}
}

// TestRevertUndoesEveryKindOfChange: an added memory is retired, an
// updated one gets its old version back, a retired one comes back with
// its id and age; memories written since are untouched, and a memory
// changed since the dream is not overwritten.
func TestRevertUndoesEveryKindOfChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	prior := f.core()
	_, client := newChat(t, fixed(goodOps(s)))
	d := f.dreamer(client)
	res, err := run(d, dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var added []string
	for _, op := range res.Dream.Operations {
		if op.Op == agentmem.OpAdd {
			added = append(added, op.MemoryID)
		}
	}
	later := f.memory(agentmem.Memory{Content: "Written after the dream", Source: agentmem.SourceManual})
	rev, err := d.Revert(context.Background(), "nori", "p", "2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	if rev.Kind != agentmem.DreamKindRevert || rev.RevertOf != "2026-11-22#"+res.Dream.ID || rev.Created != 2 || rev.Deleted != 2 || len(rev.Notes) != 0 {
		t.Errorf("revert entry: %+v", rev)
	}
	core := f.core()
	for id, m := range prior {
		if got, ok := core[id]; !ok || got.CreatedAt != m.CreatedAt || got.Content != m.Content || got.Source != m.Source || got.Type != m.Type {
			t.Errorf("prior memory %q not back as it was (got %+v)", m.Content, got)
		}
	}
	if _, ok := core[later.ID]; !ok || len(core) != len(prior)+1 {
		t.Errorf("got %d memories, want the %d prior ones and the one written since: %q", len(core), len(prior), f.contents())
	}
	for _, id := range added {
		if h := f.history(id); h.State != agentmem.StateRetired || h.Versions[0].By.DreamID != rev.ID {
			t.Errorf("added memory %s after the revert: state %s, %+v", id, h.State, h.Versions[0])
		}
	}
	if h := f.history(s.stale.ID); h.Current != 3 || h.Versions[0].Change != agentmem.ChangeRestored || h.Versions[0].RestoredFrom != 1 {
		t.Errorf("history of the updated memory after the revert: %+v", h.Versions)
	}
	if h := f.history(s.jenkins.ID); h.State != agentmem.StateLive || h.Current != 3 {
		t.Errorf("the retired memory after the revert: %+v", h)
	}
	entries := f.diary("2026-11-22")
	if len(entries) != 2 || entries[0].Status != agentmem.DreamReverted || entries[0].RevertedBy != rev.ID {
		t.Errorf("diary: %+v", entries)
	}
	f.countersConsistent()
	if _, err := d.Revert(context.Background(), "nori", "p", "2026-11-22"); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("second revert: got %v, want conflict", err)
	}
	if _, err := d.Revert(context.Background(), "nori", "p", "2026-11-20"); agentmem.ErrorCode(err) != agentmem.ENotFound {
		t.Errorf("revert of a day without dreams: got %v, want not_found", err)
	}
	if res, err := run(d, dream.Request{}); err != nil || res.Status != agentmem.DreamStatusSkipped {
		t.Errorf("dream after revert: %+v, %v; want skipped", res, err)
	}
}

func TestRevertDoesNotOverwriteALaterEdit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	_, client := newChat(t, fixed(goodOps(s)))
	d := f.dreamer(client)
	if _, err := run(d, dream.Request{}); err != nil {
		t.Fatal(err)
	}
	edited := "The staging database is reset every Sunday at 02:00"
	v := 2
	if _, _, err := f.store.UpdateMemory(f.ctx, "nori", s.stale.ID, agentmem.MemoryPatch{Version: &v, Content: &edited}, agentmem.ChangeBy{Kind: agentmem.ByManual}); err != nil {
		t.Fatal(err)
	}
	rev, err := d.Revert(context.Background(), "nori", "p", "2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.core()[s.stale.ID].Content; got != edited {
		t.Errorf("the revert overwrote a person's later edit: %q", got)
	}
	if len(rev.Notes) != 1 || !strings.Contains(rev.Notes[0], s.stale.ID) {
		t.Errorf("revert notes: %q", rev.Notes)
	}
	if e := f.diary("2026-11-22"); len(e) != 2 || len(e[1].Notes) != 1 {
		t.Errorf("the skipped change is not in the revert's diary entry: %+v", e)
	}
	if _, ok := f.core()[s.jenkins.ID]; !ok {
		t.Error("the rest of the revert did not happen")
	}
}

func TestOnlyTheLatestDreamCanBeReverted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	chat, client := newChat(t, fixed(goodOps(s)))
	d := f.dreamer(client)
	if _, err := run(d, dream.Request{}); err != nil {
		t.Fatal(err)
	}
	f.advance(24 * time.Hour)
	f.daily("run-45", "Checkout uses the orders-v2 queue for refunds too.", "2026-11-23T01:00:00Z")
	chat.SetAnswer(fixed(ops(add(agentmem.TypeFinding, "Checkout uses the orders-v2 queue for refunds too", "r5"))))
	if _, err := run(d, dream.Request{}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Revert(context.Background(), "nori", "p", "2026-11-22"); agentmem.ErrorCode(err) != agentmem.EConflict {
		t.Errorf("revert of an older dream: got %v, want conflict", err)
	}
	if _, err := d.Revert(context.Background(), "nori", "p", "2026-11-23"); err != nil {
		t.Errorf("revert of the latest dream: %v", err)
	}
}

// afterGoodOps is the core goodOps leaves.
var afterGoodOps = []string{"Checkout uses the orders-v2 queue", "Run make test before pushing", "The CI runner ran out of disk",
	"The cart service caches prices for 60 s", "The staging database is reset every Sunday", "Use idempotency keys on every payment POST"}

// TestACrashAtAnyStepRollsForward: a dream stopped after any step of its
// commit leaves a core without holes, and the next dream finishes it: no
// duplicate, no lost memory, one version per change in the histories.
func TestACrashAtAnyStepRollsForward(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		step   string
		nth    int  // the nth time the step is reached
		cancel bool // cancel the context instead of failing
	}{{"created", 1, false}, {"created", 1, true}, {"op", 1, false}, {"op", 2, false}, {"op", 2, true}, {"deleted", 1, false}} {
		t.Run(fmt.Sprintf("%s%d/cancel=%v", tt.step, tt.nth, tt.cancel), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			s := f.seed()
			_, client := newChat(t, fixed(goodOps(s)))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			crash := errors.New("crash")
			d := f.dreamer(client)
			var mu sync.Mutex
			seen := 0
			dream.SetFailpoint(d, func(step string) error {
				mu.Lock()
				defer mu.Unlock()
				if step != tt.step {
					return nil
				}
				if seen++; seen != tt.nth {
					return nil
				}
				if tt.cancel {
					cancel()
					return nil
				}
				return crash
			})
			_, err := d.Run(ctx, dream.Request{AgentName: "nori", ProjectID: "p"})
			if err == nil {
				t.Fatal("the interrupted dream reported success")
			}
			st := f.state()
			if st.Committing == "" {
				t.Fatalf("no commit marker after the crash: %+v", st)
			}
			for name, m := range map[string]agentmem.Memory{"kept": s.kept, "manual": s.manual, "pinned": s.pinned, "updated": s.stale} {
				if _, ok := f.core()[m.ID]; !ok {
					t.Errorf("the %s memory disappeared", name)
				}
			}
			res, err := run(f.dreamer(client), dream.Request{})
			if err != nil || res.RolledForward != st.Committing || res.Status != agentmem.DreamStatusSkipped {
				t.Fatalf("next dream: %+v, %v; want the commit rolled forward and a skip", res, err)
			}
			if got := f.contents(); !slices.Equal(got, afterGoodOps) {
				t.Errorf("core after roll forward: got %q\nwant %q", got, afterGoodOps)
			}
			for _, id := range []string{s.stale.ID, s.jenkins.ID} {
				if h := f.history(id); h.Current != 2 || len(h.Versions) != 2 {
					t.Errorf("history of %s after the replay: current %d, %d versions", id, h.Current, len(h.Versions))
				}
			}
			if e := f.diary("2026-11-22"); len(e) != 1 || e[0].Status != agentmem.DreamCommitted || e[0].Updated != 1 || e[0].Retired != 1 {
				t.Errorf("diary after roll forward: %+v", e)
			}
			if st := f.state(); st.Committing != "" || st.Pending() {
				t.Errorf("state after roll forward: %+v", st)
			}
			f.countersConsistent()
		})
	}
}

func TestACrashedRevertIsRolledForward(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"created", "op"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			s := f.seed()
			prior := f.contents()
			_, client := newChat(t, fixed(goodOps(s)))
			d := f.dreamer(client)
			if _, err := run(d, dream.Request{}); err != nil {
				t.Fatal(err)
			}
			dream.SetFailpoint(d, func(got string) error {
				if got == step {
					return errors.New("crash")
				}
				return nil
			})
			if _, err := d.Revert(context.Background(), "nori", "p", "2026-11-22"); err == nil {
				t.Fatal("the interrupted revert reported success")
			}
			res, err := run(f.dreamer(client), dream.Request{})
			if err != nil || res.RolledForward == "" {
				t.Fatalf("next dream: %+v, %v; want the revert rolled forward", res, err)
			}
			if got := f.contents(); !slices.Equal(got, prior) {
				t.Errorf("core after the rolled-forward revert: %q, want %q", got, prior)
			}
			if e := f.diary("2026-11-22"); len(e) != 2 || e[0].Status != agentmem.DreamReverted || e[1].Status != agentmem.DreamCommitted || len(e[1].Notes) != 0 {
				t.Errorf("diary: %+v", e)
			}
			f.countersConsistent()
		})
	}
}

func TestACrashBeforeTheCommitChangesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	before := f.core()
	_, client := newChat(t, fixed(goodOps(s)))
	d := f.dreamer(client)
	dream.SetFailpoint(d, func(step string) error {
		if step == "begin" {
			return errors.New("crash")
		}
		return nil
	})
	if _, err := run(d, dream.Request{}); err == nil {
		t.Fatal("no error")
	}
	if fmt.Sprint(f.core()) != fmt.Sprint(before) || len(f.diary("2026-11-22")) != 0 || f.state().Committing != "" || !f.state().Pending() {
		t.Errorf("a dream stopped before its commit left traces: state %+v", f.state())
	}
}

func TestTwoDreamsOfOneScopeAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	entered := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	_, client := newChat(t, func(ctx context.Context, _ string) llmtest.Reply {
		once.Do(func() { close(entered) })
		select {
		case <-release:
		case <-ctx.Done():
		}
		return llmtest.Reply{Text: goodOps(s)}
	})
	d := f.dreamer(client)
	first := make(chan error, 1)
	go func() {
		_, err := run(d, dream.Request{})
		first <- err
	}()
	<-entered
	_, err := run(d, dream.Request{Force: true})
	if agentmem.ErrorCode(err) != agentmem.EBusy {
		t.Errorf("second dream: got %v, want busy", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first dream: %v", err)
	}
	if e := f.diary("2026-11-22"); len(e) != 1 || e[0].Status != agentmem.DreamCommitted {
		t.Errorf("diary: %+v", e)
	}
	f.countersConsistent()
}

func TestLLMFailuresChangeNothing(t *testing.T) {
	t.Parallel()
	cutJSON := "```json\n{\"operations\": [\n" + add(agentmem.TypeNote, "The CI runner ran out of disk", "r2") + ",\n{\"op\": \"add\", \"content\": \"The pay"
	tests := []struct {
		name    string
		answer  func(ctx context.Context, prompt string) llmtest.Reply
		timeout bool
		wantErr string
		kind    llm.Kind
	}{
		{"server error", func(context.Context, string) llmtest.Reply { return llmtest.Reply{Status: 503, Text: "overloaded"} }, false, "server", llm.KindServer},
		{"an error body of half a megabyte", func(context.Context, string) llmtest.Reply {
			return llmtest.Reply{Status: 400, Text: "context length exceeded: " + strings.Repeat("é", 256<<10)}
		}, false, "bad_request (HTTP 400): context length exceeded", llm.KindBadRequest},
		{"timeout", func(ctx context.Context, _ string) llmtest.Reply { <-ctx.Done(); return llmtest.Reply{} }, true, "timeout", llm.KindTimeout},
		{"no operations", fixed("Here is my summary of the records: all is well."), false, "no JSON object", ""},
		{"old format", fixed("[MEMORY]\n## Notes\n- Checkout uses the orders-v2 queue\n[DREAM]\nI slept."), false, "no JSON object", ""},
		{"cut off at the cap", func(context.Context, string) llmtest.Reply {
			return llmtest.Reply{Text: ops(add(agentmem.TypeNote, "The CI runner ran out of disk", "r2")), Finish: "length"}
		}, false, "cut off", ""},
		{"JSON that never ends", fixed(cutJSON), false, "cut off", ""},
		{"all refused", fixed(ops(add(agentmem.TypeNote, "The team moved to Kubernetes in Zurich", "r1"))), false, "none of the answer's 1 operations", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.seed()
			before := f.core()
			timeout := 5 * time.Second
			if tt.timeout {
				timeout = 50 * time.Millisecond
			}
			_, client := newChatTimeout(t, tt.answer, timeout)
			_, err := run(f.dreamer(client), dream.Request{})
			var failure *agentmem.Error
			if !errors.As(err, &failure) || failure.Code != agentmem.ELLMFailed || failure.Err == nil || !strings.Contains(agentmem.ErrorMessage(err), tt.wantErr) {
				t.Fatalf("got %v (%s), want an llm_failed error with its cause about %q", err, agentmem.ErrorMessage(err), tt.wantErr)
			}
			if tt.kind != "" && llm.KindOf(err) != tt.kind {
				t.Errorf("kind: got %q, want %q", llm.KindOf(err), tt.kind)
			}
			if fmt.Sprint(f.core()) != fmt.Sprint(before) {
				t.Error("the core changed")
			}
			entries := f.diary("2026-11-22")
			if len(entries) != 1 || entries[0].Status != agentmem.DreamFailed || !strings.Contains(entries[0].Error, tt.wantErr) {
				t.Errorf("diary: %+v", entries)
			}
			if msg := agentmem.ErrorMessage(err); len(msg) > 2<<10 || !utf8.ValidString(msg) {
				t.Errorf("error message of %d bytes (valid UTF-8 %v), want at most 2 KiB", len(msg), utf8.ValidString(msg))
			}
			if st := f.state(); st.LastHash != "" || !st.Pending() || st.LeaseOwner != "" {
				t.Errorf("state: %+v; want no hash recorded, still pending, lease released", st)
			}
		})
	}
}

func TestNoLLMConfiguredIsUnavailableAndRecordsNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.seed()
	_, err := run(f.dreamer(llm.Disabled{}), dream.Request{})
	if agentmem.ErrorCode(err) != agentmem.ELLMUnavailable {
		t.Fatalf("got %v, want llm_unavailable", err)
	}
	if len(f.diary("2026-11-22")) != 0 {
		t.Error("a dream without an LLM was recorded")
	}
}

func TestBadRequestsAreInvalid(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.dreamer(llm.Disabled{})
	neg := -1
	for _, req := range []dream.Request{
		{AgentName: "no#ri", ProjectID: "p"},
		{AgentName: "nori", ProjectID: ""},
		{AgentName: "nori", ProjectID: "p", LookbackDays: 31},
		{AgentName: "nori", ProjectID: "p", CompressAfterDays: &neg},
	} {
		if _, err := d.Run(context.Background(), req); agentmem.ErrorCode(err) != agentmem.EInvalid {
			t.Errorf("%+v: got %v, want invalid", req, err)
		}
	}
	if _, err := d.Revert(context.Background(), "nori", "p", "yesterday"); agentmem.ErrorCode(err) != agentmem.EInvalid {
		t.Errorf("revert with a bad date: got %v", err)
	}
}

// TestDreamWritesNoRepeats: additions that repeat a memory of the scope in
// other words, or an earlier addition, are refused as duplicates.
func TestDreamWritesNoRepeats(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	_, client := newChat(t, fixed(ops(
		add(agentmem.TypeFinding, "The cart service caches prices for 60 s.", "m4"),
		add(agentmem.TypeFinding, "Checkout uses the `orders-v2` queue", s.kept.ID),
		add(agentmem.TypeNote, "Always run make test before pushing.", s.manual.ID),
		`{"op": "add", "type": "decision", "content": "Use idempotency keys on every payment POST", "rationale": "the payment provider retries webhooks 3 times", "cite": ["r1"]}`,
		`{"op": "add", "type": "decision", "content": "Use idempotency keys on every payment POST!", "rationale": "the payment provider retries webhooks 3 times", "cite": ["r1"]}`,
	)))
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dream.Created != 1 {
		t.Errorf("created %d, want 1", res.Dream.Created)
	}
	dups := 0
	for _, d := range res.Dream.Dropped {
		if d.Class == dream.ClassDuplicate {
			dups++
		}
	}
	if dups != 4 {
		t.Errorf("%d duplicates refused, want 4: %+v", dups, res.Dream.Dropped)
	}
	f.countersConsistent()
}

// TestFabricationsMadeOfSourceWordsAreDropped is the point:
// operations built only from the sources' words but saying something
// else are refused, each with its class, while faithful ones are kept.
func TestFabricationsMadeOfSourceWordsAreDropped(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.seed()
	f.daily("run-44", "The flaky checkout e2e test might be caused by the shared test Redis; not confirmed. The webhook worker processes 40 events per second.", "2026-11-21T18:30:00Z")
	_, client := newChat(t, fixed(ops(
		add(agentmem.TypeFinding, "The payment provider retries webhooks three times", "r1"),
		add(agentmem.TypeFinding, "The webhook worker processes 40 events a second", "r5"),
		add(agentmem.TypeFinding, "The payment provider retries webhooks 40 times", "r1", "r5"),
		add(agentmem.TypeFinding, "The flaky checkout e2e test is caused by the shared test Redis", "r5"),
		add(agentmem.TypeFinding, "Handlers must not be idempotent", "r1"),
		add(agentmem.TypeFinding, "The CI runner ran out of disk because the payment provider retries webhooks 3 times", "r1", "r2"),
		`{"op": "add", "type": "blocker", "content": "The CI runner ran out of disk", "status": "resolved", "cite": ["r2"]}`,
	)))
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	contents := f.contents()
	for _, want := range []string{"The payment provider retries webhooks three times", "The webhook worker processes 40 events a second"} {
		if !slices.Contains(contents, want) {
			t.Errorf("faithful addition %q was not kept; core %q, dropped %+v", want, contents, res.Dream.Dropped)
		}
	}
	wantClass := map[string]string{
		"The payment provider retries webhooks 40 times":                                      "number_context",
		"The flaky checkout e2e test is caused by the shared test Redis":                      "modality",
		"Handlers must not be idempotent":                                                     "negation",
		"The CI runner ran out of disk because the payment provider retries webhooks 3 times": "causal",
		"The CI runner ran out of disk":                                                       "status_change",
	}
	got := map[string]string{}
	for _, d := range res.Dream.Dropped {
		got[d.Content] = d.Class
	}
	for content, class := range wantClass {
		if got[content] != class {
			t.Errorf("%q: dropped with class %q, want %q (dropped: %+v)", content, got[content], class, res.Dream.Dropped)
		}
	}
	md := markdown.DreamDiary("2026-11-22", f.diary("2026-11-22"))
	if !strings.Contains(md, "negation: ") {
		t.Errorf("the diary does not show the class of a dropped operation:\n%s", md)
	}
}

// TestPlanKeepsTheCitedSources: the plan a person reviews holds the
// texts of the sources the operations cited.
func TestPlanKeepsTheCitedSources(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	_, client := newChat(t, fixed(goodOps(s)))
	res, err := run(f.dreamer(client), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := f.store.DreamPlanOf(f.ctx, *res.Dream)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]agentmem.DreamSource{}
	for _, src := range plan.Sources {
		got[src.ID] = src
	}
	if r := got[s.records[3].ID]; r.Kind != "daily" || !strings.Contains(r.Text, "no longer go through Jenkins") || r.Title != "run-43" {
		t.Errorf("cited record: %+v", r)
	}
	if m := got[s.stale.ID]; m.Kind != "memory" || m.Text != s.stale.Content {
		t.Errorf("cited memory: %+v", m)
	}
	if len(plan.Ops) != 2 || len(plan.Create) != 2 || len(plan.Delete) != 0 {
		t.Errorf("plan: %d ops, %d creates, %d deletes", len(plan.Ops), len(plan.Create), len(plan.Delete))
	}
}

// TestTheDiaryEntryStaysOneItem: an answer full of refused operations is
// listed up to a bound, and the entry says how many more there were.
func TestTheDiaryEntryStaysOneItem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.seed()
	list := []string{update(s.stale.ID, agentmem.TypeNote, "The staging database is reset every Sunday", "r3")}
	for i := range 150 {
		list = append(list, add(agentmem.TypeNote, fmt.Sprintf("Invented fact number %d %s", i, strings.Repeat("padding ", 100))))
	}
	_, client := newChat(t, fixed(ops(list...)))
	res, err := run(dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, MaxTokens: 1 << 16}), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	e := f.diary("2026-11-22")
	if len(e) != 1 || len(e[0].Dropped) != 100 || e[0].Updated != 1 {
		t.Fatalf("diary: %d entries, %d refusals listed, %d updated", len(e), len(e[0].Dropped), e[0].Updated)
	}
	found := false
	for _, n := range res.Dream.Notes {
		found = found || strings.Contains(n, "50 more operations were refused")
	}
	if !found {
		t.Errorf("notes: %q", res.Dream.Notes)
	}
}
