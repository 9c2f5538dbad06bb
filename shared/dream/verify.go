package dream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/prompts"
	"github.com/agentmem/agentmem/shared/search"
)

// The verifier: a second opinion on the changes that passed the support
// test, through the same llm.Client (prompt "verify"). Each change is a
// claim with the texts of its cited sources; the model answers, per
// change, whether they support it, contradict it or do not mention it.
// Only "supports" keeps a change; the others are refused with the classes
// verifier_contradicts and verifier_not_mentioned. The deterministic test
// stays the floor: the verifier can only refuse more, and when a call
// fails or its answer cannot be read, the changes of that batch stand on
// the deterministic test and the diary says the verifier failed.
const (
	// verifyBatch is how many changes one verifier call checks.
	verifyBatch = 16
	// verifySourceBytes bounds each cited source's text in the prompt.
	verifySourceBytes = 600
)

// verify asks the verifier about changes, its batches at once (the
// calls' slots bound them), and returns those it keeps, those it refuses,
// and its report, in the changes' order whatever order the answers come
// in. A batch whose call fails leaves its changes to the support test;
// it does not stop the others.
func (d *Dreamer) verify(ctx context.Context, c *calls, changes []change, src sourceIndex) ([]change, []agentmem.DroppedBullet, *agentmem.VerifierReport) {
	rep := &agentmem.VerifierReport{Status: agentmem.VerifierOff}
	if d.Config.NoVerify || len(changes) == 0 {
		return changes, nil, rep
	}
	rep.Status = agentmem.VerifierRan
	var batches [][]change
	for start := 0; start < len(changes); start += verifyBatch {
		batches = append(batches, changes[start:min(len(changes), start+verifyBatch)])
	}
	outcomes := askBatches(ctx, batches, func(ctx context.Context, batch []change) ([]string, agentmem.ModelUsage, error) {
		return d.verifyBatch(ctx, c, batch, src)
	})
	var kept []change
	var dropped []agentmem.DroppedBullet
	var failures []string
	for b, batch := range batches {
		o := outcomes[b]
		rep.Checked += len(batch)
		rep.Usage.Add(o.usage)
		if o.err != nil {
			failures = append(failures, o.err.Error())
			kept = append(kept, batch...)
			continue
		}
		for i, ch := range batch {
			switch v := o.answers[i]; v {
			case agentmem.VerdictSupports:
				ch.verified = v
				kept = append(kept, ch)
			case agentmem.VerdictContradicts, agentmem.VerdictNotMentioned:
				class := ClassVerifierContradicts
				if v == agentmem.VerdictNotMentioned {
					class = ClassVerifierNotMentioned
				}
				dropped = append(dropped, droppedOp(Op{Op: ch.op}, ch.memory, ch.cites, class,
					"the verifier found that the cited sources "+strings.ReplaceAll(v, "_", " ")+" it"))
				rep.Dropped++
			default:
				// No verdict for it: the deterministic test's result stands.
				kept = append(kept, ch)
			}
		}
	}
	if len(failures) > 0 {
		rep.Status = agentmem.VerifierFailed
		rep.Error = truncate(fmt.Sprintf("%d of %d verifier calls failed; their changes stand on the support test: %s",
			len(failures), len(batches), failures[0]), 500)
	}
	return kept, dropped, rep
}

// verifyBatch asks about one batch; verdicts[i] is the verdict on
// batch[i] ("" when the answer has none for it).
func (d *Dreamer) verifyBatch(ctx context.Context, c *calls, batch []change, src sourceIndex) ([]string, agentmem.ModelUsage, error) {
	var b strings.Builder
	for i, ch := range batch {
		fmt.Fprintf(&b, "### Change %d: %s\n", i+1, verifyClaim(ch))
		writeCited(&b, src, claimText(ch.memory), ch.cites, verifySourceBytes)
		b.WriteByte('\n')
	}
	text, usage, err := askOnce(ctx, c, "verify", "changes", b.String(), "the verifier's answer was cut off")
	if err != nil {
		return nil, usage, err
	}
	verdicts, err := ParseVerdicts(text, len(batch))
	return verdicts, usage, err
}

// batchOutcome is one batch's answers (answers[i] on the batch's i-th
// item), what the call cost, or why it has none.
type batchOutcome[A any] struct {
	answers []A
	usage   agentmem.ModelUsage
	err     error
}

// askBatches asks about every batch at once (the calls' slots bound
// them), in the batches' order whatever order the answers come in. A
// failed batch is an outcome, not an error: it never cancels the others.
func askBatches[B, A any](ctx context.Context, parts [][]B, ask func(context.Context, []B) ([]A, agentmem.ModelUsage, error)) []batchOutcome[A] {
	outcomes, _ := each(ctx, parts, func(ctx context.Context, batch []B) (batchOutcome[A], error) {
		answers, usage, err := ask(ctx, batch)
		return batchOutcome[A]{answers, usage, err}, nil
	})
	return outcomes
}

// writeCited lists the texts of the sources cited, as the verify and
// restate prompts show them: each whole when it fits in maxBytes, else
// the sentences that share most of claim's words (excerpt).
func writeCited(b *strings.Builder, src sourceIndex, claim string, cites []string, maxBytes int) {
	for _, id := range cites {
		kind := "record"
		if _, ok := src.memories[id]; ok {
			kind = "memory"
		}
		fmt.Fprintf(b, "- cited %s %s: %s\n", kind, id, excerpt(oneLine(src.text(id)), claim, maxBytes))
	}
}

// excerpt returns text when it fits in maxBytes, else the sentences of
// text that share the most of claim's search terms, in the text's order,
// "…" marking what is left out, within maxBytes: what a change rests on,
// wherever it stands in a long source.
func excerpt(text, claim string, maxBytes int) string {
	if len(text) <= maxBytes {
		return text
	}
	terms := map[string]bool{}
	for _, t := range search.Tokenize(claim) {
		terms[t] = true
	}
	parts := sentences(text)
	type scored struct{ i, score int }
	var order []scored
	for i, s := range parts {
		score := 0
		for _, t := range search.Tokenize(s) {
			if terms[t] {
				score++
			}
		}
		order = append(order, scored{i, score})
	}
	slices.SortStableFunc(order, func(a, b scored) int { return b.score - a.score })
	keep := make([]bool, len(parts))
	size := 0
	for _, o := range order {
		n := len(parts[o.i]) + len(" … ")
		if o.score == 0 || size+n > maxBytes {
			continue
		}
		keep[o.i], size = true, size+n
	}
	var out []string
	for i, s := range parts {
		switch {
		case keep[i]:
			out = append(out, s)
		case len(out) == 0 || out[len(out)-1] != "…":
			out = append(out, "…")
		}
	}
	if size == 0 {
		return truncate(text, maxBytes)
	}
	return truncate(strings.Join(out, " "), maxBytes)
}

// askOnce renders the prompt name with body as key, asks the model once
// and returns its answer and what it cost; a failed call, or an answer cut
// off (cutMessage), is an error.
func askOnce(ctx context.Context, c *calls, name, key, body, cutMessage string) (string, agentmem.ModelUsage, error) {
	var usage agentmem.ModelUsage
	prompt, err := prompts.Must(name).Render(map[string]string{key: strings.TrimSpace(body)})
	if err != nil {
		return "", usage, err
	}
	resp, err := c.complete(ctx, prompt)
	if err != nil {
		return "", usage, errors.New(llmMessage(err))
	}
	usage = agentmem.ModelUsage{Calls: 1, InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens}
	if cutOff(resp) {
		return "", usage, errors.New(cutMessage)
	}
	return resp.Text, usage, nil
}

// verifyClaim states a change as a claim the cited sources can be asked
// about.
func verifyClaim(c change) string {
	m := c.memory
	m.Pinned = false
	text := oneLine(markdown.Bullet(m))
	if c.op == agentmem.OpRetire {
		return fmt.Sprintf("the memory %q no longer holds (the sources contradict it or say it is out of date) or a cited memory says all of it", text)
	}
	return text
}

// verdictRank orders the verdicts on one change: a refusal outranks
// support, a contradiction outranks "not mentioned".
var verdictRank = map[string]int{agentmem.VerdictSupports: 1, agentmem.VerdictNotMentioned: 2, agentmem.VerdictContradicts: 3}

// ParseVerdicts reads a verifier answer: {"verdicts": [{"n": 1,
// "verdict": "supports"}, ...]} (or a bare list), in fences or prose.
// verdicts[i] is the verdict on change i+1, "" when the answer gives none
// or an unknown word; of two verdicts on one change, the refusal, whether
// they are in one list or in two (a draft, or stored text the verifier
// quotes that forges a verdict: the verifier may only refuse more, so no
// list can take back a refusal another one gives). An answer with no
// such JSON is an error.
func ParseVerdicts(text string, n int) ([]string, error) {
	text = reasoning.ReplaceAllString(text, "")
	starts := candidateStarts(text)
	if len(starts) > maxJSONCandidates {
		starts = starts[len(starts)-maxJSONCandidates:]
	}
	var out []string
	spanEnd := 0
	for _, start := range starts {
		if start < spanEnd {
			continue // inside a value read already
		}
		dec := json.NewDecoder(strings.NewReader(text[start:]))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			continue
		}
		spanEnd = start + int(dec.InputOffset())
		list, ok := v.([]any)
		if obj, isObj := v.(map[string]any); isObj {
			x, found := pick(obj, "verdicts", "results", "changes")
			list, ok = x.([]any)
			ok = ok && found
		}
		if !ok {
			continue
		}
		if out == nil {
			out = make([]string, n)
		}
		for j, it := range list {
			idx, verdict := j, ""
			switch e := it.(type) {
			case map[string]any:
				if x, ok := pick(e, "n", "change", "number", "index", "id"); ok {
					if k, err := strconv.Atoi(strings.TrimSpace(str(x))); err == nil {
						idx = k - 1
					}
				}
				if x, ok := pick(e, "verdict", "result", "answer", "label"); ok {
					verdict = str(x)
				}
			case string:
				verdict = e
			}
			if idx < 0 || idx >= n {
				continue
			}
			v := ""
			switch normKey(verdict) {
			case "supports", "supported", "support", "yes":
				v = agentmem.VerdictSupports
			case "contradicts", "contradicted", "contradiction", "no":
				v = agentmem.VerdictContradicts
			case "notmentioned", "notsupported", "unsupported", "unknown", "none":
				v = agentmem.VerdictNotMentioned
			}
			// Two verdicts on one change: the verifier may only refuse
			// more, so the stronger refusal stands whatever the order.
			if verdictRank[v] > verdictRank[out[idx]] {
				out[idx] = v
			}
		}
	}
	if out == nil {
		return nil, errors.New("the verifier's answer has no list of verdicts")
	}
	return out, nil
}
