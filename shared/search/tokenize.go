package search

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenize splits s into search terms.
//
// The rules, in order:
//   - The text is read in Unicode normalization form NFKC, so that the
//     same words match however they were encoded: a letter and its
//     combining accent as the accented letter (e + U+0301 as é), and
//     compatibility forms as their plain letters and digits (full-width
//     ｇｏ as go, the ligature ﬁ as fi).
//   - A word is a run of letters and digits. '_' and '-' between two letters
//     or digits join a word (snake_case, kebab-case), so do '.' between two
//     digits (1.26, v1.2.3) and an apostrophe between two letters, which is
//     dropped (don't -> dont). Everything else separates words.
//   - A word is split into parts at '_' and '-' and at case changes:
//     lower or digit to upper (retryWebhook, s3Bucket), and the last upper
//     case letter of a run followed by lower case (HTTPServer -> HTTP,
//     Server), except a plural acronym (IDs, URLs), whose 's' is dropped.
//     Letters and digits are not split apart (oauth2, ec2, sha256).
//   - Parts are lower-cased; stopwords (see [IsStopword]) and single letters
//     are dropped; the rest are stemmed (see [Stem]).
//   - A word made of several parts also yields the parts joined, lower-cased
//     and stemmed (retryWebhook -> retry, webhook, retrywebhook), so that an
//     exact identifier query scores higher than its parts scattered around.
//
// Tokens are returned in the order they occur, the joined form after the
// parts; duplicates are kept (term frequency matters to BM25).
func Tokenize(s string) []string {
	var toks []string
	var t tokenizer
	t.scan(s, func(tok []byte) { toks = append(toks, string(tok)) })
	return toks
}

// tokenizer holds the buffers of one scan, reused from word to word and,
// when the tokenizer is reused, from text to text.
type tokenizer struct {
	runes []rune
	part  []byte
	comp  []byte
	// keepPart, when set, replaces keep: which lower-cased parts are
	// terms (the duplicate detector keeps some stopwords, see dedup.go).
	keepPart func([]byte) bool
	// emitJoined, when set, receives the joined form of a compound word
	// instead of emit.
	emitJoined func([]byte)
}

// scan calls emit for each token of s. The slice passed to emit is only
// valid during the call.
func (t *tokenizer) scan(s string, emit func([]byte)) {
	s = norm.NFKC.String(s) // s itself when it is normalized already
	i := 0
	for i < len(s) {
		r, size := decode(s, i)
		if !isWordRune(r) {
			i += size
			continue
		}
		t.runes = t.runes[:0]
		for i < len(s) {
			r, size = decode(s, i)
			if isWordRune(r) {
				t.runes = append(t.runes, r)
				i += size
				continue
			}
			if i+size < len(s) && (r == '_' || r == '-' || r == '.' || isApostrophe(r)) {
				next, _ := decode(s, i+size)
				prev := t.runes[len(t.runes)-1]
				var joins bool
				switch {
				case r == '_' || r == '-':
					joins = isWordRune(next)
				case r == '.':
					joins = isDigit(prev) && isDigit(next)
				default:
					joins = isLetter(prev) && isLetter(next)
				}
				if joins {
					t.runes = append(t.runes, r)
					i += size
					continue
				}
			}
			break
		}
		t.word(emit)
	}
}

// word splits the word in t.runes into parts and emits them and, for a
// compound word, the joined form.
func (t *tokenizer) word(emit func([]byte)) {
	rs := t.runes
	t.part = t.part[:0]
	t.comp = t.comp[:0]
	parts := 0
	flush := func() {
		if len(t.part) == 0 {
			return
		}
		parts++
		if t.keepPart != nil && t.keepPart(t.part) || t.keepPart == nil && keep(t.part) {
			emit(stem(t.part))
		}
		t.part = t.part[:0]
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-':
			flush()
			continue
		case isApostrophe(r):
			continue
		case r == 's' && i >= 2 && isUpper(rs[i-1]) && isUpper(rs[i-2]) && pluralAcronym(rs, i):
			continue // IDs -> id, like ID
		case i > 0 && isUpper(r):
			p := rs[i-1]
			if isLower(p) || isDigit(p) {
				flush()
			} else if isUpper(p) && i+1 < len(rs) && isLower(rs[i+1]) && !pluralAcronym(rs, i+1) {
				flush()
			}
		}
		lr := toLower(r)
		t.part = utf8.AppendRune(t.part, lr)
		t.comp = utf8.AppendRune(t.comp, lr)
	}
	flush()
	if parts > 1 {
		if t.emitJoined != nil {
			t.emitJoined(stem(t.comp))
		} else {
			emit(stem(t.comp))
		}
	}
}

// keep reports whether a lower-cased part is a term: not a stopword and not
// a lone letter.
func keep(p []byte) bool {
	if len(p) == 1 && !isDigit(rune(p[0])) {
		return false
	}
	if r, size := utf8.DecodeRune(p); size == len(p) && isLetter(r) {
		return false
	}
	return len(p) > maxStopword || !IsStopword(string(p))
}

// pluralAcronym reports whether rs[j] is the 's' of a plural acronym such
// as IDs or URLsFor: an 's' followed by the end of the word or by anything
// but a lower-case letter.
func pluralAcronym(rs []rune, j int) bool {
	return rs[j] == 's' && (j+1 == len(rs) || !isLower(rs[j+1]))
}

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}

func toLower(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '\u2019' }
