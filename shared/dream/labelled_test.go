package dream_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dream/support"
	"github.com/agentmem/agentmem/shared/dream/support/supporttest"
)

// TestLabelledClaimsThroughADream plays labelled claims of the support
// test as a model's additions in whole dreams, one dream per claim on a
// scope of its own holding the claim's project (memories and daily
// records written through the store), and checks that the dream keeps
// or refuses each as the support test does on the same sources: the
// operations format, the references, the typed fields and the dream's
// own checks lose no claim the test keeps and let none through that it
// drops. A claim that repeats a memory may be refused as a duplicate
// either way: nothing is added, and the memory says what it says.
func TestLabelledClaimsThroughADream(t *testing.T) {
	t.Parallel()
	set, err := supporttest.Read("support/testdata/fresh3.json")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	cases := 0
	for _, p := range set.Projects[:3] {
		for _, c := range set.Cases {
			if c.Project != p.Name {
				continue
			}
			cases++
			scope := fmt.Sprintf("%s-%s", p.Name, c.ID)
			ids := map[string]string{} // labelled id -> stored id
			var srcs []support.Source
			for i, s := range p.Sources {
				if s.Kind == "daily" {
					r, err := f.store.AppendDaily(f.ctx, agentmem.DailyRecord{AgentName: "nori", ProjectID: scope, Title: s.Title, Content: s.Content,
						At: now.Add(-20*time.Hour + time.Duration(i)*time.Minute).Format(time.RFC3339)})
					if err != nil {
						t.Fatal(err)
					}
					ids[s.ID] = r.ID
					srcs = append(srcs, support.RecordSource(r))
					continue
				}
				m, err := f.store.CreateMemory(f.ctx, agentmem.Memory{AgentName: "nori", ProjectID: scope, Source: agentmem.SourceExtraction,
					Type: agentmem.Type(s.Type), Content: s.Content, Rationale: s.Rationale, Status: s.Status,
					Trigger: s.Trigger, Solution: s.Solution, Context: s.Context, Confidence: s.Confidence})
				if err != nil {
					t.Fatalf("%s: seed %s: %v", c.ID, s.ID, err)
				}
				ids[s.ID] = m.ID
				srcs = append(srcs, support.MemorySource(m))
			}
			var cites []string
			for _, id := range c.Cites {
				cites = append(cites, ids[id])
			}
			op := map[string]any{"op": "add", "type": c.Claim.Type, "content": c.Claim.Content, "cite": cites}
			for k, v := range map[string]string{"rationale": c.Claim.Rationale, "status": c.Claim.Status, "trigger": c.Claim.Trigger,
				"solution": c.Claim.Solution, "context": c.Claim.Context} {
				if v != "" {
					op[k] = v
				}
			}
			if c.Claim.Confidence != nil {
				op["confidence"] = *c.Claim.Confidence
			}
			js, err := json.Marshal(op)
			if err != nil {
				t.Fatal(err)
			}
			_, client := newChat(t, fixed(ops(string(js))))
			res, err := dream.New(f.dreamStore, client, quiet, dream.Config{NoVerify: true, NoRestate: true}).
				Run(f.ctx, dream.Request{AgentName: "nori", ProjectID: scope})
			added, duplicate, class := true, false, ""
			switch {
			case err != nil && strings.Contains(err.Error(), "none of the answer's"):
				// an answer whose only change is refused fails as a whole,
				// nothing committed
				added, class = false, "(the whole answer)"
			case err != nil:
				t.Fatalf("%s: dream: %v", c.ID, err)
			default:
				for _, d := range res.Dream.Dropped {
					added, class = false, d.Class
					duplicate = d.Class == dream.ClassDuplicate
				}
			}
			v := support.NewCorpus(srcs).Check(c.Claim.Support(), cites...)
			switch {
			case added && !v.Supported:
				t.Errorf("%s (%s): the dream added it; the support test on the same sources drops it (%s: %s)", c.ID, c.Label, v.Class, v.Detail)
			case !added && !duplicate && v.Supported:
				t.Errorf("%s (%s): the dream refused it (%s); the support test on the same sources keeps it", c.ID, c.Label, class)
			}
		}
	}
	if cases < 40 {
		t.Fatalf("played %d claims, want at least 40", cases)
	}
}
