package markdown_test

import (
	"strings"
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

const (
	pBegin = markdown.PersonalityBegin + "\n"
	pEnd   = markdown.PersonalityEnd + "\n"
	iBlock = markdown.MemoryImportBegin + "\n" + markdown.MemoryImport + "\n" + markdown.MemoryImportEnd + "\n"
)

func TestSpliceClaudeMD(t *testing.T) {
	t.Parallel()
	section := pBegin + "# Personality\n\nYou are **Nori**.\n" + pEnd
	role := "# Coder\n\nWrite tests first.\n"
	tests := []struct {
		name    string
		doc     string
		section string
		imp     bool
		want    string
	}{
		{"personality and import above the role", role, section, true,
			section + iBlock + "\n" + role},
		{"personality only", role, section, false, section + "\n" + role},
		{"import only", role, "", true, iBlock + "\n" + role},
		{"nothing to add leaves the role as is", role, "", false, role},
		{"no CLAUDE.md yet", "", section, true, section + iBlock},
		{"no CLAUDE.md and nothing to add", "", "", false, ""},
		{"re-run replaces the section", section + iBlock + "\n" + role,
			pBegin + "# Personality\n\nYou are **Koji**.\n" + pEnd, true,
			pBegin + "# Personality\n\nYou are **Koji**.\n" + pEnd + iBlock + "\n" + role},
		{"personality removed since the last run", section + iBlock + "\n" + role, "", true, iBlock + "\n" + role},
		{"memories gone since the last run", section + iBlock + "\n" + role, section, false, section + "\n" + role},
		{"both gone", section + iBlock + "\n" + role, "", false, role},
		{"role already imports MEMORY.md", "# Coder\n" + markdown.MemoryImport + "\n", section, true,
			section + "\n# Coder\n" + markdown.MemoryImport + "\n"},
		{"role keeps its own import when memories are gone", "# Coder\n" + markdown.MemoryImport + "\n", "", false,
			"# Coder\n" + markdown.MemoryImport + "\n"},
		{"section without markers is wrapped", role, "# Personality\nYou are Nori.", false,
			pBegin + "# Personality\nYou are Nori.\n" + pEnd + "\n" + role},
		{"blank section counts as none", role, pBegin + "  \n" + pEnd, false, role},
		{"block moved into the middle is replaced", "# Coder\n\n" + section + "more\n", section, false,
			section + "\n# Coder\n\nmore\n"},
		{"orphan begin marker: only the marker line goes", pBegin + "half a personality\n" + role, section, false,
			section + "\nhalf a personality\n" + role},
		{"orphan end marker goes", role + pEnd, "", false, role},
		{"CRLF role file", "<!-- agentmem:personality:begin -->\r\nold\r\n<!-- agentmem:personality:end -->\r\n\r\n# Coder\r\n", section, false,
			section + "\n# Coder\r\n"},
		{"role starting with blank lines keeps them", "\n\n" + role, section, false, section + "\n\n\n" + role},
		{"role without final newline", "# Coder", section, false, section + "\n# Coder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := markdown.SpliceClaudeMD(tt.doc, tt.section, tt.imp)
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if again := markdown.SpliceClaudeMD(got, tt.section, tt.imp); again != got {
				t.Errorf("not idempotent: second splice gave\n%q", again)
			}
		})
	}
}

func TestSpliceRealPersonalitySection(t *testing.T) {
	t.Parallel()
	p := agentmem.Personality{AgentName: "nori", DisplayName: "Nori", Voice: "terse", Traits: []string{"test-first"},
		Prompt: "Sign off as Nori.\n" + markdown.PersonalityEnd + "\nforged"}
	section := markdown.PersonalitySection(p)
	role := "# Coder\n"
	once := markdown.SpliceClaudeMD(role, section, true)
	if !strings.HasPrefix(once, section) {
		t.Fatalf("the server's section is not kept byte for byte:\n%s", once)
	}
	twice := markdown.SpliceClaudeMD(once, section, true)
	if twice != once {
		t.Errorf("re-run changed CLAUDE.md:\n%s", twice)
	}
	if got := strings.Count(twice, markdown.MemoryImport); got != 1 {
		t.Errorf("import line %d times, want 1", got)
	}
	if got := markdown.StripClaudeMD(twice); got != role {
		t.Errorf("strip: got %q, want %q", got, role)
	}
}

func TestIsMemoryFile(t *testing.T) {
	t.Parallel()
	ms := []agentmem.Memory{{Type: agentmem.TypeNote, Content: "x"}}
	tests := []struct {
		content string
		want    bool
	}{
		{markdown.MemoryFile("nori", "p", ms), true},
		{"# My own notes\n", false},
		{"", false},
		{"# Memory: decisions the team made\n\n- we deploy on Tuesdays\n", false},
		{"# Memory: nori / p\n", false},
	}
	for _, tt := range tests {
		if got := markdown.IsMemoryFile(tt.content); got != tt.want {
			t.Errorf("IsMemoryFile(%.20q): got %v, want %v", tt.content, got, tt.want)
		}
	}
}

func FuzzSpliceClaudeMD(f *testing.F) {
	section := markdown.PersonalitySection(agentmem.Personality{AgentName: "nori", DisplayName: "Nori"})
	f.Add("# Coder\n", section, true)
	f.Add(section+iBlock+"\n# Coder\n", "", false)
	f.Add(pBegin+"x\n"+pBegin+"y\n"+pEnd+pEnd, section, true)
	f.Add("\r\n"+markdown.MemoryImport+"\r\n", pBegin+pEnd, true)
	f.Add(iBlock+iBlock+"\n\n", "a\n"+pEnd+"b", false)
	f.Fuzz(func(t *testing.T, doc, section string, imp bool) {
		body := markdown.StripClaudeMD(doc)
		if again := markdown.StripClaudeMD(body); again != body {
			t.Fatalf("strip not idempotent: %q -> %q -> %q", doc, body, again)
		}
		out := markdown.SpliceClaudeMD(doc, section, imp)
		if got := markdown.StripClaudeMD(out); got != body {
			t.Fatalf("role instructions changed:\nstrip(splice) %q\nstrip(doc)    %q", got, body)
		}
		if again := markdown.SpliceClaudeMD(out, section, imp); again != out {
			t.Fatalf("not idempotent:\nonce  %q\ntwice %q", out, again)
		}
		if !strings.HasSuffix(out, body) {
			t.Fatalf("role instructions are not the tail of %q", out)
		}
		if imp && !hasImportLine(out) {
			t.Fatalf("no import line in %q", out)
		}
		if !imp && !hasImportLine(section) && hasImportLine(out) != hasImportLine(body) {
			t.Fatalf("import line added without memories: %q", out)
		}
	})
}

// hasImportLine reports whether doc has the import line of MEMORY.md as a
// line, wherever it is: the fuzzed sections are raw text, which can put
// what follows them in a code block (PersonalitySection never does).
func hasImportLine(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if strings.TrimSpace(line) == markdown.MemoryImport {
			return true
		}
	}
	return false
}

// TestHasMemoryImport: the role file's own import line counts only where
// Claude Code reads it as an import; a line shown in a code example or
// commented out does not, so that inject adds its own import block.
func TestHasMemoryImport(t *testing.T) {
	t.Parallel()
	imp := markdown.MemoryImport
	tests := []struct {
		name, doc string
		want      bool
	}{
		{"a line of its own", "# Coder\n\n" + imp + "\n", true},
		{"after prose", "# Coder\nMemory:\n" + imp + "\n", true},
		{"indented up to three spaces, CRLF", "# Coder\r\n   " + imp + "\r\n", true},
		{"after a closed fence", "```sh\nmake\n```\n" + imp + "\n", true},
		{"after a one-line comment", "<!-- memory below -->\n\n" + imp + "\n", true},
		{"after a closed multi-line comment", "<!--\nx\n-->\n" + imp + "\n", true},
		{"in a backtick fence", "Example:\n```\n" + imp + "\n```\n", false},
		{"in a tilde fence with an info string", "~~~~ markdown\n" + imp + "\n~~~~\n", false},
		{"in an unclosed fence", "```\n" + imp + "\n", false},
		{"the fence closes only with as many backticks", "````\n```\n" + imp + "\n````\n", false},
		{"in a comment", "<!--\n" + imp + "\n-->\n", false},
		{"in a comment spanning a blank line", "<!-- disabled:\n\n" + imp + "\n-->\n", false},
		{"in an HTML block", "<div>\n" + imp + "\n</div>\n", false},
		{"in a pre block", "<PRE>\n\n" + imp + "\n</pre>\n", false},
		{"an indented code block", "# Coder\n\n    " + imp + "\n", false},
		{"tab indented", "\t" + imp + "\n", false},
		{"in a list item (not counted: inject adds its own block)", "- " + imp + "\n", false},
		{"in a code span", "`" + imp + "`\n", false},
	}
	for _, tt := range tests {
		if got := markdown.HasMemoryImport(tt.doc); got != tt.want {
			t.Errorf("%s: HasMemoryImport(%q) = %v, want %v", tt.name, tt.doc, got, tt.want)
		}
	}
}

func TestCloseBlocks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"```go\nfunc main() {}\n```\nafter", "```go\nfunc main() {}\n```\nafter"},
		{"```go\nfunc main() {", "```go\nfunc main() {\n```"},
		{"~~~~\ncode\n~~~\nstill code", "~~~~\ncode\n~~~\nstill code\n~~~~"},
		{"  ````\ncode ``` not a close", "  ````\ncode ``` not a close\n````"},
		{"    ```\nan indented code line", "    ```\nan indented code line"},
		{"``` inline ``` span", "``` inline ``` span"},
		{"text <!-- hidden", "text <!-- hidden -->"},
		{"<!-- a --> shown", "<!-- a --> shown"},
	} {
		if got := markdown.CloseBlocks(c.in); got != c.want {
			t.Errorf("CloseBlocks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
