package transcript

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of the running summary: each line has its own budget, and the
// budgets add up to less than MaxSummaryBytes, so that a long first
// request cannot crowd out the last reply.
const (
	// MaxSummaryBytes bounds the whole summary (the daily log takes
	// records of up to 16 KiB; a summary is a digest, not a transcript).
	MaxSummaryBytes = 4 << 10

	maxHeadBytes    = 300
	maxCountBytes   = 120 // messages
	maxTokenBytes   = 250
	maxRequestBytes = 500  // the first request
	maxLaterBytes   = 600  // the later requests, together
	maxLater        = 5    // later requests shown (the last ones)
	maxToolBytes    = 400  // the tools line
	maxChangedBytes = 600  // the files changed line
	maxReadBytes    = 300  // the files read line
	maxReplyBytes   = 1000 // the last reply
)

// Summary is the session's running summary: a deterministic digest of
// what it was asked (the first request and the last few after it), what
// it did (tools, files changed and read, tool errors), what it cost
// (messages by role, tokens) and its last reply, one fact per line. Every
// line is bounded, and the whole is at most MaxSummaryBytes.
func (s *Session) Summary() string {
	var lines []string
	head := "Claude Code session"
	if s.ID != "" {
		head += " " + s.ID
	}
	if s.Cwd != "" {
		head += " in " + s.Cwd
	}
	if s.GitBranch != "" {
		head += " (branch " + s.GitBranch + ")"
	}
	if !s.Start.IsZero() {
		head += ", " + span(s.Start, s.End)
	}
	lines = append(lines, clip(head, maxHeadBytes-1)+".")

	m := s.Messages
	counts := fmt.Sprintf("Messages: %d user, %d assistant, %d tool result%s", m.User, m.Assistant, m.ToolResults, plural(m.ToolResults))
	if m.Subagent > 0 {
		counts += fmt.Sprintf(", %d from subagents", m.Subagent)
	}
	lines = append(lines, clip(counts+".", maxCountBytes))
	u := s.Usage
	tokens := fmt.Sprintf("Tokens: %s input, %s output, %s cache write, %s cache read",
		thousands(u.InputTokens), thousands(u.OutputTokens), thousands(u.CacheCreationInputTokens), thousands(u.CacheReadInputTokens))
	if len(s.Models) > 0 {
		tokens += " (" + strings.Join(s.Models, ", ") + ")"
	}
	lines = append(lines, clip(tokens, maxTokenBytes-1)+".")

	if len(s.Requests) > 0 {
		lines = append(lines, clip("Request: "+s.Requests[0], maxRequestBytes))
		if later := s.Requests[1:]; len(later) > 0 {
			var note string
			if len(later) > maxLater {
				note = fmt.Sprintf(" (and %d before them)", len(later)-maxLater)
				later = later[len(later)-maxLater:]
			}
			each := (maxLaterBytes - len("Then asked: ") - len(note)) / len(later)
			quoted := make([]string, len(later))
			for i, r := range later {
				quoted[i] = "“" + clip(r, each-len("“”; ")) + "”"
			}
			lines = append(lines, clip("Then asked: "+strings.Join(quoted, "; ")+note, maxLaterBytes))
		}
	}
	if len(s.Tools) > 0 {
		names := make([]string, len(s.Tools))
		for i, t := range s.Tools {
			names[i] = fmt.Sprintf("%s ×%d", clip(t.Name, 60), t.Count)
		}
		end := "."
		if s.ToolErrors > 0 {
			end = fmt.Sprintf(" (%d tool error%s).", s.ToolErrors, plural(s.ToolErrors))
		}
		lines = append(lines, "Tools: "+joinBounded(names, maxToolBytes-len("Tools: ")-len(end))+end)
	}
	if len(s.FilesChanged) > 0 {
		lines = append(lines, "Files changed: "+joinBounded(s.FilesChanged, maxChangedBytes-len("Files changed: .")-1)+".")
	}
	if len(s.FilesRead) > 0 {
		lines = append(lines, "Files read: "+joinBounded(s.FilesRead, maxReadBytes-len("Files read: .")-1)+".")
	}
	if s.LastReply != "" {
		lines = append(lines, clip("Last reply: "+s.LastReply, maxReplyBytes))
	}
	return clip(strings.Join(lines, "\n"), MaxSummaryBytes)
}

// joinBounded joins items with ", " in at most max bytes: the items that
// fit (each clipped to a third of max), then "and N more".
func joinBounded(items []string, max int) string {
	var b strings.Builder
	for i, it := range items {
		it = clip(it, max/3)
		more := ""
		if i+1 < len(items) {
			more = fmt.Sprintf(" and %d more", len(items)-i-1)
		}
		sep := ""
		if i > 0 {
			sep = ", "
		}
		if i > 0 && b.Len()+len(sep)+len(it)+len(more) > max {
			fmt.Fprintf(&b, " and %d more", len(items)-i)
			return b.String()
		}
		b.WriteString(sep + it)
	}
	return b.String()
}

// span renders the session's time span in UTC.
func span(start, end time.Time) string {
	s := start.UTC().Format("2006-01-02 15:04")
	switch {
	case end.IsZero() || end.Equal(start):
	case end.UTC().Format(time.DateOnly) == start.UTC().Format(time.DateOnly):
		s += " to " + end.UTC().Format("15:04")
	default:
		s += " to " + end.UTC().Format("2006-01-02 15:04")
	}
	return s + " UTC"
}

// clip cuts s to at most max bytes, at a word boundary when one is near,
// ending with "…" when it cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ellipsis = "…"
	cut := max - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexAny(s[:cut], " \n"); i > cut-40 && i > 0 {
		cut = i
	}
	return strings.TrimRight(s[:cut], " \n") + ellipsis
}

// thousands renders n with thin separators: 1,203,456.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
