package extract

import (
	"regexp"
	"strings"
)

// This file recognizes an explicit "no learnings": "No new learnings.",
// "NONE", "Nothing noteworthy in this run.", "I could not find anything
// worth remembering." An answer that says so has zero learnings; it is
// not a failure to answer.

// noneWord is a whole answer (or value) meaning nothing.
var noneWord = regexp.MustCompile(`^(?:none|n/?a|nil|null|nothing|no|empty|\[\]|\{\}|-|—|0|zero|none found|none\s*\(.*\)|no learnings?)$`)

// noneStatement is a sentence saying there is nothing to remember.
var noneStatement = regexp.MustCompile(`(?i)(?:` +
	`^(?:learnings?|new learnings?|result|answer|output|lessons?|insights?|takeaways?)\s*[:=-]\s*(?:none|n/?a|nothing|no(?:ne)?|\[\]|empty|0|zero)\b` +
	`|\bno\s+(?:[\w’'-]+[\s,]+){0,4}?(?:learnings?|lessons?|insights?|memories|takeaways?|findings)\b` +
	`|\bnothing\s+(?:[\w’'-]+\s+){0,3}?(?:noteworthy|notable|worth|durable|new|reusable|significant|memorable|useful|to\s+(?:extract|remember|record|save|report|add|note|keep|learn|store))` +
	`|\bnothing\s+(?:stands|stood)\s+out\b` +
	`|\b(?:zero|0)\s+(?:new\s+|durable\s+)?(?:learnings|lessons|insights)\b` +
	`|(?:\bnot|n['’]t|\bnever)\s+(?:\w+\s+){0,2}?(?:find|identify|see|spot|notice|extract|contain|include|reveal|show|yield|surface|teach|have|produce|found|identified|extracted)\s+(?:anything|any\s+(?:[\w’'-]+\s+){0,3}?(?:learnings?|lessons?|insights?|information|memories|takeaways?|facts?|findings))` +
	`|\b(?:taught|teaches|teach)\s+nothing\b|\bnothing\s+(?:was\s+)?(?:learned|learnt)\b` +
	`|\bthere\s+(?:is|are|was|were)\s+nothing\s+(?:\w+\s+){0,3}?(?:worth|to|durable|new|noteworthy|reusable)` +
	`)`)

// weakNone qualifies a statement that some learnings exist elsewhere:
// "no other learnings", "nothing further".
var weakNone = regexp.MustCompile(`(?i)\b(?:other|further|additional|more|else|beyond|besides|apart|except)\b`)

// saysNone reports whether a short text states that there are no
// learnings.
func saysNone(s string) bool {
	t := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(s), ".!*_`\"'“”")))
	if t == "" {
		return false
	}
	if noneWord.MatchString(t) {
		return true
	}
	if len(t) > 300 {
		return false
	}
	return noneStatement.MatchString(t) && !weakNone.MatchString(t)
}

// proseNones finds the statements of no learnings in the lines of a
// region: a whole answer of "NONE" or a labelled "Learnings: none" is
// structured; a sentence in prose is weaker, and one that implies other
// learnings ("no other learnings") weaker still.
func proseNones(s string, lines []line) []noneAt {
	var out []noneAt
	significant := 0
	for _, ln := range lines {
		if ln.text != "" {
			significant++
		}
	}
	for _, ln := range lines {
		text := strings.TrimSpace(strings.Trim(ln.text, "#>*_ "))
		if m := listItem.FindStringSubmatch(text); m != nil {
			text = m[2]
		}
		if text == "" {
			continue
		}
		low := strings.ToLower(strings.Trim(text, ".!*_`\"' "))
		if noneWord.MatchString(low) {
			tier := tierProse
			if significant == 1 {
				tier = tierStructured
			}
			out = append(out, noneAt{pos: ln.pos, tier: tier})
			continue
		}
		for _, sn := range splitSentences(text) {
			sn = strings.TrimSpace(sn)
			if len(sn) > 300 || !noneStatement.MatchString(sn) {
				continue
			}
			tier := tierProse
			if weakNone.MatchString(sn) {
				tier = tierWeak
			}
			out = append(out, noneAt{pos: ln.pos, tier: tier})
			break
		}
	}
	return out
}
