package support

import "strings"

// The restriction checks: "only X" widened to more than X, or a member
// added to an "only" list.

// firstOnly is the term right after "only" in toks[from:to] (after a
// determiner), and whether "only" is there.
func firstOnly(toks []token, from, to int) (string, bool) {
	for i := from; i < to; i++ {
		if !toks[i].isWord("only") {
			continue
		}
		j := i + 1
		for j < to && determiners[toks[j].lower] {
			j++
		}
		if j < to && toks[j].term != "" && !genericLemmas[toks[j].term] && !verbLemmas[toks[j].term] {
			return toks[j].term, true
		}
		return "", true
	}
	return "", false
}

// restriction fails a clause that widens what a source restricts ("Any
// member may approve" for "Only members of the admins group may
// approve") or restricts it to something else of the source ("Only spot
// nodes are allowed" for "Only on-demand nodes are allowed", where spot
// nodes are named elsewhere).
func (k *checker) restriction(a *conj, need []cterm, u *unit, phrase string) {
	if a.negated {
		return
	}
	toks := k.cd.toks
	from, to := a.toks[0], a.toks[len(a.toks)-1]+1
	claimOnly, claimHas := firstOnly(toks, from, to)
	widens := false
	for _, i := range a.toks {
		if anyWords[toks[i].lower] {
			widens = true
		}
	}
	claimTerms := a.effTerms()
	if widens && !claimHas && k.widensOnly(a) {
		k.fail(Negation, "%q widens what the source restricts with \"only\"", phrase)
		return
	}
	for _, st := range u.sents {
		srcOnly, srcHas := firstOnly(st.d.toks, st.from, st.to)
		if !srcHas {
			continue
		}
		cov := 0
		for _, t := range need {
			if t.in(st.terms) {
				cov++
			}
		}
		if cov*2 < len(need) {
			continue
		}
		switch {
		case !claimHas && widens:
			k.fail(Negation, "%q widens what the source restricts with \"only\"", phrase)
			return
		case claimHas && claimOnly != "" && srcOnly != "" && claimOnly != srcOnly && !claimTerms[srcOnly] && k.anySource(claimOnly):
			k.fail(RoleSwap, "%q restricts it to another thing than the source does", phrase)
			return
		}
	}
}

// widensOnly reports whether the noun after the clause's "any" ("any
// team may deploy the job") is what a cited sentence
// restricts with "only" ("only the fraud-platform team may deploy the
// job"), with the clause's verb or another of its words there too.
func (k *checker) widensOnly(a *conj) bool {
	toks := k.cd.toks
	noun := ""
	for j, i := range a.toks {
		if !anyWords[toks[i].lower] {
			continue
		}
		for _, n := range a.toks[j+1 : min(j+4, len(a.toks))] {
			if t := toks[n]; t.term != "" && !genericLemmas[t.term] {
				noun = t.term
				break
			}
		}
		break
	}
	if noun == "" {
		return false
	}
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			if _, has := firstOnly(st.d.toks, st.from, st.to); !has || !st.terms[noun] {
				continue
			}
			others := 0
			for _, t := range a.own {
				if t != noun && !genericLemmas[t] && st.terms[t] {
					others++
				}
			}
			if others >= 1 && (a.verbTerm == "" || st.terms[a.verbTerm] || others >= 2) {
				return true
			}
		}
	}
	return false
}

// ownTerms are the terms of the conjunct's own words, compound parts
// included (not what it inherits from the clause before).
func (c *conj) ownTerms() map[string]bool {
	m := map[string]bool{}
	for _, i := range c.toks {
		if t := c.s.d.toks[i]; t.term != "" {
			m[t.term] = true
			for _, p := range t.parts {
				m[p] = true
			}
		}
	}
	return m
}

// firstWordPos is the position in c.toks of the conjunct's first word, or
// -1 when it has none.
func (c *conj) firstWordPos() int {
	for j, i := range c.toks {
		if c.s.d.toks[i].kind == tkWord {
			return j
		}
	}
	return -1
}

// startsWith reports whether the conjunct's first word is w.
func (c *conj) startsWith(w string) bool {
	j := c.firstWordPos()
	return j >= 0 && c.s.d.toks[c.toks[j]].lower == w
}

// fixVerbs are the lemmas of verbs that say a problem went away.
var fixVerbs = lemmaSet("stop fix help solve resolve prevent cure remove eliminate")

// beyondOnly fails a claim that adds a member to what a cited sentence
// restricts with "only": "billing has been migrated together with
// portal-shell and claims" for "only portal-shell and claims have been
// migrated; billing still uses *ngIf", "read in client components and in
// server/ routes" for "read only in server/ routes".
func (k *checker) beyondOnly() {
	for _, s := range k.srcs {
		for _, o := range s.only {
			for _, cs := range k.cd.sents {
				if restricts(cs) {
					continue // the claim keeps a restriction of its own
				}
				for _, a := range cs.conjs {
					if a.negated || a.hedged && !o.c.hedged && !permission(a) {
						continue
					}
					own := distinctiveSet(a.ownSet)
					if share(o.rest, a.effTerms()) < 0.6 || overlapCount(o.kept, own) == 0 {
						continue
					}
					for t := range own {
						if !o.c.ownSet[t] && !o.kept[t] && !o.rest[t] && s.all[t] && coordinated(a, t, o.kept) {
							k.fail(Negation, "the claim adds %q to what a cited source restricts with \"only\"", t)
							return
						}
					}
				}
			}
		}
	}
}

// onlyScope is a clause's restriction with "only": the terms "only" keeps
// and the rest of the clause.
type onlyScope struct {
	c          *conj
	kept, rest map[string]bool
}

// onlyScopes are the restrictions with "only" of a doc's clauses, read
// once per source.
func onlyScopes(d *doc) []onlyScope {
	var out []onlyScope
	toks := d.toks
	for _, st := range d.sents {
		for _, c := range st.conjs {
			at := -1
			for j, i := range c.toks {
				if toks[i].isWord("only") && !toks[i].code {
					at = j
					break
				}
			}
			if at < 0 || c.negated {
				continue
			}
			// what "only" keeps: up to the verb after it, or the end
			end := len(c.toks)
			for j := at + 1; j < len(c.toks); j++ {
				if t := toks[c.toks[j]]; c.toks[j] == c.verb || auxiliaries[t.lower] || j > at+1 && t.kind == tkWord && !t.code && (strings.HasSuffix(t.lower, "ies") || verbLemmas[t.term] && strings.HasSuffix(t.lower, "s") && !strings.HasSuffix(t.lower, "ss")) {
					end = j
					break
				}
			}
			kept, rest := map[string]bool{}, map[string]bool{}
			for j, i := range c.toks {
				if t := toks[i]; t.term != "" && !genericLemmas[t.term] {
					if j > at && j < end {
						kept[t.term] = true
					} else {
						rest[t.term] = true
					}
				}
			}
			addAll(rest, distinctiveSet(setOf(c.inherited)))
			if len(kept) > 0 && len(rest) >= 2 {
				out = append(out, onlyScope{c: c, kept: kept, rest: rest})
			}
		}
	}
	return out
}

// restrictWords restrict what a sentence says to some of its kind.
var restrictWords = words("only restricted restrict restricts limited limit limits exclusively solely just except unless")

// restricts reports whether a sentence has a word of restriction.
func restricts(st *sent) bool {
	toks := st.d.toks
	for i := st.from; i < st.to; i++ {
		if restrictWords[toks[i].lower] && !toks[i].code {
			return true
		}
	}
	return false
}

// coordinatingWords join the members of a list ("X together with Y",
// "both X and Y").
var coordinatingWords = words("and or with both plus also together well")

// coordinated reports whether the clause joins the term t to one of the
// terms of set as members of one list: a coordinating word between them,
// at most sixteen tokens apart.
func coordinated(a *conj, t string, set map[string]bool) bool {
	toks := a.s.d.toks
	var at, others []int
	for j, i := range a.toks {
		switch term := toks[i].term; {
		case term == t:
			at = append(at, j)
		case set[term]:
			others = append(others, j)
		}
	}
	for _, x := range at {
		for _, y := range others {
			lo, hi := min(x, y), max(x, y)
			if hi-lo > 16 {
				continue
			}
			for j := lo + 1; j < hi; j++ {
				if coordinatingWords[toks[a.toks[j]].lower] {
					return true
				}
			}
		}
	}
	return false
}

// permission reports whether the only hedge of a clause is "may", which
// grants a permission ("support staff may issue refunds").
func permission(a *conj) bool {
	may := false
	for _, i := range a.toks {
		switch w := a.s.d.toks[i].lower; {
		case w == "may":
			may = true
		case hedgeWords[w] || hedgeStarts[w]:
			return false
		}
	}
	return may
}
