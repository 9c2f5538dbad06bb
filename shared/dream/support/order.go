package support

import "strings"

// The step-order check: steps a source gives in an order keep it.

// nameMark marks, in a step's terms, the names (code, compounds) that
// tell one step from another.
const nameMark = "\x00"

// placeOf is the index of the source step a claim step is: the one step
// with a name of it, else the one step with at least half its words; -1
// when none is, -2 when several are.
func placeOf(c map[string]bool, src []map[string]bool) int {
	by := func(match func(x map[string]bool) bool) int {
		at := -1
		for j, x := range src {
			if match(x) {
				if at >= 0 {
					return -2
				}
				at = j
			}
		}
		return at
	}
	// the names of the step that one source step alone has
	names := map[string]bool{}
	for t := range c {
		if !strings.HasPrefix(t, nameMark) {
			continue
		}
		n := 0
		for _, x := range src {
			if x[t] {
				n++
			}
		}
		if n == 1 {
			names[t] = true
		}
	}
	if at := by(func(x map[string]bool) bool { return overlapCount(names, x) > 0 }); at != -1 {
		return at
	}
	return by(func(x map[string]bool) bool { return len(c) > 0 && share(c, x) >= 0.5 })
}

// orderWords say an order, not a step.
var orderWords = words("first then before after next finally")

// orderSwap fails a claim that puts two steps of a cited sentence in the
// other order ("submitted the build to TestFlight first, then deployed
// the schema" for "deployed the schema first, then submitted the
// build"; "flags, then env vars, then the file" reversed).
func (k *checker) orderSwap() {
	for _, cs := range k.cd.sents {
		claim := steps(cs)
		if len(claim) < 2 {
			continue
		}
		for _, s := range k.srcs {
			for _, src := range s.steps {
				if len(src) < 2 {
					continue
				}
				// each claim step's place in the source: the one step it
				// shares at least half its words with
				at := make([]int, len(claim))
				for i, c := range claim {
					at[i] = placeOf(c, src)
				}
				for i := range at {
					for j := i + 1; j < len(at); j++ {
						if at[i] >= 0 && at[j] >= 0 && at[i] > at[j] {
							k.fail(RoleSwap, "the claim puts two steps in the other order than a cited source")
							return
						}
					}
				}
			}
		}
	}
}

// checklistItem is one "[ ] label" or "[x] label" of a text.
type checklistItem struct {
	done  bool
	label map[string]bool
}
