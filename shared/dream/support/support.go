// Package support is Deep Dream's support test: a deterministic check
// that a claim (a memory the model proposes, with its typed fields) says
// what the sources it cites say, and not merely the same words.
//
// Word overlap cannot tell "Run golangci-lint before pushing" from "Never
// run golangci-lint before pushing", nor "tokens expire after 24 h" from
// "tokens expire after 200 h" when 200 is a batch size elsewhere in the
// sources. The test therefore reads claims and sources (their Markdown
// dress taken off alike: list markers, bold, "~", arrows) into sentences and
// clauses (subject, verb, what is negated, what is hedged, what a
// connective makes a cause or a rejected alternative) and checks, each
// with its own class of failure:
//
//   - identifiers (code spans, paths, flags, names with - _ . / : @,
//     camelCase, commands such as "make itest") appear as written in a
//     cited source (IdentifierMissing);
//   - every number is in a cited source (NumberMissing) with a compatible
//     unit and with its own words around it, not another number's
//     (NumberContext);
//   - each clause of the claim rests on one sentence of one source (or two
//     sentences of one source about the same subject, or one cited
//     source's sentences together); a clause that needs several sources
//     is UnsupportedCombination, one that moves a term into another
//     entity's place is RoleSwap, one with few of its words in the
//     sources and a name none of them has is LowOverlap, as is a claim
//     mostly of words no source has or with a superlative none says;
//   - negations agree (Negation), as do words and their opposites
//     ("before"/"after", "read"/"write": Opposite);
//   - a hedge stays a hedge: a certain claim from an uncertain source is
//     Modality;
//   - a cause ("because", "due to", "so", "(why: ...)") is claimed only
//     where one source states that cause for that effect (Causal);
//   - a blocker is resolved only where a source says so, and not
//     reopened where every source says it is solved (StatusChange).
//
// It is fast (about a tenth of a millisecond per claim against a prepared
// Corpus; docs/BENCHMARKS.md) and needs no model; an optional model-based
// verifier may add a second opinion, never replace this floor.
package support

import (
	"fmt"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// Kind is what a source is.
type Kind string

// The kinds of source.
const (
	KindMemory Kind = "memory"
	KindDaily  Kind = "daily"
)

// Source is one text a claim may cite: a memory of the core or a daily
// record, with the id the claim cites it by.
type Source struct {
	ID   string
	Kind Kind
	// Title is a daily record's title.
	Title string
	// Text is a memory's content or a daily record's content.
	Text string
	// The typed fields of a memory.
	Type       agentmem.Type
	Status     string
	Rationale  string
	Trigger    string
	Context    string
	Solution   string
	Confidence *float64
}

// MemorySource is the source a memory is.
func MemorySource(m agentmem.Memory) Source {
	return Source{ID: m.ID, Kind: KindMemory, Text: m.Content, Type: m.Type, Status: m.Status,
		Rationale: m.Rationale, Trigger: m.Trigger, Context: m.Context, Solution: m.Solution, Confidence: m.Confidence}
}

// RecordSource is the source a daily record is.
func RecordSource(r agentmem.DailyRecord) Source {
	return Source{ID: r.ID, Kind: KindDaily, Title: r.Title, Text: r.Content}
}

// Claim is what a proposed memory asserts: its content and typed fields.
type Claim struct {
	Type       agentmem.Type
	Content    string
	Rationale  string
	Status     string
	Trigger    string
	Context    string
	Solution   string
	Confidence *float64
}

// ClaimOf is the claim a memory makes.
func ClaimOf(m agentmem.Memory) Claim {
	return Claim{Type: m.Type, Content: m.Content, Rationale: m.Rationale, Status: m.Status,
		Trigger: m.Trigger, Context: m.Context, Solution: m.Solution, Confidence: m.Confidence}
}

// Class is why a claim is not supported.
type Class string

// The classes of unsupported claims.
const (
	// IdentifierMissing: an identifier of the claim is in no cited source.
	IdentifierMissing Class = "identifier_missing"
	// NumberMissing: a number of the claim is in no cited source.
	NumberMissing Class = "number_missing"
	// NumberContext: the number is there, but with another unit or with
	// words that belong to another number.
	NumberContext Class = "number_context"
	// Negation: the claim negates what the source affirms, or the reverse.
	Negation Class = "negation"
	// Opposite: the claim uses the opposite of the source's word.
	Opposite Class = "opposite"
	// Modality: the claim is certain where the source hedges.
	Modality Class = "modality"
	// Causal: a cause no single source states for that effect.
	Causal Class = "causal"
	// RoleSwap: a term moved into another entity's place (its duty given
	// to another, the two sides of a relation exchanged).
	RoleSwap Class = "role_swap"
	// StatusChange: a blocker resolved (or reopened) without a source
	// saying so.
	StatusChange Class = "status_change"
	// UnsupportedCombination: a clause that needs several sources, none of
	// which states it.
	UnsupportedCombination Class = "unsupported_combination"
	// LowOverlap: too few of the claim's words are in the sources.
	LowOverlap Class = "low_overlap"
	// Empty: the claim has no content words.
	Empty Class = "empty"
	// UnknownSource: the claim cites no source of the corpus.
	UnknownSource Class = "unknown_source"
)

// Classes lists every class, in the order the checks report them.
// A claim whose words are mostly not in the sources is reported as that
// first (it is invented as a whole), before what its parts get wrong.
var Classes = []Class{Empty, UnknownSource, LowOverlap, IdentifierMissing, NumberMissing, NumberContext,
	StatusChange, Negation, Opposite, Modality, Causal, RoleSwap, UnsupportedCombination}

// Problem is one failed check.
type Problem struct {
	Class  Class
	Detail string
}

// Verdict is the outcome of the support test for one claim.
type Verdict struct {
	// Supported is set when every check passed.
	Supported bool
	// Class and Detail are the first problem found (empty when
	// supported); Problems lists them all.
	Class    Class
	Detail   string
	Problems []Problem
	// Overlap is the share of the claim's content terms found in the
	// cited sources, 0..1.
	Overlap float64
	// Missing lists the claim's words (and numbers) found in no cited
	// source.
	Missing []string
	// SupportedBy lists the ids of the sources the claim's clauses rest
	// on, in the order of the corpus.
	SupportedBy []string
}

// DefaultMinOverlap is the share of a claim's content terms that must be
// found in its cited sources. It is low on purpose: new wording is what a
// paraphrase brings and is no evidence of invention; a claim fails on
// what it gets wrong (a name, a number, a polarity, a cause, a role, a
// cap it adds), and on overlap only when it is mostly words no source
// has.
const DefaultMinOverlap = 0.5

// Corpus is a set of sources, analysed once, that claims are checked
// against. It is safe for concurrent use once built.
type Corpus struct {
	// MinOverlap is the share of a claim's content terms its cited sources
	// must contain (0: DefaultMinOverlap).
	MinOverlap float64
	sources    []*source
	byID       map[string]*source
	// postings lists, for each term, the sources that have it.
	postings map[string][]*source
}

// source is an analysed Source.
type source struct {
	Source
	pos   int
	text  string // the text analysed: content and typed fields
	lower string
	d     *doc
	all   map[string]bool // every term of every sentence
	nums  []numOcc
	// nameAnchors are its names in code with the words before each
	// (nameAnchors; its numbers' are d.numberAnchors())
	nameAnchors []numberAnchor
	// steps are the steps each sentence puts in order (steps), by
	// sentence; nil for a sentence that orders nothing
	steps [][]map[string]bool
	links []link
	// only, useless and runs are read once for the checks that look at
	// every cited sentence: its restrictions with "only" (beyondOnly),
	// the measures it says did not help (didNotHelp), and its sentences
	// one and two at a time (transposed)
	only    []onlyScope
	useless []map[string]bool
	runs    [2][]sentenceRun
}

// NewCorpus analyses sources. Sources without an id can only be cited as
// part of the whole corpus (Check with no ids).
func NewCorpus(sources []Source) *Corpus {
	c := &Corpus{byID: map[string]*source{}, postings: map[string][]*source{}}
	for i, s := range sources {
		src := &source{Source: s, pos: i, text: sourceText(s)}
		src.lower = strings.ToLower(src.text)
		src.d = analyseAs(src.text, true)
		src.nums = src.d.numbers()
		src.nameAnchors = src.d.nameAnchors()
		for _, st := range src.d.sents {
			src.steps = append(src.steps, steps(st))
		}
		src.only, src.useless = onlyScopes(src.d), uselessMeasures(src.d)
		src.runs = [2][]sentenceRun{sentenceRuns(src.d.sents, 1), sentenceRuns(src.d.sents, 2)}
		src.all = map[string]bool{}
		for _, st := range src.d.sents {
			addAll(src.all, st.terms)
		}
		for t := range src.all {
			c.postings[t] = append(c.postings[t], src)
		}
		src.links = docLinks(src.d)
		if src.Kind == KindMemory && strings.TrimSpace(src.Rationale) != "" {
			rationaleOfAll(src)
		}
		c.sources = append(c.sources, src)
		if s.ID != "" {
			c.byID[s.ID] = src
		}
	}
	return c
}

// Check tests claim against the sources it cites (by id); with no ids,
// against every source of the corpus (what a dream that shows its model
// the whole window has to do). Ids the corpus lacks are ignored; a claim
// citing none it has is UnknownSource.
func (c *Corpus) Check(claim Claim, cited ...string) Verdict {
	v, _ := c.checkTraced(claim, false, cited...)
	return v
}

// checkTraced is Check; with trace set it also returns the check behind
// each problem (see checkTraced).
func (c *Corpus) checkTraced(claim Claim, trace bool, cited ...string) (Verdict, []string) {
	var srcs []*source
	if len(cited) == 0 {
		srcs = c.sources
	} else {
		seen := map[*source]bool{}
		for _, id := range cited {
			if s, ok := c.byID[id]; ok && !seen[s] {
				seen[s] = true
				srcs = append(srcs, s)
			}
		}
		if len(srcs) == 0 {
			return Verdict{Class: UnknownSource, Detail: fmt.Sprintf("cites no known source (%s)", strings.Join(cited, ", ")),
				Problems: []Problem{{UnknownSource, "cites no known source"}}}, nil
		}
	}
	min := c.MinOverlap
	if min <= 0 {
		min = DefaultMinOverlap
	}
	return checkTraced(claim, srcs, min, c, trace)
}

// Check tests claim against sources, all of them cited: NewCorpus then
// Corpus.Check. Build a Corpus to check many claims against one set.
func Check(claim Claim, sources []Source) Verdict {
	return NewCorpus(sources).Check(claim)
}

// sourceText renders a source's fields as the text the test reads.
func sourceText(s Source) string {
	if s.Kind == KindDaily {
		if t := strings.TrimSpace(s.Title); t != "" {
			return t + "\n" + plainText(s.Text)
		}
		return plainText(s.Text)
	}
	return fieldsText(s.Text, s.Type, s.Rationale, s.Trigger, s.Context, s.Solution)
}

// claimText renders a claim the same way.
func claimText(c Claim) string {
	return fieldsText(c.Content, c.Type, c.Rationale, c.Trigger, c.Context, c.Solution)
}

// fieldsText joins content and typed fields: a rationale as "(why: ...)",
// a pattern as "When <trigger>, <solution>." and "Context: ...".
func fieldsText(content string, _ agentmem.Type, rationale, trigger, context, solution string) string {
	content, rationale, trigger, context, solution = plainText(content), plainText(rationale), plainText(trigger), plainText(context), plainText(solution)
	var b strings.Builder
	b.WriteString(strings.TrimSpace(content))
	if r := strings.TrimSpace(rationale); r != "" {
		b.WriteString(" (why: " + r + ")")
	}
	trigger, solution, context = strings.TrimSpace(trigger), strings.TrimSpace(solution), strings.TrimSpace(context)
	switch {
	case trigger != "" && solution != "":
		b.WriteString(".\nWhen " + trigger + ", " + solution)
	case trigger != "":
		b.WriteString(".\nWhen " + trigger)
	case solution != "":
		b.WriteString(".\n" + solution)
	}
	if context != "" {
		b.WriteString(".\nContext: " + context)
	}
	return b.String()
}

// rationaleOfAll makes a memory's rationale ("(why: ...)" after its
// content) the reason for every sentence of the content, not only the
// last: "The admin panel is disabled; the vault is served by Caddy (why:
// the admin token leaked)" gives the leak as the reason for both.
func rationaleOfAll(src *source) {
	for i, l := range src.links {
		if !l.why {
			continue
		}
		effect, scope := map[string]bool{}, map[string]bool{}
		for _, st := range src.d.sents {
			for _, c := range st.conjs {
				if c.role != roleCause {
					addAll(effect, c.effTerms())
				}
			}
		}
		addAll(scope, effect)
		addAll(scope, l.scope)
		src.links[i].effect = union(l.effect, effect)
		src.links[i].scope = scope
	}
}
