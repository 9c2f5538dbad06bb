package extract

import (
	"regexp"
	"strings"
)

// This file finds where a model's final answer is: it removes reasoning
// blocks, finds the region after a "final answer" marker or inside an
// answer element, and marks the sections a model labels as drafts or
// reasoning.

// reasoningTags are the elements reasoning models wrap their thinking in.
var reasoningTags = []string{"think", "thinking", "reasoning", "reflection", "scratchpad", "analysis", "thought", "thoughts", "inner_monologue", "internal_monologue"}

// asciiLower lowers ASCII letters only, so that byte offsets in the
// result are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// atLineStart reports whether only blanks precede s[i] on its line.
func atLineStart(s string, i int) bool {
	for i--; i >= 0; i-- {
		switch s[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// atLineEnd reports whether only blanks follow s[:i] on its line.
func atLineEnd(s string, i int) bool {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// stripReasoning removes what a model thought before answering:
// gpt-oss's analysis channel, <|begin_of_thought|> blocks, and elements
// such as <think>...</think> that open a line. An element never closed
// runs to the end (the model was cut while thinking); a closing tag with
// no opening one (templates that put <think> in the prompt) ends
// reasoning that started with the text.
func stripReasoning(s string) string {
	if i := strings.LastIndex(s, "<|channel|>final<|message|>"); i >= 0 {
		s = s[i+len("<|channel|>final<|message|>"):]
	} else if strings.HasPrefix(s, "analysis") {
		if i := strings.LastIndex(s, "assistantfinal"); i >= 0 {
			s = s[i+len("assistantfinal"):]
		}
	}
	for _, tok := range []string{"<|end|>", "<|return|>", "<|im_end|>", "<|eot_id|>", "<|endoftext|>", "</s>", "<|begin_of_solution|>", "<|end_of_solution|>"} {
		s = strings.ReplaceAll(s, tok, "")
	}
	s = cutBlocks(s, "<|begin_of_thought|>", "<|end_of_thought|>", false)
	for _, tag := range reasoningTags {
		s = cutBlocks(s, "<"+tag, "</"+tag+">", true)
	}
	return s
}

// cutBlocks removes the blocks from open to close. With lineStart, an
// opening tag counts only at the start of a line (a tag quoted inside an
// answer does not), must end its name there ("<think>" or "<think ...>"),
// and an orphan closing tag counts only at a line's start or end.
func cutBlocks(s, open, close string, lineStart bool) string {
	for n := 0; n < 64; n++ {
		low := asciiLower(s)
		i := -1
		for from := 0; from < len(low); {
			k := strings.Index(low[from:], open)
			if k < 0 {
				break
			}
			k += from
			after := k + len(open)
			if (!lineStart || atLineStart(s, k)) && (!lineStart || after < len(low) && (low[after] == '>' || low[after] == ' ')) {
				i = k
				break
			}
			from = k + 1
		}
		if i < 0 {
			break
		}
		j := strings.Index(low[i:], close)
		if j < 0 {
			return s[:i] // never closed: the rest is reasoning
		}
		s = s[:i] + "\n" + s[i+j+len(close):]
	}
	// An orphan closing tag: what precedes it was reasoning.
	low := asciiLower(s)
	if j := strings.LastIndex(low, close); j >= 0 && (!lineStart || atLineStart(s, j) || atLineEnd(s, j+len(close))) {
		s = s[j+len(close):]
	}
	return s
}

// answerTags are elements some models put their final answer in.
var answerTags = []string{"answer", "final_answer", "final", "output", "result", "response", "json"}

// finalMarker matches a line that introduces the final version of an
// answer after drafts: "Final answer:", "## Corrected JSON", "**Revised
// output:**", "Here is the corrected JSON:".
var finalMarker = regexp.MustCompile(`(?im)^[ \t>]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:(?:final|corrected|revised|updated|fixed)(?:[ \t]+(?:answer|json|output|result|response|version|learnings|extraction|list|draft))?|(?:the[ \t]+)?answer|here(?:'s|’s|[ \t]+is)[ \t]+(?:the|my)[ \t]+(?:final|corrected|revised|updated|fixed)\b[^:\n]{0,40})[ \t]*(?:\*\*|__)?[ \t]*(?:[:：][ \t]*(?:\*\*|__)?|$)`)

// finalRegion returns the last answer element's content, or the text
// after the last final-answer marker.
func finalRegion(s string) (string, bool) {
	low := asciiLower(s)
	best, bestEnd := -1, -1
	for _, tag := range answerTags {
		for from := 0; ; {
			k := strings.Index(low[from:], "<"+tag)
			if k < 0 {
				break
			}
			k += from
			gt := strings.IndexByte(low[k:], '>')
			after := k + 1 + len(tag)
			if gt < 0 || after > len(low) || (low[after] != '>' && low[after] != ' ') {
				from = k + 1
				continue
			}
			start := k + gt + 1
			end := len(s)
			if c := strings.Index(low[start:], "</"+tag+">"); c >= 0 {
				end = start + c
			}
			if k > best {
				best, bestEnd = start, end
			}
			from = start
		}
	}
	if best >= 0 {
		return s[best:bestEnd], true
	}
	locs := finalMarker.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return "", false
	}
	return s[locs[len(locs)-1][1]:], true
}

// draftMarker matches a line that opens a draft or reasoning section:
// "Draft:", "## Reasoning", "**Analysis:** ...", "Let me think...".
var draftMarker = regexp.MustCompile(`(?i)^[ \t>]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:(?:my[ \t]+)?(?:first|initial|rough|preliminary)?[ \t]*draft(?:[ \t]+(?:answer|json|output|version|list|learnings))?|(?:my[ \t]+)?(?:reasoning|analysis|thinking|thoughts|thought process|scratchpad|scratch|working|chain of thought|step[- ]by[- ]step(?:[ \t]+\w+)?|notes to self)|(?:first|initial)[ \t]+(?:attempt|pass|try|version)|let me think\b[^\n]*|let's think\b[^\n]*)[ \t]*(?:\*\*|__)?[ \t]*(?:[:：.]|$)`)

// boundary matches a line that starts a new section: a heading, a line
// all in bold, or a short label line ending in a colon.
var boundary = regexp.MustCompile(`^[ \t]*(?:#{1,6}[ \t]+\S.*|(?:\*\*|__)[^*_\n]{1,60}(?:\*\*|__)[ \t]*:?[ \t]*|[A-Za-z][\w '’/()-]{0,60}:[ \t]*)$`)

// draftSpans returns the byte ranges of s that a model labelled as drafts
// or reasoning. A marker alone on its line runs to the next section
// boundary or final marker; one followed by text on its line runs to the
// end of its paragraph.
func draftSpans(s string) []span {
	var spans []span
	var open *span
	inline := false
	pos := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		start := pos
		pos += len(line)
		text := strings.TrimRight(line, "\n")
		trimmed := strings.TrimSpace(text)
		if open != nil {
			switch {
			case inline && trimmed == "",
				!inline && (boundary.MatchString(text) && !draftMarker.MatchString(text) || finalMarker.MatchString(text)):
				open.end = start
				spans = append(spans, *open)
				open = nil
			}
		}
		if open == nil {
			if m := draftMarker.FindStringIndex(text); m != nil {
				open = &span{start: start, end: len(s)}
				inline = strings.TrimSpace(strings.Trim(text[m[1]:], "*_")) != ""
			}
		}
	}
	if open != nil {
		spans = append(spans, *open)
	}
	return spans
}
