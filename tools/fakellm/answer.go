package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/search"
)

// Invented is the addition the -invent flag adds to every dream answer:
// its cited record does not say it, so the support test refuses it and
// the dream diary lists it.
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
	case strings.Contains(prompt, "<changes>"):
		return verify(prompt)
	case strings.Contains(prompt, "<memories>"):
		return compress(prompt)
	case strings.Contains(prompt, "<run_output>"):
		return extract(block(prompt, "run_output"))
	}
	return "I am agentmem's development stand-in (tools/fakellm): I only answer agentmem's dream, verify, compress and extraction prompts."
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

// memoryLine and recordHead match the dream prompt's memories and records.
var (
	memoryLine = regexp.MustCompile(`(?m)^- \[m\d+\] \([a-z]+\) (.*)$`)
	recordHead = regexp.MustCompile(`^\[(r\d+)\] `)
)

// op is one operation of the dream answer format.
type op struct {
	Op      string   `json:"op"`
	Type    string   `json:"type"`
	Content string   `json:"content"`
	Status  string   `json:"status,omitempty"`
	Cite    []string `json:"cite"`
}

// dream consolidates the way the dream prompt asks, without a model: the
// memories are kept (not mentioned), and where the part may add, each
// sentence of a daily record that looks worth keeping becomes an
// addition, copied from its record and citing it, typed by its words.
func (a answerer) dream(prompt string) string {
	seen := map[string]bool{}
	for _, tag := range []string{"memories", "fixed_memories"} {
		for _, m := range memoryLine.FindAllStringSubmatch(block(prompt, tag), -1) {
			seen[search.NormalizeText(m[1])] = true
		}
	}
	ops := []op{}
	records, kept := 0, len(memoryLine.FindAllString(block(prompt, "memories"), -1))
	mayAdd := strings.Contains(prompt, "You may add memories in this part.")
	for _, rec := range strings.Split("\n"+block(prompt, "daily_records"), "\n### ") {
		head, body, ok := strings.Cut(rec, "\n")
		ref := recordHead.FindStringSubmatch(head)
		if !ok || ref == nil {
			continue
		}
		records++
		for _, s := range sentences(body) {
			key := search.NormalizeText(s)
			if !mayAdd || key == "" || seen[key] {
				continue
			}
			seen[key] = true
			o := op{Op: "add", Type: string(classify(s)), Content: s, Cite: []string{ref[1]}}
			if o.Type == string(agentmem.TypeBlocker) {
				o.Status = agentmem.StatusOpen
			}
			ops = append(ops, o)
		}
	}
	if a.invent && mayAdd {
		ops = append(ops, op{Op: "add", Type: string(agentmem.TypeNote), Content: Invented, Cite: []string{"r1"}})
	}
	diary := fmt.Sprintf("I read %d daily records and kept the %d memories I may change as they were; I added %d facts from the records, copied as they were written.", records, kept, len(ops))
	if a.invent && mayAdd {
		diary += " I also added something I made up, to see whether anyone notices."
	}
	raw, _ := json.MarshalIndent(map[string]any{"operations": ops, "dream": diary}, "", "  ")
	return "```json\n" + string(raw) + "\n```\n"
}

// changeLine matches a change of the verify prompt.
var changeLine = regexp.MustCompile(`(?m)^### Change (\d+):`)

// verify answers the verifier's prompt: every change is supported (the
// stand-in copies, so what it added says what its record says).
func verify(prompt string) string {
	var verdicts []map[string]any
	for _, m := range changeLine.FindAllStringSubmatch(prompt, -1) {
		verdicts = append(verdicts, map[string]any{"n": json.Number(m[1]), "verdict": "supports"})
	}
	raw, _ := json.Marshal(map[string]any{"verdicts": verdicts})
	return string(raw)
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
