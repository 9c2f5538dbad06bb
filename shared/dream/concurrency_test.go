package dream_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dynamostore"
	"github.com/agentmem/agentmem/shared/llm/llmtest"
)

// gate is a stand-in's answer that holds every call until the test lets
// it through, so that the test decides the order in which the answers
// come back, and sees how many calls are in flight at once.
type gate struct {
	mu      sync.Mutex
	held    []chan struct{}
	most    int           // the most calls held at once
	arrived chan struct{} // a call arrived (a wake-up, not a count)
}

func newGate() *gate { return &gate{arrived: make(chan struct{}, 1)} }

// answer holds each call until it is let through, then answers with next.
func (g *gate) answer(next llmtest.Answer) llmtest.Answer {
	return func(ctx context.Context, prompt string) llmtest.Reply {
		release := make(chan struct{})
		g.mu.Lock()
		g.held = append(g.held, release)
		g.most = max(g.most, len(g.held))
		g.mu.Unlock()
		select {
		case g.arrived <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-ctx.Done():
			g.mu.Lock()
			if i := slices.Index(g.held, release); i >= 0 {
				g.held = slices.Delete(g.held, i, i+1)
			}
			g.mu.Unlock()
			return llmtest.Reply{Status: 499, Text: "the client went away"}
		}
		return next(ctx, prompt)
	}
}

// letThrough answers n calls one at a time: each time that the calls
// held reach min(limit, calls left), it lets through the one pick
// chooses among them (in their arrival order). It stops early when
// stopped is closed (the dream ended), and fails the test when no call
// comes for a minute (a watchdog: the dream is stuck).
func (g *gate) letThrough(t *testing.T, n, limit int, pick func(held int) int, stopped <-chan struct{}) {
	t.Helper()
	watchdog := time.NewTimer(time.Minute)
	defer watchdog.Stop()
	for done := 0; done < n; done++ {
		want := min(limit, n-done)
		for {
			g.mu.Lock()
			held := len(g.held)
			g.mu.Unlock()
			if held >= want {
				break
			}
			select {
			case <-g.arrived:
			case <-stopped:
				return
			case <-watchdog.C:
				t.Fatalf("stuck: %d of %d calls answered, %d held, waiting for %d", done, n, held, want)
			}
		}
		g.mu.Lock()
		i := pick(len(g.held))
		release := g.held[i]
		g.held = slices.Delete(g.held, i, i+1)
		g.mu.Unlock()
		close(release)
	}
}

func (g *gate) maxHeld() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.most
}

// fixedIDScope gives nori/p n memories with ids fixed in advance (so that
// two stores hold the same scope) and records daily records.
func fixedIDScope(t testing.TB, st *dynamostore.Store, n, records int) {
	t.Helper()
	ctx := context.Background()
	types := []agentmem.Type{agentmem.TypeFinding, agentmem.TypeDecision, agentmem.TypeLearning, agentmem.TypeNote}
	var ms []agentmem.Memory
	for i := range n {
		ms = append(ms, agentmem.Memory{
			ID: fmt.Sprintf("01JD5Q8Z3K7M2N4P6R8T%06d", i), AgentName: "nori", ProjectID: "p", Source: agentmem.SourceExtraction, Type: types[i%len(types)],
			Content:   fmt.Sprintf("Service %d of the checkout flow retries its calls to the payment provider with backoff number %d", i, i),
			CreatedAt: agentmem.FormatTime(now.Add(-time.Duration(i+1) * time.Minute)),
		})
	}
	if _, err := st.RestoreMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for r := range records {
		content := fmt.Sprintf("The webhook handler for order %d now checks the idempotency key before charging; make test passes.", r)
		at := agentmem.FormatTime(now.Add(-time.Duration(records-r) * time.Minute))
		if _, err := st.AppendDaily(ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: "p", Title: fmt.Sprintf("run-%d", r), Content: content, At: at}); err != nil {
			t.Fatal(err)
		}
	}
}

var verifyChange = regexp.MustCompile(`(?m)^### Change (\d+): (.*)$`)

// verdicts answers a verifier prompt: not_mentioned for the changes
// whose claim holds a 5, supports for the others.
func verdicts(prompt string) llmtest.Reply {
	var list []string
	for _, m := range verifyChange.FindAllStringSubmatch(prompt, -1) {
		v := "supports"
		if strings.Contains(m[2], "5") {
			v = "not_mentioned"
		}
		list = append(list, fmt.Sprintf(`{"n": %s, "verdict": %q}`, m[1], v))
	}
	return llmtest.Reply{Text: "```json\n{\"verdicts\": [" + strings.Join(list, ", ") + "]}\n```"}
}

// dreamAndVerify answers the dream's prompts as scripted(2) does and the
// verifier's with verdicts.
func dreamAndVerify(ctx context.Context, prompt string) llmtest.Reply {
	if strings.Contains(prompt, "<changes>") {
		return verdicts(prompt)
	}
	return scripted(2)(ctx, prompt)
}

// dreamView is what must not depend on the order of the answers: the
// diary entry without its ids and times, its record citations named by
// the records' titles (each store gives its records ids of its own), and
// the core it left.
type dreamView struct {
	Operations []agentmem.DreamOperation
	Dropped    []agentmem.DroppedBullet
	Notes      []string
	Diary      string
	Usage      agentmem.ModelUsage
	Verifier   agentmem.VerifierReport
	Counts     [5]int
	Core       []string
}

func viewOf(t *testing.T, f *fixture, dr *agentmem.Dream) dreamView {
	t.Helper()
	title := map[string]string{}
	records, err := f.store.DailyRecords(f.ctx, "nori", "p", now.AddDate(0, 0, -3), now.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		title[r.ID] = "record " + r.Title
	}
	named := func(ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			if n, ok := title[id]; ok {
				id = n
			}
			out[i] = id
		}
		return out
	}
	c := dreamView{Notes: dr.Notes, Diary: dr.Diary, Usage: *dr.Usage, Verifier: *dr.Verifier,
		Counts: [5]int{dr.Created, dr.Updated, dr.Retired, dr.Unchanged, dr.Kept}, Core: f.contents()}
	for _, op := range dr.Operations {
		if op.Op == agentmem.OpAdd {
			op.MemoryID = "" // new, of this run
		}
		op.Citations = named(op.Citations)
		c.Operations = append(c.Operations, op)
	}
	for _, b := range dr.Dropped {
		b.Citations = named(b.Citations)
		c.Dropped = append(c.Dropped, b)
	}
	return c
}

// TestTheAnswersOrderDoesNotChangeTheDream: a dream whose review parts
// and verifier batches run 3 at a time makes the same operations, diary
// and commit order, with the same token count, as one asking them one by
// one, whatever order the answers come back in; and never has more than
// 3 calls in flight.
func TestTheAnswersOrderDoesNotChangeTheDream(t *testing.T) {
	t.Parallel()
	const limit = 3
	cfg := dream.Config{MaxTokens: dream.MinMaxTokens, CompressAfterDays: -1}

	// The reference: one call at a time, answered in the order asked.
	ref := newFixture(t)
	fixedIDScope(t, ref.store, 60, 12)
	chat, client := newChat(t, dreamAndVerify)
	seq := cfg
	seq.Concurrency = 1
	res, err := run(dream.New(ref.dreamStore, client, quiet, seq), dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := viewOf(t, ref, res.Dream)
	var reviews, verifies int
	for _, p := range chat.Prompts() {
		if strings.Contains(p, "<changes>") {
			verifies++
		} else {
			reviews++
		}
	}
	if reviews < 2*limit || verifies < 2 || len(want.Dropped) == 0 || want.Counts[1] == 0 {
		t.Fatalf("the reference dream made %d review and %d verifier calls, dropped %d, updated %d: too little to shuffle",
			reviews, verifies, len(want.Dropped), want.Counts[1])
	}

	rng := rand.New(rand.NewPCG(1, 2))
	orders := []struct {
		name string
		pick func(held int) int
	}{
		{"in order", func(int) int { return 0 }},
		{"newest first", func(held int) int { return held - 1 }},
		{"shuffled", func(held int) int { return rng.IntN(held) }},
	}
	for _, o := range orders {
		t.Run(o.name, func(t *testing.T) {
			f := newFixture(t)
			fixedIDScope(t, f.store, 60, 12)
			g := newGate()
			_, client := newChat(t, g.answer(dreamAndVerify))
			c := cfg
			c.Concurrency = limit
			d := dream.New(f.dreamStore, client, quiet, c)
			type outcome struct {
				res agentmem.DreamResult
				err error
			}
			out := make(chan outcome, 1)
			stopped := make(chan struct{})
			go func() {
				defer close(stopped)
				res, err := run(d, dream.Request{})
				out <- outcome{res, err}
			}()
			g.letThrough(t, reviews, limit, o.pick, stopped)
			g.letThrough(t, verifies, limit, o.pick, stopped)
			got := <-out
			if got.err != nil {
				t.Fatal(got.err)
			}
			if m := g.maxHeld(); m != limit {
				t.Errorf("at most %d calls were in flight at once, want %d", m, limit)
			}
			if diff := viewOf(t, f, got.res.Dream); !reflect.DeepEqual(diff, want) {
				t.Errorf("the dream differs from the one asked in order:\ngot  %+v\nwant %+v", diff, want)
			}
			f.countersConsistent()
		})
	}
}

// TestTheHalvesOfACutOffAnswerAreAskedAtOnce: both halves of a part whose
// answer was cut off are in flight together.
func TestTheHalvesOfACutOffAnswerAreAskedAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fixedIDScope(t, f.store, 6, 1)
	g := newGate()
	chat, client := newChat(t, g.answer(tooLongAbove(3)))
	d := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, MaxTokens: dream.MinMaxTokens, CompressAfterDays: -1, Concurrency: 4})
	out := make(chan error, 1)
	stopped := make(chan struct{})
	var res agentmem.DreamResult
	go func() {
		defer close(stopped)
		var err error
		res, err = run(d, dream.Request{})
		out <- err
	}()
	g.letThrough(t, 1, 1, func(int) int { return 0 }, stopped) // the whole part: cut off
	// The halves: the gate waits until both are held, then answers the
	// second first.
	g.letThrough(t, 2, 2, func(held int) int { return held - 1 }, stopped)
	if err := <-out; err != nil {
		t.Fatal(err)
	}
	if m := g.maxHeld(); m != 2 {
		t.Errorf("at most %d calls in flight, want the 2 halves at once", m)
	}
	dr := res.Dream
	if dr.Usage.Retries != 1 || dr.Usage.Calls != 3 || len(chat.Prompts()) != 3 || dr.Updated != 6 || dr.Created != 1 {
		t.Errorf("calls %d (stand-in %d), retries %d, updated %d, created %d; want 3 calls, 1 retry, 6 updated, 1 added",
			dr.Usage.Calls, len(chat.Prompts()), dr.Usage.Retries, dr.Updated, dr.Created)
	}
	// The first half's memories come first in the commit, as asked.
	var updated []string
	for _, op := range dr.Operations {
		if op.Op == agentmem.OpUpdate {
			updated = append(updated, op.MemoryID)
		}
	}
	if len(updated) != 6 || !slices.IsSorted(updated) {
		t.Errorf("updates in the commit %v: want the first half's (the newest memories) before the second's, as the part listed them", updated)
	}
	f.countersConsistent()
}

// TestAFailedCallCancelsTheOthers: one part's answer that cannot be read
// fails the dream at once: the calls in flight are cancelled, the parts
// not yet asked are never asked, and nothing is committed.
func TestAFailedCallCancelsTheOthers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fixedIDScope(t, f.store, 60, 12)
	before := f.core()
	var mu sync.Mutex
	calls := 0
	chat, client := newChatTimeout(t, func(ctx context.Context, prompt string) llmtest.Reply {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			return llmtest.Reply{Text: "I would rather not."}
		}
		<-ctx.Done() // held until the dream gives up on it
		return llmtest.Reply{Status: 499, Text: "the client went away"}
	}, time.Minute)
	d := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, MaxTokens: dream.MinMaxTokens, CompressAfterDays: -1, Concurrency: 2})
	_, err := run(d, dream.Request{})
	if agentmem.ErrorCode(err) != agentmem.ELLMFailed || !strings.Contains(agentmem.ErrorMessage(err), "could not be read") {
		t.Fatalf("got %v, want llm_failed: the answer could not be read", err)
	}
	if n := len(chat.Prompts()); n > 3 {
		t.Errorf("%d calls reached the model; want the 2 in flight (and at most one that started as the first failed), not the other parts", n)
	}
	if !reflect.DeepEqual(f.core(), before) {
		t.Error("the core changed")
	}
	e := f.diary("2026-11-22")
	if len(e) != 1 || e[0].Status != agentmem.DreamFailed || e[0].Usage == nil || e[0].Usage.Calls != 1 {
		t.Errorf("diary: %+v; want one failed entry counting the one answer", e)
	}
}

// TestMaxRoundsStopsALargeDreamBeforeTheModel: a request that allows
// fewer rounds of model calls than the scope's review takes gets a
// *TooLargeError before any call, with nothing recorded and the lease
// given back; one that allows them dreams.
func TestMaxRoundsStopsALargeDreamBeforeTheModel(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fixedIDScope(t, f.store, 60, 12)
	chat, client := newChat(t, scripted(5))
	d := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, MaxTokens: dream.MinMaxTokens, CompressAfterDays: -1, Concurrency: 4})
	tests := []struct {
		rounds  int
		tooMany bool
	}{{1, true}, {2, true}, {0, false}}
	for _, tt := range tests {
		before := len(chat.Prompts())
		res, err := run(d, dream.Request{MaxRounds: tt.rounds})
		var tooLarge *dream.TooLargeError
		if !tt.tooMany {
			if err != nil || res.Status != agentmem.DreamStatusDreamed {
				t.Errorf("MaxRounds %d: %+v, %v; want it dreamed", tt.rounds, res, err)
			}
			continue
		}
		if !errors.As(err, &tooLarge) || tooLarge.Calls <= 4*tt.rounds || tooLarge.Rounds != (tooLarge.Calls+3)/4 || tooLarge.MaxRounds != tt.rounds ||
			!strings.Contains(err.Error(), "more than a request can wait for") {
			t.Fatalf("MaxRounds %d: got %v, want a *TooLargeError saying how many calls", tt.rounds, err)
		}
		st := f.state()
		if n := len(chat.Prompts()) - before; n != 0 || len(f.diary("2026-11-22")) != 0 || st.LeaseOwner != "" || !st.Pending() {
			t.Errorf("MaxRounds %d: %d model calls, state %+v; want none, nothing recorded, the lease given back", tt.rounds, n, st)
		}
	}
}
