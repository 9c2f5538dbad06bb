package dream_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
)

// TestALargeScopeIsSplitUnderTheCap: every memory is reviewed in exactly
// one call, no call may answer more than the cap, and the dream commits.
func TestALargeScopeIsSplitUnderTheCap(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bulkScope(t, f.store, "nori", 200, 30)
	chat, client := newChat(t, scripted(8))
	d := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, MaxTokens: dream.MinMaxTokens, CompressAfterDays: -1})
	res, err := run(d, dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	learn := 0
	for _, p := range chat.Prompts() {
		for _, m := range promptMemory.FindAllStringSubmatch(promptSection(p, "memories"), -1) {
			seen[m[3]]++
		}
		if strings.Contains(p, "You may add memories in this part.") {
			learn++
		}
	}
	if len(seen) != 200 {
		t.Errorf("%d memories reviewed, want 200", len(seen))
	}
	for m, n := range seen {
		if n != 1 {
			t.Errorf("%q reviewed %d times", m, n)
		}
	}
	u := chat.Usage()
	if u.MaxTokens != dream.MinMaxTokens || u.Calls < 20 || learn < 2 {
		t.Errorf("stand-in usage %+v, %d parts that add; want every call capped at %d, the memories in 20+ calls, the records in 2+", u, learn, dream.MinMaxTokens)
	}
	dr := res.Dream
	if dr.Usage.Calls != u.Calls || dr.Usage.Retries != 0 || dr.Created != 30 || dr.Updated < 20 || len(dr.Dropped) != 0 {
		t.Errorf("dream: calls %d (stand-in %d), retries %d, created %d, updated %d, dropped %+v", dr.Usage.Calls, u.Calls, dr.Usage.Retries, dr.Created, dr.Updated, dr.Dropped)
	}
	if got := len(f.core()); got != 230 {
		t.Errorf("%d memories after the dream, want 230", got)
	}
	f.countersConsistent()
}

// TestACutOffAnswerIsAskedAgainSmaller: an answer cut at the cap is
// never used; its part is halved until the answers fit.
func TestACutOffAnswerIsAskedAgainSmaller(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bulkScope(t, f.store, "nori", 12, 2)
	chat, client := newChat(t, tooLongAbove(3))
	d := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, MaxTokens: dream.MinMaxTokens, CompressAfterDays: -1})
	res, err := run(d, dream.Request{})
	if err != nil {
		t.Fatal(err)
	}
	dr := res.Dream
	if dr.Usage.Retries == 0 || dr.Updated != 12 {
		t.Errorf("retries %d, updated %d; want the cut parts asked again and all 12 updated", dr.Usage.Retries, dr.Updated)
	}
	for _, m := range f.core() {
		if strings.Contains(m.Content, " its ") && m.Source == agentmem.SourceExtraction {
			t.Errorf("memory not updated: %q", m.Content)
		}
	}
	if len(chat.Prompts()) != dr.Usage.Calls {
		t.Errorf("%d calls made, %d in the diary", len(chat.Prompts()), dr.Usage.Calls)
	}
	f.countersConsistent()
}
