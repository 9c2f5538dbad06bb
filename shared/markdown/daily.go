package markdown

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// DailyFile renders one day of an agent's daily log as seed 001's
// memory/YYYY-MM-DD.md: "# Daily Memory: YYYY-MM-DD", then one
// "## <title> (HH:MM)" block per record, in time order (UTC). It returns
// "" for a day without records: the file does not exist yet. Titles and
// contents are written through SafeLine and SafeText, so a record cannot
// open a heading, fence or comment that changes the records after it.
func DailyFile(date string, records []agentmem.DailyRecord) string {
	if len(records) == 0 {
		return ""
	}
	records = slices.Clone(records)
	slices.SortStableFunc(records, func(a, b agentmem.DailyRecord) int { return strings.Compare(a.At, b.At) })
	var b strings.Builder
	fmt.Fprintf(&b, "# Daily Memory: %s\n", date)
	for _, r := range records {
		fmt.Fprintf(&b, "\n## %s (%s)\n%s\n", oneLine(r.Title), clock(r.At), strings.Trim(SafeText(r.Content), "\n"))
	}
	return b.String()
}

// clock returns the HH:MM of a stored timestamp.
func clock(ts string) string {
	if t, err := agentmem.ParseTime(ts); err == nil {
		return t.UTC().Format("15:04")
	}
	return "??:??"
}
