package agentmem

import (
	"strings"
	"time"
)

// Daily log limits. A record is a summary (a trimmed context, a run
// summary), not a transcript.
const (
	MaxDailyTitleBytes   = 200
	MaxDailyContentBytes = 16 << 10
	// MaxDailyFuture is how far ahead of the server's clock a record's
	// "at" may be (clock skew between an agent container and the API).
	MaxDailyFuture = 5 * time.Minute
	// MaxDailyAge is how far back a record may be dated (backfills).
	MaxDailyAge = 366 * 24 * time.Hour
)

// DateLayout is the layout of a day, "YYYY-MM-DD". Days are UTC days.
const DateLayout = "2006-01-02"

// DailyRecord is one entry of an agent's daily log in a project: the
// medium-term tier of memory. Records are append-only.
type DailyRecord struct {
	ID        string `json:"id" dynamo:"id"`
	AgentName string `json:"agentName" dynamo:"agentName"`
	ProjectID string `json:"projectId" dynamo:"projectId"`
	Title     string `json:"title" dynamo:"title"`
	Content   string `json:"content" dynamo:"content"`
	// At is when the record was written (or what it reports on), in
	// TimeLayout UTC; its date is the day the record belongs to.
	At string `json:"at" dynamo:"at"`
}

// Date returns the day of the record, "YYYY-MM-DD".
func (r DailyRecord) Date() string {
	if len(r.At) >= len(DateLayout) {
		return r.At[:len(DateLayout)]
	}
	return ""
}

// DailyInput is the body of POST .../daily.
type DailyInput struct {
	ProjectID string `json:"projectId"`
	Title     string `json:"title"`
	Content   string `json:"content"`
	// At is optional: any RFC 3339 time, at most MaxDailyFuture ahead and
	// MaxDailyAge behind the server's clock. Default: now.
	At string `json:"at,omitempty"`
	// ClientToken is an idempotency key (IdempotencyKey): a retry with
	// the same token and the same record gets the first answer back.
	ClientToken string `json:"clientToken,omitempty"`
}

// Normalize writes every line terminator of the title and the content as
// "\n" (NormalizeLineBreaks) and trims white space around them, so that
// Validate's single-line title rule sees every kind of line break.
func (in *DailyInput) Normalize() {
	in.Title = normalizeText(in.Title)
	in.Content = normalizeText(in.Content)
	in.At = strings.TrimSpace(in.At)
}

// Validate checks the input against the daily log's rules; now is the
// server's clock, against which "at" is bounded.
func (in *DailyInput) Validate(now time.Time) error {
	if err := ValidateProjectID(in.ProjectID); err != nil {
		return err
	}
	if err := validateText("title", in.Title, MaxDailyTitleBytes, true); err != nil {
		return err
	}
	if hasLineBreak(in.Title) {
		return Errorf(EInvalid, "title must be a single line")
	}
	if err := validateText("content", in.Content, MaxDailyContentBytes, true); err != nil {
		return err
	}
	if in.At != "" {
		at, err := ParseTime(in.At)
		if err != nil {
			return Errorf(EInvalid, "at %q is not an RFC 3339 time (e.g. 2026-11-22T14:30:00Z)", in.At)
		}
		if at.After(now.Add(MaxDailyFuture)) {
			return Errorf(EInvalid, "at %s is in the future", in.At)
		}
		if at.Before(now.Add(-MaxDailyAge)) {
			return Errorf(EInvalid, "at %s is more than %d days ago", in.At, int(MaxDailyAge.Hours()/24))
		}
	}
	if in.ClientToken != "" {
		return ValidateIdempotencyKey(in.ClientToken)
	}
	return nil
}

// Record returns the record the input describes for agentName; the store
// assigns the id, and "at" defaults to now.
func (in *DailyInput) Record(agentName string, now time.Time) DailyRecord {
	at := now
	if in.At != "" {
		if t, err := ParseTime(in.At); err == nil {
			at = t
		}
	}
	return DailyRecord{AgentName: agentName, ProjectID: in.ProjectID, Title: in.Title, Content: in.Content, At: FormatTime(at)}
}

// ParseDate parses a day, "YYYY-MM-DD", as midnight UTC.
func ParseDate(s string) (time.Time, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return time.Time{}, Errorf(EInvalid, "date %q is not a day of the form YYYY-MM-DD", s)
	}
	return t, nil
}

// Day returns midnight UTC of t's day.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
