package extract

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
	"github.com/agentmem/agentmem/shared/secrets"
)

// reading is one way of reading the answer out of (part of) a model's
// text: the proposed learnings in order, and the run's summary and success
// when the answer gives them.
type reading struct {
	items      []proposal
	summary    string
	hasSummary bool
	success    bool
	hasSuccess bool
	// list: the answer has an explicit learnings container (an empty
	// list or a "none" counts), so zero items means zero learnings.
	list bool
	// cut: the text ended inside the answer.
	cut bool
}

// empty reports whether the reading holds nothing an answer gives.
func (r reading) empty() bool {
	return len(r.items) == 0 && !r.list && !r.hasSummary && !r.hasSuccess
}

// proposal is one proposed learning as read, before it is checked.
type proposal struct {
	f fields
	// notLearning says why the value cannot be a learning (a number, a
	// nested list); raw is its text for the skipped list.
	notLearning string
	raw         string
	// cut: the text ended inside this learning.
	cut bool
}

// fields are a proposed learning's parts as text.
type fields struct {
	typ, content, rationale, status, trigger, context, solution, confidence string
	// replaces names the stored memory the learning replaces (a prompt
	// reference such as "m3", or an id).
	replaces string
	// impliedType is the type named by a label or key ("finding: ...",
	// {"decision": ...}) when no explicit type is given.
	impliedType string
}

// Field names, after normalizeKey.
const (
	fType       = "type"
	fContent    = "content"
	fRationale  = "rationale"
	fStatus     = "status"
	fTrigger    = "trigger"
	fContext    = "context"
	fSolution   = "solution"
	fConfidence = "confidence"
	fReplaces   = "replaces"
)

// fieldKeys maps the keys models use for a learning's parts (normalized:
// lower case, letters and digits only) to the field they mean.
var fieldKeys = map[string]string{
	"type": fType, "category": fType, "kind": fType, "learningtype": fType, "memorytype": fType,
	"label": fType, "classification": fType, "typ": fType,

	"rationale": fRationale, "reason": fRationale, "why": fRationale, "because": fRationale,
	"justification": fRationale, "motivation": fRationale,

	"status": fStatus, "state": fStatus, "resolved": fStatus,

	"trigger": fTrigger, "when": fTrigger, "signal": fTrigger, "symptom": fTrigger, "symptoms": fTrigger,
	"condition": fTrigger, "triggers": fTrigger,

	"solution": fSolution, "fix": fSolution, "remedy": fSolution, "resolution": fSolution,
	"action": fSolution, "do": fSolution, "workaround": fSolution, "howtofix": fSolution,

	"context": fContext, "where": fContext, "scope": fContext, "appliesto": fContext,

	"confidence": fConfidence, "certainty": fConfidence, "probability": fConfidence,

	"replaces": fReplaces, "replace": fReplaces, "supersedes": fReplaces, "supersede": fReplaces,
	"replacesid": fReplaces, "replacesmemory": fReplaces, "replacesref": fReplaces, "replacing": fReplaces,
	"replacesmemoryid": fReplaces, "supersedesid": fReplaces,
}

// contentKeys are the keys that may hold a learning's text, best first.
// A key that also names a type ("finding", "note") implies that type.
var contentKeys = []string{
	"content", "learning", "insight", "lesson", "text", "statement", "fact", "finding",
	"observation", "takeaway", "tip", "gotcha", "decision", "blocker", "pattern", "note", "memory",
	"description", "detail", "details", "body", "message", "value", "summary", "title",
}

// strongContentKeys are the content keys that make an object a learning
// on their own, outside a learnings list: an object {"name", "description"}
// in prose is not taken for one.
var strongContentKeys = map[string]bool{
	"content": true, "learning": true, "insight": true, "lesson": true, "finding": true,
	"decision": true, "blocker": true, "pattern": true, "gotcha": true, "takeaway": true,
}

// listKeys are the keys of an answer object that hold the learnings, with
// the type their items default to ("" for learning).
var listKeys = map[string]agentmem.Type{
	"learnings": "", "newlearnings": "", "keylearnings": "", "extractedlearnings": "", "learned": "",
	"lessons": "", "lessonslearned": "", "insights": "", "keyinsights": "", "takeaways": "", "keytakeaways": "",
	"memories": "", "newmemories": "", "items": "", "entries": "", "results": "", "extracted": "",
	"tips": "", "gotchas": "",
	"findings": agentmem.TypeFinding, "facts": agentmem.TypeFinding, "observations": agentmem.TypeFinding,
	"decisions": agentmem.TypeDecision, "blockers": agentmem.TypeBlocker, "issues": agentmem.TypeBlocker,
	"patterns": agentmem.TypePattern, "notes": agentmem.TypeNote,
}

// secondaryListKeys hold learnings only in an answer without an untyped
// list key: beside "learnings", "notes" and "items" are remarks, while
// beside "findings" and "decisions", "notes" are learnings of type note.
var secondaryListKeys = map[string]bool{"notes": true, "items": true, "entries": true, "results": true, "extracted": true, "issues": true}

func isListKey(k string) bool {
	_, ok := listKeys[k]
	return ok
}

// summaryKeys and successKeys are the answer object's other parts.
var (
	summaryKeys = map[string]bool{"summary": true, "runsummary": true, "overview": true, "tldr": true, "recap": true, "sessionsummary": true}
	successKeys = map[string]bool{"success": true, "succeeded": true, "successful": true, "runsuccess": true, "runsucceeded": true, "goalachieved": true, "achieved": true, "outcome": true, "passed": true, "ok": true}
	// wrapperKeys hold an answer nested one level down, tried first.
	wrapperKeys = []string{"result", "data", "output", "answer", "response", "extraction", "final", "finalanswer", "json", "payload", "body", "content", "message", "text"}
)

// normalizeKey folds a key for lookups: lower case, letters and digits.
func normalizeKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// maxNesting bounds how deep readValue looks for an answer nested under
// wrapper keys, and how often an answer given as a string is re-read.
const maxNesting = 4

// readValue recognizes an answer in a decoded value: an object with a
// learnings list (under one of many names, or grouped by type), a bare
// list of learnings, a single learning, or any of these nested under a
// wrapper key. ok is false when v holds none of them.
func readValue(v any, depth int) (reading, bool) {
	if depth > maxNesting {
		return reading{}, false
	}
	switch v := v.(type) {
	case *list:
		return readList(v, "", false, depth)
	case *object:
		return readObject(v, depth)
	}
	return reading{}, false
}

// readList reads a list of proposed learnings of default type def. Under
// an explicit learnings key (listed) every item counts; a bare list must
// look like learnings: objects, or strings most of which are sentences.
func readList(l *list, def agentmem.Type, listed bool, depth int) (reading, bool) {
	r := reading{list: true, cut: l.cut}
	if len(l.items) == 0 {
		// [] is an explicit empty list; a list cut or broken before its
		// first item says nothing.
		return r, !l.cut
	}
	if !listed {
		// A list holding one answer object is that answer.
		if len(l.items) == 1 {
			if o, ok := l.items[0].(*object); ok && !looksLikeLearning(o, false) {
				if sub, ok := readObject(o, depth+1); ok {
					return sub, true
				}
			}
		}
		objects, sentences, strs := 0, 0, 0
		for _, it := range l.items {
			switch it := it.(type) {
			case *object:
				if looksLikeLearning(it, true) || summaryOnly(it) {
					objects++
				}
			case string:
				strs++
				if len(strings.Fields(it)) >= 4 {
					sentences++
				}
			case cutString:
				strs++
			}
		}
		if objects == 0 && (strs == 0 || sentences*2 < strs) {
			return reading{}, false
		}
	}
	for _, it := range l.items {
		if o, ok := it.(*object); ok && summaryOnly(o) && !listed {
			r.takeSummary(o)
			continue
		}
		r.items = append(r.items, proposalOf(it, def))
	}
	return r, true
}

// readObject reads an answer object, or a single learning, or an answer
// nested under a wrapper key, or (last) an answer that gives only the
// summary and success.
func readObject(o *object, depth int) (reading, bool) {
	r := reading{cut: o.cut}
	primary := false
	for _, m := range o.members {
		if k := normalizeKey(m.key); isListKey(k) && listKeys[k] == "" && !secondaryListKeys[k] {
			primary = true
		}
	}
	for _, m := range o.members {
		k := normalizeKey(m.key)
		def, isList := listKeys[k]
		if !isList || primary && secondaryListKeys[k] {
			// Beside the learnings, "notes" or "items" are the model's
			// remarks, not learnings.
			continue
		}
		switch v := m.value.(type) {
		case *list:
			if sub, ok := readList(v, def, true, depth); ok {
				r.items = append(r.items, sub.items...)
				r.list = true
				r.cut = r.cut || sub.cut
			}
		case *object:
			if items := typeKeyed(v); len(items) > 1 {
				// {"learnings": {"finding": "...", "decision": "..."}}
				r.items = append(r.items, items...)
				r.list = true
			} else if looksLikeLearning(v, true) {
				r.items = append(r.items, proposalOf(v, def))
				r.list = true
			} else if sub, ok := readObject(v, depth+1); ok && sub.list {
				// {"learnings": {"findings": [...], "decisions": [...]}}
				r.items = append(r.items, sub.items...)
				r.list = true
			}
		case string:
			if saysNone(v) {
				r.list = true
			} else if strings.TrimSpace(v) != "" && k == "learnings" {
				r.items = append(r.items, proposalOf(v, def))
				r.list = true
			}
		case nil:
			if k == "learnings" {
				r.list = true
			}
		}
	}
	if r.list {
		r.takeSummary(o)
		return r, true
	}
	if looksLikeLearning(o, false) {
		return reading{items: []proposal{proposalOf(o, "")}, cut: o.cut}, true
	}
	// An answer nested under a wrapper key, or given as a string.
	tried := map[int]bool{}
	for _, w := range wrapperKeys {
		for i, m := range o.members {
			if normalizeKey(m.key) != w || tried[i] {
				continue
			}
			tried[i] = true
			if sub, ok := readNested(m.value, depth); ok {
				if !sub.hasSummary && !sub.hasSuccess {
					sub.takeSummary(o)
				}
				return sub, true
			}
		}
	}
	for i, m := range o.members {
		if tried[i] {
			continue
		}
		if sub, ok := readNested(m.value, depth); ok {
			return sub, true
		}
	}
	// {"success": true, "summary": "..."}: an answer without learnings,
	// unless it was cut before they came. A status alone ({"status":
	// "ok"}) is not an answer.
	if r.takeSummary(o) && !o.cut && (r.hasSummary || hasKey(o, "success", "succeeded", "successful", "runsuccess")) {
		return r, true
	}
	return reading{}, false
}

func readNested(v any, depth int) (reading, bool) {
	switch v := v.(type) {
	case *object, *list:
		return readValue(v, depth+1)
	case string:
		// An answer given as a JSON string ({"output": "{\"learnings\":
		// ...}"}), one level deep.
		t := strings.TrimSpace(v)
		if depth == 0 && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) {
			inner, _, _ := readJSON(t, 0)
			return readValue(inner, depth+1)
		}
	}
	return reading{}, false
}

// takeSummary reads the summary and success members of o into r and
// reports whether it found either.
func (r *reading) takeSummary(o *object) bool {
	found := false
	for _, m := range o.members {
		k := normalizeKey(m.key)
		switch {
		case summaryKeys[k] && !r.hasSummary:
			if s := textOf(m.value, " "); s != "" || m.value != nil {
				r.summary, r.hasSummary, found = s, true, true
			}
		case successKeys[k] && !r.hasSuccess:
			if b, ok := successOf(m.value); ok {
				r.success, r.hasSuccess, found = b, true, true
			}
		case k == "status" && !r.hasSuccess:
			if s, ok := m.value.(string); ok {
				if b, ok := successWord(s); ok {
					r.success, r.hasSuccess, found = b, true, true
				}
			}
		}
	}
	return found
}

// summaryOnly reports whether o carries only a summary and success, as
// the first line of a JSON-lines answer may.
func summaryOnly(o *object) bool {
	n := 0
	for _, m := range o.members {
		k := normalizeKey(m.key)
		if summaryKeys[k] || successKeys[k] {
			n++
		} else if _, isList := listKeys[k]; isList || fieldKeys[k] == fType || isContentKey(k) && !summaryKeys[k] {
			return false
		}
	}
	return n > 0
}

func isContentKey(k string) bool {
	for _, c := range contentKeys {
		if c == k {
			return true
		}
	}
	return false
}

// looksLikeLearning reports whether o reads as one learning: it has a
// text under a content key (a strong one unless weak is allowed), or its
// type names a memory type.
func looksLikeLearning(o *object, weak bool) bool {
	for _, m := range o.members {
		if _, isList := listKeys[normalizeKey(m.key)]; isList {
			if _, holdsList := m.value.(*list); holdsList {
				return false
			}
		}
	}
	for _, m := range o.members {
		k := normalizeKey(m.key)
		if !isContentKey(k) || summaryKeys[k] && !weak {
			continue
		}
		switch m.value.(type) {
		case string, cutString:
			if weak || strongContentKeys[k] {
				return true
			}
		case *object:
			if strongContentKeys[k] {
				return true
			}
		}
	}
	for _, m := range o.members {
		if fieldKeys[normalizeKey(m.key)] == fType {
			if s, ok := m.value.(string); ok {
				if _, known := typeOf(s); known {
					return true
				}
			}
		}
	}
	return false
}

// proposalOf turns one value of a learnings list into a proposal.
func proposalOf(v any, def agentmem.Type) proposal {
	switch v := v.(type) {
	case *object:
		p := proposal{f: fieldsOfObject(v), cut: !complete(v)}
		if p.f.impliedType == "" {
			p.f.impliedType = string(def)
		}
		return p
	case string:
		p := proposal{f: fieldsOfText([]string{v})}
		if p.f.impliedType == "" {
			p.f.impliedType = string(def)
		}
		return p
	case cutString:
		return proposal{f: fields{content: strings.TrimSpace(string(v))}, cut: true}
	case number:
		return proposal{notLearning: "a number", raw: string(v)}
	case bool:
		return proposal{notLearning: "a boolean", raw: strconv.FormatBool(v)}
	case *list:
		// ["finding", "text"]: a type and its content.
		if len(v.items) == 2 {
			t, ok1 := v.items[0].(string)
			c, ok2 := v.items[1].(string)
			if ok1 && ok2 && isTypeLabel(t) {
				return proposal{f: fields{typ: t, content: strings.TrimSpace(c)}, cut: v.cut}
			}
		}
		return proposal{notLearning: "a list", raw: textOf(v, "; "), cut: v.cut}
	case nil:
		return proposal{notLearning: "null"}
	}
	return proposal{notLearning: fmt.Sprintf("a %T", v)}
}

// fieldsOfObject reads a learning object's parts from its keys.
func fieldsOfObject(o *object) fields {
	var f fields
	byKey := map[string]any{}
	for _, m := range o.members {
		k := normalizeKey(m.key)
		if _, dup := byKey[k]; !dup {
			byKey[k] = m.value
		}
		field, ok := fieldKeys[k]
		if !ok {
			continue
		}
		s := textOf(m.value, "; ")
		if field == fStatus {
			if b, isBool := m.value.(bool); isBool {
				s = map[bool]string{true: agentmem.StatusResolved, false: agentmem.StatusOpen}[b]
				if k != "resolved" {
					s = ""
				}
			}
		}
		if field == fConfidence {
			if n, isNum := m.value.(number); isNum {
				s = string(n)
			}
		}
		f.set(field, s)
	}
	for _, k := range contentKeys {
		v, ok := byKey[k]
		if !ok {
			continue
		}
		if inner, isObj := v.(*object); isObj && strongContentKeys[k] {
			// {"learning": {"type": ..., "content": ...}}
			sub := fieldsOfObject(inner)
			if sub.typ == "" && sub.impliedType == "" {
				sub.impliedType = k
			}
			return sub.merge(f)
		}
		s := textOf(v, " ")
		if s == "" {
			continue
		}
		f.content = s
		if _, known := typeOf(k); known && k != "text" {
			f.impliedType = k
		}
		break
	}
	return f
}

// merge fills f's empty parts from g.
func (f fields) merge(g fields) fields {
	for _, p := range []struct{ dst, src *string }{
		{&f.typ, &g.typ}, {&f.content, &g.content}, {&f.rationale, &g.rationale}, {&f.status, &g.status},
		{&f.trigger, &g.trigger}, {&f.context, &g.context}, {&f.solution, &g.solution}, {&f.confidence, &g.confidence},
		{&f.impliedType, &g.impliedType}, {&f.replaces, &g.replaces},
	} {
		if *p.dst == "" {
			*p.dst = *p.src
		}
	}
	return f
}

// set records a field's value; the first one written wins.
func (f *fields) set(field, v string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	dst := map[string]*string{
		fType: &f.typ, fContent: &f.content, fRationale: &f.rationale, fStatus: &f.status,
		fTrigger: &f.trigger, fContext: &f.context, fSolution: &f.solution, fConfidence: &f.confidence,
		fReplaces: &f.replaces,
	}[field]
	if dst != nil && *dst == "" {
		*dst = v
	}
}

// textOf renders a value as text: strings as they are, lists joined with
// sep, numbers and booleans as written.
func textOf(v any, sep string) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case cutString:
		return strings.TrimSpace(string(v))
	case number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	case *list:
		var parts []string
		for _, it := range v.items {
			if s := textOf(it, sep); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, sep)
	}
	return ""
}

// successOf reads a success flag: a boolean, or a word for one.
func successOf(v any) (bool, bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case string:
		return successWord(v)
	case number:
		return v != "0", true
	}
	return false, false
}

// successWord reads yes/no words for whether a run succeeded.
func successWord(s string) (bool, bool) {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), ".!*_`\"'"))
	s = strings.TrimSpace(strings.TrimLeft(s, "✅❌✔✗✘☑️ "))
	switch {
	case s == "":
		return false, false
	case strings.HasPrefix(s, "true"), strings.HasPrefix(s, "yes"), strings.HasPrefix(s, "success"),
		strings.HasPrefix(s, "succeeded"), strings.HasPrefix(s, "passed"), strings.HasPrefix(s, "pass"),
		s == "ok", strings.HasPrefix(s, "completed"), strings.HasPrefix(s, "complete"), strings.HasPrefix(s, "achieved"), s == "done", s == "y":
		return true, true
	case strings.HasPrefix(s, "false"), strings.HasPrefix(s, "no"), strings.HasPrefix(s, "fail"),
		strings.HasPrefix(s, "unsuccessful"), strings.HasPrefix(s, "partial"), strings.HasPrefix(s, "incomplete"),
		strings.HasPrefix(s, "error"), strings.HasPrefix(s, "blocked"), strings.HasPrefix(s, "not "), s == "n":
		return false, true
	}
	return false, false
}

// typeSynonyms maps what models write instead of a memory type.
var typeSynonyms = map[string]agentmem.Type{
	"lesson": agentmem.TypeLearning, "tip": agentmem.TypeLearning, "gotcha": agentmem.TypeLearning,
	"insight": agentmem.TypeLearning, "howto": agentmem.TypeLearning, "command": agentmem.TypeLearning,
	"convention": agentmem.TypeLearning, "rule": agentmem.TypeLearning, "guideline": agentmem.TypeLearning,
	"bestpractice": agentmem.TypeLearning, "practice": agentmem.TypeLearning, "caveat": agentmem.TypeLearning,
	"pitfall": agentmem.TypeLearning, "warning": agentmem.TypeLearning, "takeaway": agentmem.TypeLearning,
	"advice": agentmem.TypeLearning, "recommendation": agentmem.TypeLearning, "workflow": agentmem.TypeLearning,
	"procedure": agentmem.TypeLearning, "instruction": agentmem.TypeLearning, "trick": agentmem.TypeLearning,
	"hint": agentmem.TypeLearning, "workaround": agentmem.TypeLearning, "fix": agentmem.TypeLearning,
	"solution": agentmem.TypeLearning, "recipe": agentmem.TypeLearning, "keylearning": agentmem.TypeLearning,
	"lessonlearned": agentmem.TypeLearning, "learned": agentmem.TypeLearning,

	"fact": agentmem.TypeFinding, "discovery": agentmem.TypeFinding, "observation": agentmem.TypeFinding,
	"info": agentmem.TypeFinding, "information": agentmem.TypeFinding, "knowledge": agentmem.TypeFinding,
	"architecture": agentmem.TypeFinding, "structure": agentmem.TypeFinding, "config": agentmem.TypeFinding,
	"configuration": agentmem.TypeFinding, "setup": agentmem.TypeFinding, "environment": agentmem.TypeFinding,
	"dependency": agentmem.TypeFinding, "location": agentmem.TypeFinding, "behavior": agentmem.TypeFinding,
	"behaviour": agentmem.TypeFinding, "projectfact": agentmem.TypeFinding, "keyfinding": agentmem.TypeFinding,

	"choice": agentmem.TypeDecision, "designdecision": agentmem.TypeDecision, "tradeoff": agentmem.TypeDecision,
	"adr": agentmem.TypeDecision, "architecturedecision": agentmem.TypeDecision, "decided": agentmem.TypeDecision,

	"issue": agentmem.TypeBlocker, "problem": agentmem.TypeBlocker, "bug": agentmem.TypeBlocker,
	"error": agentmem.TypeBlocker, "failure": agentmem.TypeBlocker, "obstacle": agentmem.TypeBlocker,
	"impediment": agentmem.TypeBlocker, "blocked": agentmem.TypeBlocker, "blocking": agentmem.TypeBlocker,

	"recurringpattern": agentmem.TypePattern, "antipattern": agentmem.TypePattern, "recurring": agentmem.TypePattern,

	"other": agentmem.TypeNote, "misc": agentmem.TypeNote, "miscellaneous": agentmem.TypeNote,
	"general": agentmem.TypeNote, "todo": agentmem.TypeNote, "reminder": agentmem.TypeNote,
	"session": agentmem.TypeNote, "context": agentmem.TypeNote, "memo": agentmem.TypeNote, "remark": agentmem.TypeNote,
}

// extractionTypes are the types the extraction prompt offers.
var extractionTypes = map[agentmem.Type]bool{
	agentmem.TypeFinding: true, agentmem.TypeDecision: true, agentmem.TypeBlocker: true,
	agentmem.TypePattern: true, agentmem.TypeLearning: true, agentmem.TypeNote: true,
}

// typeOf reads a type label: the memory types, their plurals and
// synonyms, in any case, with spaces, dashes or emoji around. known is
// false for anything else.
func typeOf(label string) (agentmem.Type, bool) {
	k := normalizeKey(label)
	if k == "" {
		return "", false
	}
	for _, c := range []string{k, strings.TrimSuffix(k, "s"), strings.TrimSuffix(k, "es")} {
		if extractionTypes[agentmem.Type(c)] {
			return agentmem.Type(c), true
		}
		if t, ok := typeSynonyms[c]; ok {
			return t, true
		}
	}
	return "", false
}

// learningOf checks one proposal: its type, content and typed fields
// normalized, or the reason it is not kept.
func learningOf(p proposal) (agentmem.Learning, string) {
	if p.notLearning != "" {
		return agentmem.Learning{Content: p.raw}, "not a learning: " + p.notLearning
	}
	f := p.f
	typ, reason := agentmem.TypeLearning, ""
	switch label := strings.TrimSpace(f.typ); {
	case label != "":
		if t, ok := typeOf(label); ok {
			typ = t
		} else if !hasLetter(label) || len(label) > 40 {
			reason = fmt.Sprintf("invalid type %q", clip(label, 40))
		} else {
			// An odd label: the content is kept as a note.
			typ = agentmem.TypeNote
		}
	case f.impliedType != "":
		if t, ok := typeOf(f.impliedType); ok {
			typ = t
		}
	default:
		typ = inferType(f)
	}
	l := agentmem.Learning{Type: typ, Content: strings.TrimSpace(f.content)}
	l.Content, l.Replaces = replacesOf(l.Content, f.replaces)
	if p.cut {
		return l, "cut off: the answer ends inside this learning"
	}
	if reason != "" {
		return l, reason
	}
	if l.Content == "" {
		return l, "no content"
	}
	switch l.Type {
	case agentmem.TypeDecision:
		l.Rationale = f.rationale
	case agentmem.TypeBlocker:
		l.Status = statusOf(f.status)
	case agentmem.TypePattern:
		l.Trigger, l.Context, l.Solution = f.trigger, f.context, f.solution
		l.Confidence = confidenceOf(f.confidence)
	}
	if err := l.Validate(); err != nil {
		return l, "invalid: " + agentmem.ErrorMessage(err)
	}
	return l, ""
}

// trailingReplaces is a reference written at the end of a learning's
// text: "... (replaces m3)", "[supersedes: m12]".
var trailingReplaces = regexp.MustCompile(`(?i)\s*[(\[]\s*(?:replaces|supersedes|replacing)\s*:?\s*([^()\[\]]{1,40})[)\]]\s*\.?$`)

// replacesOf returns content without a trailing "(replaces m3)" and the
// reference the learning replaces: the field's, else the trailing one's
// (Ref).
func replacesOf(content, field string) (string, string) {
	if m := trailingReplaces.FindStringSubmatchIndex(content); m != nil {
		if field == "" {
			field = content[m[2]:m[3]]
		}
		content = strings.TrimSpace(content[:m[0]])
	}
	return content, Ref(field)
}

// refWord is a prompt reference as models write it: m3, M3, #3, 3.
var refWord = regexp.MustCompile(`^(?i)(?:memory\s*)?#?\s*m?\s*(\d{1,4})$`)

// Ref normalizes the reference a learning's replaces gives: a prompt
// reference ("m3", "[M3]", "#3", "memory m3" are all "m3"), a memory id
// (upper-cased), "" for none ("none", "null", "-", "n/a").
func Ref(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "[](){}`\"'.,;:*_ ")
	switch strings.ToLower(s) {
	case "", "none", "null", "nil", "-", "n/a", "na", "no", "false", "nothing":
		return ""
	}
	if m := refWord.FindStringSubmatch(s); m != nil {
		n := strings.TrimLeft(m[1], "0")
		if n == "" {
			return ""
		}
		return "m" + n
	}
	if up := strings.ToUpper(s); agentmem.ValidID(up) {
		return up
	}
	return s
}

// inferType types an untyped proposal by the fields it carries: a
// trigger and a solution make a pattern, a rationale a decision.
func inferType(f fields) agentmem.Type {
	switch {
	case f.trigger != "" && f.solution != "":
		return agentmem.TypePattern
	case f.rationale != "" && f.trigger == "" && f.solution == "":
		return agentmem.TypeDecision
	}
	return agentmem.TypeLearning
}

// statusOf reads a blocker status; anything but a word for done is open.
func statusOf(s string) string {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), ".!*_`\"'()[]"))
	switch s {
	case agentmem.StatusResolved, "closed", "fixed", "done", "solved", "complete", "completed", "true", "yes", "x", "unblocked", "worked around":
		return agentmem.StatusResolved
	}
	if strings.HasPrefix(s, "resolved") || strings.HasPrefix(s, "fixed") {
		return agentmem.StatusResolved
	}
	return agentmem.StatusOpen
}

// confidenceOf reads a pattern's confidence: a number from 0 to 1, or a
// percentage; anything else is left out (the default applies).
func confidenceOf(s string) *float64 {
	s = strings.TrimSpace(s)
	pct := strings.HasSuffix(s, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil {
		return nil
	}
	if pct || (f > 1 && f <= 100) {
		f /= 100
	}
	if !(f >= 0 && f <= 1) {
		return nil
	}
	return &f
}

// collect checks the proposals in order: the first MaxLearnings valid,
// distinct ones are kept; every other one is listed with its reason.
func collect(items []proposal) ([]agentmem.Learning, []agentmem.SkippedLearning) {
	learnings := []agentmem.Learning{}
	var skipped []agentmem.SkippedLearning
	seen := map[string]bool{}
	for _, p := range items {
		if p.notLearning == "null" {
			continue
		}
		l, reason := learningOf(p)
		key := search.NormalizeText(l.Content)
		switch {
		case reason != "":
		case heldSecret(l) != "":
			// Memories are injected into every later run: a credential
			// in the run's output must not become one.
			reason = "holds what looks like a credential (" + heldSecret(l) + ")"
		case seen[key]:
			reason = "repeats another learning of this answer"
		case len(learnings) == MaxLearnings:
			reason = fmt.Sprintf("over the limit of %d learnings per run", MaxLearnings)
		}
		if reason != "" {
			// A skipped learning is shown and kept with the run: never
			// with a credential in it.
			skipped = append(skipped, agentmem.SkippedLearning{Content: clip(secrets.Redact(l.Content), agentmem.MaxContentBytes), Reason: reason})
			continue
		}
		seen[key] = true
		learnings = append(learnings, l)
	}
	return learnings, skipped
}

// heldSecret returns the kind of credential a learning's text holds (see
// package secrets), "" for none.
func heldSecret(l agentmem.Learning) string {
	for _, field := range []string{l.Content, l.Rationale, l.Trigger, l.Context, l.Solution} {
		if kind, ok := secrets.Find(field); ok {
			return kind
		}
	}
	return ""
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// hasKey reports whether o has one of the keys (normalized).
func hasKey(o *object, keys ...string) bool {
	for _, m := range o.members {
		k := normalizeKey(m.key)
		for _, want := range keys {
			if k == want {
				return true
			}
		}
	}
	return false
}

// isTypeLabel reports whether s names a memory type.
func isTypeLabel(s string) bool {
	_, ok := typeOf(s)
	return ok
}

// typeKeyed reads an object whose keys are types, each holding a learning
// or a list of them: {"finding": "...", "decisions": ["..."]}. It returns
// nothing when the object has a type or content key of its own.
func typeKeyed(o *object) []proposal {
	var out []proposal
	for _, m := range o.members {
		k := normalizeKey(m.key)
		if fieldKeys[k] == fType || k == "content" || k == "text" {
			return nil
		}
		t, ok := typeOf(k)
		if !ok {
			continue
		}
		switch v := m.value.(type) {
		case string, cutString, *object:
			p := proposalOf(v, t)
			if p.f.typ == "" {
				p.f.typ = string(t)
			}
			out = append(out, p)
		case *list:
			for _, it := range v.items {
				out = append(out, proposalOf(it, t))
			}
		}
	}
	return out
}
