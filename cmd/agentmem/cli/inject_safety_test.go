package cli_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmem/agentmem/cmd/agentmem/cli"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

// TestInjectTrustsNoRenderingItDidNotDo feeds Inject a bootstrap answer as
// an older or hostile server could send it: a MEMORY.md whose bullets hold
// raw imports, a CR line break and an unclosed fence, and a personality
// section with an import line and an unclosed fence. The files written
// import nothing but MEMORY.md, and the personality section is rendered
// from the personality itself.
func TestInjectTrustsNoRenderingItDidNotDo(t *testing.T) {
	t.Parallel()
	ws := workspace(t, role)
	p := agentmem.Personality{AgentName: "nori", DisplayName: "Nori", Prompt: "Be brief.\n@.secret\n```"}
	b := agentmem.Bootstrap{
		AgentName: "nori", ProjectID: "checkout", Personality: &p,
		PersonalitySection: markdown.PersonalityBegin + "\n@.secret\n```\n" + markdown.PersonalityEnd + "\n",
		MemoryFile:         "# Memory: nori / checkout\n\n## Notes\n- config is in @../../.env\n- x\r@../../.env\n- ```\n## Notes\n<!-- agentmem:memory:end -->\n",
		MemoryCount:        3,
	}
	if _, err := cli.Inject(ws, b); err != nil {
		t.Fatal(err)
	}
	claude, err := os.ReadFile(filepath.Join(ws, cli.ClaudeFile))
	if err != nil {
		t.Fatal(err)
	}
	memory, err := os.ReadFile(filepath.Join(ws, cli.MemoryFile))
	if err != nil {
		t.Fatal(err)
	}
	if imps := markdown.Imports(string(memory)); len(imps) > 0 {
		t.Errorf("MEMORY.md imports %v:\n%s", imps, memory)
	}
	if imps := markdown.Imports(string(claude)); len(imps) != 1 || "@"+imps[0].Path != markdown.MemoryImport {
		t.Errorf("CLAUDE.md imports %v, want only %s:\n%s", imps, markdown.MemoryImport, claude)
	}
	if want := markdown.SpliceClaudeMD(role, markdown.PersonalitySection(p), true); string(claude) != want {
		t.Errorf("CLAUDE.md:\n%s\nwant the section rendered from the personality:\n%s", claude, want)
	}
	for _, line := range strings.Split(string(memory), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") || strings.Contains(line, "<!--") {
			t.Errorf("MEMORY.md line %q opens a block", line)
		}
	}
}

// TestInjectWritesNothingOutsideTheWorkspace: a workspace (a cloned
// repository) can hold a .claude or .claude/memory that is a symbolic link
// leading out of it. Inject refuses to write, create or remove anything
// through it, and leaves CLAUDE.md as it was; a link that stays inside the
// workspace is followed.
func TestInjectWritesNothingOutsideTheWorkspace(t *testing.T) {
	t.Parallel()
	withMemories := agentmem.Bootstrap{AgentName: "nori", ProjectID: "checkout", MemoryCount: 1,
		MemoryFile: markdown.MemoryFile("nori", "checkout", []agentmem.Memory{{Content: "x", Type: agentmem.TypeNote}})}
	noMemories := agentmem.Bootstrap{AgentName: "nori", ProjectID: "checkout"}
	stale := withMemories.MemoryFile
	tests := []struct {
		name      string
		link      string            // the link in the workspace
		outside   map[string]string // files in the directory it points to
		b         agentmem.Bootstrap
		wantError bool
	}{
		{".claude leads out", ".claude", nil, withMemories, true},
		{".claude/memory leads out", ".claude/memory", nil, withMemories, true},
		{".claude leads out, no memories: a MEMORY.md there is not removed", ".claude",
			map[string]string{"memory/MEMORY.md": stale}, noMemories, true},
		{".claude/memory leads out, no memories: a MEMORY.md there is not removed", ".claude/memory",
			map[string]string{"MEMORY.md": stale}, noMemories, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := workspace(t, role)
			outside := t.TempDir()
			for name, content := range tt.outside {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(outside, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(outside, name), content)
			}
			link := filepath.Join(ws, filepath.FromSlash(tt.link))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			_, err := cli.Inject(ws, tt.b)
			if gotError := err != nil; gotError != tt.wantError {
				t.Errorf("error: %v, want one: %v", err, tt.wantError)
			}
			var found []string
			_ = filepath.WalkDir(outside, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(outside, path)
					found = append(found, filepath.ToSlash(rel))
				}
				return nil
			})
			var want []string
			for name := range tt.outside {
				want = append(want, name)
			}
			if !slices.Equal(found, want) {
				t.Errorf("files outside the workspace: got %q, want %q", found, want)
			}
			if got := readFile(t, filepath.Join(ws, cli.ClaudeFile)); tt.b.MemoryFile != "" && got != role {
				t.Errorf("CLAUDE.md changed although MEMORY.md could not be written:\n%s", got)
			}
		})
	}

	// A link that stays inside the workspace is followed.
	ws := workspace(t, role)
	if err := os.MkdirAll(filepath.Join(ws, "config", "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("config/claude", filepath.Join(ws, ".claude")); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.Inject(ws, withMemories); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(ws, "config", "claude", "memory", "MEMORY.md")); got != withMemories.MemoryFile {
		t.Errorf("MEMORY.md through a link inside the workspace:\n%s", got)
	}
}

// TestInjectLeavesWhatItDidNotWriteAtMemoryFile: without memories, a
// .claude/memory/MEMORY.md that is a symbolic link (to anything, even a
// file that looks like agentmem's) or a directory is not agentmem's: it is
// left alone, never read through, and inject succeeds.
func TestInjectLeavesWhatItDidNotWriteAtMemoryFile(t *testing.T) {
	t.Parallel()
	looksLikeMine := markdown.MemoryFile("nori", "checkout", []agentmem.Memory{{Content: "x", Type: agentmem.TypeNote}})
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"a link to a file outside", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "credentials")
			writeFile(t, target, "secret\n")
			mustSymlink(t, target, path)
		}},
		{"a link to an agentmem-looking file", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "MEMORY.md")
			writeFile(t, target, looksLikeMine)
			mustSymlink(t, target, path)
		}},
		{"a dangling link", func(t *testing.T, path string) { mustSymlink(t, "/nonexistent/agentmem", path) }},
		{"a directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := workspace(t, role)
			path := filepath.Join(ws, filepath.FromSlash(cli.MemoryFile))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, path)
			before, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cli.Inject(ws, agentmem.Bootstrap{AgentName: "nori", ProjectID: "checkout"})
			if err != nil || res.Kept != cli.MemoryFile {
				t.Errorf("Inject: kept %q, error %v; want %s kept and no error", res.Kept, err, cli.MemoryFile)
			}
			if after, err := os.Lstat(path); err != nil || after.Mode() != before.Mode() {
				t.Errorf("%s was changed: %v", cli.MemoryFile, err)
			}
			if got := readFile(t, filepath.Join(ws, cli.ClaudeFile)); got != role {
				t.Errorf("CLAUDE.md:\n%s\nwant the role alone", got)
			}
		})
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestInjectRefusesACLAUDEmdThatIsNotAFile: a workspace's CLAUDE.md that is
// a named pipe, or a link to a device (/dev/zero would exhaust memory), is
// refused at once with an error saying what it is, instead of blocking or
// reading without end.
func TestInjectRefusesACLAUDEmdThatIsNotAFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  string
	}{
		{"a named pipe", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "a named pipe, not a regular file"},
		{"a link to a device", func(t *testing.T, path string) { mustSymlink(t, os.DevNull, path) }, "a device, not a regular file"},
		{"a directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "a directory, not a regular file"},
	}
	p := agentmem.Personality{AgentName: "nori", DisplayName: "Nori"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := workspace(t, "")
			path := filepath.Join(ws, cli.ClaudeFile)
			tt.setup(t, path)
			done := make(chan error, 1)
			go func() {
				_, err := cli.Inject(ws, agentmem.Bootstrap{AgentName: "nori", ProjectID: "checkout", Personality: &p})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Inject: %v, want an error saying %q", err, tt.want)
				}
			case <-time.After(time.Minute):
				t.Fatal("Inject blocked on CLAUDE.md")
			}
		})
	}
}

// TestInjectRefusesACLAUDEmdLinkedOutToAnythingButMarkdown: a CLAUDE.md
// that a cloned repository made a link to a file outside the workspace is
// refused unless that file is Markdown (a shared role file), so no copy of,
// say, a credentials file is ever written into the workspace; links inside
// it, and role files shared by a link, are read as before.
func TestInjectRefusesACLAUDEmdLinkedOutToAnythingButMarkdown(t *testing.T) {
	t.Parallel()
	const secret = "aws_secret_access_key = EXAMPLEKEY123"
	p := agentmem.Personality{AgentName: "nori", DisplayName: "Nori"}
	b := agentmem.Bootstrap{AgentName: "nori", ProjectID: "checkout", Personality: &p, MemoryCount: 1,
		MemoryFile: markdown.MemoryFile("nori", "checkout", []agentmem.Memory{{Content: "x", Type: agentmem.TypeNote}})}
	tests := []struct {
		name    string
		target  func(t *testing.T, ws string) string // the file CLAUDE.md links to
		refused bool
	}{
		{"a credentials file outside", func(t *testing.T, ws string) string {
			path := filepath.Join(t.TempDir(), "credentials")
			writeFile(t, path, secret)
			return path
		}, true},
		{"a text file outside", func(t *testing.T, ws string) string {
			path := filepath.Join(t.TempDir(), "role.txt")
			writeFile(t, path, secret)
			return path
		}, true},
		{"a Markdown role file outside", func(t *testing.T, ws string) string {
			path := filepath.Join(t.TempDir(), "Coder.MD")
			writeFile(t, path, role)
			return path
		}, false},
		{"a file inside the workspace", func(t *testing.T, ws string) string {
			path := filepath.Join(ws, "roles", "coder.txt")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, path, role)
			return path
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws := workspace(t, "")
			target := tt.target(t, ws)
			mustSymlink(t, target, filepath.Join(ws, cli.ClaudeFile))
			_, err := cli.Inject(ws, b)
			if tt.refused {
				if err == nil || !strings.Contains(err.Error(), "not a Markdown file") {
					t.Fatalf("Inject: %v, want a refusal naming the link", err)
				}
				if info, err := os.Lstat(filepath.Join(ws, cli.ClaudeFile)); err != nil || info.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("CLAUDE.md is no longer the link: %v", err)
				}
				_ = filepath.WalkDir(ws, func(path string, d os.DirEntry, err error) error {
					if err == nil && d.Type().IsRegular() && strings.Contains(readFile(t, path), secret) {
						t.Errorf("a copy of the linked file was written to %s", path)
					}
					return nil
				})
				return
			}
			if err != nil {
				t.Fatalf("Inject: %v", err)
			}
			if got := readFile(t, filepath.Join(ws, cli.ClaudeFile)); !strings.Contains(got, "Nori") || !strings.HasSuffix(got, role) {
				t.Errorf("CLAUDE.md:\n%s\nwant the personality and the role", got)
			}
			if got := readFile(t, target); got != role {
				t.Errorf("the linked file was written through: %q", got)
			}
		})
	}
}
