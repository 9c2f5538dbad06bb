package search

// collector keeps the best k hits of a stream (all of them when k <= 0)
// in a bounded min-heap, so that ranking 10,000 documents for a top 100
// does not sort all 10,000.
type collector struct {
	k    int
	hits []Hit
}

func newCollector(k int) *collector { return &collector{k: k} }

// worse reports whether a ranks below b: lower score, or equal score and
// greater ID.
func worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

func (c *collector) add(h Hit) {
	if c.k <= 0 {
		c.hits = append(c.hits, h)
		return
	}
	if len(c.hits) < c.k {
		c.hits = append(c.hits, h)
		c.up(len(c.hits) - 1)
		return
	}
	if worse(c.hits[0], h) {
		c.hits[0] = h
		c.down(0)
	}
}

func (c *collector) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(c.hits[i], c.hits[p]) {
			return
		}
		c.hits[i], c.hits[p] = c.hits[p], c.hits[i]
		i = p
	}
}

func (c *collector) down(i int) {
	n := len(c.hits)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && worse(c.hits[r], c.hits[l]) {
			m = r
		}
		if !worse(c.hits[m], c.hits[i]) {
			return
		}
		c.hits[i], c.hits[m] = c.hits[m], c.hits[i]
		i = m
	}
}

// result returns the collected hits, best first.
func (c *collector) result() []Hit {
	if len(c.hits) == 0 {
		return nil
	}
	sortHits(c.hits)
	return c.hits
}
