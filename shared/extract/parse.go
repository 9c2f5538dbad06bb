package extract

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
)

// Parse limits: how much of an answer is looked at, and how many places
// in it may start a JSON value, so that a hostile answer costs little.
const (
	maxParseBytes = 256 << 10
	maxJSONStarts = 256
)

// fence matches a Markdown code fence and its body; an unclosed fence (an
// answer cut at the token cap) runs to the end.
var fence = regexp.MustCompile("(?s)```[A-Za-z0-9_+-]*[ \t]*\r?\n?(.*?)(?:```|$)")

// Parse finds the extraction answer in a model's text and returns its
// learnings, summary and success flag. It accepts the answer object
// {"success","summary","learnings":[...]}, a bare array of learnings or a
// single learning object, inside ``` fences or surrounded by prose, with
// trailing commas and fields it does not know. Each learning is normalized
// (type synonyms, fields that do not apply to its type dropped) and
// checked against the memory rules; invalid, repeated and surplus ones go
// to Skipped. Text with no such JSON is an error wrapping ErrUnparseable.
func Parse(text string) (Result, error) {
	if len(text) > maxParseBytes {
		text = text[:maxParseBytes]
	}
	text = strings.TrimPrefix(strings.TrimSpace(text), "\uFEFF")
	if text == "" {
		return Result{}, fmt.Errorf("%w: the answer is empty", ErrUnparseable)
	}
	best, bestRank := Result{}, rankNone
	for _, cand := range candidates(text) {
		v, ok := decodeLenient(cand)
		if !ok {
			continue
		}
		if res, rank := fromValue(v); rank < bestRank {
			best, bestRank = res, rank
			if rank == rankAnswer {
				break
			}
		}
	}
	if bestRank != rankNone {
		return best, nil
	}
	return Result{}, fmt.Errorf("%w: %q", ErrUnparseable, snippet(text))
}

// candidates returns the texts that may hold the answer, best first: the
// bodies of code fences, the whole text, then each outermost balanced
// {...} or [...] in it. Brackets inside one are its own content, and a
// bracket that never closes (an answer cut short) holds the rest of the
// text, so neither is mined for smaller values: a broken answer is not
// salvaged piecemeal.
func candidates(text string) []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(text, -1) {
		if body := strings.TrimSpace(m[1]); body != "" {
			out = append(out, body)
		}
	}
	out = append(out, text)
	for i, starts := 0, 0; i < len(text) && starts < maxJSONStarts; i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		starts++
		end := matchClose(text, i)
		if end < 0 {
			break
		}
		out = append(out, text[i:end])
		i = end - 1
	}
	return out
}

// matchClose returns the index just past the bracket closing the one at
// text[start], skipping brackets inside JSON strings, or -1.
func matchClose(text string, start int) int {
	depth := 0
	var str stringState
	for i := start; i < len(text); i++ {
		if str.next(text[i]) {
			continue
		}
		switch text[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// stringState follows a byte-by-byte scan of JSON text in and out of
// strings.
type stringState struct{ in, escaped bool }

// next consumes c and reports whether it belongs to a string (its quotes
// included).
func (s *stringState) next(c byte) bool {
	switch {
	case s.escaped:
		s.escaped = false
	case s.in && c == '\\':
		s.escaped = true
	case c == '"':
		s.in = !s.in
		return true
	}
	return s.in
}

// decodeLenient decodes s as one JSON value, retrying once with trailing
// commas removed.
func decodeLenient(s string) (any, bool) {
	if v, ok := decodeJSON(s); ok {
		return v, true
	}
	if fixed := dropTrailingCommas(s); fixed != s {
		return decodeJSON(fixed)
	}
	return nil, false
}

func decodeJSON(s string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // more than one value
	}
	return v, true
}

// dropTrailingCommas removes commas followed (after white space) by a
// closing bracket, outside strings.
func dropTrailingCommas(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var str stringState
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !str.next(c) && c == ',' {
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// How well a JSON value matches the answer format; lower is better. The
// answer object wins over a bare list of learnings, which wins over an
// empty list (prose such as "returns [] when empty" holds one).
const (
	rankAnswer    = iota // {"success","summary","learnings"}
	rankLearnings        // a non-empty array of learning objects, or one learning object
	rankEmpty            // []
	rankNone
)

// fromValue recognizes an answer shape in a decoded JSON value.
func fromValue(v any) (Result, int) {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return Result{Learnings: []agentmem.Learning{}}, rankEmpty
		}
		for _, item := range v {
			if _, ok := item.(map[string]any); ok {
				return collect(v), rankLearnings
			}
		}
	case map[string]any:
		if raw, ok := v["learnings"]; ok {
			list, isList := raw.([]any)
			if !isList && raw != nil {
				return Result{}, rankNone
			}
			res := collect(list)
			res.Success = boolField(v["success"])
			res.Summary = summaryField(v["summary"])
			return res, rankAnswer
		}
		if _, ok := v["content"]; ok {
			return collect([]any{v}), rankLearnings
		}
		_, hasSummary := v["summary"]
		_, hasSuccess := v["success"]
		if hasSummary || hasSuccess {
			return Result{Success: boolField(v["success"]), Summary: summaryField(v["summary"]), Learnings: []agentmem.Learning{}}, rankAnswer
		}
	}
	return Result{}, rankNone
}

// collect normalizes and checks the proposed learnings.
func collect(items []any) Result {
	res := Result{Learnings: []agentmem.Learning{}}
	seen := map[string]bool{}
	for _, item := range items {
		l, reason := learningOf(item)
		key := search.NormalizeText(l.Content)
		switch {
		case reason != "":
		case seen[key]:
			reason = "repeats another learning of this answer"
		case len(res.Learnings) == MaxLearnings:
			reason = fmt.Sprintf("over the limit of %d learnings per run", MaxLearnings)
		}
		if reason != "" {
			if l.Content != "" || reason != "not a learning object" {
				res.Skipped = append(res.Skipped, agentmem.SkippedLearning{Content: clip(l.Content, agentmem.MaxContentBytes), Reason: reason})
			}
			continue
		}
		seen[key] = true
		res.Learnings = append(res.Learnings, l)
	}
	return res
}

// learningOf reads one proposed learning; reason says why it is not kept.
func learningOf(item any) (agentmem.Learning, string) {
	m, ok := item.(map[string]any)
	if !ok {
		return agentmem.Learning{}, "not a learning object"
	}
	content, isString := m["content"].(string)
	if !isString {
		content, _ = m["text"].(string)
	}
	l := agentmem.Learning{Type: typeOf(m["type"]), Content: strings.TrimSpace(content)}
	if l.Content == "" {
		return l, "no content"
	}
	str := func(k string) string { s, _ := m[k].(string); return strings.TrimSpace(s) }
	switch l.Type {
	case agentmem.TypeDecision:
		l.Rationale = str("rationale")
	case agentmem.TypeBlocker:
		l.Status = statusOf(str("status"))
	case agentmem.TypePattern:
		l.Trigger, l.Context, l.Solution = str("trigger"), str("context"), str("solution")
		l.Confidence = confidenceOf(m["confidence"])
	}
	if err := l.Validate(); err != nil {
		return l, "invalid: " + agentmem.ErrorMessage(err)
	}
	return l, ""
}

// typeSynonyms maps what models write instead of a memory type.
var typeSynonyms = map[string]agentmem.Type{
	"gotcha": agentmem.TypeLearning, "lesson": agentmem.TypeLearning, "tip": agentmem.TypeLearning,
	"insight": agentmem.TypeLearning, "howto": agentmem.TypeLearning, "how-to": agentmem.TypeLearning,
	"command": agentmem.TypeLearning, "convention": agentmem.TypeLearning,
	"fact": agentmem.TypeFinding, "discovery": agentmem.TypeFinding, "observation": agentmem.TypeFinding,
	"choice": agentmem.TypeDecision,
	"issue":  agentmem.TypeBlocker, "problem": agentmem.TypeBlocker,
}

// extractionTypes are the types the extraction prompt offers.
var extractionTypes = map[agentmem.Type]bool{
	agentmem.TypeFinding: true, agentmem.TypeDecision: true, agentmem.TypeBlocker: true,
	agentmem.TypePattern: true, agentmem.TypeLearning: true, agentmem.TypeNote: true,
}

// typeOf reads a proposed type: missing means learning, plurals and
// synonyms are understood, and anything else is a note (the content is
// kept; only the label was odd).
func typeOf(v any) agentmem.Type {
	s, _ := v.(string)
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return agentmem.TypeLearning
	}
	for _, t := range []agentmem.Type{agentmem.Type(s), agentmem.Type(strings.TrimSuffix(s, "s"))} {
		if extractionTypes[t] {
			return t
		}
		if syn, ok := typeSynonyms[string(t)]; ok {
			return syn
		}
	}
	return agentmem.TypeNote
}

// statusOf reads a blocker status; anything but a word for done is open.
func statusOf(s string) string {
	switch strings.ToLower(s) {
	case agentmem.StatusResolved, "closed", "fixed", "done", "solved":
		return agentmem.StatusResolved
	}
	return agentmem.StatusOpen
}

// confidenceOf reads a pattern's confidence: a number from 0 to 1, or a
// percentage; anything else is left out (the default applies).
func confidenceOf(v any) *float64 {
	var f float64
	switch v := v.(type) {
	case json.Number:
		var err error
		if f, err = v.Float64(); err != nil {
			return nil
		}
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64); err != nil {
			return nil
		}
	default:
		return nil
	}
	if f > 1 && f <= 100 {
		f /= 100
	}
	if !(f >= 0 && f <= 1) {
		return nil
	}
	return &f
}

func boolField(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(strings.TrimSpace(v))
		return b
	}
	return false
}

func summaryField(v any) string {
	s, _ := v.(string)
	return clip(strings.TrimSpace(s), MaxSummaryBytes)
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
