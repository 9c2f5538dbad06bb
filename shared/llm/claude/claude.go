// Package claude is the llm.Client that runs the `claude` CLI (claude -p)
// inside the agent container.
package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentmem/agentmem/shared/llm"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultCommand is the claude CLI run when none is configured.
const DefaultCommand = "claude"

// Client runs the `claude` CLI (Claude Code) once per completion, the
// post-run extraction call of seed 002 decision 4, made from the agent
// container with the container's own Claude credentials. It runs
//
//	claude -p --output-format json --max-turns 1 --tools "" [--model MODEL] [--system-prompt SYSTEM] < PROMPT
//
// and relies on these documented behaviours of the CLI
// (https://code.claude.com/docs/en/cli-reference):
//
//   - -p (--print) runs one non-interactive query and exits; the prompt is
//     read from stdin, so its size is not bounded by the argument limit.
//   - --output-format json prints one JSON object when done:
//     {"type":"result","subtype":"success","is_error":false,"result":TEXT,
//     "usage":{"input_tokens":N,"output_tokens":N},...}; a failure sets
//     is_error (and exits non-zero) with the reason in "result", e.g.
//     "API Error: 529 {...overloaded_error...}" or "Invalid API key".
//   - --max-turns 1 and --tools "" make it a single text answer: no tool
//     use, no agentic loop.
//   - --system-prompt replaces Claude Code's own long system prompt.
//   - The CLI has no --max-tokens flag (the seed's is not real): the token
//     cap is the CLAUDE_CODE_MAX_OUTPUT_TOKENS environment variable.
//
// It runs in the system's temporary directory so that no workspace
// CLAUDE.md is loaded into the extraction call.
type Client struct {
	cfg     llm.Config
	command string
}

var _ llm.Client = (*Client)(nil)

// New returns a client that runs cfg.Command (default "claude").
// The command must be on PATH (or a path to an executable); cfg.Model is
// optional (the CLI's default model otherwise).
func New(cfg llm.Config) (*Client, error) {
	command := cfg.Command
	if command == "" {
		command = DefaultCommand
	}
	path, err := exec.LookPath(command)
	if err != nil {
		return nil, fmt.Errorf("claude: the claude CLI %q is not installed or not executable (set AGENTMEM_CLAUDE_COMMAND): %w", command, err)
	}
	// The CLI runs in another directory (see Client), where a relative
	// path would no longer name it.
	if path, err = filepath.Abs(path); err != nil {
		return nil, fmt.Errorf("claude: %w", err)
	}
	return &Client{cfg: cfg, command: path}, nil
}

// Name implements llm.Client.
func (c *Client) Name() string {
	if c.cfg.Model == "" {
		return llm.ProviderClaude
	}
	return llm.ProviderClaude + ":" + c.cfg.Model
}

// claudeResult is the object `claude -p --output-format json` prints.
type claudeResult struct {
	Type    string  `json:"type"`
	Subtype string  `json:"subtype"`
	IsError bool    `json:"is_error"`
	Result  *string `json:"result"`
	Usage   struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// claudeWaitDelay bounds how long Complete waits for the CLI's output
// pipes after killing it on timeout.
const claudeWaitDelay = 2 * time.Second

// Complete implements llm.Client.
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.TimeoutOrDefault())
	defer cancel()
	args := []string{"-p", "--output-format", "json", "--max-turns", "1", "--tools", ""}
	if c.cfg.Model != "" {
		args = append(args, "--model", c.cfg.Model)
	}
	if req.System != "" {
		args = append(args, "--system-prompt", req.System)
	}
	cmd := exec.CommandContext(ctx, c.command, args...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_MAX_OUTPUT_TOKENS="+strconv.Itoa(c.cfg.MaxTokensFor(req)))
	cmd.Stdin = strings.NewReader(req.Prompt)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &stdout, max: llm.MaxAnswerBytes}
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 64 << 10}
	cmd.WaitDelay = claudeWaitDelay
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return llm.Response{}, &llm.Error{Kind: llm.KindTimeout, Provider: llm.ProviderClaude, Message: "no answer before the deadline", Err: ctx.Err()}
	}
	var out claudeResult
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out); err != nil || out.Type != "result" {
		if runErr != nil {
			return llm.Response{}, &llm.Error{Kind: llm.KindServer, Provider: llm.ProviderClaude, Message: "claude failed: " + llm.Snippet(firstNonEmpty(stderr.Bytes(), stdout.Bytes())), Err: runErr}
		}
		return llm.Response{}, &llm.Error{Kind: llm.KindMalformed, Provider: llm.ProviderClaude, Message: "output is not a claude JSON result: " + llm.Snippet(stdout.Bytes()), Err: err}
	}
	text := ""
	if out.Result != nil {
		text = *out.Result
	}
	if out.IsError || runErr != nil || (out.Subtype != "" && out.Subtype != "success") {
		return llm.Response{}, claudeError(out, text, stderr.Bytes(), runErr)
	}
	if strings.TrimSpace(text) == "" {
		return llm.Response{}, &llm.Error{Kind: llm.KindEmpty, Provider: llm.ProviderClaude, Message: "answer has no text"}
	}
	model := c.cfg.Model
	if model == "" {
		model = llm.ProviderClaude
	}
	return llm.Response{
		Text: text, Model: model, StopReason: out.Subtype,
		InputTokens: out.Usage.InputTokens, OutputTokens: out.Usage.OutputTokens,
	}, nil
}

// claudeError classifies a failed claude run from the reason it printed.
func claudeError(out claudeResult, text string, stderr []byte, runErr error) *llm.Error {
	msg := text
	if msg == "" {
		msg = string(stderr)
	}
	e := &llm.Error{Provider: llm.ProviderClaude, Message: llm.Snippet([]byte(msg)), Err: runErr}
	lower := strings.ToLower(msg)
	switch {
	case strings.HasPrefix(out.Subtype, "error_max_turns"):
		e.Kind, e.Message = llm.KindMalformed, "the model tried to use tools instead of answering ("+out.Subtype+")"
	case strings.Contains(lower, "rate_limit") || strings.Contains(lower, "api error: 429") || strings.Contains(lower, "rate limit"):
		e.Kind = llm.KindThrottled
	case strings.Contains(lower, "invalid api key") || strings.Contains(lower, "/login") ||
		strings.Contains(lower, "authentication_error") || strings.Contains(lower, "permission_error") ||
		strings.Contains(lower, "api error: 401") || strings.Contains(lower, "api error: 403"):
		e.Kind = llm.KindAuth
	case strings.Contains(lower, "invalid_request_error") || strings.Contains(lower, "api error: 400") || strings.Contains(lower, "api error: 404"):
		e.Kind = llm.KindBadRequest
	default:
		// Overloaded (529), 5xx, a crash: possibly temporary.
		e.Kind = llm.KindServer
	}
	return e
}

func firstNonEmpty(bs ...[]byte) []byte {
	for _, b := range bs {
		if len(bytes.TrimSpace(b)) > 0 {
			return b
		}
	}
	return nil
}

// limitedBuffer keeps the first max bytes written and discards the rest,
// so that a runaway process cannot exhaust memory.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (w *limitedBuffer) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
