package search

// stopwords is a small list of English function words that carry no
// meaning for search. It is deliberately short: words such as "not", "no",
// "error" or "test" stay searchable.
var stopwords = map[string]struct{}{}

// maxStopword is the length of the longest stopword: longer words skip the
// map lookup.
const maxStopword = 6

func init() {
	for _, w := range []string{
		"a", "about", "after", "again", "all", "also", "am", "an", "and", "any",
		"are", "as", "at", "be", "been", "before", "being", "but", "by", "can",
		"could", "did", "do", "does", "doing", "for", "from", "had", "has",
		"have", "having", "he", "her", "here", "him", "his", "how", "i", "if",
		"in", "into", "is", "it", "its", "just", "me", "my", "of", "on", "or",
		"our", "ours", "she", "should", "so", "some", "such", "than", "that",
		"the", "their", "them", "then", "there", "these", "they", "this",
		"those", "to", "too", "us", "very", "was", "we", "were", "what", "when",
		"where", "which", "while", "who", "whom", "why", "will", "with",
		"would", "you", "your",
	} {
		if len(w) > maxStopword {
			panic("search: stopword " + w + " is longer than maxStopword")
		}
		stopwords[w] = struct{}{}
	}
}

// IsStopword reports whether the lower-case word w is one of the stopwords
// Tokenize drops.
func IsStopword(w string) bool {
	_, ok := stopwords[w]
	return ok
}

// Stem returns the stem of a lower-case word, as Tokenize computes it.
//
// The stemmer is light and deterministic, a small subset of Porter's
// step 1 followed by a final-e rule. Words of three letters or fewer and
// words with anything but ASCII letters are left alone. Then, in order:
//
//  1. plurals: -sses -> -ss, -ies -> -y, a final -s is dropped unless the
//     word ends in -ss, -us or -is (classes, queries, webhooks; status);
//  2. -ied -> -y; -ing and -ed are dropped when at least three letters with
//     a vowel remain (not after -eed: need, speed), and a doubled final
//     consonant other than l, s, z is then undoubled (logging -> log);
//  3. a final -e is dropped from words of four letters or more, unless it
//     follows another e (cache, caches, caching, cached -> cach).
//
// Stems are not words; they only need to agree between a query and the
// texts it searches.
func Stem(w string) string { return string(stem([]byte(w))) }

// stem stems w in place and returns the stem, a prefix of w's storage.
func stem(w []byte) []byte {
	if len(w) <= 3 {
		return w
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return w
		}
	}
	switch {
	case hasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case hasSuffix(w, "ies") && len(w) > 4:
		w = append(w[:len(w)-3], 'y')
	case hasSuffix(w, "ss"), hasSuffix(w, "us"), hasSuffix(w, "is"):
	case w[len(w)-1] == 's':
		w = w[:len(w)-1]
	}
	switch {
	case hasSuffix(w, "ied") && len(w) > 4:
		w = append(w[:len(w)-3], 'y')
	case hasSuffix(w, "ing") && len(w) >= 6 && hasVowel(w[:len(w)-3]):
		w = undouble(w[:len(w)-3])
	case hasSuffix(w, "ed") && !hasSuffix(w, "eed") && len(w) >= 5 && hasVowel(w[:len(w)-2]):
		w = undouble(w[:len(w)-2])
	}
	if n := len(w); n >= 4 && w[n-1] == 'e' && w[n-2] != 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble drops the last letter of a stem ending in a doubled consonant
// other than l, s or z, when at least three letters remain.
func undouble(w []byte) []byte {
	n := len(w)
	if n < 4 || w[n-1] != w[n-2] {
		return w
	}
	switch w[n-1] {
	case 'a', 'e', 'i', 'o', 'u', 'l', 's', 'z':
		return w
	}
	return w[:n-1]
}

func hasSuffix(w []byte, suffix string) bool {
	return len(w) >= len(suffix) && string(w[len(w)-len(suffix):]) == suffix
}

func hasVowel(w []byte) bool {
	for _, c := range w {
		switch c {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return true
		}
	}
	return false
}
