package support

import (
	"slices"
	"strings"
	"unicode"
)

// The role checks: a claim that puts a source's term in another entity's
// place (substitutions, exchanged subjects, from/to and relation swaps, a
// rejected alternative kept).

// mergedWith reports whether a clause says two statements of its cited
// sources one after the other ("switching to direct uploads sends files
// straight to S3" for "Switched to direct uploads, so the file goes
// straight to S3"): its distinctive words are those of v and then those
// of another statement w, w brings at least two of them, every word put
// for one of v's among them. One word of another statement put in v's
// place is a swap, not a merge; w's words before v's, an exchange.
func (k *checker) mergedWith(a, v *conj, added []string) bool {
	veff := v.effTerms()
	var claimTerms []cterm
	for _, ct := range k.terms(a) {
		if ct.distinctive() {
			claimTerms = append(claimTerms, ct)
		}
	}
	addedSet := map[string]bool{}
	for _, w := range added {
		addedSet[w] = true
	}
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			for _, w := range st.conjs {
				if w == v {
					continue
				}
				weff := w.effTerms()
				var seq []byte
				wCount, vCount := 0, 0
				for _, t := range claimTerms {
					inV, inW := t.in(veff), t.in(weff)
					switch {
					case inW && !inV:
						seq = append(seq, 'w')
						wCount++
					case inV && !inW:
						seq = append(seq, 'v')
						vCount++
					case !inV && !inW && addedSet[t.raw]:
						seq = append(seq, 'x') // put in and found in neither
					}
				}
				if wCount < 2 || vCount == 0 || strings.Contains(string(seq), "x") {
					continue
				}
				// v's words first, then w's: the second statement added
				// after the first, as a merge writes it
				if strings.TrimLeft(string(seq), "v") == strings.Repeat("w", wCount) {
					return true
				}
			}
		}
	}
	return false
}

// pivot reports whether a cited sentence with x also has another
// distinctive term of the clause.
func (k *checker) pivot(a *conj, need []cterm, x cterm) bool {
	for _, s := range k.srcs {
		for _, st := range s.d.sents {
			if !x.in(st.terms) {
				continue
			}
			for _, t := range need {
				if t.key != x.key && t.distinctive() && t.in(st.terms) {
					return true
				}
			}
		}
	}
	return false
}

// nameVariant fails a clause that puts a name found in no cited source
// where its source has a similar one ("libaddress" for "libpostal", a
// capitalised name for another).
func (k *checker) nameVariant(need []cterm, dropped []cterm, phrase string) {
	for _, t := range need {
		if !t.distinctive() || len(t.key) < 5 {
			continue
		}
		known := false
		for _, s := range k.srcs {
			if k.inSource(t, s) {
				known = true
				break
			}
		}
		if known {
			continue
		}
		for _, y := range dropped {
			if len(y.key) < 5 || y.key == t.key {
				continue
			}
			capital := isCapitalWord(t.raw) && isCapitalWord(y.raw)
			// "libaddress" for "libpostal": the name's start and a source word
			p := commonPrefix(t.key, y.key)
			built := p >= 3 && p < len(t.key)-3 && k.anySource(lemma(t.key[p:]))
			if built || capital {
				k.fail(IdentifierMissing, "%q names %q, which no cited source has (the source says %q)", phrase, t.raw, y.raw)
				return
			}
		}
	}
}

// anySource reports whether a cited source has the term.
func (k *checker) anySource(term string) bool {
	for _, s := range k.srcs {
		if s.all[term] {
			return true
		}
	}
	return false
}

func isCapitalWord(w string) bool {
	rs := []rune(w)
	return len(rs) > 1 && unicode.IsUpper(rs[0]) && !isAcronym(w)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// exchanged reports whether a term the clause dropped from its source went
// to another clause of the claim that rests on another statement of the
// same source: the two statements' terms exchanged ("validates on the
// client; the server only predicts it").
func (k *checker) exchanged(a *conj, dropped []cterm, src *source, x cterm) bool {
	for _, s := range k.cd.sents {
		for _, b := range s.conjs {
			if b == a {
				continue
			}
			// its own words: what it inherits from the clause before
			// ("then X" inherits "deploys run") proves no exchange
			beff := b.ownTerms()
			moved := false
			for _, y := range dropped {
				if y.in(beff) {
					moved = true
				}
			}
			if !moved {
				continue
			}
			// b rests on a statement of src that shares another term with it
			for _, st := range src.d.sents {
				for _, w := range st.conjs {
					weff := w.effTerms()
					if !x.in(weff) {
						continue // the statement x came from
					}
					shared := 0
					for t := range beff {
						if weff[t] && !genericLemmas[t] {
							isDropped := false
							for _, y := range dropped {
								if y.key == t {
									isDropped = true
								}
							}
							if !isDropped {
								shared++
							}
						}
					}
					if shared > 0 {
						return true
					}
				}
			}
		}
	}
	return false
}

// actionWord reports whether a word is a verb or an adjective of
// degree ("probed", "cut", "faster", "passes"): what a statement says of
// its things, not one of them.
func actionWord(raw, term string) bool {
	l := strings.ToLower(raw)
	return verbLemmas[term] || strings.HasSuffix(l, "ed") || strings.HasSuffix(l, "ing") || comparatives[l]
}

// comparatives are adjectives of degree ("faster", "worse").
var comparatives = words("faster slower bigger smaller larger higher lower longer shorter better worse cheaper easier harder newer older greater fewer more less")

// swapShaped reports whether what a clause dropped and what it put in
// its place look like one thing put for another: things on both sides
// (not verbs or adjectives), and few of them dropped (a clause that drops
// four words or more says it in other words).
func swapShaped(dropped []cterm, added []string) bool {
	things := 0
	for _, t := range dropped {
		if !actionWord(t.raw, t.key) {
			things++
		}
	}
	if things == 0 || things >= 4 {
		return false
	}
	for _, a := range added {
		if !actionWord(a, lemma(strings.ToLower(a))) {
			return true
		}
	}
	return false
}

// parallel reports whether two conjuncts say the same kind of thing of
// different objects ("Sign in with Apple on iOS and Google Sign-In on
// Android"): the same verb, or one borrowing the other's.
func parallel(v, w *conj) bool {
	return v.headVerb != "" && v.role == w.role && w.headVerb == v.headVerb
}

func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "“" + w + "”"
	}
	return strings.Join(q, ", ")
}

// subjectSwap finds a clause whose subject is not its source's: the
// source's subject is nowhere in the clause and the clause's subject is
// not in the source.
//
// A subject taken from another source for a fact whose source has a
// subject of its own is an unsupported combination too, unless that
// subject is the system the notes are about (named by many sources).
func (k *checker) subjectSwap(a *conj, need []cterm, u *unit, v *conj, phrase string) {
	sa, sv := nonGeneric(a.subject), nonGeneric(v.subject)
	if len(sa) == 0 || len(sv) == 0 || a.anaphoric || v.anaphoric {
		return
	}
	foreign := k.foreignTerms(sa, u)
	if len(foreign) == 0 {
		return
	}
	aTerms := a.effTerms()
	for _, t := range sv {
		if aTerms[t] {
			k.fail(UnsupportedCombination, "%q makes %s the subject of what the source says of %s", phrase, quoteList(foreign), quoteList(sv))
			return
		}
	}
	k.fail(RoleSwap, "%q gives %s what the source says of %s", phrase, quoteList(foreign), quoteList(sv))
}

// foreignTerms are the subject terms that the unit the clause rests on
// lacks and that one or two other sources have (a term many sources name
// is the system the notes are about, not a borrowed subject).
func (k *checker) foreignTerms(subject []string, u *unit) []string {
	var foreign []string
	for _, t := range subject {
		if u.terms[t] || verbLemmas[t] || plainModifiers[t] {
			continue
		}
		n := 0
		for _, s := range k.srcs {
			if k.inSource(cterm{key: t}, s) {
				n++
			}
		}
		if n > 0 && n < 3 {
			foreign = append(foreign, t)
		}
	}
	return foreign
}

// demotedSubject finds a clause whose subject comes from another source
// while the statement it rests on has a subject of its own, which the
// clause turns into an object ("electron-updater signs the Windows
// installer" from "the Windows installer is now signed").
func (k *checker) demotedSubject(a *conj, u *unit, phrase string) {
	sa := nonGeneric(a.subject)
	if len(sa) == 0 || a.anaphoric {
		return
	}
	foreign := k.foreignTerms(sa, u)
	if len(foreign) == 0 {
		return
	}
	aTerms := a.effTerms()
	for _, st := range u.sents {
		for _, w := range st.conjs {
			sw := nonGeneric(w.subject)
			if len(sw) == 0 || w.anaphoric {
				continue
			}
			for _, t := range sw {
				if aTerms[t] && !containsTerm(sa, t) {
					k.fail(UnsupportedCombination, "%q makes %s the subject of what the source says of %s", phrase, quoteList(foreign), quoteList(sw))
					return
				}
			}
		}
	}
}

// fromToSwap finds "from X to Y" turned into "from Y to X".
func (k *checker) fromToSwap(a *conj, u *unit, phrase string) {
	if a.fromSide == nil {
		return
	}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.fromSide == nil {
				continue
			}
			af, at := minus(a.fromSide, a.toSide), minus(a.toSide, a.fromSide)
			cf, ct := minus(c.fromSide, c.toSide), minus(c.toSide, c.fromSide)
			if overlapCount(af, ct) > 0 && overlapCount(at, cf) > 0 {
				k.fail(RoleSwap, "%q exchanges where it goes from and to", phrase)
				return
			}
		}
	}
}

// pivotSwap finds the two sides of a relation exchanged around one verb
// ("A calls B" for "B calls A").
func (k *checker) pivotSwap(a, v *conj, phrase string) {
	if a.verbTerm == "" || a.verbTerm != v.verbTerm {
		return
	}
	if a.wordAfterVerb() != v.wordAfterVerb() {
		return // "X misses the cache" and "cache misses on X" are not one relation
	}
	al, ar := nearest(a.left, true), nearest(a.right, false)
	vl, vr := nearest(v.left, true), nearest(v.right, false)
	if ap, vp := a.passiveAny(), v.passiveAny(); ap != vp {
		// only a passive with its agent ("B is called by A") names the
		// relation's two sides
		if ap && !a.hasAgent() || vp && !v.hasAgent() {
			return
		}
		vl, vr = vr, vl
	}
	if al != "" && ar != "" && al == vr && ar == vl && al != ar {
		k.fail(RoleSwap, "%q exchanges the two sides of %q", phrase, a.verbTerm)
	}
}

// verbTok is the index in c.toks of the token of its verb's term (after
// any auxiliary), or -1.
func (c *conj) verbTok() int {
	if c.verb < 0 {
		return -1
	}
	toks := c.s.d.toks
	for j, i := range c.toks {
		if i >= c.verb && toks[i].term == c.verbTerm {
			return j
		}
	}
	return -1
}

// wordAfterVerb is the preposition right after the clause's verb ("waits
// on"), or "" when none follows it.
func (c *conj) wordAfterVerb() string {
	j := c.verbTok()
	if j < 0 || j+1 >= len(c.toks) {
		return ""
	}
	if t := c.s.d.toks[c.toks[j+1]]; t.kind == tkWord && verbPrepositions[t.lower] {
		return t.lower
	}
	return ""
}

// verbPrepositions may join a verb to its object ("depends on", "talks
// to").
var verbPrepositions = words("on at to from for with in into by of about onto over through")

// passiveAny reports whether the clause is in the passive, "gets signed"
// included.
func (c *conj) passiveAny() bool {
	if c.passive {
		return true
	}
	j := c.verbTok()
	if j < 1 {
		return false
	}
	toks := c.s.d.toks
	aux, verb := toks[c.toks[j-1]], toks[c.toks[j]]
	return (aux.isWord("get") || aux.isWord("gets") || aux.isWord("got") || aux.isWord("getting")) &&
		(strings.HasSuffix(verb.lower, "ed") || irregularForm(verb.lower))
}

// hasAgent reports whether "by" follows the clause's verb: a passive
// that names who acts.
func (c *conj) hasAgent() bool {
	j := c.verbTok()
	if j < 0 {
		return false
	}
	for _, i := range c.toks[j+1:] {
		if c.s.d.toks[i].isWord("by") {
			return true
		}
	}
	return false
}

// categoryOnly reports whether every word a rejected alternative negates
// is also on its sentence's chosen side, with a number to tell the two
// apart ("4 cores instead of 2 cores").
func categoryOnly(a *conj) bool {
	chosen := map[string]bool{}
	for _, c := range a.s.conjs {
		if c.role != roleRejected && c.role != roleParen {
			addAll(chosen, c.pos)
		}
	}
	number, words := false, 0
	for _, i := range a.toks {
		if t := a.s.d.toks[i]; t.kind == tkNumber {
			number = true
		}
	}
	for t := range a.neg {
		if genericLemmas[t] {
			continue
		}
		if !chosen[t] {
			return false
		}
		words++
	}
	return number && words > 0
}

// restatesChoice reports whether the clause's sentence turns down what
// the source turns down, and nothing the source keeps: a word it shares
// with the source's rejected phrase is then what both sides are about
// ("the default lowerCamelCase JSON names"), not the alternative.
func restatesChoice(a *conj, rejected, kept map[string]bool) bool {
	shared := false
	for _, c := range a.s.conjs {
		if c.role != roleRejected {
			continue
		}
		for _, t := range c.own {
			if genericLemmas[t] {
				continue
			}
			if kept[t] && !rejected[t] {
				return false
			}
			shared = shared || rejected[t]
		}
	}
	return shared
}

// nearest is the non-generic term of a side closest to the verb.
func nearest(side []string, left bool) string {
	if left {
		for i := len(side) - 1; i >= 0; i-- {
			if !genericLemmas[side[i]] {
				return side[i]
			}
		}
		return ""
	}
	for _, t := range side {
		if !genericLemmas[t] {
			return t
		}
	}
	return ""
}

// polarity compares what the clause negates with what its source negates.
func (k *checker) polarity(a *conj, need []cterm, u *unit, phrase string) {
	if k.hypothetical(a) {
		return // "calling X makes Y raise": what doing X does, not that it is done
	}
	negU, posU, posPlain := map[string]bool{}, map[string]bool{}, map[string]bool{}
	rejected := map[string]bool{}
	heads := map[string]bool{}
	// inheritedNeg: terms negated only as what a rejected alternative
	// inherits ("X on the server, not in the client" negates X only
	// together with "client")
	inheritedNeg := map[string]bool{}
	// withoutNeg: terms negated by "without X" only, a condition ("takes
	// 1.9 s without an index"), which a clause adding X does not deny
	withoutNeg := map[string]bool{}
	for _, st := range u.sents {
		for _, c := range st.conjs {
			if c.has("without") {
				addAll(withoutNeg, c.neg)
			}
			addAll(negU, c.neg)
			addAll(posU, c.pos)
			addAll(posPlain, c.pos)
			if c.startsWith("only") && !c.negated {
				// "never trigger X from Airflow, only from CI": X is
				// triggered from CI
				addAll(posU, setOf(c.inherited))
			}
			// the parts of an affirmed name are affirmed: "pdf" of
			// "print-to-PDF" where "a PDF library" was rejected
			for _, i := range c.toks {
				if t := st.d.toks[i]; len(t.parts) > 1 && c.pos[t.term] {
					for _, p := range t.parts {
						posU[p] = true
					}
				}
			}
			if c.negHead != "" {
				heads[c.negHead] = true
			}
			if c.role == roleRejected {
				addAll(rejected, c.neg)
				// "X only through Y, never from Z": never [X] from Z
				for _, t := range c.inherited {
					if !negU[t] {
						inheritedNeg[t] = true
					}
				}
			}
		}
		addAll(negU, zeroCounted(st))
		for i, t := range st.counterNeg {
			negU[t] = true
			if i == 0 {
				heads[t] = true
			}
		}
		// "removed the disk spills": what a removal takes away is no more
		for _, c := range st.conjs {
			removed := false
			for _, i := range c.toks {
				t := st.d.toks[i]
				if removed && t.term != "" && !c.pos[t.term] {
					continue
				}
				if removed && t.term != "" {
					negU[t.term] = true
				}
				if removalWords[t.lower] || t.lower == "eliminated" || t.lower == "removes" {
					removed = true
				}
			}
		}
	}
	if a.role == roleRejected && movedFrom(u, a.neg) {
		// "Y instead of X" where a source says it "moved from X to Y"
		return
	}
	if a.role == roleRejected && categoryOnly(a) {
		// "4 cores instead of 2 cores": the noun both sides share is
		// what they are about; the number tells them apart
		return
	}
	if a.role == roleRejected && insteadAfter(a, u.src) {
		// "Y instead of X" where a source says "X; Y instead"
		return
	}
	if a.role == roleRejected && comparedWith(u, a.neg) {
		// "instead of one message per reading" where a source says
		// "compared with one message per reading": the baseline
		return
	}
	if a.role == roleRejected && unitFaults(u, a.neg) {
		// "rather than client side" where a source says "client-side
		// flag loading caused layout shift"
		return
	}
	if a.role == roleRejected && unitRejects(u, a.neg) {
		// "Instead of adding read replicas, ..." where a source says
		// "adding read replicas was rejected"
		return
	}
	if onlyRestated(a, u) {
		// "Don't let anyone outside the billing team export data" for
		// "Only the billing team may export data"; "only does something
		// when it returns a Mono" for "does nothing unless it returns one"
		return
	}
	if sameOnly(k.cd, a, u) {
		// "Run X only from B, never from A" for "never run X from A, only
		// from B": the same restriction
		return
	}
	if conditionalAbsence(k.cd, a) && unitConditional(u) {
		// "Without -vn, FFmpeg encodes cover art" for "call FFmpeg with
		// -vn, otherwise cover art is encoded": the same condition
		return
	}
	if a.lacks {
		// "Y lacks X" for "X is missing from Y": the same relation, its
		// sides in either order
		for _, st := range u.sents {
			for _, c := range st.conjs {
				if c.lacks || overlapCount(c.neg, a.neg)+overlapCount(c.neg, a.pos) > 0 {
					// or a plain negation of what it lacks: "lineage was
					// missing from X" for "X had no lineage"
					return
				}
			}
		}
	}
	namesRejected := false
	for t := range a.neg {
		if rejected[t] {
			namesRejected = true
		}
	}
	for t := range a.pos {
		// "Firefox does not reproduce it" for "reproduces in Chrome, not
		// in Firefox": the clause is about the rejected side
		if rejected[t] && !genericLemmas[t] {
			namesRejected = true
		}
	}
	for t := range inheritedNeg {
		if !negU[t] && (namesRejected || len(a.neg) == 0) {
			negU[t] = true
		}
	}
	if len(a.neg) > 0 {
		// the first word negated says what the negation is about
		// ("nobody has X" negates the whole: no head)
		head := ""
		for _, i := range a.toks {
			t := k.cd.toks[i]
			if wholeNegators[t.lower] {
				break
			}
			if t.term != "" && a.neg[t.term] {
				head = t.term
				break
			}
		}
		// a prohibition drawn from a limitation the source states ("never
		// put X in private methods" for "@Transactional does not apply to
		// private methods"): the claim negates a term the source negates
		// and never affirms
		negS, posS := map[string]bool{}, map[string]bool{}
		for _, st := range u.src.d.sents {
			for _, c := range st.conjs {
				addAll(negS, c.neg)
				addAll(posS, c.pos)
			}
		}
		agrees := k.bareNegation(a, head) || formerName(a, head, u) || k.prohibitsFailure(a, u) || fixFailed(a, head, u) || negatedAlike(a, u) || k.otherwiseRestated(a, u) || laterNegated(head, u) ||
			a.role == roleRejected && head != "" && rejected[head]
		for t := range a.neg {
			if t != head && negS[t] && !posS[t] && !genericLemmas[t] {
				agrees = true
			}
		}
		switch {
		case agrees:
		case head != "" && negU[head]:
		case head != "" && posU[head]:
			k.fail(Negation, "%q negates what the source affirms", phrase)
			return
		default:
			hit, contra := negatedAlike(a, u), false
			for t := range a.neg {
				if negU[t] {
					hit = true
				}
				if posU[t] && !negU[t] {
					contra = true
				}
			}
			if !hit && contra {
				k.fail(Negation, "%q negates what the source affirms", phrase)
				return
			}
		}
	}
	if len(a.neg) > 0 {
		return
	}
	if persistsUnfixed(a, u) {
		return // "the CI OOM remains" for "did not fix the CI OOM"
	}
	onlyNeg := 0
	for t := range a.pos {
		if negU[t] && !posPlain[t] && !genericLemmas[t] {
			onlyNeg++
		}
	}
	absence := k.statesAbsence()
	for t := range a.pos {
		if absence && a.role == rolePlain && !a.negated && a.s.idx == 0 {
			// "pass `cacheWidth`; without it full-size photos are decoded":
			// the remedy of an absence the claim states too
			break
		}
		if a.fromSide[t] && !a.toSide[t] {
			continue // "Zustand replaces Redux Toolkit": the side given up
		}
		if k.failureSubject(a, t) {
			continue // "enabling it breaks the FCC limits": what would fail, not what is done
		}
		if withoutNeg[t] && k.adds(a) {
			continue // "adding the index brought it to 140 ms" for "1.9 s without an index; adding it ..."
		}
		if rejected[t] && a.role == roleCause && k.restatesRationale(a) {
			continue // "(why: writing on every event dropped the tick rate)": what the rejected alternative did, as the source's reason says
		}
		if negU[t] && posU[t] && a.role != roleRejected && !k.excepts() && !k.negativeVerb(a) && negatedHere(a, u.sents, t) {
			// "Admin routes are logged" where the source logs requests
			// but says "the admin routes are not logged": the sentence
			// about the claim's subject negates it
			if rejected[t] {
				if rejectedShared(a, t, rejected) {
					continue // "Pulumi state" where the source rejects "Pulumi Cloud" and affirms "acme-pulumi-state"
				}
				k.fail(RoleSwap, "%q affirms what the source names as the rejected alternative", phrase)
			} else {
				k.fail(Negation, "%q affirms what the source negates", phrase)
			}
			return
		}
		if !negU[t] || posU[t] || !heads[t] && onlyNeg < 2 || k.excepts() {
			continue
		}
		if rejected[t] && a.role != roleRejected {
			if restatesChoice(a, rejected, posU) {
				continue // "JSON names follow the proto names rather than the default lowerCamelCase"
			}
			k.fail(RoleSwap, "%q affirms what the source names as the rejected alternative", phrase)
		} else if !(k.remedy(a) && resolvedNegates(u, t)) {
			k.fail(Negation, "%q affirms what the source negates", phrase)
		}
		return
	}
}

// relationSwap fails a clause that puts the two sides of a relation the
// other way round than a cited sentence with the same verb, read from
// the nearest distinctive words around it ("caused by the Airbyte sync
// waiting on the dbt Cloud job" for "the dbt Cloud job waiting on the
// Airbyte sync"), participles included, which pivotSwap's clause sides
// miss.
func (k *checker) relationSwap(a *conj, u *unit, phrase string) {
	sides := func(toks []token, idx []int) (verb, left, right string) {
		for j, i := range idx {
			if !relationVerbs[toks[i].term] {
				continue
			}
			for l := j - 1; l >= 0; l-- {
				if t := toks[idx[l]]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
					left = t.term
					break
				}
			}
			for r := j + 1; r < len(idx); r++ {
				if t := toks[idx[r]]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
					right = t.term
					break
				}
			}
			return toks[i].term, left, right
		}
		return "", "", ""
	}
	verb, l, r := sides(k.cd.toks, a.toks)
	if verb == "" || l == "" || r == "" || l == r {
		return
	}
	for _, st := range u.sents {
		var idx []int
		for i := st.from; i < st.to; i++ {
			idx = append(idx, i)
		}
		// each occurrence of the verb in the sentence
		for j, i := range idx {
			if st.d.toks[i].term != verb {
				continue
			}
			v, sl, sr := sides(st.d.toks, idx[j:])
			_ = v
			sl2 := ""
			for b := j - 1; b >= 0; b-- {
				if t := st.d.toks[idx[b]]; t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] {
					sl2 = t.term
					break
				}
			}
			if sl == "" {
				sl = sl2
			}
			if sl == r && sr == l {
				k.fail(RoleSwap, "%q puts the two sides of %q the other way round", phrase, verb)
				return
			}
		}
	}
}

// rejectedKept fails a clause that rejects what its source says was kept
// ("Use the Compatibility renderer, not Forward+" for "Kept Forward+ for
// now").
func (k *checker) rejectedKept(a *conj, u *unit, phrase string) {
	if a.role != roleRejected || len(a.neg) == 0 {
		return
	}
	rejected := distinctiveSet(a.neg)
	for _, st := range u.src.d.sents {
		for _, c := range st.conjs {
			// what is kept: the words right after "kept" ("Kept Forward+
			// for now"), or right before "stays" ("BullMQ stays"); not
			// "might keep it under the limit"
			kept := map[string]bool{}
			for j, i := range c.toks {
				w := st.d.toks[i].lower
				var near []int
				switch w {
				case "kept", "keep", "keeps":
					near = c.toks[j+1 : min(len(c.toks), j+4)]
				case "stays", "stayed":
					near = c.toks[max(0, j-3):j]
				}
				for _, n := range near {
					if t := st.d.toks[n].term; t != "" {
						kept[t] = true
					}
				}
			}
			if len(kept) > 0 && !c.negated && share(rejected, kept) >= 0.6 && len(rejected) > 0 {
				k.fail(RoleSwap, "%q rejects what the source says was kept", phrase)
				return
			}
		}
	}
}

// anyWords widen a statement to everyone.
var anyWords = words("any anyone anybody everyone everybody")

// plainModifiers describe a subject without naming another entity ("a
// shorter TTL", "the custom renderer"): no role is moved with them.
var plainModifiers = func() map[string]bool {
	m := map[string]bool{}
	for w := range words(`custom new old own short shorter long longer small smaller large larger big bigger
		high higher low lower fast faster slow slower current previous default main separate dedicated extra
		additional whole entire full partial simple basic existing different itself themselves`) {
		m[lemma(w)] = true
	}
	return m
}()

// distinctTerms are the distinctive terms of a conjunct, in order.
func distinctTerms(c *conj) []string {
	var out []string
	for j, i := range c.toks {
		t := c.s.d.toks[i]
		if t.term == "" || t.unitWord {
			continue
		}
		if ct := termAt(c.s.d.toks, c.toks, j); ct.distinctive() {
			out = append(out, t.term)
		}
	}
	return out
}

// listItem reports whether a clause restates an item of a list its best
// conjunct v starts: "24 clients on Nomad 1.7.7" for "The cluster runs
// Nomad 1.7.7 with 3 servers and 24 clients", where the conjunct "24
// clients" (w: no verb, no subject) carries what the clause added. v's
// last terms, as many as w has, are v's own item; the rest is the head
// both items share. The clause keeps the head and w's item, drops only
// v's item and takes nothing of it: no item is given another's place.
func listItem(a, v *conj, dropped []cterm, added map[string]bool) bool {
	for _, w := range v.s.conjs {
		if w == v || w.verb >= 0 || len(w.subject) > 0 {
			continue
		}
		wt := distinctTerms(w)
		if !slices.ContainsFunc(wt, func(t string) bool { return added[t] }) {
			continue
		}
		vt := distinctTerms(v)
		if len(wt) >= len(vt) {
			continue
		}
		item := setOf(vt[len(vt)-len(wt):])
		wset := setOf(wt)
		ok := !slices.ContainsFunc(dropped, func(d cterm) bool { return !item[d.key] })
		for _, t := range distinctTerms(a) {
			if item[t] && !wset[t] {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}
