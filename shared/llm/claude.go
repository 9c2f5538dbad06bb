package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultClaudeCommand is the claude CLI run when none is configured.
const DefaultClaudeCommand = "claude"

// Claude runs the `claude` CLI (Claude Code) once per completion, the
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
type Claude struct {
	cfg     Config
	command string
}

var _ Client = (*Claude)(nil)

// NewClaude returns a client that runs cfg.Command (default "claude").
// The command must be on PATH (or a path to an executable); cfg.Model is
// optional (the CLI's default model otherwise).
func NewClaude(cfg Config) (*Claude, error) {
	command := cfg.Command
	if command == "" {
		command = DefaultClaudeCommand
	}
	path, err := exec.LookPath(command)
	if err != nil {
		return nil, fmt.Errorf("claude: the claude CLI %q is not installed or not executable (set AGENTMEM_CLAUDE_COMMAND): %w", command, err)
	}
	// The CLI runs in another directory (see Claude), where a relative
	// path would no longer name it.
	if path, err = filepath.Abs(path); err != nil {
		return nil, fmt.Errorf("claude: %w", err)
	}
	return &Claude{cfg: cfg, command: path}, nil
}

// Name implements Client.
func (c *Claude) Name() string {
	if c.cfg.Model == "" {
		return ProviderClaude
	}
	return ProviderClaude + ":" + c.cfg.Model
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

// Complete implements Client.
func (c *Claude) Complete(ctx context.Context, req Request) (Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
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
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_MAX_OUTPUT_TOKENS="+strconv.Itoa(c.cfg.maxTokens(req)))
	cmd.Stdin = strings.NewReader(req.Prompt)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &stdout, max: maxAnswerBytes}
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 64 << 10}
	cmd.WaitDelay = claudeWaitDelay
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return Response{}, &Error{Kind: KindTimeout, Provider: ProviderClaude, Message: "no answer before the deadline", Err: ctx.Err()}
	}
	var out claudeResult
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out); err != nil || out.Type != "result" {
		if runErr != nil {
			return Response{}, &Error{Kind: KindServer, Provider: ProviderClaude, Message: "claude failed: " + snippet(firstNonEmpty(stderr.Bytes(), stdout.Bytes())), Err: runErr}
		}
		return Response{}, &Error{Kind: KindMalformed, Provider: ProviderClaude, Message: "output is not a claude JSON result: " + snippet(stdout.Bytes()), Err: err}
	}
	text := ""
	if out.Result != nil {
		text = *out.Result
	}
	if out.IsError || runErr != nil || (out.Subtype != "" && out.Subtype != "success") {
		return Response{}, claudeError(out, text, stderr.Bytes(), runErr)
	}
	if strings.TrimSpace(text) == "" {
		return Response{}, &Error{Kind: KindEmpty, Provider: ProviderClaude, Message: "answer has no text"}
	}
	model := c.cfg.Model
	if model == "" {
		model = ProviderClaude
	}
	return Response{
		Text: text, Model: model, StopReason: out.Subtype,
		InputTokens: out.Usage.InputTokens, OutputTokens: out.Usage.OutputTokens,
	}, nil
}

// claudeError classifies a failed claude run from the reason it printed.
func claudeError(out claudeResult, text string, stderr []byte, runErr error) *Error {
	msg := text
	if msg == "" {
		msg = string(stderr)
	}
	e := &Error{Provider: ProviderClaude, Message: snippet([]byte(msg)), Err: runErr}
	lower := strings.ToLower(msg)
	switch {
	case strings.HasPrefix(out.Subtype, "error_max_turns"):
		e.Kind, e.Message = KindMalformed, "the model tried to use tools instead of answering ("+out.Subtype+")"
	case strings.Contains(lower, "rate_limit") || strings.Contains(lower, "api error: 429") || strings.Contains(lower, "rate limit"):
		e.Kind = KindThrottled
	case strings.Contains(lower, "invalid api key") || strings.Contains(lower, "/login") ||
		strings.Contains(lower, "authentication_error") || strings.Contains(lower, "permission_error") ||
		strings.Contains(lower, "api error: 401") || strings.Contains(lower, "api error: 403"):
		e.Kind = KindAuth
	case strings.Contains(lower, "invalid_request_error") || strings.Contains(lower, "api error: 400") || strings.Contains(lower, "api error: 404"):
		e.Kind = KindBadRequest
	default:
		// Overloaded (529), 5xx, a crash: possibly temporary.
		e.Kind = KindServer
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
