package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
	"github.com/agentmem/agentmem/shared/markdown"
)

// Workspace files inject writes, relative to --workspace.
const (
	ClaudeFile = "CLAUDE.md"
	MemoryFile = ".claude/memory/MEMORY.md"
)

// MaxTaskBytes caps --task: it travels in the bootstrap URL, whose request
// line API Gateway bounds.
const MaxTaskBytes = 1 << 10

func init() {
	Register(&Command{
		Name: "inject", Group: GroupPipeline, Pipeline: true, Needs: NeedsAgentProject,
		Fallback: "the agent runs without injected memory",
		Summary:  "write the agent's personality into CLAUDE.md and its memories into .claude/memory/MEMORY.md",
		Description: `One round trip to the bootstrap route, then:

- a personality -> its "# Personality" section, between agentmem's marker comments, prepended to WORKSPACE/CLAUDE.md above the role instructions (a re-run replaces it, never adds another; a personality deleted since is taken out);
- memories -> WORKSPACE/.claude/memory/MEMORY.md (the 50 most recent), and CLAUDE.md imports it with the line @.claude/memory/MEMORY.md, once (not at all when the role file already imports it with that line of its own; a line in a code example or a comment does not count);
- no memories -> no MEMORY.md; one an earlier inject wrote is removed, with its import line (a MEMORY.md agentmem did not write is left alone).

Every file is written atomically (a temporary file renamed over it), so a killed inject never leaves half a file; an unchanged file is not rewritten. Nothing is written or removed outside WORKSPACE: a .claude or .claude/memory that is a symbolic link leading out of it is refused (a warning); a CLAUDE.md that is a link is read, as Claude Code reads it, and replaced by the file, unless it leads out of WORKSPACE to anything but a Markdown file (*.md): that is refused, so no copy of, say, a linked credentials file lands in the workspace. --git sets user.name and user.email in the workspace's git config from the personality (gitName, else the display name; gitEmail).

Best effort: on any failure (API unreachable, timeout, refused, unwritable file) one warning line goes to stderr and the exit status is 0, so the pipeline goes on; --strict exits non-zero instead.`,
		Examples: []string{
			"agentmem inject --agent nori --project checkout-service --workspace /workspace --git",
			`AGENTMEM_AGENT=nori AGENTMEM_PROJECT=checkout-service agentmem inject --task "fix the webhook retries"`,
		},
		New: func() Runner { return &injectCommand{} },
	})
}

type injectCommand struct {
	workspace, task  string
	git, quiet, json bool
}

func (c *injectCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.workspace, "workspace", ".", "the agent's workspace `DIR` (where CLAUDE.md is)")
	fs.BoolVar(&c.git, "git", false, "set git user.name and user.email in the workspace from the personality")
	fs.StringVar(&c.task, "task", "", "the run's `TASK`; the server adds the patterns relevant to it to MEMORY.md (first 1 KiB)")
	fs.BoolVar(&c.quiet, "quiet", false, "print nothing on success")
	JSONFlag(fs, &c.json)
}

func (c *injectCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs(""); err != nil {
		return err
	}
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	if info, err := os.Stat(c.workspace); err != nil || !info.IsDir() {
		return fmt.Errorf("workspace %s is not a directory", c.workspace)
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	b, err := client.Bootstrap(ctx, scope.Agent, apiclient.BootstrapOptions{ProjectID: scope.Project, Task: truncateUTF8(c.task, MaxTaskBytes)})
	if err != nil {
		return err
	}
	res, err := Inject(c.workspace, b)
	if err != nil {
		return err
	}
	if c.git {
		if res.GitIdentity, err = setGitIdentity(ctx, c.workspace, b.Personality); err != nil {
			return err
		}
	}
	if c.json {
		if res.Changed == nil {
			res.Changed = []string{}
		}
		return writeJSON(in.Stdout, res)
	}
	if !c.quiet {
		in.Notef("inject: %s", res)
	}
	return nil
}

// InjectResult says what Inject did.
type InjectResult struct {
	Personality string `json:"personality"` // display name injected, "" for none
	Memories    int    `json:"memories"`
	// Changed lists the workspace files written or removed.
	Changed     []string `json:"changed"`
	Kept        string   `json:"kept,omitempty"` // a MEMORY.md left alone because agentmem did not write it
	GitIdentity string   `json:"gitIdentity,omitempty"`
}

// String is the one-line summary inject prints.
func (r InjectResult) String() string {
	var parts []string
	if r.Personality != "" {
		parts = append(parts, "personality "+r.Personality)
	} else {
		parts = append(parts, "no personality")
	}
	parts = append(parts, fmt.Sprintf("%d memor%s", r.Memories, pluralY(r.Memories)))
	if r.GitIdentity != "" {
		parts = append(parts, "git identity "+r.GitIdentity)
	}
	s := strings.Join(parts, ", ")
	if len(r.Changed) > 0 {
		s += "; updated " + strings.Join(r.Changed, ", ")
	} else {
		s += "; workspace already up to date"
	}
	if r.Kept != "" {
		s += "; left " + r.Kept + " alone (not written by agentmem)"
	}
	return s
}

// Inject writes what the bootstrap answer b says into workspace: MEMORY.md
// (or removes the one an earlier inject wrote) and CLAUDE.md. The memory
// file is written before CLAUDE.md imports it and removed after CLAUDE.md
// stops importing it, so the import never points at a missing file.
//
// Claude Code reads both files as instructions and imports every "@path"
// in them, and their text comes from memories and personalities that
// agents wrote: Inject trusts no rendering it did not do. The personality
// section is rendered here from b.Personality (markdown.PersonalitySection),
// and the memory file goes through markdown.SafeMemoryFile, so that no
// server, whatever version rendered it, can make Claude Code load a file
// (docs/SECURITY.md).
func Inject(workspace string, b agentmem.Bootstrap) (InjectResult, error) {
	res := InjectResult{Memories: b.MemoryCount}
	section := ""
	if b.Personality != nil {
		section = markdown.PersonalitySection(*b.Personality)
		res.Personality = b.Personality.DisplayName
		if res.Personality == "" {
			res.Personality = b.Personality.AgentName
		}
	}
	// Every file is written and removed inside the workspace: a .claude or
	// .claude/memory that is a symbolic link leading out of it (a cloned
	// repository can hold one) is refused, never written through.
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return res, fmt.Errorf("open workspace %s: %w", workspace, err)
	}
	defer root.Close()
	claudePath := filepath.Join(workspace, ClaudeFile)
	if err := checkClaudeLink(workspace, claudePath); err != nil {
		return res, err
	}
	memoryName := filepath.FromSlash(MemoryFile)
	memoryPath := filepath.Join(workspace, memoryName)
	hasMemories := b.MemoryFile != ""
	memoryFile := markdown.SafeMemoryFile(b.MemoryFile)

	if hasMemories {
		if err := root.MkdirAll(filepath.Dir(memoryName), 0o755); err != nil {
			return res, fmt.Errorf("create %s: %w", filepath.Dir(memoryPath), err)
		}
		changed, err := writeFileAtomic(root, memoryName, []byte(memoryFile), 0o644)
		if err != nil {
			return res, err
		}
		if changed {
			res.Changed = append(res.Changed, MemoryFile)
		}
	}

	// CLAUDE.md is read through a symbolic link (a role file linked into
	// the workspace), as Claude Code reads it, and replaced by the file.
	old, err := readRegularFile(claudePath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("read %s: %w", claudePath, err)
	}
	doc := markdown.SpliceClaudeMD(string(old), section, hasMemories)
	if doc != "" || len(old) > 0 {
		changed, err := writeFileAtomic(root, ClaudeFile, []byte(doc), 0o644)
		if err != nil {
			return res, err
		}
		if changed {
			res.Changed = append(res.Changed, ClaudeFile)
		}
	}

	if !hasMemories {
		// agentmem writes a regular file: a link or a directory there is
		// not one it wrote, and a link is never read through.
		var stale []byte
		info, err := root.Lstat(memoryName)
		if err == nil && info.Mode().IsRegular() {
			stale, err = root.ReadFile(memoryName)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return res, fmt.Errorf("read %s: %w", memoryPath, err)
		case info.Mode().IsRegular() && markdown.IsMemoryFile(string(stale)):
			if err := root.Remove(memoryName); err != nil {
				return res, fmt.Errorf("remove stale %s: %w", memoryPath, err)
			}
			res.Changed = append(res.Changed, MemoryFile+" (removed: no memories now)")
		default:
			res.Kept = MemoryFile
		}
	}
	return res, nil
}

// checkClaudeLink refuses a CLAUDE.md that is a symbolic link leading out
// of workspace to anything but a Markdown file (*.md). Inject replaces the
// link by a file holding what it reads through it, so a link a cloned
// repository made to a credentials file would put a copy of that file in
// the workspace, where the agent's next commit takes it along. A role file
// shared between workspaces by a link ends in .md and is read as before; a
// link inside the workspace, or to nothing, is not refused.
func checkClaudeLink(workspace, claudePath string) error {
	info, err := os.Lstat(claudePath)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, err := filepath.EvalSymlinks(claudePath)
	if err != nil {
		return nil // a dangling link: nothing is read through it
	}
	ws, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		return fmt.Errorf("resolve workspace %s: %w", workspace, err)
	}
	if rel, err := filepath.Rel(ws, target); err == nil && filepath.IsLocal(rel) {
		return nil
	}
	// A Markdown file is a shared role file; what is not a regular file is
	// refused as such when it is read.
	if info, err := os.Stat(target); err != nil || !info.Mode().IsRegular() || strings.EqualFold(filepath.Ext(target), ".md") {
		return nil
	}
	return fmt.Errorf("%s is a link to %s, outside the workspace and not a Markdown file: refused, so that no copy of it is written into the workspace (a role file shared by a link must end in .md)", claudePath, target)
}

// setGitIdentity sets user.name and user.email in the workspace's git
// config from the personality; it does nothing without one.
func setGitIdentity(ctx context.Context, workspace string, p *agentmem.Personality) (string, error) {
	if p == nil {
		return "", nil
	}
	name := firstNonEmpty(p.GitName, p.DisplayName, p.AgentName)
	settings := [][2]string{{"user.name", name}}
	if p.GitEmail != "" {
		settings = append(settings, [2]string{"user.email", p.GitEmail})
	}
	for _, s := range settings {
		out, err := exec.CommandContext(ctx, "git", "-C", workspace, "config", s[0], s[1]).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git config %s in %s: %v: %s", s[0], workspace, err, strings.TrimSpace(string(out)))
		}
	}
	if p.GitEmail != "" {
		return fmt.Sprintf("%s <%s>", name, p.GitEmail), nil
	}
	return name, nil
}

// truncateUTF8 cuts s to at most max bytes without splitting a character.
func truncateUTF8(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
