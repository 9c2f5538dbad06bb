package extract

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// This file reads answers written as text rather than JSON: Markdown
// bullet and numbered lists (type headings, "Type:" and **bold** labels,
// typed fields on sub-lines or inline), YAML (a learnings key holding a
// list of mappings), Markdown tables, and the labelled lines around them
// ("Summary: ...", "Success: yes", "Learnings: none").

// textReading is what readText found in a region.
type textReading struct {
	// r holds the list's items and the labelled summary and success.
	r reading
	// itemsPos is where the first item starts, -1 without items.
	itemsPos int
	// labelled: the items sit under a learnings or type heading, or
	// carry type labels.
	labelled bool
	// nones are the statements that there are no learnings.
	nones []noneAt
	// prose is the unlabelled text outside lists, statements of no
	// learnings and meta sentences ("Here is ...") removed: the summary
	// of a prose answer.
	prose string
}

// noneAt is a statement that there are no learnings, and its tier.
type noneAt struct{ pos, tier int }

// section kinds.
const (
	secNone    = iota // no heading yet
	secItems          // learnings, or a type heading
	secSummary        // summary, overview
	secSuccess        // success, outcome
	secSkip           // reasoning, analysis, draft
	secOther          // anything else
)

// classifySection reads a heading or label.
func classifySection(label string) (kind int, typ agentmem.Type) {
	l := strings.ToLower(strings.TrimSpace(stripNumbering(cleanLabel(label))))
	words := strings.Fields(l)
	if len(words) == 0 {
		return secOther, ""
	}
	if t, ok := typeOf(l); ok {
		if t == agentmem.TypeLearning {
			t = "" // "Learnings", "Lessons", "Tips": the default type
		}
		return secItems, t
	}
	has := func(ws ...string) bool {
		for _, w := range words {
			w = strings.Trim(w, ".,:;!?()")
			for _, x := range ws {
				if w == x {
					return true
				}
			}
		}
		return false
	}
	learningWords := has("learnings", "learning", "lessons", "lesson", "insights", "takeaways", "memories", "learned", "remember")
	switch {
	case !learningWords && (has("summary", "overview", "tl;dr", "tldr", "recap") || strings.HasPrefix(l, "what happened")):
		return secSummary, ""
	case has("success", "succeeded", "outcome", "status") && len(words) <= 3:
		return secSuccess, ""
	case has("reasoning", "analysis", "thinking", "thoughts", "draft", "scratchpad", "rationale") && !has("learnings", "learning"):
		return secSkip, ""
	case has("learnings", "learning", "lessons", "lesson", "insights", "takeaways", "memories", "learned", "remember", "keep"):
		return secItems, ""
	}
	// A heading naming a type among other words: "Key findings",
	// "Decisions made", "Open blockers".
	for _, w := range words {
		if t, ok := typeOf(w); ok && len(words) <= 5 && (t != agentmem.TypeNote || w == "notes") {
			if t == agentmem.TypeLearning {
				t = ""
			}
			return secItems, t
		}
	}
	return secOther, ""
}

// cleanLabel removes Markdown emphasis, heading marks, emoji and a
// trailing colon from a label.
func cleanLabel(s string) string {
	s = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "#"))
	s = strings.Map(func(r rune) rune {
		if r == '*' || r == '_' || r == '`' || unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == '\ufe0f' {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ":："))
}

var numbering = regexp.MustCompile(`^(?:\d{1,3}[.):]\s*|#\d{1,3}\s*|\(\d{1,3}\)\s*)|\s*(?:#?\d{1,3})$`)

// stripNumbering removes "1.", "#2" or a trailing " 3" from a label.
func stripNumbering(s string) string {
	return strings.TrimSpace(numbering.ReplaceAllString(strings.TrimSpace(s), ""))
}

var (
	headingLine  = regexp.MustCompile(`^#{1,6}[ \t]+(.*?)[ \t#]*$`)
	boldLine     = regexp.MustCompile(`^(?:\*\*|__)([^*_]{1,80}?)(?:\*\*|__)[ \t]*:?[ \t]*$`)
	labelOnly    = regexp.MustCompile(`^([A-Za-z][\w '’/()-]{0,60}?)[ \t]*[:：][ \t]*$`)
	listItem     = regexp.MustCompile(`^([-*+•·▪‣◦–]|\d{1,3}[.)]|\(\d{1,3}\)|[a-z]\))[ \t]+(.*)$`)
	tableRow     = regexp.MustCompile(`^\|.*\|[ \t]*$`)
	tableRule    = regexp.MustCompile(`^\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$`)
	inlineLabel  = regexp.MustCompile(`^(?:\*\*|__)?([A-Za-z][\w /’'-]{0,30}?)(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?[ \t]+(.+)$`)
	fenceLine    = regexp.MustCompile("^[ \t]*(```+|~~~+)[ \t]*([A-Za-z0-9_+-]*)")
	metaSentence = regexp.MustCompile(`(?i)^(?:sure|okay|ok|certainly|of course|here(?:'s| is| are)|based on|after (?:reviewing|analy[sz]ing|looking)|looking at|let me|i (?:have|'ve|reviewed|analy[sz]ed|looked|went|read|checked|will|'ll|extracted|found|did|could|can|don't|do not|see|am)|i'm|the (?:following|json|answer|output above)|below|hope|let me know|feel free|json|answer|result)\b`)
)

// dashSummary matches a summary labelled with a dash: "Summary — ...".
var dashSummary = regexp.MustCompile(`(?i)^(?:\*\*|__)?(?:run )?(?:summary|tl;dr|overview|recap)(?:\*\*|__)?[ \t]+[—–-]+[ \t]+(.+)$`)

// aboutTheAnswer matches a paragraph about the answer itself rather than
// the project: "I left out ...", "These are ...", "Note that ...".
var aboutTheAnswer = regexp.MustCompile(`(?i)^(?:i\b|i['’]|we\b|these\b|this (?:list|answer|response|output|run)\b|the (?:above|following|list|learnings|items)\b|note that\b|please\b|if you\b|overall\b|in summary\b|let me\b)`)

// textFences are the fence languages whose bodies may hold a text
// answer; other fences (shell, diffs, code) are skipped.
var textFences = map[string]bool{"": true, "yaml": true, "yml": true, "md": true, "markdown": true, "text": true, "txt": true, "plaintext": true, "plain": true}

// line is one line of a region with its offset and indentation.
type line struct {
	pos    int
	indent int
	text   string // trimmed
	yaml   bool   // inside a YAML fence: '#' starts a comment
}

func splitLines(s string) []line {
	var out []line
	pos := 0
	fence, fenceLang := "", ""
	for _, raw := range strings.SplitAfter(s, "\n") {
		start := pos
		pos += len(raw)
		t := strings.TrimRight(raw, "\r\n")
		if m := fenceLine.FindStringSubmatch(t); m != nil {
			switch {
			case fence == "":
				fence, fenceLang = m[1][:3], strings.ToLower(m[2])
				continue
			case strings.HasPrefix(m[1], fence) && m[2] == "":
				fence = ""
				continue
			}
		}
		if fence != "" && !textFences[fenceLang] {
			continue
		}
		indent := 0
		for _, r := range t {
			if r == ' ' {
				indent++
			} else if r == '\t' {
				indent += 4
			} else {
				break
			}
		}
		out = append(out, line{pos: start, indent: indent, text: strings.TrimSpace(t), yaml: fence != "" && (fenceLang == "yaml" || fenceLang == "yml")})
	}
	return out
}

// textItem is a list item being read: its first line and the lines that
// continue it.
type textItem struct {
	pos, indent int
	head        string
	rest        []string
	typ         agentmem.Type // from the section
	checkbox    string        // "open" or "resolved" from [ ] / [x]
	heading     bool          // a heading that starts an item
	inItems     bool          // under a learnings or type heading
	// paragraph: a paragraph of prose under a learnings heading, kept
	// only when its section has no list.
	paragraph bool
	section   int
	// mapping: the item is "key: value" lines (Type: ..., Content: ...);
	// keys are those it has, so that a repeated key starts the next one.
	mapping bool
	keys    map[string]bool
}

// mappingKey returns the normalized key of a "key: value" line that
// belongs to a learning written as a mapping (type, content, rationale,
// trigger, ...), or "".
func mappingKey(text string) string {
	label, _, ok := cutLabel(strings.TrimSpace(text))
	if !ok {
		return ""
	}
	k := normalizeKey(label)
	if isMappingKey(k) || fieldKeys[k] != "" {
		return k
	}
	return ""
}

// newItem starts an item at ln with its first line.
func newItem(ln line, head string, typ agentmem.Type, inItems bool) *textItem {
	it := &textItem{pos: ln.pos, indent: ln.indent, head: head, typ: typ, inItems: inItems}
	if k := mappingKey(head); k != "" && isMappingKey(k) {
		it.mapping, it.keys = true, map[string]bool{k: true}
	}
	return it
}

// addField appends a "key: value" line to a mapping item; false when the
// item is not a mapping or already has the key (the line starts the next
// learning).
func (it *textItem) addField(text string) bool {
	k := mappingKey(text)
	if it == nil || !it.mapping || k == "" || it.keys[k] {
		return false
	}
	it.keys[k] = true
	it.rest = append(it.rest, text)
	return true
}

// readText reads the lists, tables and labels of a region.
func readText(s string) textReading {
	t := textReading{itemsPos: -1}
	lines := splitLines(s)
	kind, secType := secNone, agentmem.Type("")
	var items []textItem
	var cur *textItem
	var summary []string
	summaryOpen := false // a "Summary:" label's paragraph is being read
	blank := false
	var prose []string
	var table []string
	anyItemsSection := false
	section := 0
	headed := false // the section was opened by a heading or a bold line
	flushTable := func() {
		if len(table) > 0 {
			if ps, pos := readTable(table); len(ps) > 0 {
				for _, p := range ps {
					items = append(items, textItem{pos: pos, head: "\x00table", typ: secType, inItems: true, section: section})
					t.r.items = append(t.r.items, p)
				}
			}
			table = nil
		}
	}
	flush := func() {
		if cur != nil {
			cur.section = section
			items = append(items, *cur)
			cur = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		text := ln.text
		if text == "" {
			blank = true
			summaryOpen = false
			flushTable()
			continue
		}
		wasBlank := blank
		blank = false
		if ln.yaml && strings.HasPrefix(text, "#") {
			continue
		}
		if tableRow.MatchString(text) {
			flush()
			table = append(table, text)
			continue
		}
		flushTable()

		// Headings, bold lines and label-only lines open sections.
		m := headingLine.FindStringSubmatch(text)
		if m == nil || ln.yaml {
			m = boldLine.FindStringSubmatch(text)
		}
		if m != nil {
			flush()
			summaryOpen = false
			if it, ok := headingItem(m[1], kind, secType); ok {
				it.pos, it.indent, it.inItems = ln.pos, -1, kind == secItems
				cur = &it
				continue
			}
			kind, secType = classifySection(m[1])
			section++
			headed = true
			if kind == secItems {
				anyItemsSection = true
			}
			continue
		}
		if m := labelOnly.FindStringSubmatch(text); m != nil && (cur == nil || ln.indent <= cur.indent) {
			k, typ := classifySection(m[1])
			if k == secOther && kind == secItems {
				// "Here's what I found:" introduces the section's list.
				flush()
				continue
			}
			if k != secOther || len(strings.Fields(m[1])) <= 6 {
				flush()
				summaryOpen = false
				kind, secType = k, typ
				section++
				headed = false
				if kind == secItems {
					anyItemsSection = true
				}
				if kind == secSummary {
					summaryOpen = true
				}
				continue
			}
		}

		// List items.
		if m := listItem.FindStringSubmatch(text); m != nil {
			body := strings.TrimSpace(m[2])
			// "- **Findings:**" with the learnings as its sub-items.
			if lm := boldLine.FindStringSubmatch(body); lm != nil || labelOnly.MatchString(body) {
				label := body
				if lm != nil {
					label = lm[1]
				}
				if k, typ := classifySection(label); k != secOther {
					flush()
					summaryOpen = false
					kind, secType = k, typ
					if kind == secItems {
						anyItemsSection = true
					}
					continue
				}
			}
			// "- **Summary:** ..." and "- Success: yes".
			if lm := inlineLabel.FindStringSubmatch(body); lm != nil && fieldKeys[normalizeKey(lm[1])] == "" && !noneStatement.MatchString(lm[1]) {
				switch k, _ := classifySection(lm[1]); {
				case k == secSummary:
					flush()
					summary = append(summary, cleanValue(lm[2]))
					continue
				case k == secSuccess:
					if b, ok := successWord(cleanLabel(lm[2])); ok {
						flush()
						t.r.success, t.r.hasSuccess = b, true
						continue
					}
				}
			}
			switch {
			case kind == secSummary:
				summary = append(summary, sentence(body))
				continue
			case kind == secSuccess:
				if b, ok := successWord(cleanLabel(body)); ok {
					t.r.success, t.r.hasSuccess = b, true
				}
				continue
			case kind == secSkip:
				continue
			}
			if cur.addField(body) {
				continue // "* Content: ..." after "* Type: finding"
			}
			if cur != nil && ln.indent > cur.indent && cur.indent >= 0 {
				cur.rest = append(cur.rest, body)
				continue
			}
			if cur != nil && cur.heading && mappingKey(body) == "" {
				cur.rest = append(cur.rest, body)
				continue
			}
			flush()
			summaryOpen = false
			cur = newItem(ln, body, secType, kind == secItems)
			cur.head, cur.checkbox = cutCheckbox(cur.head)
			if kind == secNone {
				kind = secOther
			}
			continue
		}

		// "Summary — ..." with a dash instead of a colon.
		if m := dashSummary.FindStringSubmatch(text); m != nil && cur == nil {
			summaryOpen = true
			summary = append(summary, strings.TrimSpace(m[1]))
			kind = secOther
			continue
		}

		// Labelled lines: "Summary: ...", "Success: yes", "Learnings:
		// none", "Finding: ...", "Rationale: ..." under an item.
		if m := inlineLabel.FindStringSubmatch(text); m != nil && !noneStatement.MatchString(m[1]) {
			label, value := m[1], strings.TrimSpace(m[2])
			lk, ltyp := classifySection(label)
			key := normalizeKey(label)
			switch {
			case cur.addField(text):
				continue
			case isMappingKey(key) && (cur == nil || cur.mapping || wasBlank || ln.indent <= cur.indent):
				// "Type: finding" / "Content: ..." lines: a learning
				// written as a mapping.
				flush()
				cur = newItem(ln, text, secType, kind == secItems)
				continue
			case cur != nil && (ln.indent > cur.indent || !wasBlank) && (fieldKeys[key] != "" || isContentKey(key) || cur.heading):
				cur.rest = append(cur.rest, text)
				continue
			case lk == secSummary && fieldKeys[key] == "":
				flush()
				summaryOpen = true
				if v := strings.TrimSpace(value); v != "|" && v != ">" && v != "|-" && v != ">-" {
					summary = append(summary, cleanValue(value))
				}
				kind = secOther
				continue
			case lk == secSuccess && (key == "success" || key == "succeeded" || key == "outcome" || key == "status" || key == "runsuccess" || strings.HasPrefix(key, "success")):
				if b, ok := successWord(cleanLabel(value)); ok {
					flush()
					t.r.success, t.r.hasSuccess = b, true
					continue
				}
			case lk == secItems && ltyp == "" && !strings.HasPrefix(strings.TrimSpace(value), "{") && !strings.HasPrefix(strings.TrimSpace(value), "["):
				flush()
				kind, secType = secItems, ""
				anyItemsSection = true
				if saysNone(value) {
					t.nones = append(t.nones, noneAt{pos: ln.pos, tier: tierStructured})
				} else {
					it := textItem{pos: ln.pos, indent: ln.indent, head: value, inItems: true}
					cur = &it
				}
				continue
			case lk == secItems && ltyp == "" && strings.TrimSpace(value) == "[]":
				flush()
				t.nones = append(t.nones, noneAt{pos: ln.pos, tier: tierStructured})
				continue
			case lk == secSkip && fieldKeys[key] == "":
				flush()
				continue
			case ltyp != "" && fieldKeys[key] == "" && saysNone(value):
				// "Blockers: none" says nothing of the other types.
				flush()
				t.nones = append(t.nones, noneAt{pos: ln.pos, tier: tierWeak})
				continue
			case ltyp != "" && fieldKeys[key] == "" && (ltyp != agentmem.TypeNote || kind == secItems) && kind != secSummary && kind != secSkip:
				// "Finding: ..." on a line of its own is an item.
				flush()
				it := textItem{pos: ln.pos, indent: ln.indent, head: text, typ: secType, inItems: kind == secItems}
				cur = &it
				continue
			}
		}

		// Continuation of the current item, or summary, or prose.
		switch {
		case cur != nil && (ln.indent > max(cur.indent, 0) || !wasBlank || cur.heading):
			cur.rest = append(cur.rest, text)
		case summaryOpen || kind == secSummary:
			summary = append(summary, text)
		case kind == secSuccess:
			if b, ok := successWord(cleanLabel(text)); ok {
				t.r.success, t.r.hasSuccess = b, true
			}
		case kind == secSkip:
		default:
			flush()
			if kind == secItems && saysNone(text) {
				t.nones = append(t.nones, noneAt{pos: ln.pos, tier: tierStructured})
				continue
			}
			if kind == secItems && headed && !metaSentence.MatchString(text) && !aboutTheAnswer.MatchString(text) && !strings.HasSuffix(text, ":") {
				// A paragraph under "## Learnings": a learning, unless
				// the section also has a list.
				cur = newItem(ln, text, secType, true)
				cur.paragraph = true
				continue
			}
			prose = append(prose, text)
		}
	}
	flush()
	flushTable()

	if len(summary) > 0 {
		t.r.summary, t.r.hasSummary = strings.Join(strings.Fields(strings.Join(summary, " ")), " "), true
	}
	t.nones = append(t.nones, proseNones(s, lines)...)

	// Items: those of the learnings sections when there are any, else
	// all; paragraphs only in sections without a list.
	listed := map[int]bool{}
	for _, it := range items {
		if !it.paragraph {
			listed[it.section] = true
		}
	}
	tableAt := 0
	for _, it := range items {
		if it.paragraph && listed[it.section] {
			continue
		}
		if it.head == "\x00table" {
			if t.itemsPos < 0 {
				t.itemsPos = it.pos
			}
			t.labelled = true
			tableAt++
			continue
		}
		p := proposalOfItem(it)
		if anyItemsSection && !it.inItems && p.f.typ == "" {
			continue // a list under another heading ("What I did")
		}
		if !it.paragraph && (p.f.typ != "" || it.inItems || it.heading) {
			t.labelled = true
		}
		if t.itemsPos < 0 {
			t.itemsPos = it.pos
		}
		t.r.items = append(t.r.items, p)
	}
	_ = tableAt
	if len(t.r.items) > 0 {
		t.r.list = true
	}
	t.prose = proseSummary(prose)
	return t
}

// headingItem reads a heading that is itself a learning: "### Finding:
// The tests need DynamoDB Local", or any heading under a learnings
// section ("### 1. Use make test").
func headingItem(h string, kind int, secType agentmem.Type) (textItem, bool) {
	h = strings.TrimSpace(h)
	label, rest, ok := cutLabel(stripNumbering(h))
	if ok && isTypeWord(stripNumbering(label)) && rest != "" {
		return textItem{head: h, heading: true, typ: secType}, true
	}
	if kind == secItems {
		if k, _ := classifySection(h); k == secOther {
			return textItem{head: h, heading: true, typ: secType}, true
		}
	}
	return textItem{}, false
}

// cutCheckbox removes a task list box and reports the status it means.
func cutCheckbox(s string) (string, string) {
	switch {
	case strings.HasPrefix(s, "[ ]"):
		return strings.TrimSpace(s[3:]), agentmem.StatusOpen
	case strings.HasPrefix(s, "[x]"), strings.HasPrefix(s, "[X]"):
		return strings.TrimSpace(s[3:]), agentmem.StatusResolved
	}
	return s, ""
}

// sentence ends a summary bullet with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

// proseSummary joins the prose lines that describe the run, dropping
// statements of no learnings and sentences about the answer itself.
func proseSummary(lines []string) string {
	var keep []string
	for _, l := range lines {
		l = strings.TrimSpace(strings.Trim(l, "*_>"))
		if l == "" || strings.HasPrefix(l, "{") || strings.HasPrefix(l, "[") || strings.HasPrefix(l, "<") || strings.HasPrefix(l, "`") || strings.HasPrefix(l, "|") {
			continue
		}
		for _, sn := range splitSentences(l) {
			sn = strings.TrimSpace(sn)
			if noneStatement.MatchString(sn) || saysNone(sn) {
				// "No new learnings — the run only reformatted files.":
				// keep the clause that describes the run.
				sn = describingClause(sn)
			}
			if sn == "" || metaSentence.MatchString(sn) || strings.HasSuffix(sn, ":") {
				continue
			}
			keep = append(keep, sn)
		}
	}
	return strings.Join(keep, " ")
}

// clauseBreak splits a sentence into clauses at dashes, colons and
// semicolons.
var clauseBreak = regexp.MustCompile(`\s+[—–-]+\s+|[:;]\s+`)

// describingClause returns the clauses of a sentence stating no learnings
// that describe the run instead ("the run only bumped a version"), as a
// sentence of their own, or "".
func describingClause(sn string) string {
	var keep []string
	for _, c := range clauseBreak.Split(sn, -1) {
		c = strings.TrimSpace(c)
		if c == "" || noneStatement.MatchString(c) || saysNone(c) || metaSentence.MatchString(c) || len(strings.Fields(c)) < 3 {
			continue
		}
		keep = append(keep, c)
	}
	if len(keep) == 0 {
		return ""
	}
	out := strings.Join(keep, "; ")
	r, n := utf8.DecodeRuneInString(out)
	return sentence(string(unicode.ToUpper(r)) + out[n:])
}

var sentenceEnd = regexp.MustCompile(`[.!?](?:\s+|$)`)

// splitSentences cuts prose after ". ", "! " and "? ".
func splitSentences(s string) []string {
	var out []string
	last := 0
	for _, m := range sentenceEnd.FindAllStringIndex(s, -1) {
		out = append(out, s[last:m[1]])
		last = m[1]
	}
	if last < len(s) {
		out = append(out, s[last:])
	}
	return out
}

// cleanValue unquotes a YAML-style scalar and trims it.
func cleanValue(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		if v[0] == '"' {
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
			return v[1 : len(v)-1]
		}
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}

// proposalOfItem turns a list item (or labelled line, or heading with its
// paragraph) into a proposal.
func proposalOfItem(it textItem) proposal {
	head := strings.TrimSpace(it.head)
	if strings.HasPrefix(head, "{") {
		v, _, _ := readJSON(strings.Join(append([]string{head}, it.rest...), "\n"), 0)
		if o, ok := v.(*object); ok {
			return proposalOf(o, it.typ)
		}
	}
	lines := append([]string{head}, it.rest...)
	if label, _, ok := cutLabel(head); ok && isMappingKey(normalizeKey(label)) {
		f, cut := fieldsOfMapping(lines)
		if f.impliedType == "" {
			f.impliedType = string(it.typ)
		}
		return proposal{f: f, cut: cut}
	}
	f := fieldsOfText(lines)
	if it.heading && len(it.rest) > 0 && f.content != "" {
		// "### Finding: title" followed by its paragraph: the paragraph
		// is the content when the heading is only a title.
		f = headingFields(head, it.rest)
	}
	if f.impliedType == "" {
		f.impliedType = string(it.typ)
	}
	if it.checkbox != "" && f.status == "" {
		f.status = it.checkbox
		if f.typ == "" && f.impliedType == "" {
			f.impliedType = string(agentmem.TypeBlocker)
		}
	}
	return proposal{f: f}
}

// headingFields reads a heading item: the type from the heading's label,
// the content from its title and paragraph together ("Title: text"), or
// the paragraph alone under a heading that is only a label.
func headingFields(head string, rest []string) fields {
	hf := fieldsOfText([]string{stripNumbering(head)})
	f := fieldsOfText(rest)
	f.typ = hf.typ
	title := strings.TrimSpace(hf.content)
	switch {
	case f.content == "":
		f.content = title
	case title == "" || numberedLabel(title):
	case strings.ContainsAny(title[len(title)-1:], ".!?:"):
		f.content = title + " " + f.content
	default:
		f.content = title + ": " + f.content
	}
	if typ, ok := typeOf(f.typ); ok && typ == agentmem.TypeDecision && f.rationale == "" {
		f.rationale = hf.rationale
	}
	return f
}

// cutLabel splits "Label: rest", "**Label:** rest", "**Label**: rest",
// "[Label] rest", "(Label) rest" and "Label — rest"; ok is false when s
// starts with no label.
func cutLabel(s string) (label, rest string, ok bool) {
	s = strings.TrimSpace(s)
	for _, re := range labelForms {
		if m := re.FindStringSubmatch(s); m != nil {
			return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(m[1]), ":：")), strings.TrimSpace(m[2]), true
		}
	}
	return "", s, false
}

var labelForms = []*regexp.Regexp{
	regexp.MustCompile(`^(?:\*\*|__)([^*_\n]{1,60}?)(?:\*\*|__)[ \t]*(?:[:：.]|[—–-])?[ \t]*(.*)$`),
	regexp.MustCompile(`^\[([A-Za-z][^\]\n]{0,30})\](?:[ \t]*[:：—–-])?[ \t]*([^(].*|)$`),
	regexp.MustCompile(`^\(([A-Za-z][^)\n]{0,30})\)(?:[ \t]*[:：—–-])?[ \t]*(.*)$`),
	regexp.MustCompile("^`([A-Za-z][^`\\n]{0,30})`[ \\t]*[:：—–-][ \\t]*(.*)$"),
	regexp.MustCompile(`^([A-Za-z][A-Za-z0-9 /#()-]{0,40}?)[ \t]*(?:[:：]|[ \t][—–][ \t]|[ \t]-[ \t])[ \t]*(.*)$`),
}

// fieldsOfText reads a learning written as text. The first line may open
// with a type label ("Finding:", "**Decision:**", "[blocker]") or be the
// first "key: value" line of a mapping (YAML "- type: finding"); the
// following lines are "key: value" fields (rationale, trigger, solution,
// ...) or more of the content. Typed fields written inline ("(why:
// ...)", "Trigger: ... Solution: ...") are read for the type that has
// them.
func fieldsOfText(lines []string) fields {
	var f fields
	if len(lines) == 0 {
		return f
	}
	head := strings.TrimSpace(lines[0])
	head = strings.TrimLeftFunc(head, func(r rune) bool {
		return unicode.Is(unicode.So, r) || r == '\ufe0f' || unicode.IsSpace(r)
	})
	label, rest, ok := cutLabel(head)
	key := normalizeKey(label)
	switch {
	case ok && isMappingKey(key):
		f, _ = fieldsOfMapping(lines)
		return f
	case ok && isTypeWord(stripNumbering(label)):
		f.typ = stripNumbering(labelWord(label))
		if m := parenthetical.FindString(label); m != "" && f.status == "" {
			// "Blocker (resolved): ..."
			f.status = strings.Trim(strings.TrimSpace(m), "()")
		}
		head = rest
		// "**Finding:** **Title**: text" keeps its title.
		if l2, r2, ok2 := cutLabel(head); ok2 && strings.HasPrefix(head, "**") {
			head = l2 + ": " + r2
		}
	case ok && stripNumbering(label) == "" || ok && numberedLabel(label):
		head = rest
	case ok && strings.HasPrefix(head, "**") || strings.HasPrefix(head, "__"):
		// A bold title: kept as part of the content, emphasis removed.
		head = strings.Replace(strings.Replace(head, "**", "", 2), "__", "", 2)
	}
	head = unbold(head)
	var content []string
	if head != "" {
		content = append(content, head)
	}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if lab, val, ok := cutLabel(l); ok {
			k := normalizeKey(lab)
			if fld := fieldKeys[k]; fld != "" && fld != fType {
				f.set(fld, cleanValue(unbold(val)))
				continue
			}
			if fieldKeys[k] == fType {
				f.typ = cleanValue(val)
				continue
			}
		}
		content = append(content, unbold(l))
	}
	f.content = strings.Join(content, " ")
	f.inline()
	return f
}

// isMappingKey reports whether a first line "key: value" opens a mapping
// (YAML "- type: finding", "Content: ..."), not a type label.
func isMappingKey(key string) bool {
	switch key {
	case "content", "text", "description", "title", "statement", "details", "detail", "body":
		return true
	}
	return fieldKeys[key] == fType
}

// isTypeWord reports whether a label names a memory type: "Finding",
// "[Decision]", "Blocker (open)", "Patterns".
func isTypeWord(s string) bool {
	_, ok := typeOf(labelWord(s))
	return ok
}

var parenthetical = regexp.MustCompile(`\s*\([^)]*\)\s*`)

// labelWord is a label without emphasis, brackets or parenthetical
// remarks: "**[Finding]** (high confidence)" is "Finding".
func labelWord(s string) string {
	s = cleanLabel(s)
	s = strings.Trim(parenthetical.ReplaceAllString(s, " "), "[]() ")
	return strings.TrimSpace(s)
}

var numberedLabelRe = regexp.MustCompile(`(?i)^(?:learning|item|entry|insight|lesson|point|#)?\s*#?\d{1,3}$`)

func numberedLabel(s string) bool {
	return numberedLabelRe.MatchString(strings.TrimSpace(cleanLabel(s)))
}

// unbold removes emphasis wrapping a whole value.
func unbold(s string) string {
	s = strings.TrimSpace(s)
	for _, m := range []string{"**", "__"} {
		if len(s) > 2*len(m) && strings.HasPrefix(s, m) && strings.HasSuffix(s, m) && !strings.Contains(s[len(m):len(s)-len(m)], m) {
			s = strings.TrimSpace(s[len(m) : len(s)-len(m)])
		}
	}
	return s
}

// fieldsOfMapping reads "key: value" lines (a YAML mapping or "Type: ...
// / Content: ..." lines). A value of "|" or ">" takes the lines that
// follow it; a line without a known key continues the last value.
func fieldsOfMapping(lines []string) (f fields, cut bool) {
	vals := map[string][]string{}
	var order []string
	last := ""
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if lab, val, ok := cutLabel(l); ok {
			k := normalizeKey(lab)
			if fieldKeys[k] != "" || isContentKey(k) {
				last = k
				if _, seen := vals[k]; !seen {
					order = append(order, k)
				}
				v := strings.TrimSpace(val)
				if v == "|" || v == ">" || v == "|-" || v == ">-" || v == "|+" || v == ">+" {
					v = ""
				}
				if v != "" {
					vals[k] = append(vals[k], cleanValue(unbold(v)))
					cut = openQuoted(v)
				}
				continue
			}
		}
		if last != "" {
			vals[last] = append(vals[last], cleanValue(l))
			if cut && (strings.HasSuffix(l, `"`) || strings.HasSuffix(l, `'`)) {
				cut = false // a quoted value over several lines, closed
			}
		}
	}
	o := &object{}
	for _, k := range order {
		v := strings.Join(vals[k], " ")
		if cut {
			v = strings.TrimLeft(v, `"'`)
		}
		o.members = append(o.members, member{key: k, value: v})
	}
	return fieldsOfObject(o), cut
}

// openQuoted reports whether a YAML value opens a quote it does not close
// on its line.
func openQuoted(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) > 0 && (v[0] == '"' || v[0] == '\'') && (len(v) == 1 || v[len(v)-1] != v[0])
}

// inlineField matches a typed field's label inside a line of text.
var inlineField = regexp.MustCompile(`(?i)(?:^|[\s(\[;|,.—–-])[*_]{0,2}(rationale|why|reason|because|trigger|when|symptom|signal|solution|fix|remedy|do|context|confidence|status)[*_]{0,2}[ \t]*[:：=][*_]{0,2}[ \t]*`)

// whyParen matches a decision's trailing "(why: ...)", as MEMORY.md
// writes it.
var whyParen = regexp.MustCompile(`(?i)\s*\((?:why|rationale|because|reason)\s*[:：]\s*([^()]+)\)\s*[.]?$`)

// statusMark matches a blocker's trailing status: "(resolved)",
// "[open]", "— fixed".
var statusMark = regexp.MustCompile(`(?i)\s*(?:\(|\[|[—–-]\s*)(resolved|fixed|open|unresolved|closed|solved|still open|done)[)\]]?\s*\.?$`)

// inline reads the typed fields written inside the content, for the
// type the learning has (or, untyped, a pattern with both a trigger and
// a solution, or a decision with a rationale).
func (f *fields) inline() {
	typ, known := typeOf(f.typ)
	if !known {
		typ, known = typeOf(f.impliedType)
	}
	allowed := map[string]bool{}
	switch {
	case known && typ == agentmem.TypeDecision:
		allowed[fRationale] = true
	case known && typ == agentmem.TypeBlocker:
		allowed[fStatus] = true
	case known && typ == agentmem.TypePattern:
		allowed[fTrigger], allowed[fSolution], allowed[fContext], allowed[fConfidence] = true, true, true, true
	case !known:
		allowed[fTrigger], allowed[fSolution], allowed[fContext], allowed[fConfidence], allowed[fRationale] = true, true, true, true, true
	default:
		return
	}
	c := f.content
	if allowed[fRationale] {
		if m := whyParen.FindStringSubmatchIndex(c); m != nil {
			f.set(fRationale, c[m[2]:m[3]])
			c = strings.TrimSpace(c[:m[0]])
		}
	}
	if allowed[fStatus] {
		if m := statusMark.FindStringSubmatchIndex(c); m != nil {
			f.set(fStatus, c[m[2]:m[3]])
			c = strings.TrimSpace(c[:m[0]])
		}
	}
	// Labels outside `code`.
	type hit struct {
		start, valStart int
		field           string
	}
	var hits []hit
	for _, m := range inlineField.FindAllStringSubmatchIndex(c, -1) {
		if strings.Count(c[:m[2]], "`")%2 == 1 {
			continue
		}
		fld := fieldKeys[normalizeKey(c[m[2]:m[3]])]
		if !allowed[fld] {
			continue
		}
		if !known && fld == fRationale && !strings.EqualFold(c[m[2]:m[3]], "rationale") {
			continue // only an explicit "Rationale:" makes an untyped item a decision
		}
		hits = append(hits, hit{start: m[2], valStart: m[1], field: fld})
	}
	if len(hits) == 0 {
		f.content = c
		return
	}
	if !known {
		has := map[string]bool{}
		for _, h := range hits {
			has[h.field] = true
		}
		if !(has[fTrigger] && has[fSolution]) && !has[fRationale] {
			f.content = c
			return
		}
	}
	for i, h := range hits {
		end := len(c)
		if i+1 < len(hits) {
			end = hits[i+1].start
		}
		v := strings.TrimSpace(c[h.valStart:end])
		v = strings.TrimRight(strings.TrimSpace(strings.TrimRight(v, ";|,—–-(")), " ")
		v = strings.TrimSuffix(strings.TrimPrefix(v, "("), ")")
		f.set(h.field, unbold(v))
	}
	head := strings.TrimSpace(c[:hits[0].start])
	head = strings.TrimSpace(strings.TrimRight(head, ";|,—–-([ *_"))
	f.content = head
}

// readTable reads a Markdown table whose header names a content column
// (and maybe type and field columns) into proposals.
func readTable(rows []string) ([]proposal, int) {
	if len(rows) < 2 {
		return nil, 0
	}
	cells := func(r string) []string {
		r = strings.TrimSpace(r)
		r = strings.TrimPrefix(strings.TrimSuffix(r, "|"), "|")
		parts := strings.Split(r, "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	header := cells(rows[0])
	hasContent := false
	for _, h := range header {
		k := normalizeKey(cleanLabel(h))
		if isContentKey(k) || k == "learnings" || k == "insights" || k == "lessons" || k == "what" {
			hasContent = true
		}
	}
	if !hasContent {
		return nil, 0
	}
	var out []proposal
	for _, r := range rows[1:] {
		if tableRule.MatchString(r) {
			continue
		}
		o := &object{}
		for i, c := range cells(r) {
			if i >= len(header) {
				break
			}
			k := normalizeKey(cleanLabel(header[i]))
			switch k {
			case "learnings", "insights", "lessons", "what":
				k = "content"
			}
			o.members = append(o.members, member{key: k, value: unbold(c)})
		}
		out = append(out, proposalOf(o, ""))
	}
	return out, 0
}
