package search

// Jaccard was the pattern rule before search.Repeat (trigger and solution
// words overlapping by 80%); the labelled dedup tests report it as the
// "before" figures, so it lives beside them.

// Jaccard returns the Jaccard similarity of the sets of terms of a and b:
// the size of their intersection over the size of their union, 1 when both
// have no terms and a and b normalise to the same text ([NormalizeText]),
// 0 when only one has no terms.
func Jaccard(a, b string) float64 {
	sa, sb := termSet(a), termSet(b)
	if len(sa) == 0 || len(sb) == 0 {
		if len(sa) == 0 && len(sb) == 0 && NormalizeText(a) == NormalizeText(b) {
			return 1
		}
		return 0
	}
	inter := 0
	for t := range sa {
		if _, ok := sb[t]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(sa)+len(sb)-inter)
}

func termSet(s string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, t := range Tokenize(s) {
		set[t] = struct{}{}
	}
	return set
}
