package dream

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/llm"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/prompts"
)

// Scopes of any size. No answer may need more than Config.MaxTokens
// output tokens (DefaultMaxTokens, 4,096): the work is split into units,
// each one model call whose answer is bounded by what it may change.
//
//   - When the replaceable memories and the window's records both fit in
//     one answer's budget, one unit shows everything (the usual scope).
//   - Otherwise review units show a batch of memories each (those it may
//     update or retire, at most an answer's budget of text and
//     maxUnitMemories) with the window's records, and learn units show a
//     window of records each (at most an answer's budget) with the
//     memories read-only, for what the records add.
//
// An answer cut off at the cap (finish reason length, or JSON that does
// not end) is never used: the unit is split in two (its memories, else its
// records) and each half asked again, down to one memory or one record.
// A unit that still fails fails the dream: nothing changes.
const (
	// DefaultMaxTokens is the output cap of every dream call, the one
	// definition behind AGENTMEM_DREAM_MAX_TOKENS' default.
	DefaultMaxTokens = 4096
	// MinMaxTokens is the smallest cap a dream accepts: one memory's
	// update must fit.
	MinMaxTokens = 1024
	// bytesPerToken is how much answer text one output token carries, on
	// the safe side (JSON is denser in tokens than prose).
	bytesPerToken = 3
	// diaryReserveBytes is the share of an answer kept for its diary prose
	// and the JSON around the operations.
	diaryReserveBytes = 1024
	// opOverheadBytes is what an operation costs beyond its memory's text
	// (keys, id, citations, note).
	opOverheadBytes = 160
	// maxUnitMemories bounds the memories one unit may change.
	maxUnitMemories = 60
	// maxContextBytes bounds the read-only memories a learn unit shows.
	maxContextBytes = 24 << 10
)

// unit is one model call's share of a dream.
type unit struct {
	// memories may be updated or retired in this unit.
	memories []agentmem.Memory
	// readOnly memories are shown to be cited (fixed ones, and in a learn
	// unit the memories other units review).
	readOnly []agentmem.Memory
	records  []agentmem.DailyRecord
	// learn units are asked for additions; review units for changes.
	learn bool
	label string
}

// answerBudget is how many bytes of answer one call may carry.
func (d *Dreamer) answerBudget() int {
	return max(d.Config.MaxTokens*bytesPerToken-diaryReserveBytes, 1024)
}

func memoryCost(m agentmem.Memory) int { return len(claimText(m)) + opOverheadBytes }

func recordCost(r agentmem.DailyRecord) int { return len(r.Title) + len(r.Content) + 32 }

// partition splits a dream's work into units.
func (d *Dreamer) partition(view scopeView, records []agentmem.DailyRecord) []unit {
	budget := d.answerBudget()
	memBytes, recBytes := 0, 0
	for _, m := range view.replaceable {
		memBytes += memoryCost(m)
	}
	for _, r := range records {
		recBytes += recordCost(r)
	}
	if memBytes <= budget && recBytes <= budget && len(view.replaceable) <= maxUnitMemories {
		return []unit{{memories: view.replaceable, readOnly: view.fixed, records: records, learn: true}}
	}
	var units []unit
	for _, batch := range batches(view.replaceable, memoryCost, budget, maxUnitMemories) {
		units = append(units, unit{memories: batch, readOnly: view.fixed, records: records})
	}
	context := append([]agentmem.Memory(nil), view.fixed...)
	size := 0
	for _, m := range view.fixed {
		size += memoryCost(m)
	}
	for _, m := range view.replaceable { // newest first
		if size += memoryCost(m); size > maxContextBytes {
			break
		}
		context = append(context, m)
	}
	for _, w := range batches(records, recordCost, budget, len(records)) {
		units = append(units, unit{readOnly: context, records: w, learn: true})
	}
	return units
}

// batches cuts items into consecutive batches of at most budget bytes (by
// cost) and at most n items; an item over the budget is a batch of its
// own.
func batches[T any](items []T, cost func(T) int, budget, n int) [][]T {
	var out [][]T
	start, size := 0, 0
	for i, it := range items {
		c := cost(it)
		if i > start && (size+c > budget || i-start >= n) {
			out = append(out, items[start:i])
			start, size = i, 0
		}
		size += c
	}
	if start < len(items) {
		out = append(out, items[start:])
	}
	return out
}

// split halves a unit: its memories, else its records; ok is false when
// it holds one of each at most.
func (u unit) split() (unit, unit, bool) {
	a, b := u, u
	switch {
	case len(u.memories) > 1:
		h := len(u.memories) / 2
		a.memories, b.memories = u.memories[:h], u.memories[h:]
		// Additions come from one half only, so that they are not asked
		// twice.
		b.learn = false
	case len(u.records) > 1 && u.learn:
		h := len(u.records) / 2
		a.records, b.records = u.records[:h], u.records[h:]
		if len(u.memories) > 0 {
			// The memories are reviewed once, with the first half.
			b.memories = nil
			b.readOnly = append(append([]agentmem.Memory(nil), u.readOnly...), u.memories...)
		}
	default:
		return u, u, false
	}
	return a, b, true
}

// refs are a unit's references: what the prompt shows under m1, r1, ...
type refs struct {
	byRef   map[string]string // short reference or id -> id
	mutable map[string]agentmem.Memory
	shown   map[string]bool // every id shown
}

// resolve returns the id a reference names, if the unit showed it.
func (r refs) resolve(ref string) (string, bool) {
	id, ok := r.byRef[ref]
	return id, ok
}

// render builds a unit's prompt and references.
func (d *Dreamer) render(u unit, meta map[string]string) (string, refs, error) {
	rf := refs{byRef: map[string]string{}, mutable: map[string]agentmem.Memory{}, shown: map[string]bool{}}
	n := 0
	list := func(ms []agentmem.Memory, mutable bool) string {
		var b strings.Builder
		for _, m := range ms {
			n++
			ref := "m" + strconv.Itoa(n)
			rf.byRef[ref], rf.byRef[m.ID], rf.shown[m.ID] = m.ID, m.ID, true
			if mutable {
				rf.mutable[m.ID] = m
			}
			shown := m
			shown.Pinned = false
			fmt.Fprintf(&b, "- [%s] (%s) %s\n", ref, typeName(m.Type), oneLine(markdown.Bullet(shown)))
		}
		return strings.TrimSpace(b.String())
	}
	memories := list(u.memories, true)
	fixed := list(u.readOnly, false)
	var daily strings.Builder
	for i, r := range u.records {
		ref := "r" + strconv.Itoa(i+1)
		rf.byRef[ref], rf.byRef[strings.ToUpper(r.ID)], rf.shown[r.ID] = r.ID, r.ID, true
		at, _ := agentmem.ParseTime(r.At)
		if i > 0 {
			daily.WriteByte('\n')
		}
		fmt.Fprintf(&daily, "### [%s] %s — %s\n%s\n", ref, at.UTC().Format("2006-01-02 15:04"), oneLine(r.Title), recordBody(r.Content))
	}
	addRule := "You may add memories in this part."
	if !u.learn {
		addRule = "Do not add memories in this part: another part of this dream adds what the records teach; here, review the memories under <memories>."
	}
	vars := map[string]string{"memories": orNone(memories, "(none in this part)"), "fixed": orNone(fixed, "(none)"),
		"daily": orNone(daily.String(), "(none in this part)"), "add_rule": addRule, "part": u.label}
	for k, v := range meta {
		vars[k] = v
	}
	prompt, err := prompts.Must("dream").Render(vars)
	return prompt, rf, err
}

// recordBody is a daily record's content as the dream prompt shows it
// under its heading: as written, but no line of it can read as one of the
// prompt's own lines, a record's heading ("### [r2] ...") or a memory's
// ("- [m1] (note) ..."), which would present what follows under a
// reference the model may cite: a word joiner (U+2060, invisible) goes
// before a line that starts with "#" or with a reference in brackets
// ("[m1]", "[R2]"), alone or after a list marker; a code fence or HTML
// comment it leaves open is closed at its end (markdown.CloseBlocks), so
// that it cannot take the records after it into its code. The support
// test reads the record as stored.
func recordBody(content string) string {
	lines := strings.Split(strings.TrimSpace(agentmem.NormalizeLineBreaks(content)), "\n")
	for i, l := range lines {
		if t := strings.TrimLeft(l, " \t"); forgedLine.MatchString(t) {
			lines[i] = l[:len(l)-len(t)] + "\u2060" + t
		}
	}
	return markdown.CloseBlocks(strings.Join(lines, "\n"))
}

// forgedLine matches the start of a line that would read as a heading or
// a reference of the dream prompt.
var forgedLine = regexp.MustCompile(`(?i)^(#|[-*+]?\s*\[\s*[mr]\s*\d+\s*\])`)

func typeName(t agentmem.Type) string {
	if t == "" {
		return string(agentmem.TypeNote)
	}
	return string(t)
}

// unitAnswer is a unit's parsed answer with its references.
type unitAnswer struct {
	unit   unit
	refs   refs
	answer OpsAnswer
}

// usageMeter sums the usage of concurrent calls.
type usageMeter struct {
	mu sync.Mutex
	agentmem.ModelUsage
}

func (m *usageMeter) add(resp llm.Response, retry bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Calls++
	m.InputTokens += resp.InputTokens
	m.OutputTokens += resp.OutputTokens
	if retry {
		m.Retries++
	}
}

func (m *usageMeter) get() agentmem.ModelUsage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ModelUsage
}

// cutOff reports whether a provider stopped at the token cap.
func cutOff(resp llm.Response) bool {
	r := strings.ToLower(resp.StopReason)
	return r == "length" || r == "max_tokens" || r == "max_output_tokens"
}

// calls are one dream's model calls: at most Config.Concurrency in
// flight at once (a slot is held only while a call is in flight, never
// while waiting for others, so nested calls cannot starve each other),
// each capped at Config.MaxTokens. answered counts the answers, for
// Request.Progress.
type calls struct {
	client    llm.Client
	maxTokens int
	slots     chan struct{}
	answered  atomic.Int64
	// answer, when set, is called after each answer with the count so
	// far (from the goroutine that made the call).
	answer func(n int)
}

func (d *Dreamer) newCalls(answer func(int)) *calls {
	return &calls{client: d.LLM, maxTokens: d.Config.MaxTokens, slots: make(chan struct{}, max(1, d.Config.Concurrency)), answer: answer}
}

// complete asks the model once, when a slot is free.
func (c *calls) complete(ctx context.Context, prompt string) (llm.Response, error) {
	select {
	case c.slots <- struct{}{}:
		if ctx.Err() != nil {
			// Cancelled meanwhile (select picks at random when both
			// are ready): not asked.
			<-c.slots
			return llm.Response{}, llm.ContextError(c.client.Name(), ctx, ctx.Err())
		}
	case <-ctx.Done():
		return llm.Response{}, llm.ContextError(c.client.Name(), ctx, ctx.Err())
	}
	resp, err := c.client.Complete(ctx, llm.Request{Prompt: prompt, MaxTokens: c.maxTokens})
	<-c.slots
	if err == nil {
		if n := c.answered.Add(1); c.answer != nil {
			c.answer(int(n))
		}
	}
	return resp, err
}

// firstError is the error of a group of calls to report: the first, in
// the calls' order, that is not a cancellation (another call's failure
// cancels the rest), else the first.
func firstError(errs []error) error {
	var first error
	for _, err := range errs {
		switch {
		case err == nil:
		case !errors.Is(err, context.Canceled):
			return err
		case first == nil:
			first = err
		}
	}
	return first
}

// askAll asks every unit (Config.Concurrency calls at a time), splitting
// those whose answers are cut off; the answers come back in the units'
// order, whatever order the model answers in. A unit that fails cancels
// the others.
func (d *Dreamer) askAll(ctx context.Context, c *calls, units []unit, meta map[string]string, meter *usageMeter) ([]unitAnswer, error) {
	for i := range units {
		units[i].label = fmt.Sprintf("part %d of %d of this dream", i+1, len(units))
	}
	results, err := each(ctx, units, func(ctx context.Context, u unit) ([]unitAnswer, error) {
		return d.ask(ctx, c, u, meta, meter)
	})
	if err != nil {
		return nil, err
	}
	var out []unitAnswer
	for _, r := range results {
		out = append(out, r...)
	}
	return out, nil
}

// each runs fn on every item at once (the calls' slots bound the model
// calls in flight) and returns the results in the items' order; the
// first failure cancels the others and is returned (firstError).
func each[T, R any](ctx context.Context, items []T, fn func(context.Context, T) (R, error)) ([]R, error) {
	results := make([]R, len(items))
	errs := make([]error, len(items))
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if results[i], errs[i] = fn(gctx, it); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	return results, nil
}

// ask asks one unit, and its two halves at once when its answer is cut
// off; the halves' answers come back first half first.
func (d *Dreamer) ask(ctx context.Context, c *calls, u unit, meta map[string]string, meter *usageMeter) ([]unitAnswer, error) {
	prompt, rf, err := d.render(u, meta)
	if err != nil {
		return nil, err
	}
	resp, err := c.complete(ctx, prompt)
	if err != nil {
		return nil, err
	}
	ans, perr := ParseOps(resp.Text)
	if cutOff(resp) || errors.Is(perr, ErrCutOff) {
		a, b, ok := u.split()
		if !ok {
			return nil, agentmem.Errorf(agentmem.ELLMFailed, "an answer about a single memory or record was cut off at the token cap (%d); raise AGENTMEM_DREAM_MAX_TOKENS", d.Config.MaxTokens)
		}
		meter.add(resp, true)
		a.label, b.label = u.label+" (first half, asked again: the answer was cut off)", u.label+" (second half, asked again: the answer was cut off)"
		halves, err := each(ctx, []unit{a, b}, func(ctx context.Context, h unit) ([]unitAnswer, error) {
			return d.ask(ctx, c, h, meta, meter)
		})
		if err != nil {
			return nil, err
		}
		return append(halves[0], halves[1]...), nil
	}
	meter.add(resp, false)
	if perr != nil {
		return nil, agentmem.Wrap(agentmem.ELLMFailed, perr, "the answer could not be read: %s", perr)
	}
	return []unitAnswer{{unit: u, refs: rf, answer: ans}}, nil
}
