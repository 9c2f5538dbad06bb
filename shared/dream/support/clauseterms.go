package support

// What a clause says beyond its own words: the subject it inherits, its
// values and numbers, its from/to.

// inherit carries subjects over: a conjunct without a subject of its own
// takes the previous one's; one without a verb takes its subject and
// verb; an object pronoun takes the previous conjunct's object.
func (s *sent) inherit() {
	var prev *conj
	for _, c := range s.conjs {
		c.headVerb = c.verbTerm
	}
	var beforeRelative *conj
	for _, c := range s.conjs {
		if c.role == roleParen {
			continue
		}
		if c.marker == "resume" && beforeRelative != nil {
			c.inherited = append(append([]string{}, beforeRelative.subject...), beforeRelative.inherited...)
			prev = c
			continue
		}
		if c.marker == "which" || c.marker == "who" {
			beforeRelative = prev
		}
		// ", which forwards them": which is the noun before it
		if prev != nil && (c.marker == "which" || c.marker == "who" || c.marker == "where") {
			ante := prev.right
			if len(ante) > 3 {
				ante = ante[len(ante)-3:]
			}
			if len(ante) == 0 {
				ante = prev.subject
			}
			c.inherited = append(c.inherited, ante...)
			if c.hasObjectPronoun() {
				c.inherited = append(c.inherited, prev.subject...)
				c.context = append(c.context, prev.subject...)
			}
			prev = c
			continue
		}
		if prev != nil {
			head := append(append([]string{}, prev.subject...), prev.inherited...)
			switch {
			case c.speaker:
			case c.verb < 0:
				if prev.headVerb != "" {
					head = append(head, prev.headVerb)
					c.headVerb = prev.headVerb
				}
				c.inherited = head
				c.context = append(append([]string{}, prev.own...), prev.context...)
			case len(c.subject) == 0:
				c.inherited = head
			}
			if c.hasObjectPronoun() {
				c.inherited = append(c.inherited, prev.right...)
				c.inherited = append(c.inherited, prev.subject...)
				c.context = append(c.context, prev.right...)
			}
			// "needs X or Y": Y is what happens without X
			if c.marker == "or" && (containsTerm([]string{prev.verbTerm}, lemma("need")) || prev.has("must") || prev.has("require") || prev.has("requires")) {
				s.counterNeg = append(s.counterNeg, prev.right...)
			}
		}
		prev = c
	}
}

// hasValue reports whether the conjunct has the number "#value".
func (c *conj) hasValue(key string) bool {
	for _, k := range c.toks {
		if t := c.s.d.toks[k]; t.kind == tkNumber && "#"+t.value == key {
			return true
		}
	}
	return false
}

// hasNumber reports whether the conjunct has a number.
func (c *conj) hasNumber() bool {
	for _, k := range c.toks {
		if c.s.d.toks[k].kind == tkNumber {
			return true
		}
	}
	return false
}

// firstNouns are the terms before the first verb-like word ("A Worker hit
// the limit": worker).
func (c *conj) firstNouns() []string {
	var out []string
	for _, k := range c.toks {
		t := c.s.d.toks[k]
		if t.term == "" {
			continue
		}
		if verbLemmas[t.term] || irregular[t.lower] != "" {
			break
		}
		out = append(out, t.term)
	}
	return out
}

// tail is the conjunct's terms after its last comma (all of them when it
// has none).
func (c *conj) tail() map[string]bool {
	toks := c.s.d.toks
	from := 0
	for j, k := range c.toks {
		if toks[k].raw == "," {
			from = j + 1
		}
	}
	m := map[string]bool{}
	for _, k := range c.toks[from:] {
		if t := toks[k].term; t != "" {
			m[t] = true
		}
	}
	if len(m) == 0 {
		return setOf(c.own)
	}
	return m
}

// has reports whether the conjunct has the word w.
func (c *conj) has(w string) bool {
	for _, k := range c.toks {
		if c.s.d.toks[k].lower == w {
			return true
		}
	}
	return false
}

// readFromTo finds "from X to Y" in the conjunct, and the same change
// said with a verb of replacing: "swapped X for Y", "replaced X with Y",
// "X was replaced by Y", "Y replaces X".
func (c *conj) readFromTo() {
	toks := c.s.d.toks
	side := 0
	// toWord is the word that opens the "to" side: "to", or "for" after
	// a verb of swapping, "with" or "by" after a verb of replacing
	toWord := map[string]bool{}
	replaceAt := -1 // the position in c.toks of "replace(s|d)" with no "with" or "by" yet
	for i, k := range c.toks {
		t := toks[k]
		switch {
		case t.isWord("from") || swapVerbs[t.lower] || replaceVerbs[t.lower] || renameVerbs[t.lower]:
			side = 1
			c.fromSide, c.toSide = map[string]bool{}, map[string]bool{}
			switch {
			case t.isWord("from"):
				toWord = map[string]bool{"to": true}
			case renameVerbs[t.lower]:
				// "renamed X to Y"; "X was renamed to Y": X is the subject
				toWord = map[string]bool{"to": true}
				if i > 0 && beForms[toks[c.toks[i-1]].lower] {
					for _, kk := range c.toks[:i-1] {
						if tt := toks[kk]; tt.term != "" {
							c.fromSide[tt.term] = true
						}
					}
				}
			case swapVerbs[t.lower]:
				toWord = map[string]bool{"for": true}
			default:
				toWord = map[string]bool{"with": true, "by": true}
				replaceAt = i
				if i > 0 && beForms[toks[c.toks[i-1]].lower] {
					// "X was replaced by Y": X is the subject
					for _, kk := range c.toks[:i-1] {
						if tt := toks[kk]; tt.term != "" {
							c.fromSide[tt.term] = true
						}
					}
					side = 2
					replaceAt = -1
					toWord = nil
				}
			}
			continue
		case side == 1 && toWord[t.lower]:
			side, replaceAt = 2, -1
			continue
		case side == 2 && toWord == nil && t.isWord("by"):
			toWord = map[string]bool{} // the side after "was replaced by" starts here
			c.toSide = map[string]bool{}
			continue
		case t.kind == tkPunct:
			if side == 2 {
				side = 0
			}
			continue
		}
		term := t.term
		if t.kind == tkNumber {
			term = "#" + t.value // "from 1 in 10 reloads to 1 in 40"
		}
		if term == "" {
			continue
		}
		switch side {
		case 1:
			c.fromSide[term] = true
		case 2:
			if toWord != nil {
				c.toSide[term] = true
			}
		}
	}
	if c.fromSide == nil {
		// "52 min → 19 min" (the arrow read as "to"): two numbers
		for j, k := range c.toks {
			if toks[k].kind != tkNumber {
				continue
			}
			n := j + 1
			for n < len(c.toks) && toks[c.toks[n]].unitWord {
				n++
			}
			if n+1 < len(c.toks) && toks[c.toks[n]].isWord("to") && toks[c.toks[n+1]].kind == tkNumber {
				c.fromSide = map[string]bool{"#" + toks[k].value: true}
				c.toSide = map[string]bool{"#" + toks[c.toks[n+1]].value: true}
				break
			}
		}
	}
	if replaceAt >= 0 {
		// "Y replaces X": the subject is the new side, the object the old
		c.fromSide, c.toSide = map[string]bool{}, map[string]bool{}
		for i, k := range c.toks {
			if t := toks[k]; t.term != "" && i != replaceAt {
				if i < replaceAt {
					c.toSide[t.term] = true
				} else {
					c.fromSide[t.term] = true
				}
			}
		}
	}
	if len(c.toSide) == 0 || len(c.fromSide) == 0 && replaceAt >= 0 {
		c.fromSide, c.toSide = nil, nil
	}
}

// swapVerbs give up the thing after them for the thing after "for"
// ("swapped encoding/json for protojson").
var swapVerbs = words("swap swaps swapped swapping exchange exchanges exchanged exchanging trade trades traded trading")

// replaceVerbs give up the thing after them for the thing after "with"
// or "by" ("replaced the cron job with a queue worker").
var replaceVerbs = words("replace replaces replaced replacing")

func (c *conj) hasObjectPronoun() bool {
	toks := c.s.d.toks
	for _, k := range c.toks {
		if k > c.verb && c.verb >= 0 && (toks[k].isWord("them") || toks[k].isWord("it")) {
			return true
		}
	}
	return false
}

// negatedWord reports whether the conjunct so far has a negation word.
func (c *conj) negatedWord() bool {
	for _, k := range c.toks {
		if negationWords[c.s.d.toks[k].lower] {
			return true
		}
	}
	return false
}
