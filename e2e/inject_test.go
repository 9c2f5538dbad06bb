package e2e_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/e2e/anthropictest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

// TestRoleFilesOwnImportLine: whatever the role file does with the import
// line (shows it in an example, comments it out, has it, has it in a list
// item), after inject Claude Code loads MEMORY.md, and once.
func TestRoleFilesOwnImportLine(t *testing.T) {
	t.Parallel()
	imp := markdown.MemoryImport
	roles := map[string]string{
		"in a fenced example":  "# Coder\n\nagentmem adds this line:\n\n```\n" + imp + "\n```\n",
		"commented out":        "# Coder\n\n<!--\n" + imp + "\n-->\n",
		"in an indented block": "# Coder\n\n    " + imp + "\n",
		"a line of its own":    "# Coder\n\n" + imp + "\n",
		"in a list item":       "# Coder\n\n- " + imp + "\n",
	}
	for name, role := range roles {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, anthropictest.Say("ok"))
			e.memory(agentmem.MemoryInput{Content: "E2E-ONCE the webhook retries 3 times"})
			write(t, filepath.Join(e.workspace, "CLAUDE.md"), role)
			e.agentmem("inject", "--workspace", e.workspace)
			e.claude("hello")
			if got, want := e.loaded(), []string{".claude/memory/MEMORY.md", "CLAUDE.md"}; !slices.Equal(got, want) {
				t.Errorf("Claude Code loaded %q, want %q; CLAUDE.md:\n%s", got, want, read(t, filepath.Join(e.workspace, "CLAUDE.md")))
			}
			if n := strings.Count(e.firstText(), "E2E-ONCE"); n != 1 {
				t.Errorf("the memory reached the model %d times, want once", n)
			}
		})
	}
}
