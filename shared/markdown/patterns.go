package markdown

import (
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// suggestedPatternsHeading is the title of the section SuggestedPatterns
// writes.
const suggestedPatternsHeading = "Suggested patterns"

// maxTaskEcho bounds how much of the task description the suggested
// patterns section repeats.
const maxTaskEcho = 200

// SuggestedPatterns renders the "## Suggested patterns" section that
// `agentmem inject --task` appends to MEMORY.md: the patterns relevant to
// the task, most relevant first, each as in the "## Patterns" section. It
// returns "" for no patterns.
func SuggestedPatterns(task string, patterns []agentmem.Memory) string {
	if len(patterns) == 0 {
		return ""
	}
	echo := strings.Join(strings.Fields(task), " ")
	if r := []rune(echo); len(r) > maxTaskEcho {
		echo = string(r[:maxTaskEcho]) + "…"
	}
	echo = SafeLine(echo)
	var b strings.Builder
	b.WriteString("\n## " + suggestedPatternsHeading + "\n")
	b.WriteString("High-confidence patterns from earlier runs that match the current task (\"" + echo + "\"), most relevant first.\n")
	for _, m := range patterns {
		b.WriteString("- ")
		b.WriteString(Bullet(m))
		b.WriteByte('\n')
	}
	return b.String()
}
