// Package claude is the llm.Client that runs the `claude` CLI (claude -p)
// inside the agent container.
package claude

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

	"github.com/agentmem/agentmem/shared/llm"
)

// DefaultCommand is the claude CLI run when none is configured.
const DefaultCommand = "claude"

// Client runs the `claude` CLI (Claude Code) once per completion, the
// post-run extraction call of seed 002 decision 4, made from the agent
// container with the container's own Claude credentials. It runs
//
//	claude -p --output-format json --max-turns 1 --tools "" --safe-mode --no-session-persistence
//	       [--model MODEL] [--system-prompt SYSTEM] < PROMPT
//
// in an empty temporary directory, with CLAUDE_CODE_MAX_OUTPUT_TOKENS (the
// answer cap: the CLI has no flag for it), CLAUDE_CODE_MAX_RETRIES=0,
// CLAUDE_CODE_DISABLE_CLAUDE_MDS=1, CLAUDE_CODE_DISABLE_AUTO_MEMORY=1 and
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 added to its environment. What
// each part does was checked against the real CLI (2.1.330) talking to a
// stand-in of the Messages API (e2e/):
//
//   - -p reads the prompt from stdin (no argument size limit) and prints one
//     JSON result object: "result" is the answer's text; a failure sets
//     "is_error" and, when the API answered, "api_error_status" (the HTTP
//     status) and "api_error_type" (overloaded_error, rate_limit_error, ...),
//     or "api_error" for a typed failure without a status
//     (connection_failed, ...). Failures are classified from these fields,
//     never from the message text.
//   - --max-turns 1 and --tools "" make it one text answer, no agentic loop.
//   - Isolation: without it the call carries the user's ~/.claude/CLAUDE.md,
//     every CLAUDE.md from the directory up to /, the auto-memory of
//     ~/.claude/projects/<dir>/memory/ and the output of the user's
//     SessionStart hooks. --safe-mode turns all of them off and still uses
//     the container's login: ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN or
//     the OAuth credentials of ~/.claude/.credentials.json (--bare would
//     isolate too, but it refuses OAuth logins: "Not logged in"). The
//     CLAUDE_CODE_DISABLE_* variables say the same again for a CLI that
//     would ignore the flag; --no-session-persistence leaves no session
//     transcript behind.
//   - Retries: the CLI retries failed API calls itself, for over 100 s on
//     a bad key or an overloaded API, which outlasts agentmem's timeout and
//     hides the cause. CLAUDE_CODE_MAX_RETRIES=0 makes it call once, so that
//     llm.Retry (throttling and server errors only, never a 4xx) is the one
//     retry policy.
//   - --system-prompt replaces Claude Code's own long system prompt.
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
	// APIErrorStatus is the HTTP status of the API error that ended the
	// run, when the API answered.
	APIErrorStatus *int `json:"api_error_status"`
	// APIErrorType is the API error's type (overloaded_error,
	// rate_limit_error, authentication_error, invalid_request_error, ...).
	APIErrorType string `json:"api_error_type"`
	// APIError is the CLI's typed kind of a failure (connection_failed,
	// usage_limit_reached, ...), also without a status.
	APIError string `json:"api_error"`
	Usage    struct {
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
	args := []string{"-p", "--output-format", "json", "--max-turns", "1", "--tools", "", "--safe-mode", "--no-session-persistence"}
	if c.cfg.Model != "" {
		args = append(args, "--model", c.cfg.Model)
	}
	if req.System != "" {
		args = append(args, "--system-prompt", req.System)
	}
	dir, err := os.MkdirTemp("", "agentmem-claude-*")
	if err != nil {
		return llm.Response{}, &llm.Error{Kind: llm.KindNotConfigured, Provider: llm.ProviderClaude, Message: "no directory to run claude in", Err: err}
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, c.command, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"CLAUDE_CODE_MAX_OUTPUT_TOKENS="+strconv.Itoa(c.cfg.MaxTokensFor(req)),
		"CLAUDE_CODE_MAX_RETRIES=0",
		"CLAUDE_CODE_DISABLE_CLAUDE_MDS=1",
		"CLAUDE_CODE_DISABLE_AUTO_MEMORY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
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

// claudeError classifies a failed claude run from the fields of its JSON
// result: the API's status and error type when the API answered, else the
// CLI's typed failure kind; the text only goes into the message.
func claudeError(out claudeResult, text string, stderr []byte, runErr error) *llm.Error {
	msg := text
	if msg == "" {
		msg = string(stderr)
	}
	e := &llm.Error{Provider: llm.ProviderClaude, Message: llm.Snippet([]byte(msg)), Err: runErr}
	switch {
	case out.APIErrorStatus != nil:
		e.Status = *out.APIErrorStatus
		e.Kind = llm.StatusKind(e.Status)
		switch out.APIErrorType {
		case "overloaded_error", "api_error":
			e.Kind = llm.KindServer
		case "rate_limit_error":
			e.Kind = llm.KindThrottled
		case "authentication_error", "permission_error":
			e.Kind = llm.KindAuth
		}
	case apiErrorKinds[out.APIError] != "":
		e.Kind = apiErrorKinds[out.APIError]
	case strings.HasPrefix(out.Subtype, "error_max_turns"):
		e.Kind, e.Message = llm.KindMalformed, "the model tried to use tools instead of answering ("+out.Subtype+")"
	case out.Subtype != "" && out.Subtype != "success":
		// error_during_execution and the like: the CLI itself failed.
		e.Kind = llm.KindServer
	default:
		// A refusal with no API status and no typed kind: the CLI did not
		// get to call the model ("Not logged in · Please run /login").
		e.Kind = llm.KindNotConfigured
	}
	return e
}

// apiErrorKinds classifies the CLI's typed failures ("api_error" of its
// result) that come without an HTTP status. Unknown values count as absent.
var apiErrorKinds = map[string]llm.Kind{
	"connection_failed":           llm.KindServer,
	"no_response":                 llm.KindServer,
	"stream_idle_timeout":         llm.KindServer,
	"computer_slept":              llm.KindServer,
	"empty_completion":            llm.KindEmpty,
	"max_output_tokens":           llm.KindMalformed,
	"usage_limit_reached":         llm.KindThrottled,
	"message_over_context_limit":  llm.KindBadRequest,
	"dlp_request_denied":          llm.KindBadRequest,
	"tls_untrusted_ca":            llm.KindNotConfigured,
	"tls_cert_signature_failure":  llm.KindNotConfigured,
	"provider_credentials":        llm.KindAuth,
	"stored_login_refused":        llm.KindAuth,
	"oauth_refresh_store_refused": llm.KindAuth,
	"api_key_auth_disabled":       llm.KindAuth,
	"org_disabled_credential":     llm.KindAuth,
	"invalid_credential_header":   llm.KindAuth,
	"gateway_signin_required":     llm.KindAuth,
	"gateway_session_expired":     llm.KindAuth,
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
