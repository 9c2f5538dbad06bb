package extract

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/secrets"
)

// maxParseBytes is how much of an answer Parse looks at; the rest is
// ignored, so that a runaway answer costs little. Every step after it is
// linear in the text, or bounded by a budget that is.
const maxParseBytes = 256 << 10

// Parse finds the model's final answer in its text and returns the
// learnings, summary and success flag it gives. It reads what models
// write, not only what the prompt asks for:
//
//   - where: reasoning blocks (<think>, <thinking>, <reasoning>, gpt-oss's
//     analysis channel) and sections marked as drafts or reasoning are
//     skipped; an answer after a "Final answer:"/"Corrected:" marker or in
//     an <answer> tag is preferred; otherwise the last answer wins, and
//     an example quoted in prose (inline, or introduced as "for
//     example") loses to any real answer;
//   - shapes: the answer object {"success","summary","learnings"}, a bare
//     list, a single learning, one JSON object per line, learnings as
//     plain strings, grouped by type ({"findings": [...]}) or nested
//     under "result"/"data"/"output"/"answer"; other key names (category,
//     kind, learning, text, insight, description, ...); JSON with
//     comments, trailing or missing commas, single or typographic quotes
//     and Python literals; YAML; Markdown bullet or numbered lists (with
//     "Type:" prefixes, **bold** labels, type headings, typed fields as
//     sub-lines), Markdown tables and XML-ish <learning> elements;
//   - an answer cut off by the end of the text keeps its complete
//     learnings; the cut one is skipped;
//   - an explicit "no learnings" ("No new learnings.", "NONE", an empty
//     list, "nothing worth remembering") is zero learnings, not an error;
//     the prose around it is the summary when no summary is labelled.
//
// Each learning is normalized (type synonyms, fields that do not apply
// to its type dropped) and checked against the memory rules; every
// proposed learning that is not returned is listed in Skipped with the
// reason (not a learning, cut off, no content, invalid, a credential in
// its text, a repeat, over MaxLearnings); a credential in the summary is
// redacted (package secrets). Text with no answer in it is an error wrapping
// ErrUnparseable.
func Parse(text string) (Result, error) {
	if len(text) > maxParseBytes {
		text = clip(text, maxParseBytes)
	}
	text = strings.ReplaceAll(strings.ToValidUTF8(text, "\uFFFD"), "\r\n", "\n")
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "\uFEFF"))
	if text == "" {
		return Result{}, fmt.Errorf("%w: the answer is empty", ErrUnparseable)
	}
	c, ok := bestCandidate(text)
	if !ok {
		return Result{}, fmt.Errorf("%w: %q", ErrUnparseable, snippet(text))
	}
	// The daily log refuses a NUL, and the run's summary goes there: a
	// model's stray NUL must not cost the run its record.
	summary := strings.ReplaceAll(c.r.summary, "\x00", "")
	// The summary goes to the daily log, which dreams consolidate: a
	// credential the model repeated from the run's output is redacted.
	summary = secrets.Redact(summary)
	res := Result{Success: c.r.success, Summary: clip(strings.TrimSpace(summary), MaxSummaryBytes)}
	res.Learnings, res.Skipped = collect(c.r.items)
	return res, nil
}

// Candidate tiers, best first: the answer is the last candidate of the
// best tier present.
const (
	tierStructured = iota // JSON, YAML, XML answers; labelled lists; "Learnings: none"
	tierList              // Markdown lists under no learnings heading
	tierProse             // "No new learnings." in prose
	tierWeak              // examples, drafts, "no other learnings"
	tierNone
)

// candidate is one possible answer found in the text.
type candidate struct {
	pos  int
	tier int
	r    reading
}

// bestCandidate finds the answer in text: first in the final region (the
// last <answer> element, or what follows the last "Final answer:"
// marker), then in the whole text, reasoning blocks removed either way.
func bestCandidate(text string) (candidate, bool) {
	if len(text) > 1 && text[0] == '"' && text[len(text)-1] == '"' {
		// The whole answer as one JSON string.
		if v, end, st := readJSON(text, 0); st == readComplete && end == len(text) {
			if s, ok := v.(string); ok {
				text = strings.TrimSpace(s)
			}
		}
	}
	visible := stripReasoning(text)
	if strings.TrimSpace(visible) == "" {
		return candidate{}, false
	}
	if region, ok := finalRegion(visible); ok {
		if c, ok := pick(region); ok {
			return c, true
		}
	}
	return pick(visible)
}

// pick gathers the candidates of a region and returns the best, with the
// summary and success filled from labelled lines ("Summary: ...") when
// the chosen answer lacks them.
func pick(region string) (candidate, bool) {
	drafts := draftSpans(region)
	var cands []candidate
	for _, h := range groupLines(region, scanJSON(region)) {
		tier := tierStructured
		if h.weak || inSpans(drafts, h.start) || isExample(region, h.span) {
			tier = tierWeak
		}
		cands = append(cands, candidate{pos: h.start, tier: tier, r: h.r})
	}
	if x, pos, ok := readXML(region); ok {
		cands = append(cands, candidate{pos: pos, tier: tierStructured, r: x})
	}
	t := readText(region)
	if t.itemsPos >= 0 {
		tier := tierList
		switch {
		case inSpans(drafts, t.itemsPos):
			tier = tierWeak
		case t.labelled:
			tier = tierStructured
		}
		cands = append(cands, candidate{pos: t.itemsPos, tier: tier, r: t.r})
	}
	for _, n := range t.nones {
		tier := n.tier
		if inSpans(drafts, n.pos) {
			tier = tierWeak
		}
		cands = append(cands, candidate{pos: n.pos, tier: tier, r: reading{list: true}})
	}
	best := candidate{tier: tierNone}
	for _, c := range cands {
		if c.tier < best.tier || c.tier == best.tier && c.pos >= best.pos {
			best = c
		}
	}
	if best.tier == tierNone {
		return candidate{}, false
	}
	if !best.r.hasSummary {
		switch {
		case t.r.hasSummary:
			best.r.summary, best.r.hasSummary = t.r.summary, true
		case len(best.r.items) == 0 && t.prose != "":
			// "The run only renamed a variable. No new learnings."
			best.r.summary, best.r.hasSummary = t.prose, true
		}
	}
	if !best.r.hasSuccess && t.r.hasSuccess {
		best.r.success, best.r.hasSuccess = t.r.success, true
	}
	return best, true
}

// span is a byte range of a region.
type span struct{ start, end int }

func inSpans(spans []span, pos int) bool {
	for _, s := range spans {
		if pos >= s.start && pos < s.end {
			return true
		}
	}
	return false
}

// jsonHit is a JSON value in the text that reads as an answer.
type jsonHit struct {
	span
	r reading
	// single: one learning object or a summary-only object, which may be
	// one line of a JSON-lines answer.
	single bool
	// weak: a bracket the text never closed that holds no complete
	// learning, or a broken value.
	weak bool
}

// scanJSON returns the JSON values of s that read as answers, in order.
// A complete value is not searched for smaller ones; a broken one is,
// since the real answer may sit inside prose in braces. The bytes read
// are budgeted, so the scan is linear in s whatever it holds.
func scanJSON(s string) []jsonHit {
	budget := 8*len(s) + 1<<16
	var hits []jsonHit
	for i := 0; i < len(s) && budget > 0; {
		j := strings.IndexAny(s[i:], "{[")
		if j < 0 {
			break
		}
		i += j
		v, end, st := readJSON(s, i)
		budget -= end - i + 1
		r, ok := readValue(v, 0)
		if ok && r.empty() {
			ok = false
		}
		switch {
		case st == readComplete:
			if ok {
				hits = append(hits, jsonHit{span: span{i, end}, r: r, single: isSingle(v, r)})
			}
			i = max(end, i+1)
		case ok && (st == readCut || len(r.items) > 0 || r.list):
			weak := st == readBroken && !hasCompleteItem(r)
			hits = append(hits, jsonHit{span: span{i, end}, r: r, single: isSingle(v, r), weak: weak})
			i = max(end, i+1)
		default:
			i++
		}
	}
	return hits
}

func hasCompleteItem(r reading) bool {
	for _, p := range r.items {
		if !p.cut && p.notLearning == "" {
			return true
		}
	}
	return false
}

// isSingle reports whether v, read as r, is one learning object or a
// summary-only object.
func isSingle(v any, r reading) bool {
	o, ok := v.(*object)
	if !ok {
		return false
	}
	return !r.list && (len(r.items) == 1 && looksLikeLearning(o, false) || len(r.items) == 0 && summaryOnly(o))
}

// groupLines merges runs of single learning objects separated only by
// blanks, commas, list markers, fence lines or short labels (a JSON-lines
// answer, or one fenced object per learning) into one answer.
func groupLines(s string, hits []jsonHit) []jsonHit {
	var out []jsonHit
	for i := 0; i < len(hits); {
		h := hits[i]
		j := i + 1
		if h.single {
			for j < len(hits) && hits[j].single && glue(s[hits[j-1].end:hits[j].start]) {
				j++
			}
		}
		if j-i > 1 {
			g := jsonHit{span: span{h.start, hits[j-1].end}}
			for _, m := range hits[i:j] {
				g.r.items = append(g.r.items, m.r.items...)
				if m.r.hasSummary && !g.r.hasSummary {
					g.r.summary, g.r.hasSummary = m.r.summary, true
				}
				if m.r.hasSuccess && !g.r.hasSuccess {
					g.r.success, g.r.hasSuccess = m.r.success, true
				}
				g.r.cut = g.r.cut || m.r.cut
				g.weak = g.weak || m.weak
			}
			g.r.list = true
			out = append(out, g)
		} else {
			out = append(out, h)
		}
		i = j
	}
	return out
}

var glueLine = regexp.MustCompile(`^(?:[-*+•]|\d{1,3}[.)])?\s*(?:(?:learning|item|entry|finding|decision|blocker|pattern|note|insight|lesson)?\s*#?\d{0,3}\s*[:.)]?)?$`)

// glue reports whether the text between two single JSON objects keeps
// them in one answer.
func glue(between string) bool {
	for _, line := range strings.Split(between, "\n") {
		line = strings.TrimSpace(strings.Trim(strings.TrimSpace(line), ",;"))
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			continue
		}
		line = strings.Trim(line, "*_`")
		switch {
		case line == "":
		case len(line) <= 40 && glueLine.MatchString(strings.ToLower(line)):
		default:
			return false
		}
	}
	return true
}

// exampleCue marks prose that introduces an illustration rather than the
// answer.
var exampleCue = regexp.MustCompile(`(?i)\b(?:for example|for instance|example|e\.g\.|such as|looks? like|would look|template|schema|illustrat\w*|if there (?:are|were|had been) no|if there had been nothing|had there been|would have been|if nothing|otherwise|when there (?:are|is) no(?:ne|thing)?|if no learnings|an empty (?:answer|list|result|response)|in the (?:form|shape) of|the (?:format|shape) (?:is|should|would|must))\b`)

// isExample reports whether the JSON at sp is quoted in prose rather than
// given as the answer: inside `inline code`, followed by more of its
// sentence on the same line, or introduced as an example.
func isExample(s string, sp span) bool {
	// Look at most exampleWindow bytes around the value: a line longer
	// than that is prose, and the scan stays linear.
	const exampleWindow = 512
	lo := max(0, sp.start-exampleWindow)
	lineStart := lo + strings.LastIndexByte(s[lo:sp.start], '\n') + 1
	hi := min(len(s), sp.end+exampleWindow)
	lineEnd := hi
	if k := strings.IndexByte(s[sp.end:hi], '\n'); k >= 0 {
		lineEnd = sp.end + k
	}
	before, after := s[lineStart:sp.start], s[sp.end:lineEnd]
	if strings.Count(before, "`")%2 == 1 && !strings.Contains(before, "```") {
		return true
	}
	if strings.IndexFunc(after, unicode.IsLetter) >= 0 {
		return true
	}
	// Inside an aside: "(If there had been nothing, {...}.)"
	if strings.Count(before, "(") > strings.Count(before, ")") {
		return true
	}
	cue := before
	if strings.TrimSpace(before) == "" || strings.HasPrefix(strings.TrimSpace(before), "```") {
		// The line before, skipping a fence line and blank lines.
		prev := s[max(0, lineStart-exampleWindow):lineStart]
		for k := 0; k < 3; k++ {
			prev = strings.TrimRight(prev, "\n \t")
			ps := strings.LastIndexByte(prev, '\n') + 1
			line := strings.TrimSpace(prev[ps:])
			if strings.HasPrefix(line, "```") {
				prev = prev[:ps]
				continue
			}
			cue = line
			break
		}
	}
	return exampleCue.MatchString(cue)
}

// clip cuts s to at most max bytes on a rune boundary.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// snippet is the start of an answer, for error messages and logs.
func snippet(s string) string {
	const n = 200
	if len(s) <= n {
		return s
	}
	return clip(s, n) + "…"
}
