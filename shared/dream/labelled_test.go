package dream_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// labelledSet is the part of a labelled set of the support test
// (support/testdata) a dream needs: projects with their sources, and
// claims citing them.
type labelledSet struct {
	Projects []struct {
		Name    string `json:"name"`
		Sources []struct {
			ID        string   `json:"id"`
			Kind      string   `json:"kind"`
			Type      string   `json:"type"`
			Title     string   `json:"title"`
			Content   string   `json:"content"`
			Rationale string   `json:"rationale"`
			Status    string   `json:"status"`
			Trigger   string   `json:"trigger"`
			Solution  string   `json:"solution"`
			Context   string   `json:"context"`
			Conf      *float64 `json:"confidence"`
		} `json:"sources"`
	} `json:"projects"`
	Cases []struct {
		ID      string `json:"id"`
		Project string `json:"project"`
		Label   string `json:"label"`
		Claim   struct {
			Type      string `json:"type"`
			Content   string `json:"content"`
			Rationale string `json:"rationale"`
			Status    string `json:"status"`
			Trigger   string `json:"trigger"`
			Solution  string `json:"solution"`
			Context   string `json:"context"`
		} `json:"claim"`
		Cites []string `json:"cites"`
	} `json:"cases"`
}

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
	raw, err := os.ReadFile("support/testdata/fresh3.json")
	if err != nil {
		t.Fatal(err)
	}
	var set labelledSet
	if err := json.Unmarshal(raw, &set); err != nil {
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
					Trigger: s.Trigger, Solution: s.Solution, Context: s.Context, Confidence: s.Conf})
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
			js, err := json.Marshal(op)
			if err != nil {
				t.Fatal(err)
			}
			_, client := newChat(t, fixed(ops(string(js))))
			res, err := dream.New(f.store, client, quiet, dream.Config{NoVerify: true, NoRestate: true}).
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
			v := support.NewCorpus(srcs).Check(support.Claim{Type: agentmem.Type(c.Claim.Type), Content: c.Claim.Content, Rationale: c.Claim.Rationale,
				Status: c.Claim.Status, Trigger: c.Claim.Trigger, Solution: c.Claim.Solution, Context: c.Claim.Context}, cites...)
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
