// Package examples_test runs examples/agent-entrypoint.sh (bash) with the
// built agentmem binary and examples/fake-agent.sh against the real API.
package examples_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmem/agentmem/functions/apitest"
	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/markdown"
)

var binary string // the agentmem binary, put first on the script's PATH

func TestMain(m *testing.M) { os.Exit(apitest.MainWithBinary(m, "../cmd/agentmem", &binary)) }

func TestAgentEntrypoint(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	ctx := context.Background()
	p, _, err := api.Store.PutPersonality(ctx, agentmem.Personality{AgentName: "nori", DisplayName: "Nori",
		GitName: "Nori (agent)", GitEmail: "nori@agents.example.com"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"Webhooks are retried 3 times", "Orders use sqlc"} {
		if _, err := api.Store.CreateMemory(ctx, agentmem.Memory{AgentName: "nori", ProjectID: "checkout-service", Content: c, Source: agentmem.SourceManual}); err != nil {
			t.Fatal(err)
		}
	}
	stopped := httptest.NewServer(http.NotFoundHandler())
	stopped.Close()
	role, err := os.ReadFile("roles/coder.md")
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		url        string
		agentExit  string
		wantStatus int
		wantOut    []string
		wantErr    []string
		wantClaude string
	}{
		{"API up", api.URL, "0", 0,
			[]string{"fake agent: personality: Nori", "fake agent: memories: 2", "fake agent: imports MEMORY.md: 1", "fake agent: committed as Nori (agent) <nori@agents.example.com>"},
			[]string{"agentmem: inject: personality Nori, 2 memories, git identity Nori (agent) <nori@agents.example.com>", "agentmem: warning: extract failed, no learnings were saved"},
			markdown.PersonalitySection(p) + markdown.MemoryImportBegin + "\n" + markdown.MemoryImport + "\n" + markdown.MemoryImportEnd + "\n\n" + string(role)},
		{"agent fails: its status is the step's, extraction still runs", api.URL, "3", 3,
			[]string{"fake agent: personality: Nori"},
			[]string{"entrypoint: agent exited with status 3", "agentmem: warning: extract failed"}, ""},
		{"API down: the agent runs without memory", stopped.URL, "0", 0,
			[]string{"fake agent: personality: none", "fake agent: memories: none", "fake agent: committed as nori (agent) <nori@agents.invalid>"},
			[]string{"agentmem: warning: inject failed, the agent runs without injected memory: GET /api/agents/nori/bootstrap: cannot reach", "agentmem: warning: extract failed"},
			string(role)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			ws := filepath.Join(tmp, "ws")
			cmd := exec.Command("bash", "agent-entrypoint.sh")
			cmd.Env = []string{
				"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"),
				"HOME=" + tmp, "TMPDIR=" + tmp, "GIT_CONFIG_NOSYSTEM=1",
				"AGENTMEM_AUTH=none", "AGENTMEM_API_URL=" + tt.url,
				"AGENT_NAME=nori", "PROJECT_ID=checkout-service", "WORKSPACE=" + ws, "RUN_ID=run-1",
				"AGENT_CMD=./fake-agent.sh", "FAKE_AGENT_EXIT=" + tt.agentExit,
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			status := 0
			if exit, ok := err.(*exec.ExitError); ok {
				status = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tt.wantStatus {
				t.Errorf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", status, tt.wantStatus, stdout.String(), stderr.String())
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout.String(), w+"\n") {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			if tt.wantClaude != "" {
				if b, _ := os.ReadFile(filepath.Join(ws, "CLAUDE.md")); string(b) != tt.wantClaude {
					t.Errorf("CLAUDE.md:\n%s\nwant\n%s", b, tt.wantClaude)
				}
			}
			if leftovers, _ := filepath.Glob(filepath.Join(tmp, "agent-output.*")); len(leftovers) > 0 {
				t.Errorf("the output log was left behind: %v", leftovers)
			}
		})
	}
}

// TestAgentEntrypointTemporaryWorkspace: without WORKSPACE the step works
// in a temporary directory and removes it at the end, unless
// KEEP_WORKSPACE is set; it says what step 6b will do without an LLM.
func TestAgentEntrypointTemporaryWorkspace(t *testing.T) {
	t.Parallel()
	api := apitest.New(t, nil)
	for _, keep := range []bool{false, true} {
		tmp := t.TempDir()
		cmd := exec.Command("bash", "agent-entrypoint.sh")
		cmd.Env = []string{
			"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"),
			"HOME=" + tmp, "TMPDIR=" + tmp, "GIT_CONFIG_NOSYSTEM=1",
			"AGENTMEM_AUTH=none", "AGENTMEM_API_URL=" + api.URL,
			"AGENT_NAME=nori", "PROJECT_ID=checkout-service", "AGENT_CMD=./fake-agent.sh",
		}
		if keep {
			cmd.Env = append(cmd.Env, "KEEP_WORKSPACE=1")
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("keep %v: %v\n%s", keep, err, out)
		}
		left, _ := filepath.Glob(filepath.Join(tmp, "agent-workspace.*"))
		if (len(left) == 1) != keep {
			t.Errorf("keep %v: workspaces left %v\n%s", keep, left, out)
		}
		if said := strings.Contains(string(out), "(temporary: removed at the end; KEEP_WORKSPACE=1 keeps it)"); said == keep {
			t.Errorf("keep %v: says the workspace is removed: %v\n%s", keep, said, out)
		}
		for _, want := range []string{"answers 503 llm_unavailable", "agentmem: warning: extract failed"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("keep %v: the output lacks %q:\n%s", keep, want, out)
			}
		}
	}
}
