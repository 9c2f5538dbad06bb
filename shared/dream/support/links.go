package support

// The links between clauses of a sentence: which is the cause of which,
// what fixed what.

// buildLinks records the causal links the sentence states.
func (s *sent) buildLinks() {
	defer func() {
		for i := range s.links {
			l := &s.links[i]
			l.scope = map[string]bool{}
			for t := range s.terms {
				if !l.cause[t] {
					l.scope[t] = true
				}
			}
		}
	}()
	if s.d.source {
		s.fixedLink()
	}
	for i, c := range s.conjs {
		switch c.role {
		case roleCause:
			cause := setOf(c.own)
			// "because they start SQL Server and the Service Bus emulator":
			// in a source, a coordinated part with no verb of its own is
			// the cause's too
			for _, n := range s.conjs[i+1:] {
				if !s.d.source {
					break
				}
				if n.role != rolePlain || n.verb >= 0 || (n.marker != "and" && n.marker != "or") {
					break
				}
				addAll(cause, setOf(n.own))
			}
			effect := map[string]bool{}
			// what a cause explains: the clause right before it (from its
			// last comma: "X, using Y since Z" explains using Y)
			for j := i - 1; j >= 0; j-- {
				if s.conjs[j].role == roleCause || s.conjs[j].role == roleParen {
					continue
				}
				addAll(effect, s.conjs[j].tail())
				if len(effect) == 0 {
					for _, t := range s.conjs[j].inherited {
						effect[t] = true
					}
				}
				break
			}
			if len(effect) == 0 {
				for j := i + 1; j < len(s.conjs); j++ {
					addAll(effect, s.conjs[j].effective())
				}
			}
			s.links = append(s.links, link{cause: cause, effect: effect, why: c.marker == "(" || c.why, hedged: c.hedged})
		case roleEffect:
			cause := map[string]bool{}
			for j := i - 1; j >= 0; j-- {
				addAll(cause, setOf(s.conjs[j].own))
				if m := s.conjs[j].marker; m == "but" || m == "however" || m == "although" || m == "though" || m == "yet" {
					break
				}
			}
			effect := map[string]bool{}
			for j := i; j < len(s.conjs); j++ {
				if j > i && s.conjs[j].role != rolePlain {
					break
				}
				addAll(effect, s.conjs[j].effective())
			}
			s.links = append(s.links, link{cause: cause, effect: effect, so: c.marker == "so"})
		}
		// "X causes Y", "X leads to Y"
		if c.verb >= 0 && causalVerb(s.d.toks, c.verb) {
			s.links = append(s.links, link{cause: setOf(c.left), effect: setOf(c.right), hedged: c.hedged})
		}
		// in a source, "X comes from Y" names a cause too
		if s.d.source {
			s.fromLinks(c)
		}
		// "the cause was X"
		if c.verb >= 0 && beForms[s.d.toks[c.verb].lower] && containsTerm(c.left, lemma("cause")) {
			s.rootCause = true
		}
	}
}

// fixedLink records a record's "Fixed the OTA rollback: the app never
// called X" as the explanation after the colon causing the problem
// before it, up to a semicolon or a consequence ("so ...").
func (s *sent) fixedLink() {
	if len(s.conjs) < 2 {
		return
	}
	toks := s.d.toks
	c0 := s.conjs[0]
	if len(c0.toks) < 2 || !fixedWords[toks[c0.toks[0]].lower] && !explainedWords[toks[c0.toks[0]].lower] {
		return
	}
	if end := c0.toks[len(c0.toks)-1] + 1; end >= s.to || toks[end].raw != ":" {
		return
	}
	effect := setOf(c0.own)
	delete(effect, toks[c0.toks[0]].term)
	cause := map[string]bool{}
	for j, c := range s.conjs[1:] {
		if j > 0 && (c.role != rolePlain || c.toks[0] > 0 && toks[c.toks[0]-1].raw == ";") {
			break
		}
		addAll(cause, setOf(c.own))
	}
	if len(effect) > 0 && len(cause) > 0 {
		s.links = append(s.links, link{cause: cause, effect: effect, fixed: true})
	}
}

// fixedWords start a record's sentence that names a problem solved.
var fixedWords = words("fixed resolved solved")

// explainedWords start a record's sentence that names a problem and,
// after a colon, what causes it ("Found the memory growth: a new client
// was created per upload").
var explainedWords = words("found traced diagnosed explained")

// fromLinks records "X comes (stems, results) from Y" as Y causing X.
func (s *sent) fromLinks(c *conj) {
	toks := s.d.toks
	for j := 0; j+1 < len(c.toks); j++ {
		w := toks[c.toks[j]].lower
		switch w {
		case "come", "comes", "came", "stem", "stems", "stemmed", "result", "results", "resulted":
		default:
			continue
		}
		if !toks[c.toks[j+1]].isWord("from") {
			continue
		}
		if j > 0 && (modalWords[toks[c.toks[j-1]].lower] || toks[c.toks[j-1]].isWord("to")) {
			continue // "data must come from the load functions": where it is taken from
		}
		effect, cause := map[string]bool{}, map[string]bool{}
		for i, k := range c.toks {
			if t := toks[k].term; t != "" {
				if i < j {
					effect[t] = true
				} else if i > j+1 {
					cause[t] = true
				}
			}
		}
		for _, t := range c.inherited {
			effect[t] = true
		}
		s.links = append(s.links, link{cause: cause, effect: effect})
		return
	}
}

func causalVerb(toks []token, k int) bool {
	switch toks[k].lower {
	case "causes", "caused", "cause", "leads", "led", "results", "resulted", "triggers", "triggered", "breaks", "broke":
		// "caused by" names the cause after it; "the alert triggers when
		// lag stays high", "the build broke on Monday": no object, no link
		return !(k+1 < len(toks) && (toks[k+1].isWord("by") || toks[k+1].kind == tkWord && timePrepositions[toks[k+1].lower]))
	}
	return false
}
