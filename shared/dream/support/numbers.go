package support

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A number is checked with its context: the same value must appear in a
// cited source, with a compatible unit, and no other number of the cited
// sources may fit the claim's words better. "Tokens expire after 200 h"
// fails where the sources say "tokens expire after 24 h" and "a batch size
// of 200": 200 is there, but the words around it in the claim are the
// words around 24.

// numOcc is one number of a text, with the words around it.
type numOcc struct {
	value   string
	raw     string
	unit    string
	measure bool
	per     string // the time unit of a rate
	// clause holds the terms of the number's own clause.
	clause map[string]bool
	// rejected is set for a number of a rejected alternative ("12 shards
	// instead of 6": 6)
	rejected bool
	// multiplier: a verb such as "tripled", which a claim need not find
	multiplier bool
	// pairFrom is, for the "to" number of "from X to Y", the value X:
	// the value it replaces, which is no rival.
	pairFrom string
	// old is set for a value the text gives as an earlier one: after
	// "from" ("up from 98.9%", "from 2.4 s to 1.5 s"), or the value of the
	// sentence before a change "to" another ("900 ms; X brought it to
	// 450 ms"); sentence numbers it is compared with are its partners
	old bool
	// sent is the index of the number's sentence, pos its token index
	sent, pos int
	// partOf is, for the N of "N of the M steps", the value M: the whole
	// it is part of, whose words are N's too
	partOf string
	// anchor is the terms before it (numberAnchors)
	anchor map[string]bool
	// left is the distinctive term right before it, if any ("astro" of
	// "Astro 4.15.4")
	left string
	// ctx weighs the terms around the number by closeness (1 next to it,
	// less further away); "<from>" and "<to>" mark a number after "from"
	// or "to", "#v" another number v of the same clause.
	ctx map[string]float64
}

// numbers collects the numbers of a doc with their contexts.
func (d *doc) numbers() []numOcc {
	var out []numOcc
	for _, s := range d.sents {
		for _, c := range s.conjs {
			for j, k := range c.toks {
				t := d.toks[k]
				if t.kind != tkNumber {
					continue
				}
				n := numOcc{value: t.value, raw: t.raw, unit: t.unit, measure: t.measure, per: t.per, ctx: c.numberContext(j), clause: c.effTerms(),
					rejected: c.role == roleRejected && !changedBefore(d.toks, c.toks[:j]), multiplier: t.multiplier, sent: s.idx, pos: k}
				n.old = afterFrom(d.toks, k) || wasBefore(d.toks, k)
				n.left = leftName(d.toks, k)
				n.partOf = partOf(d.toks, k)
				// "Dropped Python 3.8": a value taken away is an earlier one
				// ("removed in v3": v3 is when, not what)
				for b := k - 1; b >= max(0, k-3) && !(b == k-1 && whenWords[d.toks[b].lower]); b-- {
					// ("dropped to 210 MB" is a value that fell, not one taken away)
					if removalWords[d.toks[b].lower] && !(b+1 < k && quantityLeads[d.toks[b+1].lower]) {
						n.old = true
					}
				}
				if n.ctx["<to>"] > 0 {
					for jj := j - 1; jj >= 0 && jj >= j-4; jj-- {
						if p := d.toks[c.toks[jj]]; p.kind == tkNumber {
							n.pairFrom = p.value
							break
						}
					}
				}
				out = append(out, n)
			}
		}
	}
	// "from 3 min 50 s": the seconds of an earlier duration are earlier too
	for i := 1; i < len(out); i++ {
		if p := out[i-1]; p.old && !out[i].old && out[i].sent == p.sent && out[i].pos-p.pos <= 2 && p.measure && out[i].measure &&
			dimension(p.unit) == dimension(out[i].unit) {
			out[i].old = true
		}
	}
	markChanged(d, out)
	anchors := map[int]map[string]bool{}
	for _, a := range d.numberAnchors() {
		anchors[a.pos] = a.terms
	}
	for i := range out {
		out[i].anchor = anchors[out[i].pos]
	}
	return out
}

// leftName is the name nearest before the number at k, over
// stopwords and other numbers ("astro" for 4.15.4 in "Astro from 4.11 to
// 4.15.4"), within four tokens; "" when a verb or a generic word comes
// first.
func leftName(toks []token, k int) string {
	for b := k - 1; b >= 0 && b >= k-4; b-- {
		t := toks[b]
		switch {
		case t.kind == tkNumber || t.unitWord || t.kind == tkWord && t.term == "" && (t.isWord("from") || t.isWord("to")):
			continue
		case t.term != "" && !genericLemmas[t.term] && !verbLemmas[t.term] && (t.code || t.compound || isCapitalWord(t.raw) || isAcronym(t.raw)):
			return t.term // a name: "Astro", `node`, "iOS"
		}
		return ""
	}
	return ""
}

// partOf is the value M after the number at k in "N of M", "N of the
// M", "N out of M" (a part of a whole), or "".
func partOf(toks []token, k int) string {
	j := k + 1
	if j < len(toks) && toks[j].isWord("out") {
		j++
	}
	if j >= len(toks) || !toks[j].isWord("of") {
		return ""
	}
	j++
	if j < len(toks) && (toks[j].isWord("the") || toks[j].isWord("its") || toks[j].isWord("our")) {
		j++
	}
	if j < len(toks) && toks[j].kind == tkNumber {
		return toks[j].value
	}
	return ""
}

// whenWords, right before a version, make it the time of a change ("removed
// in v3"), not what the change took away.
var whenWords = words("in since by after before until as")

// afterFrom reports whether "from" stands right before the number at k,
// over a word of frequency or approximation ("from every 5 minutes",
// "from about 900 ms").
func afterFrom(toks []token, k int) bool {
	for b := k - 1; b >= 0 && b >= k-3; b-- {
		switch {
		case toks[b].isWord("from"):
			return true
		case !approxWords[toks[b].lower]:
			return false
		}
	}
	return false
}

// wasBefore reports whether the number at k is an earlier value by the
// words before it: "(was 200)", "previously 3", "formerly 12".
func wasBefore(toks []token, k int) bool {
	if k > 0 && formerlyWords[toks[k-1].lower] {
		return true
	}
	// "(was 200)", "takes 47 min, was 52 min"
	return k > 1 && (toks[k-1].isWord("was") || toks[k-1].isWord("were")) && (toks[k-2].raw == "(" || toks[k-2].raw == "," || toks[k-2].raw == ";")
}

// markChanged marks as old the numbers a change replaces: "900 ms;
// moving X brought it to 450 ms" makes 900 ms the earlier value (of the
// same sentence, or the one before when a semicolon split them).
func markChanged(d *doc, ns []numOcc) {
	for i, n := range ns {
		k := n.pos
		brought := k >= 2 && d.toks[k-1].isWord("to") && itWords[d.toks[k-2].lower]
		if !brought && !newValue(d, n) {
			continue
		}
		// the old value: in the same sentence or the one before, or two
		// before for a new value told after its change ("used 1.8 GB.
		// Switched to a heap; peak memory dropped to 210 MB")
		back := 1
		if !brought {
			back = 2
		}
		// the nearest, or for a change told apart from its old value the
		// one that shares most words with it ("peak memory" is the 1.8 GB
		// the worker used, not the 4 GB album)
		best, bestShared := -1, -1
		for j := i - 1; j >= 0; j-- {
			o := &ns[j]
			if o.sent < n.sent-back {
				break
			}
			if !brought && d.toks[o.pos].code {
				continue // a setting's value ("added `--jobs 8`, now about 3")
			}
			if (sameKind(n, *o) || !brought && n.unit == "" && o.measure) && !o.old {
				if brought {
					best = j
					break
				}
				// a number that names a thing ("the 4 GB test album") is
				// less likely the value that changed than a measure
				shared := 2 * sharedContext(n, *o)
				if !modifier(d, o.pos) {
					shared++
				}
				if shared > bestShared {
					best, bestShared = j, shared
				}
			}
		}
		if best >= 0 {
			ns[best].old = ns[best].old || brought
			if ns[i].pairFrom == "" {
				ns[i].pairFrom = ns[best].value
			}
		}
	}
}

// modifier reports whether the number at k, with its unit, stands before
// the noun it describes ("4 GB test album").
func modifier(d *doc, k int) bool {
	e := pastUnit(d.toks, k, len(d.toks))
	return e < len(d.toks) && d.toks[e].kind == tkWord && d.toks[e].term != "" && !d.toks[e].code
}

// pastUnit is the index of the first token after the number at k and the
// words of its unit, at most to.
func pastUnit(toks []token, k, to int) int {
	e := k + 1
	for e < to && toks[e].unitWord {
		e++
	}
	return e
}

// sharedContext counts the words two numbers' contexts share.
func sharedContext(a, b numOcc) int {
	n := 0
	for t := range a.ctx {
		if !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "<") && b.ctx[t] > 0 {
			n++
		}
	}
	return n
}

// changedBefore reports whether a verb of change stands before a number
// of a rejected alternative: "400 instead of 200 brought it to about 11
// minutes" rejects 200, not the 11 the change brought.
func changedBefore(toks []token, before []int) bool {
	for _, i := range before {
		if t := toks[i]; t.kind == tkWord && !t.code && changeVerbs[t.lower] && t.lower != "down" {
			return true
		}
	}
	return false
}

// newValue reports whether the number is the new value of a change
// told after the old one: "now about 3" ("took about 9 minutes; added
// `--jobs 8`, now about 3"), or "to" after a verb of change with no
// number between them ("peak memory dropped to 210 MB" after "used
// 1.8 GB").
func newValue(d *doc, n numOcc) bool {
	st := d.sents[n.sent]
	b := n.pos - 1
	for b >= st.from && approxWords[d.toks[b].lower] {
		b--
	}
	if b < st.from {
		return false
	}
	if d.toks[b].isWord("now") {
		// "now 38 kB smaller" is a difference, not the new value
		e := pastUnit(d.toks, n.pos, st.to)
		return e >= st.to || !comparatives[d.toks[e].lower]
	}
	if !d.toks[b].isWord("to") {
		return false
	}
	for j := b - 1; j >= st.from; j-- {
		t := d.toks[j]
		if t.kind == tkNumber || t.kind == tkPunct && !t.code {
			return false
		}
		if changeVerbs[t.lower] {
			return true
		}
	}
	return false
}

// changeVerbs tell that a value changed to the one after "to".
var changeVerbs = words(`brought brings dropped drops fell falls cut cuts reduced reduces went goes lowered
	lowers raised raises increased increases decreased decreases grew grows rose rises climbed climbs
	shrank shrinks sped speeds improved improves down`)

// oldness tells whether the cited occurrences of a value (with the
// claim's unit) are all earlier values (1), all later or plain ones (-1),
// or mixed or absent (0).
func oldness(c numOcc, value string, srcs []*source) int {
	olds, news := 0, 0
	for _, s := range srcs {
		for _, o := range s.nums {
			if !sameValue(o.value, value) || !unitsAgree(c, o) {
				continue
			}
			if o.old {
				olds++
			} else {
				news++
			}
		}
	}
	switch {
	case olds > 0 && news == 0:
		return 1
	case news > 0 && olds == 0:
		return -1
	}
	return 0
}

// earlierSwapped reports whether the claim's "from X to Y" makes X the
// earlier value where the sources give Y as the earlier one and X as the
// later ("from 450 ms to 900 ms" for "900 ms; X brought it to 450 ms").
func earlierSwapped(c numOcc, claim []numOcc, srcs []*source) bool {
	if c.pairFrom == "" {
		return false
	}
	var from *numOcc
	for i := range claim {
		if claim[i].value == c.pairFrom && claim[i].old {
			from = &claim[i]
		}
	}
	if from == nil {
		return false
	}
	if oldness(*from, from.value, srcs) < 0 && oldness(c, c.value, srcs) > 0 {
		return true
	}
	// a source pairs them the other way: its new value X came after Y
	reversed, same := false, false
	for _, s := range srcs {
		for _, o := range s.nums {
			switch {
			case sameValue(o.value, from.value) && sameValue(o.pairFrom, c.value):
				reversed = true
			case sameValue(o.value, c.value) && sameValue(o.pairFrom, from.value):
				same = true
			}
		}
	}
	return reversed && !same
}

// earlierWords tell that a claim's number is an earlier value.
var earlierWords = words("from before previously originally earlier initially formerly prior baseline down up old")

// earlierOnly reports whether every cited occurrence of the claim's
// number is an earlier value the sources compare with a later one, while
// the claim gives it alone as the current value ("crash-free users were
// 98.9% this week" for "99.4% this week, up from 98.9%").
func earlierOnly(c numOcc, claim *doc, claimNumbers int, srcs []*source) bool {
	// the claim compares it with another of its numbers, or says it was
	if c.old || c.rejected || claimNumbers > 1 {
		return false
	}
	// a past tense says it was so, unless the claim says it is so now
	current := false
	for i, t := range claim.toks {
		if t.kind == tkWord && (currentWords[t.lower] || t.lower == "this" && i+1 < len(claim.toks) && periodWords[claim.toks[i+1].lower]) {
			current = true
		}
	}
	for i, t := range claim.toks {
		if t.kind != tkWord {
			continue
		}
		if (t.lower == "up" || t.lower == "down") && (i+1 >= len(claim.toks) || !claim.toks[i+1].isWord("from")) {
			continue // "up to 25", not "up from 25"
		}
		if earlierWords[t.lower] || !current && pastWords[t.lower] {
			return false
		}
	}
	return oldness(c, c.value, srcs) > 0
}

// currentWords and "this week" make a claim's tense the present;
// pastWords are the past tenses that otherwise say a value was so.
var (
	currentWords = words("now currently today nowadays latest")
	periodWords  = words("week month quarter year release sprint run")
	pastWords    = words("was were took had used needed ran")
)

// numberContext weighs the conjunct's terms by their distance (in words
// that carry a term) to the number at position j, up to maxNumberDistance.
// A noun nearer to another number of the conjunct is that number's,
// unless the two numbers stand side by side ("from 1.28 to 1.29"). The
// subject of an active verb is the agent, not what the number measures:
// it counts only next to the number. Inherited terms count as far away.
func (c *conj) numberContext(j int) map[string]float64 {
	toks := c.s.d.toks
	ctx := map[string]float64{}
	add := func(term string, w float64) {
		if term != "" && ctx[term] < w {
			ctx[term] = w
		}
	}
	// slots: the positions of words with a term and of numbers
	var slots []int
	self := -1
	var numSlots []int
	for i, k := range c.toks {
		t := toks[k]
		if t.kind == tkNumber || t.term != "" {
			if i == j {
				self = len(slots)
			}
			if t.kind == tkNumber {
				numSlots = append(numSlots, len(slots))
			}
			slots = append(slots, i)
		}
	}
	// comma segments: a term beyond a comma, next to another number, is
	// that number's ("180 ms, with X the slowest at 600 ms")
	segment := make([]int, len(c.toks))
	seg := 0
	for i, k := range c.toks {
		if toks[k].raw == "," {
			seg++
		}
		segment[i] = seg
	}
	segHasOther := map[int]bool{}
	for _, ns := range numSlots {
		if ns != self {
			segHasOther[segment[slots[ns]]] = true
		}
	}
	paired := func(ns int) bool {
		if abs(ns-self) != 1 {
			return false
		}
		a, b := slots[min(ns, self)], slots[max(ns, self)]
		for i := a + 1; i < b; i++ {
			if toks[c.toks[i]].kind == tkPunct {
				return false
			}
		}
		return true
	}
	active := c.verb >= 0 && !beForms[toks[c.verb].lower] && !c.passive
	for si, i := range slots {
		if si == self {
			continue
		}
		d := abs(si - self)
		t := toks[c.toks[i]]
		if t.kind == tkNumber {
			if d <= maxNumberDistance {
				add("#"+t.value, 1/float64(1+d))
			}
			continue
		}
		if d > maxNumberDistance {
			continue
		}
		subjectSide := active && i < c.verbPos() && d > 2
		if segment[i] != segment[j] && segHasOther[segment[i]] {
			continue
		}
		if !verbLemmas[t.term] {
			nearer := false
			for _, ns := range numSlots {
				if ns != self && !paired(ns) && abs(si-ns) < d {
					nearer = true
				}
			}
			if nearer {
				continue
			}
		}
		w := 1 / float64(1+d)
		if subjectSide {
			w /= 2 // the agent of an active verb, not what is measured
		}
		if verbLemmas[t.term] {
			w *= 0.6 // "took 61 ms" and "takes 14 ms": verbs tell less
		}
		add(t.term, w)
		for _, p := range t.parts {
			add(p, w*0.8)
		}
	}
	if !active {
		for _, t := range c.inherited {
			add(t, 1.0/6)
		}
	}
	for _, t := range c.context {
		add(t, 1.0/6)
	}
	// "from X to Y": which end a number is
	if j > 0 {
		switch prev := toks[c.toks[j-1]]; {
		case prev.isWord("from") && c.hasAfter(j, "to"):
			add("<from>", 1)
		case prev.isWord("to") && c.hasBefore(j-1, "from"):
			add("<to>", 1)
		}
	}
	return ctx
}

// hasAfter reports whether the word w follows position j in the conjunct.
func (c *conj) hasAfter(j int, w string) bool {
	for _, k := range c.toks[j+1:] {
		if c.s.d.toks[k].isWord(w) {
			return true
		}
	}
	return false
}

// hasBefore reports whether the word w precedes position j.
func (c *conj) hasBefore(j int, w string) bool {
	for _, k := range c.toks[:j] {
		if c.s.d.toks[k].isWord(w) {
			return true
		}
	}
	return false
}

// verbPos is the position of the conjunct's verb in its tokens, or -1.
func (c *conj) verbPos() int {
	for i, k := range c.toks {
		if k == c.verb {
			return i
		}
	}
	return -1
}

// shape tells versions and decimals (with a dot), times (with a colon)
// and whole numbers apart.
func shape(v string) byte {
	switch {
	case strings.Contains(v, ":"):
		return ':'
	case strings.Contains(v, "."):
		return '.'
	}
	return '0'
}

// maxNumberDistance bounds the words that are a number's context.
const maxNumberDistance = 5

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// dimension of a unit of measure: units of one dimension compete.
func dimension(unit string) string {
	switch unit {
	case "ns", "us", "ms", "s", "min", "h", "d", "w", "mo", "y":
		return dimensionOf(unit)
	case "b", "kb", "mb", "gb", "tb", "pb", "kib", "mib", "gib", "tib":
		return "size"
	case "usd", "eur":
		return "money"
	}
	return unit
}

// sameValue compares two normalised values. Versions are strings: 3.10
// is not 3.1.
func sameValue(a, b string) bool { return a == b }

// unitsAgree reports whether a source's number can be the claim's: units
// of measure must be equal; a counted noun must agree with a unit of
// measure only when the source speaks of that noun.
func unitsAgree(claim, src numOcc) bool {
	if claim.per != "" && src.per != "" && claim.per != src.per {
		return false // 20 per minute is not 20 per second
	}
	switch {
	case claim.measure && src.unit == "":
		return false // "0.03%" is not the bare "p = 0.03"
	case claim.unit == "" || src.unit == "":
		return true
	case claim.measure && src.measure:
		return claim.unit == src.unit
	case claim.measure != src.measure:
		noun := claim.unit
		ctx := src.ctx
		if claim.measure {
			noun, ctx = src.unit, claim.ctx
		}
		return ctx[noun] >= 1.0/3
	}
	return true
}

// competes reports whether another number of the sources could have been
// the claim's (same kind of quantity).
func competes(claim, other numOcc) bool {
	if shape(claim.value) != shape(other.value) {
		return false // a version is no rival of a count
	}
	switch {
	case claim.measure:
		return other.measure && dimension(claim.unit) == dimension(other.unit)
	case claim.unit == "" || other.unit == "":
		return true
	case !claim.measure && !other.measure:
		return true
	}
	return false
}

// sameKind reports whether two numbers measure the same kind of quantity:
// two durations (or sizes) whatever their shapes (1.4 s and 90 ms), or
// numbers that compete.
func sameKind(a, b numOcc) bool {
	if a.measure && b.measure && a.unit != "" && b.unit != "" {
		return dimension(a.unit) == dimension(b.unit)
	}
	return competes(a, b)
}

// checkNumber tests one number of a claim against the numbers of the
// cited sources. It returns "" when the number is supported, else the
// class and a detail. sentNums are the claim's numbers in the same
// sentence as c.
func checkNumber(c numOcc, sentNums []numOcc, srcs []*source) (Class, string) {
	same, compatible := 0, 0
	for _, s := range srcs {
		for _, o := range s.nums {
			if sameValue(o.value, c.value) {
				same++
				if unitsAgree(c, o) {
					compatible++
				}
			}
		}
	}
	if compatible == 0 && sameDuration(c, srcs) {
		return "", "" // "5 minutes" where a source says "300 s"
	}
	switch {
	case same == 0:
		return NumberMissing, numberMissingDetail
	case compatible == 0:
		return NumberContext, fmt.Sprintf("%s appears in the sources, but not as %s %s", c.raw, c.value, unitName(c))
	}
	// the claim's context as a vector, and each candidate's weights on it
	type term struct {
		t string
		w float64
	}
	var ctx []term
	for t, w := range c.ctx {
		ctx = append(ctx, term{t, w})
	}
	vec := func(o numOcc) []float64 {
		v := make([]float64, len(ctx))
		for i, t := range ctx {
			v[i] = o.ctx[t.t]
		}
		return v
	}
	type cand struct {
		o numOcc
		v []float64
		s *source
	}
	var ones []cand
	for _, s := range srcs {
		for _, o := range s.nums {
			if sameValue(o.value, c.value) && unitsAgree(c, o) {
				ones = append(ones, cand{o, vec(o), s})
			}
		}
	}
	sides := 0
	for _, o := range ones {
		// an earlier value is the side a claim may call rejected: "7
		// minutes instead of 4" for "7 minutes, up from 4"
		if o.o.rejected != c.rejected && !(c.rejected && o.o.old) {
			sides++
		}
	}
	if sides == len(ones) && len(ones) > 0 {
		if c.rejected {
			return RoleSwap, fmt.Sprintf("%s is what the sources chose, not the alternative they rejected", c.raw)
		}
		return RoleSwap, fmt.Sprintf("%s is the alternative the sources rejected", c.raw)
	}
	// the same name right before it in a source: "Astro 4.15.4" for
	// "Astro 4.15.4 and wrangler 3.78"
	if c.left != "" {
		for _, o := range ones {
			if o.o.left == c.left {
				return "", ""
			}
		}
	}
	if c.rejected && len(ones) > 0 {
		allOld := true
		for _, o := range ones {
			allOld = allOld && o.o.old
		}
		if allOld {
			return "", "" // the earlier value, which the claim says was given up
		}
	}
	alive := make([]bool, len(ones))
	for i := range alive {
		alive[i] = true
	}
	var beaten numOcc
	v2 := make([]float64, len(ctx))
	for _, s := range srcs {
		for _, o2 := range s.nums {
			// a rival: another value of the same kind, or the same value
			// in another unit ("1 GiB" for the limit the claim says is 1 MB)
			if sameValue(o2.value, c.value) && (unitsAgree(c, o2) || !c.measure) || !competes(c, o2) {
				continue
			}
			if a, ok := seconds(c); ok {
				if b, ok := seconds(o2); ok && math.Abs(a-b) < 1e-9 {
					continue // the same duration in another unit: "5 minutes" and "300 s"
				}
			}
			bound := 0.0
			for i, t := range ctx {
				v2[i] = o2.ctx[t.t]
				bound += t.w * v2[i]
			}
			if bound <= 0.1 {
				continue // shares too little with the claim to fit it better
			}
			any := false
			for j, o1 := range ones {
				if !alive[j] {
					continue
				}
				// the value it replaces: the source's "from X to Y", or the
				// claim's where the source does not pair them the other way
				if o2.value == o1.o.pairFrom || c.pairFrom != "" && sameValue(o2.value, c.pairFrom) && !sameValue(o2.pairFrom, c.value) {
					any = true
					continue // the value the source says it replaced
				}
				// a rival the claim states too, while this number keeps a
				// word that stands before it alone in the source: the
				// sentence reordered ("paid accounts keep them 365 days,
				// free accounts 30 days")
				// a part of a whole the claim states ("9 of the 23 steps"):
				// the whole's words are the part's too
				if c.partOf != "" && sameValue(c.partOf, o2.value) {
					any = true
					continue
				}
				// a rival the claim states in the same sentence, next to it
				// in the source too: both numbers are the source's, each in
				// its place unless the two are exchanged (exchangedItems)
				if o1.s == s && abs(o1.o.sent-o2.sent) <= 1 && pairedWith(c, sentNums, o2) {
					any = true
					continue
				}
				if (c.ctx["#"+o2.value] > 0 || rivalKeepsOwn(sentNums, c, o2, o1.o)) && keepsOwn(c.anchor, o1.o.anchor, o2.anchor) {
					any = true
					continue
				}
				// the claim's nearest word that tells the two numbers apart
				// (in the sources, around one of them only) decides first:
				// a reordered sentence keeps each number's own word
				// nearest, a swapped number sits nearest the other's
				var ownNear, rivalNear float64
				for i, t := range ctx {
					if strings.HasPrefix(t.t, "#") || strings.HasPrefix(t.t, "<") {
						continue
					}
					switch {
					case o1.v[i] > 0 && v2[i] == 0:
						ownNear = max(ownNear, t.w)
					case v2[i] > 0 && o1.v[i] == 0:
						rivalNear = max(rivalNear, t.w)
					}
				}
				if ownNear > 0 && ownNear >= rivalNear {
					any = true
					continue
				}
				var adv2, adv1 float64
				for i, t := range ctx {
					if t.t == c.unit && o1.o.unit == "" {
						continue // "kept the pool at 20" counts connections too
					}
					switch d := v2[i] - o1.v[i]; {
					case d > 0 && !o1.o.clause[t.t]:
						adv2 += t.w * d
					case d < 0:
						adv1 -= t.w * d
					}
				}
				if adv2-adv1 > 0.1 {
					alive[j], beaten = false, o2
				} else {
					any = true
				}
			}
			if !any {
				return NumberContext, fmt.Sprintf("the words around %s belong to %s in the sources", c.raw, beaten.raw)
			}
		}
	}
	return "", ""
}

// numberMissingDetail is the detail of NumberMissing (the diary has
// always said it so).
const numberMissingDetail = "a number not in the sources"

func unitName(n numOcc) string {
	if n.unit == "" {
		return "a bare number"
	}
	return n.unit
}

// secondsIn is the length of each unit of time in seconds.
var secondsIn = map[string]float64{"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}

// seconds is a duration's length in seconds, if n is one.
func seconds(n numOcc) (float64, bool) {
	f, ok := secondsIn[n.unit]
	if !n.measure || !ok || n.per != "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(n.value, 64)
	if err != nil {
		return 0, false
	}
	return v * f, true
}

// sameDuration reports whether a cited source states the claim's
// duration in another unit ("1 h" for "60 minutes", "300 s" for "5 min").
func sameDuration(c numOcc, srcs []*source) bool {
	want, ok := seconds(c)
	if !ok || want == 0 {
		return false
	}
	for _, s := range srcs {
		for _, o := range s.nums {
			if o.unit == c.unit {
				continue
			}
			if got, ok := seconds(o); ok && math.Abs(got-want) <= want*1e-9 {
				return true
			}
		}
	}
	return false
}

// numberAnchor is one number of a text with its anchor: the terms before
// it, back to the number before it in its sentence or to the sentence's
// start, and the phrase after it that a preposition ties to it ("access
// tokens valid for" is the anchor of 15 in "access tokens valid for 15
// minutes and refresh tokens for 7 days", "refresh tokens for" that of 7;
// in "91% for images and 64% for API GETs", "images" is 91's, not 64's).
type numberAnchor struct {
	value, unit string
	// model is set for a number that is part of a name ("Pixel 7",
	// "Android 14"): no quantity to exchange
	model     bool
	sent, pos int
	terms     map[string]bool
	// names are the anchor's terms that are names (capitalised, code,
	// compounds): they tell one number's thing from another's more than
	// common words do
	names map[string]bool
}

// tailPrepositions tie the phrase after a number to it ("91% for images").
var tailPrepositions = words("for on in of per across with under over during at")

// tailEnds end the phrase after a number.
var tailEnds = words("and or but while whereas then")

// numberAnchors lists the numbers of d with their anchors, in order.
func (d *doc) numberAnchors() []numberAnchor {
	if !d.anchored {
		d.anchors, d.anchored = d.anchorsOf(func(t token) (string, bool) { return t.value, t.kind == tkNumber }), true
	}
	return d.anchors
}

// nameAnchors lists the names of d written as code (`bge-large`,
// `llama-3-8b`) with their anchors, in order: two names exchanged between
// two facts are caught like two numbers.
func (d *doc) nameAnchors() []numberAnchor {
	return d.anchorsOf(func(t token) (string, bool) {
		return "`" + t.term, t.kind == tkWord && t.code && t.term != "" && (t.compound || strings.ContainsAny(t.raw, "0123456789"))
	})
}

// anchorsOf lists the items of d (what item says is one, with its value)
// with their anchors: the terms since the item before it in its sentence
// and the phrase a preposition ties to it.
func (d *doc) anchorsOf(item func(token) (string, bool)) []numberAnchor {
	var out []numberAnchor
	for _, st := range d.sents {
		terms, names := map[string]bool{}, map[string]bool{}
		add := func(terms, names map[string]bool, t token) {
			if t.term != "" && !t.unitWord && !genericLemmas[t.term] {
				terms[t.term] = true
				for _, p := range t.parts {
					terms[p] = true
				}
				if t.code || t.compound || isCapitalWord(t.raw) {
					names[t.term] = true
				}
			}
		}
		for i := st.from; i < st.to; i++ {
			t := d.toks[i]
			value, ok := item(t)
			if !ok {
				add(terms, names, t)
				continue
			}
			n := numberAnchor{value: value, unit: t.unit, sent: st.idx, pos: i, terms: terms, names: names}
			n.model = t.kind == tkNumber && t.unit == "" && !strings.Contains(t.value, ".") && i > st.from && isCapitalWord(d.toks[i-1].raw)
			terms, names = map[string]bool{}, map[string]bool{}
			j := i + 1
			if j < st.to && d.toks[j].unitWord {
				j++
			}
			if j < st.to && tailPrepositions[d.toks[j].lower] {
				// the phrase it ties to the item is the item's, not the
				// next one's
				for j++; j < st.to; j++ {
					u := d.toks[j]
					if _, isItem := item(u); u.kind != tkWord || tailEnds[u.lower] || isItem {
						break
					}
					add(n.terms, n.names, u)
				}
				i = j - 1
			}
			out = append(out, n)
		}
	}
	return out
}

// exchangedNumbers finds two numbers of a claim that a cited source states
// with each other's words: "access tokens are valid for 7 days and
// refresh tokens for 15 minutes" where the source gives access tokens 15
// minutes and refresh tokens 7 days; "start the bus at 400 kHz, then
// switch to 100 kHz" for "start at 100 kHz, then switch to 400 kHz". Each
// number's anchor (numberAnchors) must hold a word of the other's anchor
// in the source and none of its own there; a reordered sentence keeps
// each number with its own words.
func (k *checker) exchangedNumbers() {
	k.exchangedItems(k.cd.numberAnchors(), func(s *source) []numberAnchor { return s.d.numberAnchors() }, "")
	if len(k.problems) == 0 {
		k.exchangedItems(k.cd.nameAnchors(), func(s *source) []numberAnchor { return s.nameAnchors }, "`")
	}
}

// exchangedItems finds two items of a claim (numbers, or names in code)
// that a cited source states with each other's words (exchangedNumbers).
func (k *checker) exchangedItems(claim []numberAnchor, of func(*source) []numberAnchor, quote string) {
	if quote != "" {
		// names: only those with a few words of their own before them
		// ("Moved `a` to X and kept `b` on Y"); a long lead is the
		// sentence's, not the name's
		var local []numberAnchor
		for _, a := range claim {
			if len(a.terms) <= 4 {
				local = append(local, a)
			}
		}
		claim = local
	}
	// a value the claim states twice has no one anchor
	seen := map[string]int{}
	for _, a := range claim {
		seen[a.value]++
	}
	for i, a := range claim {
		if seen[a.value] > 1 {
			continue
		}
		for _, b := range claim[i+1:] {
			if a.value == b.value || a.model || b.model || seen[b.value] > 1 {
				continue
			}
			for _, s := range k.srcs {
				if exchangedIn(of(s), a, b) {
					if quote != "" {
						k.fail(RoleSwap, "%s and %s are exchanged: in the sources each goes with the other's words", a.value[1:], b.value[1:])
					} else {
						k.fail(NumberContext, "%s and %s are exchanged: in the sources each goes with the other's words", a.value+unitSuffix(a.unit), b.value+unitSuffix(b.unit))
					}
					return
				}
			}
		}
	}
}

func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " " + unit
}

// exchangedIn reports whether a sentence of a source states a and b, each
// with the other's words (belongsTo) wherever it states them.
func exchangedIn(anchors []numberAnchor, a, b numberAnchor) bool {
	for from := 0; from < len(anchors); {
		to := from
		for to < len(anchors) && anchors[to].sent == anchors[from].sent {
			to++
		}
		as, bs := occurrences(anchors[from:to], a), occurrences(anchors[from:to], b)
		swapped := len(as) > 0 && len(bs) > 0
		for _, sa := range as {
			for _, sb := range bs {
				if !belongsTo(a, sb, sa) || !belongsTo(b, sa, sb) {
					swapped = false
				}
			}
		}
		if swapped {
			return true
		}
		from = to
	}
	// the two in two sentences of one source ("level 10 must pass ...;
	// level 5 is only for nightly builds"), each stated once
	as, bs := occurrences(anchors, a), occurrences(anchors, b)
	return len(as) == 1 && len(bs) == 1 && as[0].sent != bs[0].sent && belongsTo(a, bs[0], as[0]) && belongsTo(b, as[0], bs[0])
}

// occurrences are the anchors of the item a (its value, a compatible
// unit) among anchors.
func occurrences(anchors []numberAnchor, a numberAnchor) []numberAnchor {
	var out []numberAnchor
	for _, x := range anchors {
		if x.value == a.value && unitsMatch(x.unit, a.unit) {
			out = append(out, x)
		}
	}
	return out
}

func unitsMatch(a, b string) bool { return a == b || a == "" || b == "" }

// keepsOwn reports whether a claim number's anchor has a distinctive word
// that, in the source, stands before its own number and not before the
// rival's.
func keepsOwn(claim, own, rival map[string]bool) bool {
	for t := range claim {
		if own[t] && !rival[t] {
			return true
		}
	}
	return false
}

// rivalKeepsOwn reports whether the claim states the rival value too, in
// the same sentence, with a word that stands before the rival alone in
// the source: then the two numbers moved with their words ("p99 is 410
// ms, while the median is 35 ms"), where an exchange misplaces both.
func rivalKeepsOwn(sentNums []numOcc, c, rival, own numOcc) bool {
	for _, n := range sentNums {
		if n.pos != c.pos && sameValue(n.value, rival.value) && keepsOwn(n.anchor, rival.anchor, own.anchor) {
			return true
		}
	}
	return false
}

// belongsTo reports whether a claim number's anchor holds more of the
// words that, in the source, stand only before the other number than of
// those that stand only before its own; a name (capitalised, code) counts
// twice ("the Windows build is 198 MB and the Linux build 212 MB" where
// the source gives Windows 212 MB and "the Linux one" 198 MB).
func belongsTo(claim, other, own numberAnchor) bool {
	toOther, toOwn := 0, 0
	for t := range claim.terms {
		w := 1
		if claim.names[t] {
			w = 2
		}
		switch {
		case other.terms[t] && !own.terms[t]:
			toOther += w
		case own.terms[t] && !other.terms[t]:
			toOwn += w
		}
	}
	return toOther > toOwn
}

// approxWords may stand between "from" and its number ("from every 5 minutes").
var approxWords = words("every about around roughly approximately nearly almost some")

// formerlyWords make the number after them an earlier value.
var formerlyWords = words("previously formerly originally")

// itWords are the pronouns of "brought it to 450 ms".
var itWords = words("it them")

// pairedWith reports whether the claim pairs c with o's value as the two
// sides of a change ("from 71 to 94").
func pairedWith(c numOcc, ns []numOcc, o numOcc) bool {
	if c.pairFrom != "" && sameValue(c.pairFrom, o.value) {
		return true
	}
	for _, n := range ns {
		if sameValue(n.value, o.value) && n.pairFrom != "" && sameValue(n.pairFrom, c.value) {
			return true
		}
	}
	return false
}
