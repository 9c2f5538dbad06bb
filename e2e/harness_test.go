package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentmem/agentmem/e2e/anthropictest"
	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/apiclient"
)

// The pinned clients (tools/e2e) and the agentmem binary built for the run.
var (
	claudeBin    string
	inspectorBin string
	agentmemBin  string
)

const installHelp = `the end-to-end tests need the pinned Claude Code CLI and MCP Inspector:
  make e2e-tools        (npm ci --prefix tools/e2e; Node 20+ and npm, from the npm registry)
make test installs them itself. The Claude Code package installs the native binary of this
platform from its optional dependencies (@anthropic-ai/claude-code-linux-x64, ...): npm must not
run with --omit=optional or --ignore-scripts.`

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := filepath.Abs("..")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	claudeBin = filepath.Join(root, "tools", "e2e", "node_modules", ".bin", "claude")
	inspectorBin = filepath.Join(root, "tools", "e2e", "node_modules", ".bin", "inspector")
	out, err := exec.Command(claudeBin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "(Claude Code)") {
		fmt.Fprintf(os.Stderr, "e2e: %s --version: %v %s\n%s\n", claudeBin, err, bytes.TrimSpace(out), installHelp)
		return 1
	}
	if _, err := os.Stat(inspectorBin); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n%s\n", err, installHelp)
		return 1
	}
	dir, err := os.MkdirTemp("", "agentmem-e2e-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	agentmemBin = filepath.Join(dir, "agentmem")
	build := exec.Command("go", "build", "-o", agentmemBin, "./cmd/agentmem")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: build agentmem: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// env is one test's world: a workspace, a home directory, the agentmem
// API and a stand-in of the Messages API.
type env struct {
	t         *testing.T
	root      string
	workspace string
	home      string
	api       *apitest.Server
	client    *apiclient.Client
	model     *anthropictest.Server
	agent     string
	project   string
	// extra is added to the environment of every command.
	extra []string
}

// newEnv sets up a world whose model answers with script.
func newEnv(t *testing.T, script anthropictest.Script) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, root: root, workspace: filepath.Join(root, "workspace"), home: filepath.Join(root, "home"),
		agent: "nori", project: "checkout-service"}
	for _, d := range []string{e.workspace, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.api = apitest.New(t, nil)
	c, err := apiclient.New(context.Background(), apiclient.Config{URL: e.api.URL, Auth: apiclient.AuthNone})
	if err != nil {
		t.Fatal(err)
	}
	e.client = c
	e.model = anthropictest.New(t, script)
	return e
}

// environ is the environment of every command: nothing of the test
// process's but PATH, a home of the test's own, Claude Code pointed at the
// stand-in, agentmem at the API.
func (e *env) environ() []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + e.home,
		"TMPDIR=" + filepath.Join(e.root, "tmp"),
		"ANTHROPIC_BASE_URL=" + e.model.URL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"AGENTMEM_API_URL=" + e.api.URL,
		"AGENTMEM_AUTH=none",
		"AGENTMEM_AGENT=" + e.agent,
		"AGENTMEM_PROJECT=" + e.project,
	}, e.extra...)
}

// result is what a command did.
type result struct {
	code           int
	stdout, stderr string
}

// exec runs a command in the workspace.
func (e *env) exec(name string, args ...string) result {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Join(e.root, "tmp"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = e.workspace
	cmd.Env = e.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("%s %q: %v", name, args, err)
	}
	return r
}

// claude runs Claude Code in print mode with prompt; it must succeed.
func (e *env) claude(prompt string, args ...string) result {
	e.t.Helper()
	r := e.exec(claudeBin, append([]string{"-p", prompt, "--output-format", "json"}, args...)...)
	if r.code != 0 {
		e.t.Fatalf("claude -p %q %q: exit %d\nstdout %s\nstderr %s", prompt, args, r.code, r.stdout, r.stderr)
	}
	return r
}

// agentmem runs the agentmem binary; it must succeed.
func (e *env) agentmem(args ...string) result {
	e.t.Helper()
	r := e.exec(agentmemBin, args...)
	if r.code != 0 {
		e.t.Fatalf("agentmem %q: exit %d\nstdout %s\nstderr %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// write writes a file, creating its directory.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// secretMark starts the content of every planted secret file.
const secretMark = "AGENTMEM-E2E-SECRET"

// plantSecrets writes a secret file at each place an import could reach:
// in the workspace (beside CLAUDE.md and beside MEMORY.md), in the home
// directory, and at an absolute path. It returns the absolute path.
func (e *env) plantSecrets() string {
	e.t.Helper()
	abs := filepath.Join(e.root, "absolute-secret")
	for _, p := range []string{
		filepath.Join(e.workspace, ".env"), filepath.Join(e.workspace, ".secret"), filepath.Join(e.workspace, "x"),
		filepath.Join(e.workspace, "notes.md"),
		filepath.Join(e.workspace, ".claude", "memory", ".env"), filepath.Join(e.workspace, ".claude", "memory", ".secret"),
		filepath.Join(e.workspace, ".claude", "memory", "x"),
		filepath.Join(e.home, ".secret"), filepath.Join(e.home, ".aws", "credentials"), abs,
	} {
		write(e.t, p, secretMark+" "+p+"\n")
	}
	return abs
}

// contentsOf matches Claude Code's header of a file it loaded into the
// model's context ("Contents of /path/CLAUDE.md (project instructions...").
var contentsOf = regexp.MustCompile(`Contents of (/[^\s"]+) \(`)

// loaded returns the files Claude Code showed the model, relative to the
// workspace when inside it, sorted and without repeats.
func (e *env) loaded() []string {
	var files []string
	for _, r := range e.model.Requests() {
		for _, m := range contentsOf.FindAllStringSubmatch(string(r.Body), -1) {
			p := m[1]
			if rel, err := filepath.Rel(e.workspace, p); err == nil && !strings.HasPrefix(rel, "..") {
				p = rel
			}
			if !slices.Contains(files, p) {
				files = append(files, p)
			}
		}
	}
	slices.Sort(files)
	return files
}

// noSecretReached fails the test when any request carried a planted
// secret.
func (e *env) noSecretReached() {
	e.t.Helper()
	for i, r := range e.model.Requests() {
		if j := bytes.Index(r.Body, []byte(secretMark)); j >= 0 {
			e.t.Errorf("request %d (%s %s) carried a secret: %q", i, r.Method, r.Path, r.Body[max(0, j-200):min(len(r.Body), j+200)])
		}
	}
}

// firstText is the text of the first messages request: what the model was
// shown before it answered.
func (e *env) firstText() string {
	e.t.Helper()
	ms := e.model.Messages()
	if len(ms) == 0 {
		e.t.Fatalf("Claude Code sent no messages request; requests: %d", len(e.model.Requests()))
	}
	return ms[0].Text()
}

// memory stores a memory through the API, as an agent or a person would.
func (e *env) memory(in agentmem.MemoryInput) agentmem.Memory {
	e.t.Helper()
	in.ProjectID = e.project
	m, err := e.client.CreateMemory(context.Background(), e.agent, in)
	if err != nil {
		e.t.Fatalf("store memory %+v: %v", in, err)
	}
	return m
}

// memories lists the scope's memories through the API.
func (e *env) memories() []agentmem.Memory {
	e.t.Helper()
	page, err := e.client.ListMemories(context.Background(), e.agent, apiclient.ListOptions{ProjectID: e.project})
	if err != nil {
		e.t.Fatal(err)
	}
	return page.Memories
}
