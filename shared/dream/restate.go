package dream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// The restate pass: a second chance for faithful claims the support test
// refused because of how they are worded (a free paraphrase, a merge of
// true facts), through the same llm.Client (prompt "restate"). After the
// first review, each addition or update the support test refused with a
// class a restatement may cure (see restatable) is sent, with the texts
// of its cited sources, to the model, at most restateBatch per call and
// each call's answer within the dream's MaxTokens; the model restates the
// claim in the sources' own words or answers drop. Each restatement is
// checked again by the support test against the same cited sources: one
// that passes replaces the refused operation (its citations unchanged;
// the diary's operation keeps the original in Restated) and then goes
// through the rest of the review and the verifier like any other change;
// one that does not stays refused with its first reason. The support
// test stays the floor: the pass can only bring back what it accepts. A
// call that fails, is cut off or cannot be read leaves its claims refused
// and never fails the dream.
const (
	// restateBatch is how many claims one restate call carries.
	restateBatch = 16
	// restateSourceBytes bounds each cited source's text in the prompt:
	// the model needs the sources' words to reuse them.
	restateSourceBytes = 1200
)

// restatable reports whether a refusal of the support test may be cured
// by restating the claim in its sources' words: it says something the
// test reads as another meaning (a negation, a cause, a hedge, a number's
// context, too few of the sources' words...). A missing identifier or
// number is a fabrication no rewording cures; an empty claim or one
// citing no source has nothing to restate.
func restatable(c support.Class) bool {
	switch c {
	case support.IdentifierMissing, support.NumberMissing, support.Empty, support.UnknownSource, "":
		return false
	}
	return true
}

// restateCandidate is an addition or update the support test refused,
// as it was checked.
type restateCandidate struct {
	ref    opRef
	op     string
	memory agentmem.Memory
	cites  []string
	// dropped is its refusal, which stands unless a restatement passes.
	dropped agentmem.DroppedBullet
}

// Restatement is the restate answer's word on one claim: Drop, or the
// claim's Content restated (and, when Fields holds them, its rationale,
// trigger, context or solution; "" removes one). The zero value is no
// answer.
type Restatement struct {
	Drop    bool
	Content string
	// Fields are the typed fields the answer restates, by name
	// ("rationale", "trigger", "context", "solution").
	Fields map[string]string
}

// restateFields are the typed fields a restatement may rewrite.
var restateFields = []string{"rationale", "trigger", "context", "solution"}

// apply returns m as the restatement words it.
func (x Restatement) apply(m agentmem.Memory) agentmem.Memory {
	m.Content = x.Content
	for k, v := range x.Fields {
		switch k {
		case "rationale":
			m.Rationale = v
		case "trigger":
			m.Trigger = v
		case "context":
			m.Context = v
		case "solution":
			m.Solution = v
		}
	}
	return m
}

// restate asks the model to restate the candidates (their batches at
// once; the calls' slots bound them) and returns the restatements that
// pass the support test, with the refusals they replace, and the pass's
// report. A batch whose call fails leaves its candidates refused.
func (d *Dreamer) restate(ctx context.Context, c *calls, cands []restateCandidate, src sourceIndex) (restated, *agentmem.RestateReport) {
	rep := &agentmem.RestateReport{Status: agentmem.RestateOff}
	rs := restated{by: map[opRef]Restatement{}, orig: map[opRef]agentmem.DroppedBullet{}}
	if d.Config.NoRestate || len(cands) == 0 {
		return rs, rep
	}
	rep.Status = agentmem.RestateRan
	cost := func(cd restateCandidate) int { return 2*len(claimText(cd.memory)) + opOverheadBytes }
	parts := batches(cands, cost, d.answerBudget(), restateBatch)
	outcomes := askBatches(ctx, parts, func(ctx context.Context, batch []restateCandidate) ([]Restatement, agentmem.ModelUsage, error) {
		return d.restateBatch(ctx, c, batch, src)
	})
	var failures []string
	for b, batch := range parts {
		o := outcomes[b]
		rep.Asked += len(batch)
		rep.Usage.Add(o.usage)
		if o.err != nil {
			failures = append(failures, o.err.Error())
			continue
		}
		for i, cd := range batch {
			x := o.answers[i]
			switch {
			case x.Drop:
				rep.Declined++
				continue
			case x.Content == "":
				continue // no answer for it: it stays refused
			}
			if v := src.corpus.Check(support.ClaimOf(x.apply(cd.memory)), cd.cites...); !v.Supported {
				continue // the restatement is no better: the first refusal stands
			}
			rs.by[cd.ref], rs.orig[cd.ref] = x, cd.dropped
		}
	}
	if len(failures) > 0 {
		rep.Status = agentmem.RestateFailed
		rep.Error = truncate(fmt.Sprintf("%d of %d restate calls failed; their claims stay refused: %s",
			len(failures), len(parts), failures[0]), 500)
	}
	return rs, rep
}

// restateBatch asks about one batch; answers[i] is the answer on batch[i].
func (d *Dreamer) restateBatch(ctx context.Context, c *calls, batch []restateCandidate, src sourceIndex) ([]Restatement, agentmem.ModelUsage, error) {
	var b strings.Builder
	for i, cd := range batch {
		m := cd.memory
		fmt.Fprintf(&b, "### Claim c%d (a %s; refused: %s)\n", i+1, typeName(m.Type), oneLine(orNone(cd.dropped.Reason, cd.dropped.Class)))
		fmt.Fprintf(&b, "text: %s\n", oneLine(m.Content))
		for _, f := range []struct{ name, v string }{{"rationale", m.Rationale}, {"trigger", m.Trigger}, {"context", m.Context}, {"solution", m.Solution}} {
			if f.v != "" {
				fmt.Fprintf(&b, "%s: %s\n", f.name, oneLine(f.v))
			}
		}
		writeCited(&b, src, claimText(m), cd.cites, restateSourceBytes)
		b.WriteByte('\n')
	}
	text, usage, err := askOnce(ctx, c, "restate", "claims", b.String(), "the restate answer was cut off")
	if err != nil {
		return nil, usage, err
	}
	answers, err := ParseRestatements(text, len(batch))
	return answers, usage, err
}

// ErrNoRestatements: a restate answer holds no complete JSON object with
// a "claims" list.
var ErrNoRestatements = errors.New("the restate answer has no JSON object with a \"claims\" list")

// ParseRestatements reads a restate answer strictly: the last complete
// JSON object of the text (in fences or after prose, reasoning removed)
// that has a "claims" list, each entry {"ref": "c1", "text": "..."} or
// {"ref": "c2", "drop": true}, optionally with "rationale", "trigger",
// "context" or "solution" strings (other keys, such as "why", are
// ignored). answers[i] is the answer on claim c(i+1); an entry whose ref
// is not one of the n claims, that is neither a text nor a drop (or is
// both), or whose claim has two entries, gives no answer. The JSON is
// read as it is written (no trailing commas, no comments). An answer
// without such an object is ErrNoRestatements.
func ParseRestatements(text string, n int) ([]Restatement, error) {
	if len(text) > maxAnswerBytes || n < 0 {
		return nil, ErrNoRestatements
	}
	text = reasoning.ReplaceAllString(text, "")
	starts := candidateStarts(text)
	if len(starts) > maxJSONCandidates {
		starts = starts[len(starts)-maxJSONCandidates:]
	}
	for i := len(starts) - 1; i >= 0; i-- {
		if text[starts[i]] != '{' {
			continue
		}
		v, _, err := decodeStrict(text[starts[i]:])
		if err != nil {
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			continue
		}
		list, ok := obj["claims"].([]any)
		if !ok {
			continue
		}
		return readRestatements(list, n), nil
	}
	return nil, ErrNoRestatements
}

// readRestatements reads the entries of a "claims" list.
func readRestatements(list []any, n int) []Restatement {
	out := make([]Restatement, n)
	seen := make([]int, n)
	for _, it := range list {
		e, ok := it.(map[string]any)
		if !ok {
			continue
		}
		k, ok := restateRef(e["ref"], n)
		if !ok {
			continue
		}
		seen[k]++
		drop, hasDrop := e["drop"]
		text, hasText := e["text"]
		var x Restatement
		switch {
		case hasDrop && hasText:
			continue // both: no answer
		case hasDrop:
			if b, ok := drop.(bool); !ok || !b {
				continue
			}
			x.Drop = true
		case hasText:
			s, ok := text.(string)
			if s = strings.TrimSpace(s); !ok || s == "" || !utf8.ValidString(s) {
				continue
			}
			x.Content = s
			bad := false
			for _, f := range restateFields {
				fv, has := e[f]
				if !has {
					continue
				}
				s, ok := fv.(string)
				if !ok || !utf8.ValidString(s) {
					bad = true
					break
				}
				if x.Fields == nil {
					x.Fields = map[string]string{}
				}
				x.Fields[f] = strings.TrimSpace(s)
			}
			if bad {
				continue
			}
		default:
			continue
		}
		out[k] = x
	}
	for k, c := range seen {
		if c > 1 {
			out[k] = Restatement{} // two answers for one claim: none
		}
	}
	return out
}

// restateRef reads a claim's ref ("c3", "3" or 3) as an index below n.
func restateRef(v any, n int) (int, bool) {
	var s string
	switch x := v.(type) {
	case string:
		s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(x)), "c")
	case json.Number:
		s = x.String()
	default:
		return 0, false
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > n {
		return 0, false
	}
	return k - 1, true
}
