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
// prepended to CLAUDE.md (seed 002 decision 3).
func PersonalitySection(p agentmem.Personality) string {
	var b strings.Builder
	b.WriteString(PersonalityBegin + "\n# Personality\n\n")
	name := p.DisplayName
	if name == "" {
		name = p.AgentName
	}
	b.WriteString("You are **" + oneLine(name) + "**.")
	if p.Voice != "" {
		b.WriteString(" Voice: " + oneLine(p.Voice) + ".")
	}
	b.WriteByte('\n')
	if len(p.Traits) > 0 {
		b.WriteString("\nTraits:\n")
		for _, t := range p.Traits {
			b.WriteString("- " + oneLine(t) + "\n")
		}
	}
	if p.Prompt != "" {
		b.WriteString("\n" + defuseMarkers(strings.TrimSpace(p.Prompt)) + "\n")
	}
	b.WriteString("\nThe role instructions below take precedence over this section for anything about how to do the work.\n")
	b.WriteString(PersonalityEnd + "\n")
	return b.String()
}

func oneLine(s string) string { return defuseMarkers(strings.Join(strings.Fields(s), " ")) }

// defuseMarkers keeps stored text from forging the section's delimiters,
// which would make the next inject cut CLAUDE.md in the wrong place.
func defuseMarkers(s string) string { return strings.ReplaceAll(s, "<!-- agentmem:", "<!-- agentmem-") }
