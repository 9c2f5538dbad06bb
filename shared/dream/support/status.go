package support

import (
	"regexp"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// The status checks: a blocker is resolved only where a source says so,
// checklist items keep their state, and a stated confidence is not raised.

// checklistItems reads the checklist items of a text: a box, then its
// label up to the next box or the end of the sentence.
func checklistItems(text string) []checklistItem {
	var out []checklistItem
	for i := 0; i+2 < len(text); i++ {
		if text[i] != '[' || text[i+2] != ']' || !strings.ContainsRune(" xX", rune(text[i+1])) {
			continue
		}
		rest := text[i+3:]
		end := strings.IndexAny(rest, "[.;\n")
		if end < 0 {
			end = len(rest)
		}
		label := map[string]bool{}
		for _, t := range scan(rest[:end]) {
			if t.term != "" {
				label[t.term] = true
			}
		}
		if len(label) > 0 {
			out = append(out, checklistItem{done: text[i+1] != ' ', label: label})
		}
		i += 2
	}
	return out
}

// checklist fails a claim that ticks a checklist item its source leaves
// open, or opens one its source ticked ("[x] descriptor set lifetime
// audit" for "[ ] descriptor set lifetime audit").
func (k *checker) checklist() {
	items := checklistItems(k.claim.Content)
	if len(items) == 0 {
		return
	}
	for _, it := range items {
		for _, s := range k.srcs {
			for _, o := range checklistItems(s.text) {
				if o.done != it.done && share(it.label, o.label) >= 0.75 && share(o.label, it.label) >= 0.75 {
					state := map[bool]string{true: "done", false: "open"}
					k.fail(StatusChange, "a checklist item the sources have %s is %s in the claim", state[o.done], state[it.done])
					return
				}
			}
		}
	}
}

// status checks a blocker's status against the sources about it.
func (k *checker) status() {
	if k.claim.Type != agentmem.TypeBlocker || k.claim.Status == "" {
		return
	}
	about := distinctiveSet(k.claimTerms)
	if len(about) == 0 {
		return
	}
	resolved, openRecord := false, false
	for _, s := range k.srcs {
		if s.Kind == KindMemory && s.Type == agentmem.TypeBlocker {
			// the memory of the blocker: most of the claim is in it, or
			// most of it is in a claim that adds how it was fixed
			if share(about, s.all) >= 0.5 || share(distinctiveSet(s.all), about) >= 0.7 || problemRestated(s, about) {
				if s.Status == agentmem.StatusResolved {
					resolved = true
				}
			}
			continue
		}
		if overlapCount(about, s.all) < 2 && share(about, s.all) < 0.5 {
			continue
		}
		// a record about the blocker: solved if a sentence about it, or
		// one closing "the blocker", says so
		solved := false
		for i, st := range s.d.sents {
			if !st.resolved || st.hedged {
				continue // "seems to fix it", "not confirmed yet": not solved
			}
			text := st.rawLower()
			if pendingFix(text) || i+1 < len(s.d.sents) && pendingFix(s.d.sents[i+1].rawLower()) {
				continue // a fix tried, "not yet rolled out": not solved
			}
			if partialFix(text) {
				continue // "gone on macOS, but iOS still shows it": not solved
			}
			if overlapCount(about, st.terms) > 0 || strings.Contains(text, "blocker") {
				solved = true
			}
		}
		if solved {
			resolved = true
		} else if s.Kind == KindDaily {
			openRecord = true
		}
	}
	switch k.claim.Status {
	case agentmem.StatusResolved:
		if !resolved {
			k.fail(StatusChange, "the blocker is marked resolved, but no cited source says it was solved")
		}
	default:
		if resolved && !openRecord {
			k.fail(StatusChange, "the blocker is marked open, but a cited source says it was solved")
		}
	}
}

// problemRestated reports whether a claim restates the problem a blocker
// memory opens with (its first clause: "/health returned 200 before the
// model loaded"), whatever else it adds about the fix.
func problemRestated(s *source, about map[string]bool) bool {
	if len(s.d.sents) == 0 || len(s.d.sents[0].conjs) == 0 {
		return false
	}
	first := distinctiveSet(s.d.sents[0].conjs[0].ownSet)
	return len(first) >= 3 && share(first, about) >= 0.6
}

// pendingPhrases say a fix is not in place yet.
var pendingPhrases = []string{"not yet", "yet to", "untested", "not tested", "not rolled out", "not merged", "not deployed", "in a quick test",
	"works around", "worked around", "work around", "a workaround", "as a stopgap"}

// partialFix reports whether a sentence that says a problem is gone says
// in the same breath that part of it stays ("gone on macOS, but iOS
// Safari still shows a black screen") or came back ("finished once and
// failed once").
func partialFix(lower string) bool {
	for _, join := range []string{" but ", " and "} {
		i := strings.Index(lower, join)
		if i < 0 {
			continue
		}
		rest := lower[i:]
		if strings.Contains(rest, " still ") || strings.Contains(rest, " failed ") || strings.Contains(rest, " fails ") {
			return true
		}
	}
	return false
}

// triedFix fails a claim that says something fixed a problem when the
// cited sources that speak of it only tried it: "Tried X; the wrong rate
// still appeared", "X might help", "looks fixed, but only tested on two
// boards" do not say X fixed it.
func (k *checker) triedFix() {
	for _, t := range k.cd.toks {
		if attemptWords[t.lower] || t.lower == "try" {
			return // the claim says it was tried
		}
	}
	fixes := false
	for _, s := range k.cd.sents {
		for _, c := range s.conjs {
			if c.negated || c.hedged || c.role == roleRejected {
				continue
			}
			for _, i := range c.toks {
				// "fix" is the verb before what it fixes ("fix the drops")
				w := k.cd.toks[i].lower
				if fixClaimWords[w] || (w == "fix" || w == "resolve" || w == "solve") && i+1 < len(k.cd.toks) && determiners[k.cd.toks[i+1].lower] {
					fixes = true
				}
			}
		}
	}
	if !fixes {
		return
	}
	about := distinctiveSet(k.claimTerms)
	tried := false
	for _, s := range k.srcs {
		if overlapCount(about, s.all) < 2 {
			continue
		}
		if s.Kind == KindMemory && s.Type == agentmem.TypeBlocker && s.Status == agentmem.StatusResolved {
			return
		}
		for _, st := range s.d.sents {
			if overlapCount(about, st.terms) == 0 {
				continue
			}
			text := st.rawLower()
			if (st.resolved || workedRe.MatchString(text) && !notWorkedRe.MatchString(text)) && !st.hedged && !pendingFix(text) {
				return // a source says it was fixed, or that it worked
			}
			first := st.d.toks[st.from].lower
			if attemptWords[first] || st.hedged || pendingFix(text) || strings.Contains(text, "still") || strings.Contains(text, "not enough") {
				tried = true
			}
		}
	}
	if tried {
		k.fail(Modality, "the claim says it fixed the problem; the cited sources only tried it")
	}
}

// fixClaimWords say in a claim that something fixed a problem ("fix"
// alone is often the noun: "the fix was tried").
var fixClaimWords = words("fixes fixed resolves resolved solves solved cures cured")

// workedRe and notWorkedRe find a record saying what it tried worked.
var (
	workedRe    = regexp.MustCompile(`\b(worked|works|helped|did the trick)\b`)
	notWorkedRe = regexp.MustCompile(`\b(not|never|nt|didnt|doesnt|hasnt|barely|partly|partially)\b[^.;]{0,12}\b(worked|works|helped)\b`)
)

// pendingFix reports whether a sentence says its fix is not in place yet.
func pendingFix(lower string) bool {
	for _, p := range pendingPhrases {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// confidence fails a pattern whose confidence exceeds that of the
// patterns it restates.
func (k *checker) confidence() {
	if k.claim.Confidence == nil {
		return
	}
	about := distinctiveSet(k.claimTerms)
	for _, s := range k.srcs {
		if s.Kind != KindMemory || s.Confidence == nil {
			continue
		}
		if share(about, s.all) >= 0.5 && *k.claim.Confidence > *s.Confidence+0.001 {
			k.fail(NumberContext, "confidence %.2f is higher than the %.2f of the pattern it restates", *k.claim.Confidence, *s.Confidence)
			return
		}
	}
}
