package support

import "github.com/agentmem/agentmem/shared/agentmem"

// The causal checks: a cause is claimed only where a cited source states
// that cause for that effect.

// causeSupposed reports whether a cited source that hedges names both a
// hedged cause and its effect: "the tolerance may be too high" next to
// the problem it would explain supports "possibly because the tolerance
// is too high", a supposition restated as one.
func (k *checker) causeSupposed(cause, effect, scope map[string]bool) bool {
	for _, s := range k.srcs {
		hedged := false
		for _, st := range s.d.sents {
			hedged = hedged || st.hedged
		}
		if hedged && share(cause, s.all) >= 0.6 && max(share(minus(effect, cause), s.all), share(minus(scope, cause), s.all)) >= 0.6 {
			k.used[s] = true
			return true
		}
	}
	return false
}

// causeStated reports whether one cited source states cause as the cause
// of effect: a causal link of the source with the cause on its cause side
// and the effect on its effect side, or a decision record that gives the
// reason in its own words ("X happens. We decided to Y.").
func (k *checker) causeStated(cause, effect map[string]bool) bool {
	for _, s := range k.srcs {
		for _, l := range s.links {
			c, e := share(cause, l.cause), shareEither(effect, l.effect, l.scope)
			if l.fixed && c >= 0.5 {
				e = max(e, shareEither(effect, l.effect, k.blockerAbout(l.effect)))
			}
			if c >= 0.5 && (len(effect) == 0 || e >= 0.34) && c >= share(cause, l.effect) {
				k.used[s] = true
				return true
			}
			// the same link with its words grouped otherwise: "vars
			// relying on init order broke in 3 scenes" for "vars broke
			// in 3 scenes that relied on init order"
			whole := union(l.cause, l.effect)
			if len(l.cause) > 0 && share(distinctiveSet(l.cause), cause) == 1 && share(effect, whole) == 1 && share(cause, whole) >= 0.8 {
				k.used[s] = true
				return true
			}
		}
	}
	for _, s := range k.srcs {
		all := s.all
		// one memory that joins the two ("X; Y instead") states their link
		if s.Kind == KindMemory && share(cause, all) >= 0.6 && share(minus(effect, cause), all) >= 0.6 && !k.causeElsewhere(s, cause) && !agentElsewhere(s.d.sents, cause, effect) {
			k.used[s] = true
			return true
		}
		// so do two sentences of a record side by side ("Apple will not
		// change this. We show a hint"), when the record names no other
		// cause, and two clauses of one sentence when it names no other
		// cause of this effect ("`axum::Server` is gone; switched to
		// `axum::serve`")
		elsewhere, elsewhereFor := k.causeElsewhere(s, cause), k.causeElsewhereFor(s, cause, effect)
		if !elsewhereFor {
			ss := s.d.sents
			for i := range ss {
				win := map[string]bool{}
				for j := i; j < len(ss) && j <= i+1 && (j == i || !elsewhere || endsClause(ss[i])); j++ {
					win = union(win, ss[j].terms)
					if share(cause, win) >= 0.6 && share(minus(effect, cause), win) >= 0.6 && !agentElsewhere(ss[i:j+1], cause, effect) {
						k.used[s] = true
						return true
					}
				}
			}
		}
		for _, st := range s.d.sents {
			if !st.decision && !(s.Type == agentmem.TypeDecision && s.Kind == KindMemory && s.Rationale == "") {
				continue
			}
			if share(effect, st.terms) >= 0.5 && share(cause, all) >= 0.6 && !k.causeElsewhere(s, cause) {
				k.used[s] = true
				return true
			}
		}
	}
	return false
}

// blockerAbout is the terms of the cited blockers that share a
// distinctive term with problem: the problem a record says it fixed,
// described at more length.
func (k *checker) blockerAbout(problem map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range k.srcs {
		if s.Type != agentmem.TypeBlocker || s.Kind != KindMemory {
			continue
		}
		if overlapCount(distinctiveSet(problem), s.all) > 0 {
			addAll(out, s.all)
		}
	}
	return out
}

// agentElsewhere reports whether one of the sentences gives the effect
// an agent of its own: a verb of change whose subject shares nothing
// with the claimed cause and whose object is the effect ("Hermes bytecode
// cut startup from 2.4 s to 1.5 s" next to "the JS bundle is 6.2 MB" does
// not make the bundle the cause of the faster startup).
func agentElsewhere(sents []*sent, cause, effect map[string]bool) bool {
	for _, st := range sents {
		toks := st.d.toks
		for _, c := range st.conjs {
			for j, i := range c.toks {
				if !agentVerbs[toks[i].lower] {
					continue
				}
				subject, object := map[string]bool{}, map[string]bool{}
				for _, k := range c.toks[:j] {
					if t := toks[k]; t.term != "" && !genericLemmas[t.term] {
						subject[t.term] = true
					}
				}
				for _, k := range c.toks[j+1:] {
					if t := toks[k]; t.term != "" && !genericLemmas[t.term] {
						object[t.term] = true
					}
				}
				if len(subject) > 0 && overlapCount(subject, cause) == 0 && overlapCount(subject, effect) == 0 &&
					overlapCount(object, minus(effect, cause)) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// agentVerbs are the verbs of a change made by their subject ("Hermes
// bytecode cut startup to 1.5 s").
var agentVerbs = words(`cut cuts reduced reduces brought brings halved halves lowered lowers raised raises
	increased increases decreased decreases improved improves fixed fixes trimmed trims shaved sped speeds
	caused causes removed removes eliminated eliminates doubled doubles tripled triples`)

// purposeStated reports whether a cited source gives effect as the
// reason (a purpose) for cause: "X, so the layout matches" where a
// decision says X "(why: the layout then matches)".
func (k *checker) purposeStated(cause, effect map[string]bool) bool {
	for _, s := range k.srcs {
		for _, l := range s.links {
			if l.why && share(effect, l.cause) >= 0.6 && share(minus(cause, effect), s.all) >= 0.6 {
				k.used[s] = true
				return true
			}
		}
	}
	return false
}

// causeElsewhere reports whether the source states another cause for its
// decision, which a decision's own words then cannot stand in for.
func (k *checker) causeElsewhere(s *source, cause map[string]bool) bool {
	for _, l := range s.links {
		if share(cause, l.cause) < 0.5 && len(l.cause) > 0 {
			return true
		}
	}
	return false
}

// endsClause reports whether the sentence ends with a semicolon: the
// next one is a clause of the same sentence.
func endsClause(st *sent) bool {
	toks := st.d.toks
	return st.to < len(toks) && toks[st.to].raw == ";" || st.to > st.from && toks[st.to-1].raw == ";"
}

// causeElsewhereFor reports whether the source states another cause for
// the effect: a link whose cause is not the claimed one and whose effect
// shares the claimed effect's words.
func (k *checker) causeElsewhereFor(s *source, cause, effect map[string]bool) bool {
	own := distinctiveSet(minus(effect, cause))
	for _, l := range s.links {
		if share(cause, l.cause) < 0.5 && len(l.cause) > 0 && (len(own) == 0 || overlapCount(own, l.effect) > 0) {
			return true
		}
	}
	return false
}

// docLinks is every causal link of a doc: those of its sentences, and a
// root cause ("Root cause: X", "the cause was X") of the sentences before.
func docLinks(d *doc) []link {
	var out []link
	for i, s := range d.sents {
		for _, l := range s.links {
			if len(l.effect) == 0 && i > 0 {
				l.effect = d.sents[i-1].terms
			}
			if l.why && i > 0 {
				// a rationale "(why: ...)" after the content gives the
				// reason for all of it, not for its last sentence only
				l.effect = union(l.effect, map[string]bool{})
				for _, p := range d.sents[:i] {
					addAll(l.effect, p.terms)
				}
			}
			if d.source && l.so && i > 0 && s.from > 0 && d.toks[s.from-1].raw == ";" {
				// "Tried X in dev; the skips still happened, so the
				// blocker stays open": what was tried is part of the cause
				l.cause = union(l.cause, d.sents[i-1].terms)
			}
			out = append(out, l)
		}
		if s.rootCause {
			effect := map[string]bool{}
			for j := max(0, i-3); j < i; j++ {
				addAll(effect, d.sents[j].terms)
			}
			cause := map[string]bool{}
			for _, c := range s.conjs {
				if c.verb >= 0 && beForms[d.toks[c.verb].lower] && containsTerm(c.left, lemma("cause")) {
					addAll(cause, setOf(c.right))
					continue
				}
				addAll(cause, setOf(c.own))
			}
			out = append(out, link{cause: cause, effect: effect})
		}
	}
	return out
}

// steps reads the steps a sentence puts in order: "A, then B, then C";
// "A first, then B"; "A before B"; "B after A" (in the order they
// happen), each as its terms. A label before a colon ("Config
// precedence:") is no step. It returns nil when the sentence orders
// nothing.
func steps(st *sent) []map[string]bool {
	toks := st.d.toks
	from := st.from
	for i := st.from; i < st.to; i++ {
		if toks[i].raw == "(" {
			break // "(why: ...)" is no label of the steps
		}
		if toks[i].raw == ":" {
			from = i + 1
			break
		}
	}
	side := func(from, to int) map[string]bool {
		m := map[string]bool{}
		depth := 0 // "(why: ...)" belongs to no step
		for i := from; i < to; i++ {
			switch toks[i].raw {
			case "(":
				depth++
			case ")":
				depth = max(0, depth-1)
			}
			if t := toks[i]; depth == 0 && t.term != "" && !genericLemmas[t.term] && !orderWords[t.lower] {
				m[t.term] = true
				if t.code || t.compound {
					m[nameMark+t.term] = true
				}
			}
		}
		return m
	}
	var out []map[string]bool
	cut := from
	for i := from + 1; i < st.to-1; i++ {
		// "dropped after 2 years": a time, not a step
		if (toks[i].lower == "after" || toks[i].lower == "before") && (toks[i+1].kind == tkNumber || i+2 < st.to && approxWords[toks[i+1].lower] && toks[i+2].kind == tkNumber) {
			continue
		}
		switch toks[i].lower {
		case "then":
			// "A, B, C, then D": every item of the list is a step
			if toks[i-1].raw == "," {
				for j := cut; j < i-1; j++ {
					if toks[j].raw == "," {
						out = append(out, side(cut, j))
						cut = j + 1
					}
				}
			}
			if len(out) == 0 && toks[i-1].raw != "," {
				// "two jobs, `core` then `apps`": the first step starts
				// after the comma, the words before it are about both
				for j := i - 1; j > cut; j-- {
					if toks[j].raw == "," {
						cut = j + 1
						break
					}
				}
			}
			out = append(out, side(cut, i))
			cut = i + 1
		case "and":
			// "A first, then B, and C last": a step after the steps
			if len(out) > 0 && toks[i-1].raw == "," {
				out = append(out, side(cut, i-1))
				cut = i + 1
			}
		case "before":
			if len(out) == 0 {
				return []map[string]bool{side(cut, i), side(i+1, nextComma(toks, i, st.to))}
			}
		case "after":
			if len(out) == 0 && i > from+1 && toks[i-1].raw != "," {
				// "X after Y, run Z": the step after "after" ends at the comma
				return []map[string]bool{side(i+1, nextComma(toks, i, st.to)), side(cut, i)}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, side(cut, st.to))
}
