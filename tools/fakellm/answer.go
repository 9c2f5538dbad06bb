package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
	"github.com/agentmem/agentmem/shared/search"
)

// Invented is the bullet the -invent flag adds to every dream answer: it
// is found in no source, so the fabrication guard drops it and lists it
// in the dream diary.
const Invented = "The team deploys to production every Friday at 17:00 from the Zurich office"

// answerer writes the stand-in's answers. It never calls a model: it
// copies from the prompt.
type answerer struct {
	invent bool
}

// answer picks the kind of prompt by the blocks agentmem's prompts carry.
func (a answerer) answer(prompt string) string {
	switch {
	case strings.Contains(prompt, "<daily_records>"):
		return a.dream(prompt)
	case strings.Contains(prompt, "<memories>"):
		return compress(prompt)
	case strings.Contains(prompt, "<run_output>"):
		return extract(block(prompt, "run_output"))
	}
	return "I am agentmem's development stand-in (tools/fakellm): I only answer agentmem's dream, compress and extraction prompts."
}

// block returns the text between <tag> and </tag> (the last such block:
// prompts show their instructions first and their data last).
func block(prompt, tag string) string {
	open, closing := "<"+tag+">", "</"+tag+">"
	i := strings.LastIndex(prompt, open)
	if i < 0 {
		return ""
	}
	rest := prompt[i+len(open):]
	if j := strings.Index(rest, closing); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

// dream consolidates the way the dream prompt asks, without a model: the
// current memory's bullets are kept word for word, and each sentence of
// the daily records that looks worth keeping becomes a bullet, copied
// from its record, under a heading guessed from its words.
func (a answerer) dream(prompt string) string {
	sections := map[agentmem.Type][]string{}
	seen := map[string]bool{}
	add := func(t agentmem.Type, bullet string) {
		key := search.NormalizeText(bullet)
		if key == "" || seen[key] {
			return
		}
		seen[key] = true
		sections[t] = append(sections[t], bullet)
	}
	for _, fixed := range markdown.ParseItems(block(prompt, "fixed_memory")) {
		seen[search.NormalizeText(fixed.Text)] = true // kept by the server; not repeated
	}
	kept := 0
	for _, it := range markdown.ParseItems(block(prompt, "current_memory")) {
		add(it.Type, markdown.Bullet(markdown.MemoryFromItem(it.Type, it.Text)))
		kept++
	}
	records, added := 0, 0
	for _, rec := range strings.Split(block(prompt, "daily_records"), "\n### ") {
		_, body, ok := strings.Cut(rec, "\n")
		if !ok {
			continue
		}
		records++
		for _, s := range sentences(body) {
			t := classify(s)
			if t == agentmem.TypeBlocker {
				s = "[ ] " + s
			}
			before := len(seen)
			add(t, s)
			if len(seen) > before {
				added++
			}
		}
	}
	if a.invent {
		add(agentmem.TypeNote, Invented)
	}
	var b strings.Builder
	b.WriteString("[MEMORY]\n")
	for _, t := range agentmem.Types {
		if len(sections[t]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n", markdown.Heading(t))
		for _, bullet := range sections[t] {
			fmt.Fprintf(&b, "- %s\n", bullet)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[DREAM]\nI read %d daily records and the %d memories I had. I kept those memories word for word and added %d facts from the records, copied as they were written.", records, kept, added)
	if a.invent {
		b.WriteString(" I also added something I made up, to see whether anyone notices.")
	}
	b.WriteByte('\n')
	return b.String()
}

// metadata matches lines such as "Messages: 184, tokens ...": counts, not
// facts.
var metadata = regexp.MustCompile(`^[A-Za-z /]+: [0-9]`)

// sentences splits a record into sentences worth a bullet: at least four
// words, at most 300 bytes, not metadata, without the trailing full stop.
func sentences(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		s = strings.TrimRight(s, ".")
		if len(strings.Fields(s)) >= 4 && len(s) <= 300 && !metadata.MatchString(s) {
			out = append(out, s)
		}
	}
	runes := []rune(text)
	for i, r := range runes {
		switch {
		case r == '\n':
			flush()
		case (r == '.' || r == '!' || r == '?' || r == ';') && (i+1 == len(runes) || runes[i+1] == ' ' || runes[i+1] == '\n'):
			if r != ';' {
				cur.WriteRune(r)
			}
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

var (
	decisionWords = regexp.MustCompile(`(?i)\b(decided|decide|decision|we chose|chose to|agreed)\b`)
	blockerWords  = regexp.MustCompile(`(?i)\b(blocked|blocker|blocks|ran out|fails|failing|broken|cannot|can't)\b`)
	findingWords  = regexp.MustCompile(`(?i)\b(found|discovered|turns out|noticed)\b`)
	learningWords = regexp.MustCompile(`(?i)\b(learned|learnt|lesson|remember|must|always|never)\b`)
)

// classify guesses a sentence's memory type from its words.
func classify(s string) agentmem.Type {
	switch {
	case decisionWords.MatchString(s):
		return agentmem.TypeDecision
	case blockerWords.MatchString(s):
		return agentmem.TypeBlocker
	case findingWords.MatchString(s):
		return agentmem.TypeFinding
	case learningWords.MatchString(s):
		return agentmem.TypeLearning
	}
	return agentmem.TypeNote
}

// listed matches a memory line of the compress prompt.
var listed = regexp.MustCompile(`(?m)^- \[([0-9A-Z]{26})\] \(([^)]*)\) (.*)$`)

// compress joins the listed memories of each section into one item that
// cites them all, in their own words.
func compress(prompt string) string {
	type group struct {
		ids, texts []string
	}
	groups := map[string]*group{}
	var order []string
	for _, m := range listed.FindAllStringSubmatch(block(prompt, "memories"), -1) {
		g := groups[m[2]]
		if g == nil {
			g = &group{}
			groups[m[2]] = g
			order = append(order, m[2])
		}
		g.ids = append(g.ids, m[1])
		g.texts = append(g.texts, strings.TrimRight(m[3], "."))
	}
	var b strings.Builder
	b.WriteString("[MEMORY]\n")
	for _, heading := range order {
		g := groups[heading]
		if len(g.ids) < 2 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n- %s (sources: %s)\n", heading, strings.Join(g.texts, "; "), strings.Join(g.ids, ", "))
	}
	return b.String()
}

// learning is one learning of the extraction answer format.
type learning struct {
	Type      string `json:"type"`
	Content   string `json:"content"`
	Rationale string `json:"rationale,omitempty"`
	Status    string `json:"status,omitempty"`
}

// extract answers the extraction prompt in its JSON format: up to five
// sentences of the run output that look like learnings, typed by their
// words, and the first two sentences as the summary.
func extract(output string) string {
	all := sentences(output)
	var ls []learning
	for _, s := range all {
		if len(ls) == 5 {
			break
		}
		t := classify(s)
		if t == agentmem.TypeNote {
			continue
		}
		l := learning{Type: string(t), Content: s}
		if t == agentmem.TypeBlocker {
			l.Status = agentmem.StatusOpen
		}
		ls = append(ls, l)
	}
	summary := strings.Join(all[:min(2, len(all))], ". ")
	if summary == "" {
		summary = "The run output was empty."
	} else {
		summary += "."
	}
	lower := strings.ToLower(output)
	success := !strings.Contains(lower, "fail") && !strings.Contains(lower, "error")
	raw, _ := json.Marshal(map[string]any{"success": success, "summary": summary, "learnings": append([]learning{}, ls...)})
	return string(raw)
}
