package dream_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/dynamotest"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
	"github.com/agentmem/agentmem/shared/routes"
	"github.com/oklog/ulid/v2"
)

// calls records the DynamoDB calls the dream makes as the dream function
// runs it (the dreamers' and the dispatchers' store); TestMain fails the
// run when the function's role may not make one of them.
var calls = dynamotest.NewRecorder(routes.Dream)

func TestMain(m *testing.M) { os.Exit(calls.Main(m)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// newChat starts the stand-in and returns it with the real OpenAI client
// pointed at it.
func newChat(t testing.TB, answer llmtest.Answer) (*llmtest.Chat, llm.Client) {
	t.Helper()
	return newChatTimeout(t, answer, 5*time.Second)
}

// newChatTimeout is newChat with the client's timeout.
func newChatTimeout(t testing.TB, answer llmtest.Answer, timeout time.Duration) (*llmtest.Chat, llm.Client) {
	t.Helper()
	c := llmtest.NewChat(t, answer)
	return c, c.Client(t, timeout)
}

var fixed = llmtest.Fixed

// now is the tests' clock: the dream runs at 03:00 UTC on 2026-11-22.
var now = time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)

// fixture is a scope with a core and daily records, on fresh tables.
// store is the test's own store, to seed and check the tables; dreamStore
// is the dreams', over the same tables and on the same clock, whose calls
// are recorded (calls).
type fixture struct {
	t          testing.TB
	store      *dynamostore.Store
	dreamStore *dynamostore.Store
	ctx        context.Context
	clock      time.Time
	mu         sync.Mutex
}

func newFixture(t testing.TB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), clock: now}
	f.dreamStore, f.store = calls.Stores(t)
	clock := func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.clock }
	f.store.Now, f.dreamStore.Now = clock, clock
	return f
}

func (f *fixture) advance(d time.Duration) { f.mu.Lock(); f.clock = f.clock.Add(d); f.mu.Unlock() }

// dreamer is a dreamer without the verifier and the restate pass
// (verify_test.go and restate_test.go test them).
func (f *fixture) dreamer(client llm.Client) *dream.Dreamer {
	return dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, NoRestate: true})
}

// oldMemories stores a note per content, created on 2026-11-10, -11, ...
// in that order (old enough to be offered for compression).
func (f *fixture) oldMemories(contents ...string) []agentmem.Memory {
	f.t.Helper()
	var out []agentmem.Memory
	for i, c := range contents {
		out = append(out, f.memory(agentmem.Memory{Content: c, CreatedAt: fmt.Sprintf("2026-11-1%dT09:00:00Z", i)}))
	}
	return out
}

// memory creates a memory in nori/p.
func (f *fixture) memory(m agentmem.Memory) agentmem.Memory {
	f.t.Helper()
	m.AgentName, m.ProjectID = "nori", "p"
	if m.Source == "" {
		m.Source = agentmem.SourceExtraction
	}
	got, err := f.store.CreateMemory(f.ctx, m)
	if err != nil {
		f.t.Fatal(err)
	}
	return got
}

// daily appends a record to nori/p at the given time.
func (f *fixture) daily(title, content, at string) agentmem.DailyRecord {
	f.t.Helper()
	r, err := f.store.AppendDaily(f.ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: title, Content: content, At: at})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// history returns the versions of memory id of nori.
func (f *fixture) history(id string) agentmem.MemoryHistory {
	f.t.Helper()
	h, err := f.store.MemoryHistory(f.ctx, "nori", id, 50, "")
	if err != nil {
		f.t.Fatal(err)
	}
	return h
}

// core returns the scope's memories by id.
func (f *fixture) core() map[string]agentmem.Memory {
	f.t.Helper()
	out := map[string]agentmem.Memory{}
	if err := f.store.EachMemory(f.ctx, "nori", "p", func(m agentmem.Memory) error {
		out[m.ID] = m
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// contents returns the sorted contents of the scope's memories.
func (f *fixture) contents() []string {
	var out []string
	for _, m := range f.core() {
		out = append(out, m.Content)
	}
	slices.Sort(out)
	return out
}

// countersConsistent fails the test when the scope counters differ from
// a recount.
func (f *fixture) countersConsistent() {
	f.t.Helper()
	got, err := f.store.GetScopeCounts(f.ctx, "nori", "p")
	if err != nil {
		f.t.Fatal(err)
	}
	rc, err := f.store.RecountScope(f.ctx, "nori", "p")
	if err != nil {
		f.t.Fatal(err)
	}
	want := rc.After
	if got.Total != want.Total || got.Bytes != want.Bytes || fmt.Sprint(got.ByType) != fmt.Sprint(want.ByType) {
		f.t.Errorf("counters %+v drifted from the recount %+v", got, want)
	}
}

func (f *fixture) state() dynamostore.DreamState {
	st, err := f.store.GetDreamState(f.ctx, "nori", "p")
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

func (f *fixture) diary(date string) []agentmem.Dream {
	ds, err := f.store.DreamsOn(f.ctx, "nori", "p", date)
	if err != nil {
		f.t.Fatal(err)
	}
	return ds
}

func run(d *dream.Dreamer, req dream.Request) (agentmem.DreamResult, error) {
	if req.AgentName == "" {
		req.AgentName, req.ProjectID = "nori", "p"
	}
	return d.Run(context.Background(), req)
}

// ops builds a dream answer from operations written as JSON objects, in
// a fence with a line of prose before it, as models answer.
func ops(list ...string) string {
	return "Here are my operations.\n```json\n{\"operations\": [\n" + strings.Join(list, ",\n") +
		"\n], \"dream\": \"I consolidated the records of the last days.\"}\n```\n"
}

// add, update and retire write one operation of an answer.
func add(typ agentmem.Type, content string, cite ...string) string {
	return fmt.Sprintf(`{"op": "add", "type": %q, "content": %q, "cite": %s}`, typ, content, jsonList(cite))
}

func update(id string, typ agentmem.Type, content string, cite ...string) string {
	return fmt.Sprintf(`{"op": "update", "id": %q, "type": %q, "content": %q, "cite": %s}`, id, typ, content, jsonList(cite))
}

func retire(id string, cite ...string) string {
	return fmt.Sprintf(`{"op": "retire", "id": %q, "cite": %s, "note": "out of date"}`, id, jsonList(cite))
}

func keep(id string) string { return fmt.Sprintf(`{"op": "keep", "id": %q}`, id) }

func jsonList(s []string) string {
	if len(s) == 0 {
		return "[]"
	}
	return `["` + strings.Join(s, `", "`) + `"]`
}

// The scripted model of the split tests and the benchmark reads the
// prompt's parts the way a model would.
var (
	promptMemory = regexp.MustCompile(`(?m)^- \[(m\d+)\] \(([a-z]+)\) (.*)$`)
	promptRecord = regexp.MustCompile(`(?m)^### \[(r\d+)\] [0-9-]+ [0-9:]+ — .*\n([^\n]*)`)
)

// promptSection returns the text of the prompt's last <tag> block.
func promptSection(prompt, tag string) string {
	i := strings.LastIndex(prompt, "<"+tag+">\n")
	if i < 0 {
		return ""
	}
	rest := prompt[i+len(tag)+3:]
	if j := strings.Index(rest, "</"+tag+">"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// tooLongAbove answers a part that shows more than n memories with a
// note on each too long for the smallest cap, which the stand-in cuts as
// a model would be cut, and smaller parts as scripted(1).
func tooLongAbove(n int) llmtest.Answer {
	return func(ctx context.Context, prompt string) llmtest.Reply {
		mine := promptMemory.FindAllStringSubmatch(promptSection(prompt, "memories"), -1)
		if len(mine) > n {
			var list []string
			for _, m := range mine {
				list = append(list, fmt.Sprintf(`{"op": "keep", "id": %q, "note": %q}`, m[1], strings.Repeat("a long thought ", 80)))
			}
			return llmtest.Reply{Text: ops(list...)}
		}
		return scripted(1)(ctx, prompt)
	}
}

// scripted answers a dream prompt: it updates every updateEvery-th memory
// it may change (dropping the word "its", which the memory itself
// supports) and, where it may add, adds the first sentence of each record.
func scripted(updateEvery int) llmtest.Answer {
	return scriptedAdding(updateEvery, func(first string) string { return first })
}

// scriptedAdding is scripted, adding word(first sentence) for each record.
func scriptedAdding(updateEvery int, word func(string) string) llmtest.Answer {
	return func(_ context.Context, prompt string) llmtest.Reply {
		var list []string
		for i, m := range promptMemory.FindAllStringSubmatch(promptSection(prompt, "memories"), -1) {
			if i%updateEvery == 0 {
				list = append(list, update(m[1], agentmem.Type(m[2]), strings.Replace(m[3], " its ", " ", 1), m[1]))
			}
		}
		if strings.Contains(prompt, "You may add memories in this part.") {
			for _, r := range promptRecord.FindAllStringSubmatch(promptSection(prompt, "daily_records"), -1) {
				first, _, _ := strings.Cut(r[2], ";")
				list = append(list, add(agentmem.TypeNote, word(strings.TrimSuffix(first, ".")), r[1]))
			}
		}
		return llmtest.Reply{Text: ops(list...)}
	}
}

// bulkScope gives agent/p n memories spread over the last days and
// records daily records on each of the last 3 days, directly.
func bulkScope(t testing.TB, st *dynamostore.Store, agent string, n, records int) {
	ctx := context.Background()
	types := []agentmem.Type{agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeLearning, agentmem.TypeNote}
	var ms []agentmem.Memory
	for i := range n {
		ms = append(ms, agentmem.Memory{
			ID: ulid.Make().String(), AgentName: agent, ProjectID: "p", Source: agentmem.SourceExtraction, Type: types[i%len(types)],
			Content:   fmt.Sprintf("Service %d of the checkout flow retries its calls to the payment provider with backoff number %d", i, i),
			CreatedAt: agentmem.FormatTime(now.Add(-time.Duration(i) * time.Hour)),
		})
	}
	if _, err := st.RestoreMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for r := range records {
		at := agentmem.FormatTime(now.AddDate(0, 0, -(r % 3)).Add(-time.Duration(r+1) * time.Minute))
		content := fmt.Sprintf("The webhook handler for order %d now checks the idempotency key before charging; make test passes.", r)
		if _, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: agent, ProjectID: "p", Title: fmt.Sprintf("run-%d", r), Content: content, At: at}); err != nil {
			t.Fatal(err)
		}
	}
}
