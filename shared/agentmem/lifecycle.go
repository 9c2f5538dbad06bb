package agentmem

import (
	"strconv"
	"time"
)

// Lifecycle rules (seed 003: LRU eviction, critical patterns, manual
// cleanup) and search bounds.
const (
	// DefaultMemoryLimit is how many memories a scope keeps before the
	// least recently accessed are evicted.
	DefaultMemoryLimit = 1000
	// CriticalConfidence is the confidence from which a pattern is
	// critical: eviction never removes it.
	CriticalConfidence = 0.9
	// MaxAge bounds olderThan: a hundred years.
	MaxAge = 100 * 365 * 24 * time.Hour

	DefaultSearchLimit = 10
	MaxSearchLimit     = 50
	// DefaultSuggestLimit is how many patterns a suggestion (and the
	// bootstrap route's task suggestions) returns unless asked otherwise.
	DefaultSuggestLimit = 5

	// DefaultScopesPage and MaxScopesPage are the page sizes of the
	// scopes GET /api/stats lists.
	DefaultScopesPage = 100
	MaxScopesPage     = 1000

	// DefaultDreamsPage is the page size of the dream diary's listing
	// (at most MaxListLimit).
	DefaultDreamsPage = 20
	// MaxQueryBytes bounds a search query or a task description.
	MaxQueryBytes = 2 << 10
)

// Protected reports whether eviction must keep m: it is pinned, or it is a
// critical pattern (confidence at least CriticalConfidence).
func (m Memory) Protected() bool {
	return m.Pinned || m.Type == TypePattern && m.Confidence != nil && *m.Confidence >= CriticalConfidence
}

// LastUsed is when m was last used: read by a search or suggestion,
// changed by a person or a program (an edit, a restore), or created,
// whichever came last: the order eviction follows (least recently used
// first).
func (m Memory) LastUsed() string {
	return max(m.LastAccessedAt, m.UpdatedAt, m.CreatedAt)
}

// ParseAge parses the olderThan of a forget request: a whole number of
// hours, days or weeks ("12h", "30d", "2w"), at least 1 and at most MaxAge.
// Any other form (minutes, fractions, signs, spaces, upper case, Go
// durations) is an EInvalid error that says what is accepted.
func ParseAge(s string) (time.Duration, error) {
	bad := func() (time.Duration, error) {
		return 0, Errorf(EInvalid, "olderThan %q must be a whole number followed by h, d or w (hours, days, weeks), e.g. 12h, 30d or 2w", s)
	}
	if len(s) < 2 || len(s) > 12 {
		return bad()
	}
	var unit time.Duration
	switch s[len(s)-1] {
	case 'h':
		unit = time.Hour
	case 'd':
		unit = 24 * time.Hour
	case 'w':
		unit = 7 * 24 * time.Hour
	default:
		return bad()
	}
	digits := s[:len(s)-1]
	for _, c := range digits {
		if c < '0' || c > '9' {
			return bad()
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return bad()
	}
	if n < 1 {
		return 0, Errorf(EInvalid, "olderThan %q must be at least 1%c", s, s[len(s)-1])
	}
	if n > int64(MaxAge/unit) {
		return 0, Errorf(EInvalid, "olderThan %q is more than a hundred years", s)
	}
	return time.Duration(n) * unit, nil
}
