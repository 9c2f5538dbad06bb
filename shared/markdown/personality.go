package markdown

import (
	"strings"

	"github.com/agentmem/agentmem/shared/agentmem"
)

// The personality section of CLAUDE.md sits between these two lines, so
// that re-running inject replaces it instead of adding another.
const (
	PersonalityBegin = "<!-- agentmem:personality:begin -->"
	PersonalityEnd   = "<!-- agentmem:personality:end -->"
)

// MemoryImport is the line that makes CLAUDE.md import MEMORY.md.
const MemoryImport = "@.claude/memory/MEMORY.md"

// PersonalitySection renders the delimited "# Personality" section that is
// prepended to CLAUDE.md (seed 002 decision 3). Every stored field goes
// through SafeLine or SafeText: the section cannot import a file, forge or
// hide its end marker, or open a code fence, comment or HTML block that
// would swallow the memory import and the role instructions after it.
func PersonalitySection(p agentmem.Personality) string {
	var b strings.Builder
	b.WriteString(PersonalityBegin + "\n# Personality\n\n")
	name := oneLine(p.DisplayName)
	if name == "" {
		name = oneLine(p.AgentName)
	}
	b.WriteString("You are **" + name + "**.")
	if voice := oneLine(p.Voice); voice != "" {
		b.WriteString(" Voice: " + voice + ".")
	}
	b.WriteByte('\n')
	var traits []string
	for _, t := range p.Traits {
		if t := oneLine(t); t != "" {
			traits = append(traits, t)
		}
	}
	if len(traits) > 0 {
		b.WriteString("\nTraits:\n")
		for _, t := range traits {
			b.WriteString("- " + t + "\n")
		}
	}
	if p.Prompt != "" {
		if prompt := strings.Trim(SafeText(p.Prompt), "\n"); prompt != "" {
			b.WriteString("\n" + prompt + "\n")
		}
	}
	b.WriteString("\nThe role instructions below take precedence over this section for anything about how to do the work.\n")
	b.WriteString(PersonalityEnd + "\n")
	return b.String()
}

// oneLine renders stored text on one inert line (SafeLine).
func oneLine(s string) string { return SafeLine(s) }
