package dream

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
	"github.com/agentmem/agentmem/shared/search"
)

// Reason classes of the operations a dream refuses for reasons of its own
// (the support test's classes are shared/dream/support's).
const (
	ClassNoCitation           = "no_citation"            // an add, update or retire that cites nothing
	ClassUnknownCitation      = "unknown_citation"       // it cites a reference the prompt did not show
	ClassUnknownMemory        = "unknown_memory"         // an update or retire of a memory the prompt did not show
	ClassFixedMemory          = "fixed_memory"           // an update or retire of a memory it may not change (pinned, manual, another part's)
	ClassConflictingOp        = "conflicting_op"         // a second change of one memory
	ClassDuplicate            = "duplicate"              // it says what a memory of the scope, or an earlier operation, already says
	ClassInvalid              = "invalid"                // not an operation, or a memory the rules refuse (empty, too long, bad type)
	ClassRetireUnsupported    = "retire_unsupported"     // a retire whose citations give no reason (see retireReason)
	ClassVerifierContradicts  = "verifier_contradicts"   // the verifier found the cited sources say otherwise
	ClassVerifierNotMentioned = "verifier_not_mentioned" // the verifier found the cited sources do not say it
)

// Retirement rule. A retire is accepted only with a cited reason: at
// least one cited source other than the memory itself, a daily record or a
// memory, that
//
//   - contradicts it: the support test, checking the memory's claim
//     against that source alone, finds the same subject (at least
//     retireOverlap of the claim's words) but a negation, an opposite, a
//     number or status that differs, or roles swapped
//     (RetireContradicted);
//   - says it is out of date: one of its sentences says so (no longer,
//     obsolete, deprecated, replaced, removed, switched to, fixed, ...;
//     obsolete below, a word the memory does not say itself) about the
//     same subject (saysOutOfDate; RetireObsolete);
//   - or is a memory that stays (not retired by this dream; as this dream
//     updates it) and says all the memory says: the support test accepts
//     the memory's claim against it alone (RetireRepeated: a merge).
//
// Anything else (a retire citing only itself, or a source about another
// subject) is refused as retire_unsupported and the memory stays.
const retireOverlap = 0.5

// obsolete matches what a source says of a fact that no longer holds.
var obsolete = regexp.MustCompile(`(?i)\b(no longer|not any ?more|obsolete|deprecated|outdated|out of date|superseded|replaced|removed|dropped|retired|reverted|rolled back|was wrong|is wrong|incorrect|not true|no more|stopped|switched|moved to|migrated|fixed|resolved|solved|gone|instead|anymore)\b`)

// contradicting are the support test's classes that, with the subject
// shared, mean a source says otherwise.
var contradicting = map[support.Class]bool{
	support.Negation: true, support.Opposite: true, support.NumberMissing: true, support.NumberContext: true,
	support.StatusChange: true, support.RoleSwap: true,
}

// change is an operation the dream accepted.
type change struct {
	op string // agentmem.OpAdd, OpUpdate, OpRetire
	// memory is what an add or update writes, or the memory a retire
	// takes out.
	memory agentmem.Memory
	// before is the memory an update rewrites, as read.
	before   agentmem.Memory
	cites    []string
	note     string
	rule     string
	verified string
	// restated is the change as the model first wrote it (rendered), when
	// the restate pass rewrote it in the sources' words.
	restated string
}

// reviewed is what a dream's answers mean for the core.
type reviewed struct {
	changes []change
	dropped []agentmem.DroppedBullet
	// touched are the memories an accepted update or retire names.
	touched map[string]bool
	diaries []string
	// candidates are the additions and updates the support test refused
	// with a class a restatement may cure (see restatable).
	candidates []restateCandidate
}

// opRef names one operation of a dream's answers: answers[answer].answer.Ops[op].
type opRef struct{ answer, op int }

// restated are the restatements that passed the support test, for a
// second review, with the refusals they replace.
type restated struct {
	by   map[opRef]Restatement
	orig map[opRef]agentmem.DroppedBullet
}

// sourceIndex is every source the dream showed, by id.
type sourceIndex struct {
	corpus   *support.Corpus
	memories map[string]agentmem.Memory
	records  map[string]agentmem.DailyRecord
	// fixed are the memories no operation may change.
	fixed map[string]bool
}

func (s sourceIndex) text(id string) string {
	if m, ok := s.memories[id]; ok {
		return claimText(m)
	}
	r := s.records[id]
	return r.Title + "\n" + r.Content
}

// review checks every operation of the answers (see the rules in the
// package's doc and retireReason) and returns the changes that pass, the
// operations refused with their class, in a deterministic order: updates,
// then retires, then adds, each in the answers' order.
//
// With rs, the operations it names are reviewed as restated: one that
// passes becomes a change that remembers the original; one that does not
// (or ends as no change) is refused as the first review refused it.
func (d *Dreamer) review(answers []unitAnswer, src sourceIndex, core []agentmem.Memory, agent, project string, rs restated) reviewed {
	r := reviewed{touched: map[string]bool{}}
	live := search.NewDedup(core)
	current := map[string]agentmem.Memory{} // memories as this dream leaves them
	for _, m := range core {
		current[m.ID] = m
	}
	retired := map[string]bool{}
	type pending struct {
		op     Op
		ref    opRef
		ua     *unitAnswer
		cites  []string
		target agentmem.Memory
	}
	// refuse records a refusal; an operation reviewed as restated is
	// refused as the first review refused it.
	refuse := func(ref opRef, b agentmem.DroppedBullet) {
		if orig, ok := rs.orig[ref]; ok {
			b = orig
		}
		r.dropped = append(r.dropped, b)
	}
	// candidate records a refusal by the support test, and the operation
	// as a candidate for the restate pass when its class allows.
	candidate := func(p pending, m agentmem.Memory, v support.Verdict) {
		b := droppedVerdict(p.op, m, p.cites, v)
		if _, again := rs.by[p.ref]; !again && restatable(v.Class) {
			r.candidates = append(r.candidates, restateCandidate{ref: p.ref, op: p.op.Op, memory: m, cites: p.cites, dropped: b})
		}
		refuse(p.ref, b)
	}
	var updates, retires, adds []pending
	for i := range answers {
		ua := &answers[i]
		if ua.answer.Diary != "" {
			r.diaries = append(r.diaries, ua.answer.Diary)
		}
		for j, op := range ua.answer.Ops {
			if op.Op == agentmem.OpKeep {
				continue
			}
			ref := opRef{i, j}
			drop := func(class, reason string, target agentmem.Memory, cites []string) {
				refuse(ref, droppedOp(op, target, cites, class, reason))
			}
			if op.Op == "" {
				drop(ClassInvalid, fmt.Sprintf("%q is not an operation (keep, add, update, retire)", op.Raw), agentmem.Memory{}, nil)
				continue
			}
			var target agentmem.Memory
			if op.Op != agentmem.OpAdd {
				id, ok := ua.refs.resolve(op.Target)
				m, mutable := ua.refs.mutable[id]
				switch {
				case op.Target == "":
					drop(ClassUnknownMemory, "the "+op.Op+" names no memory", agentmem.Memory{}, nil)
					continue
				case !ok:
					drop(ClassUnknownMemory, fmt.Sprintf("the %s names %q, which the prompt did not show", op.Op, op.Target), agentmem.Memory{}, nil)
					continue
				case src.records[id].ID != "":
					drop(ClassUnknownMemory, fmt.Sprintf("the %s names %q, a daily record, not a memory", op.Op, op.Target), agentmem.Memory{}, nil)
					continue
				case !mutable:
					why := "a pinned or manual memory, kept as it is"
					if !src.fixed[id] {
						why = "a memory another part of the dream reviews"
					}
					drop(ClassFixedMemory, fmt.Sprintf("the %s names %s: %s", op.Op, id, why), src.memories[id], nil)
					continue
				}
				target = m
			}
			cites, unknown := resolveCites(op.Cites, ua.refs)
			switch {
			case len(unknown) > 0:
				drop(ClassUnknownCitation, fmt.Sprintf("cites %s, not shown to the model", strings.Join(unknown, ", ")), target, cites)
				continue
			case len(cites) == 0:
				drop(ClassNoCitation, "cites no source", target, nil)
				continue
			}
			p := pending{op: op, ref: ref, ua: ua, cites: cites, target: target}
			switch op.Op {
			case agentmem.OpUpdate:
				updates = append(updates, p)
			case agentmem.OpRetire:
				retires = append(retires, p)
			default:
				adds = append(adds, p)
			}
		}
	}
	for _, p := range updates {
		if r.touched[p.target.ID] {
			refuse(p.ref, droppedOp(p.op, p.target, p.cites, ClassConflictingOp, "a second change of "+p.target.ID+" in this dream"))
			continue
		}
		next := p.target
		nm := p.op.Memory
		if nm.Type != "" && nm.Type != next.Type {
			next.Type = nm.Type
			next.Rationale, next.Status, next.Trigger, next.Context, next.Solution, next.Confidence = "", "", "", "", "", nil
		}
		if nm.Content == "" {
			refuse(p.ref, droppedOp(p.op, p.target, p.cites, ClassInvalid, "the update has no content"))
			continue
		}
		next.Content = nm.Content
		for _, f := range []struct{ dst, v *string }{{&next.Rationale, &nm.Rationale}, {&next.Status, &nm.Status},
			{&next.Trigger, &nm.Trigger}, {&next.Context, &nm.Context}, {&next.Solution, &nm.Solution}} {
			if *f.v != "" {
				*f.dst = *f.v
			}
		}
		if next.Type == agentmem.TypeBlocker && next.Status == "" {
			next.Status = agentmem.StatusOpen
		}
		if nm.Confidence != nil {
			next.Confidence = nm.Confidence
		}
		original := ""
		if x, ok := rs.by[p.ref]; ok {
			original = bulletText(next)
			next = x.apply(next)
		}
		if memoryKey(next) == memoryKey(p.target) {
			if original != "" {
				refuse(p.ref, agentmem.DroppedBullet{})
			}
			continue // the same memory: kept
		}
		if err := validMemory(next); err != nil {
			refuse(p.ref, droppedOp(p.op, next, p.cites, ClassInvalid, agentmem.ErrorMessage(err)))
			continue
		}
		if v := src.corpus.Check(support.ClaimOf(next), p.cites...); !v.Supported {
			candidate(p, next, v)
			continue
		}
		if !sameSubject(p.target, next) {
			// The update takes the memory's fact out of the core: a
			// retirement, which needs its reason.
			if rule, _ := retireReason(p.target, p.cites, src, current, retired); rule == "" {
				refuse(p.ref, droppedOp(p.op, next, p.cites, ClassRetireUnsupported,
					"the update says something else than "+p.target.ID+" (less than half of its words) and no cited source says the memory no longer holds; update a memory to correct or complete it, or retire it citing why and add the new fact"))
				continue
			}
		}
		live.Remove(next.ID)
		if dup, _, ok := live.Find(next); ok {
			live.Add(p.target)
			refuse(p.ref, droppedOp(p.op, next, p.cites, ClassDuplicate,
				fmt.Sprintf("says what memory %s says; retire this one citing it instead", dup.ID)))
			continue
		}
		live.Add(next)
		current[next.ID] = next
		r.touched[next.ID] = true
		r.changes = append(r.changes, change{op: agentmem.OpUpdate, memory: next, before: p.target, cites: p.cites, note: p.op.Note, restated: original})
	}
	for _, p := range retires {
		if r.touched[p.target.ID] {
			r.dropped = append(r.dropped, droppedOp(p.op, p.target, p.cites, ClassConflictingOp, "a second change of "+p.target.ID+" in this dream"))
			continue
		}
		rule, why := retireReason(p.target, p.cites, src, current, retired)
		if rule == "" {
			r.dropped = append(r.dropped, droppedOp(p.op, p.target, p.cites, ClassRetireUnsupported, why))
			continue
		}
		retired[p.target.ID] = true
		r.touched[p.target.ID] = true
		live.Remove(p.target.ID)
		r.changes = append(r.changes, change{op: agentmem.OpRetire, memory: p.target, cites: p.cites, note: p.op.Note, rule: rule})
	}
	for _, p := range adds {
		m := p.op.Memory
		if m.Type == "" {
			m.Type = agentmem.TypeNote
		}
		if m.Type == agentmem.TypeBlocker && m.Status == "" {
			m.Status = agentmem.StatusOpen
		}
		m.AgentName, m.ProjectID, m.Source = agent, project, agentmem.SourceSystem
		original := ""
		if x, ok := rs.by[p.ref]; ok {
			original = bulletText(m)
			m = x.apply(m)
		}
		if err := validMemory(m); err != nil {
			refuse(p.ref, droppedOp(p.op, m, p.cites, ClassInvalid, agentmem.ErrorMessage(err)))
			continue
		}
		if dup, _, ok := live.Find(m); ok {
			what := "memory " + dup.ID
			if dup.ID == "" {
				what = "an earlier addition of this dream"
			}
			refuse(p.ref, droppedOp(p.op, m, p.cites, ClassDuplicate, "says what "+what+" already says"))
			continue
		}
		if v := src.corpus.Check(support.ClaimOf(m), p.cites...); !v.Supported {
			candidate(p, m, v)
			continue
		}
		live.Add(m)
		r.changes = append(r.changes, change{op: agentmem.OpAdd, memory: m, cites: p.cites, note: p.op.Note, restated: original})
	}
	return r
}

// retireReason applies the retirement rule to target with its citations:
// the rule that accepts it, or "" and why not.
func retireReason(target agentmem.Memory, cites []string, src sourceIndex, current map[string]agentmem.Memory, retired map[string]bool) (string, string) {
	claim := support.ClaimOf(target)
	others := 0
	for _, id := range cites {
		if id == target.ID {
			continue
		}
		others++
		if m, ok := src.memories[id]; ok {
			if retired[id] {
				continue
			}
			if cur, ok := current[id]; ok {
				m = cur
			}
			// A memory that stays and says all of it: a merge.
			one := support.NewCorpus([]support.Source{support.MemorySource(m)})
			one.MinOverlap = src.corpus.MinOverlap
			if v := one.Check(claim); v.Supported {
				return agentmem.RetireRepeated, ""
			}
		}
		v := src.corpus.Check(claim, id)
		if v.Overlap < retireOverlap {
			continue // about something else
		}
		if saysOutOfDate(target, src.text(id), src.corpus.MinOverlap) {
			return agentmem.RetireObsolete, ""
		}
		if !v.Supported && contradicting[v.Class] {
			return agentmem.RetireContradicted, ""
		}
	}
	if others == 0 {
		return "", "a retire must cite a source other than the memory itself that says it no longer holds"
	}
	return "", "no cited source contradicts it, says it is out of date, or is a memory that stays and says all of it"
}

// saysOutOfDate reports whether a source's text says of the memory's
// subject that it no longer holds: one of its sentences holds at least
// retireOverlap of the memory's words and a word of obsolete that the
// memory does not say itself. A source that says "fixed" of something
// else beside a restatement of the memory, or that says the memory in its
// own words ("switched to pnpm" of a memory that says the project
// switched to pnpm), confirms it.
func saysOutOfDate(target agentmem.Memory, text string, minOverlap float64) bool {
	own := map[string]bool{}
	for _, w := range obsolete.FindAllString(claimText(target), -1) {
		own[oneLine(strings.ToLower(w))] = true
	}
	claim := support.ClaimOf(target)
	for _, s := range sentences(text) {
		if !slices.ContainsFunc(obsolete.FindAllString(s, -1), func(w string) bool { return !own[oneLine(strings.ToLower(w))] }) {
			continue
		}
		one := support.NewCorpus([]support.Source{{ID: "sentence", Kind: support.KindDaily, Text: s}})
		one.MinOverlap = minOverlap
		if one.Check(claim).Overlap >= retireOverlap {
			return true
		}
	}
	return false
}

// sentenceEnd is where a sentence of a source's text ends: after ".",
// "!" or "?" and white space, and at line breaks.
var sentenceEnd = regexp.MustCompile(`[.!?]+\s+|\n+`)

// sentences splits a source's text into its sentences, each with its
// closing punctuation, without the white space between them.
func sentences(text string) []string {
	var out []string
	start := 0
	for _, m := range sentenceEnd.FindAllStringIndex(text, -1) {
		if s := strings.TrimSpace(text[start:m[1]]); s != "" {
			out = append(out, s)
		}
		start = m[1]
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// sameSubject reports whether an update keeps the subject of the memory it
// rewrites: at least retireOverlap of the memory's words are in the new
// version (a correction, a completion, a merge).
func sameSubject(before, after agentmem.Memory) bool {
	one := support.NewCorpus([]support.Source{support.MemorySource(after)})
	return one.Check(support.ClaimOf(before)).Overlap >= retireOverlap
}

// resolveCites maps an operation's references to ids; unknown lists those
// the unit did not show.
func resolveCites(cites []string, rf refs) (ids, unknown []string) {
	for _, c := range cites {
		id, ok := rf.resolve(c)
		if !ok {
			unknown = append(unknown, c)
			continue
		}
		if !contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, unknown
}

// droppedOp is the diary's record of a refused operation.
func droppedOp(op Op, m agentmem.Memory, cites []string, class, reason string) agentmem.DroppedBullet {
	if m.Content == "" {
		m = op.Memory
	}
	return agentmem.DroppedBullet{Op: op.Op, MemoryID: m.ID, Citations: cites, Type: m.Type,
		Content: truncate(m.Content, 500), Class: class, Reason: reason}
}

// droppedVerdict is droppedOp for an operation the support test refused.
func droppedVerdict(op Op, m agentmem.Memory, cites []string, v support.Verdict) agentmem.DroppedBullet {
	b := droppedOp(op, m, cites, string(v.Class), v.Detail)
	b.Support, b.Missing = v.Overlap, v.Missing
	return b
}
