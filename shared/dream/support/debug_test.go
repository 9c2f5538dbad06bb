package support

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
)

func dumpDoc(d *doc) {
	for _, s := range d.sents {
		fmt.Printf("  SENT %d hedged=%v all=%v dec=%v root=%v res=%v open=%v cneg=%v links=%d\n", s.idx, s.hedged, s.hedgeAll, s.decision, s.rootCause, s.resolved, s.open, s.counterNeg, len(s.links))
		for _, c := range s.conjs {
			var ws []string
			for _, k := range c.toks {
				ws = append(ws, d.toks[k].raw)
			}
			verb := ""
			if c.verb >= 0 {
				verb = d.toks[c.verb].raw
			}
			fmt.Printf("    CONJ[%s/%d] %q own=%v inh=%v subj=%v verb=%s(%s) pass=%v neg=%v hedged=%v from=%v to=%v\n", c.marker, c.role, strings.Join(ws, " "), c.own, c.inherited, c.subject, verb, c.verbTerm, c.passive, c.neg, c.hedged, c.fromSide, c.toSide)
		}
		for _, l := range s.links {
			fmt.Printf("    LINK cause=%v effect=%v\n", l.cause, l.effect)
		}
	}
	for _, n := range d.numbers() {
		fmt.Printf("  NUM %s unit=%s measure=%v ctx=%v\n", n.value, n.unit, n.measure, n.ctx)
	}
}

func TestDebugCase(t *testing.T) {
	id := os.Getenv("CASE")
	if id == "" {
		t.Skip()
	}
	raw, _ := os.ReadFile("testdata/claims.json")
	var set struct {
		Projects []struct {
			Name    string
			Sources []map[string]any
		}
		Cases []struct {
			ID, Project string
			Claim       map[string]any
			Cites       []string
		}
	}
	json.Unmarshal(raw, &set)
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	for _, c := range set.Cases {
		if c.ID != id {
			continue
		}
		cl := Claim{Type: agentmem.Type(str(c.Claim, "type")), Content: str(c.Claim, "content"), Rationale: str(c.Claim, "rationale"), Status: str(c.Claim, "status"), Trigger: str(c.Claim, "trigger"), Context: str(c.Claim, "context"), Solution: str(c.Claim, "solution")}
		fmt.Println("CLAIM", claimText(cl))
		dumpDoc(analyse(claimText(cl)))
		var srcs []Source
		for _, p := range set.Projects {
			if p.Name != c.Project {
				continue
			}
			for _, s := range p.Sources {
				src := Source{ID: str(s, "id"), Kind: Kind(str(s, "kind")), Title: str(s, "title"), Text: str(s, "content"), Type: agentmem.Type(str(s, "type")), Status: str(s, "status"), Rationale: str(s, "rationale"), Trigger: str(s, "trigger"), Context: str(s, "context"), Solution: str(s, "solution")}
				srcs = append(srcs, src)
				for _, ci := range c.Cites {
					if ci == src.ID {
						fmt.Println("SOURCE", src.ID, sourceText(src))
						dumpDoc(analyse(sourceText(src)))
					}
				}
			}
		}
		debugOn = true
		corp := NewCorpus(srcs)
		if os.Getenv("POOLONLY") == "" { fmt.Printf("CITED: %+v\n", corp.Check(cl, c.Cites...)) }
		fmt.Printf("POOL:  %+v\n", corp.Check(cl))
	}
}
