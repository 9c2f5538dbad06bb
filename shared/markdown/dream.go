package markdown

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// DreamDiary renders one day of a scope's dream diary, like seed 001's
// memory/dreams/YYYY-MM-DD.md: "# Dream Diary: YYYY-MM-DD", then one
// section per dream or revert of that day, oldest first, with the dream's
// own account, what it changed in the core and the bullets the
// fabrication guard refused. It returns "" when there is nothing.
func DreamDiary(date string, dreams []agentmem.Dream) string {
	if len(dreams) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Dream Diary: %s\n", date)
	for _, d := range dreams {
		b.WriteByte('\n')
		writeDream(&b, d)
	}
	return b.String()
}

func writeDream(b *strings.Builder, d agentmem.Dream) {
	kind := "Dream"
	if d.Kind == agentmem.DreamKindRevert {
		kind = "Revert"
	}
	fmt.Fprintf(b, "## %s (%s) — %s\n", kind, clock(d.StartedAt), d.Status)
	fmt.Fprintf(b, "Id `%s`", d.ID)
	if d.Trigger != "" {
		fmt.Fprintf(b, ", triggered by %s", d.Trigger)
	}
	if d.Model != "" {
		fmt.Fprintf(b, ", model %s", d.Model)
	}
	b.WriteString(".\n")
	switch {
	case d.Kind == agentmem.DreamKindRevert:
		fmt.Fprintf(b, "\nRestored the core as it was before dream `%s`: %d memories put back, %d retired.\n", d.RevertOf, d.Created, d.Deleted)
		for _, n := range d.Notes {
			fmt.Fprintf(b, "- %s\n", oneLine(n))
		}
		return
	case d.Status == agentmem.DreamFailed:
		fmt.Fprintf(b, "\nThe dream failed; nothing changed. %s\n", oneLine(d.Error))
	}
	if d.Records > 0 {
		fmt.Fprintf(b, "\nConsolidated %d daily records from %s to %s", d.Records, dayOf(d.WindowFrom), lastDay(d.WindowTo))
		if d.RecordsLeftOut > 0 {
			fmt.Fprintf(b, " (the %d oldest did not fit in the prompt)", d.RecordsLeftOut)
		}
		b.WriteString(".\n")
	}
	if text := strings.Trim(SafeText(d.Diary), "\n"); text != "" {
		b.WriteString("\n" + text + "\n")
	}
	if d.Status != agentmem.DreamFailed {
		b.WriteString("\n### Core changes\n")
		fmt.Fprintf(b, "- %d memories added, %d updated, %d retired, %d removed, %d unchanged, %d kept as they were (pinned or manual)\n",
			d.Created, d.Updated, d.Retired, d.Deleted, d.Unchanged, d.Kept)
		if d.Compressed > 0 {
			fmt.Fprintf(b, "- %d old memories compressed\n", d.Compressed)
		}
		if d.Status == agentmem.DreamReverted {
			fmt.Fprintf(b, "- reverted by `%s`\n", d.RevertedBy)
		}
		for _, op := range d.Operations {
			verb := map[string]string{agentmem.OpAdd: "added", agentmem.OpUpdate: "updated", agentmem.OpRetire: "retired"}[op.Op]
			fmt.Fprintf(b, "- %s `%s` (%s", verb, op.MemoryID, Heading(op.Type))
			if op.Rule != "" {
				fmt.Fprintf(b, ", %s", op.Rule)
			}
			b.WriteString("): ")
			if op.Before != "" {
				fmt.Fprintf(b, "%s → ", oneLine(SafeLine(op.Before)))
			}
			b.WriteString(oneLine(SafeLine(op.Content)))
			if op.Restated != "" {
				fmt.Fprintf(b, " (restated in the sources' words; the model wrote: %s)", oneLine(SafeLine(op.Restated)))
			}
			writeCites(b, op.Citations)
			b.WriteString("\n")
		}
	}
	if d.Usage != nil && d.Usage.Calls > 0 {
		fmt.Fprintf(b, "\nModel calls: %d, %d input and %d output tokens", d.Usage.Calls, d.Usage.InputTokens, d.Usage.OutputTokens)
		if d.Usage.Retries > 0 {
			fmt.Fprintf(b, " (%d answers cut off and asked again smaller)", d.Usage.Retries)
		}
		b.WriteString(".\n")
	}
	if v := d.Verifier; v != nil && v.Status != agentmem.VerifierOff {
		fmt.Fprintf(b, "Verifier: %s, %d changes checked, %d refused, %d calls, %d input and %d output tokens", v.Status, v.Checked, v.Dropped, v.Usage.Calls, v.Usage.InputTokens, v.Usage.OutputTokens)
		if v.Error != "" {
			fmt.Fprintf(b, "; %s", oneLine(v.Error))
		}
		b.WriteString(".\n")
	}
	if x := d.Restate; x != nil && x.Status != agentmem.RestateOff {
		fmt.Fprintf(b, "Restate: %s, %d refused claims asked, %d restated, %d dropped by the model, %d calls, %d input and %d output tokens", x.Status, x.Asked, x.Restated, x.Declined, x.Usage.Calls, x.Usage.InputTokens, x.Usage.OutputTokens)
		if x.Error != "" {
			fmt.Fprintf(b, "; %s", oneLine(x.Error))
		}
		b.WriteString(".\n")
	}
	if len(d.Dropped) > 0 {
		b.WriteString("\n### Dropped (refused operations, with the reason)\n")
		for _, x := range d.Dropped {
			b.WriteString("- ")
			if x.Op != "" {
				b.WriteString(x.Op + " ")
			}
			if x.MemoryID != "" {
				fmt.Fprintf(b, "`%s` ", x.MemoryID)
			}
			fmt.Fprintf(b, "%s: %s", Heading(x.Type), oneLine(SafeLine(x.Content)))
			reason := x.Reason
			if x.Class != "" {
				reason = x.Class + ": " + reason
			}
			fmt.Fprintf(b, " (%s", oneLine(reason))
			if x.Support > 0 {
				fmt.Fprintf(b, "; support %s", strconv.FormatFloat(x.Support, 'f', 2, 64))
			}
			if len(x.Missing) > 0 {
				fmt.Fprintf(b, "; not in the sources: %s", oneLine(strings.Join(x.Missing, ", ")))
			}
			b.WriteString(")")
			writeCites(b, x.Citations)
			b.WriteString("\n")
		}
	}
	if len(d.Notes) > 0 {
		b.WriteString("\n### Notes\n")
		for _, n := range d.Notes {
			fmt.Fprintf(b, "- %s\n", oneLine(n))
		}
	}
}

// writeCites writes a change's citations.
func writeCites(b *strings.Builder, ids []string) {
	if len(ids) == 0 {
		return
	}
	b.WriteString(" — cites ")
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "`%s`", id)
	}
}

// lastDay is the last day of a window whose end (exclusive) is ts.
func lastDay(ts string) string {
	if t, err := agentmem.ParseTime(ts); err == nil {
		return t.Add(-time.Nanosecond).UTC().Format(agentmem.DateLayout)
	}
	return dayOf(ts)
}

func dayOf(ts string) string {
	if len(ts) >= len(agentmem.DateLayout) {
		return ts[:len(agentmem.DateLayout)]
	}
	return ts
}
