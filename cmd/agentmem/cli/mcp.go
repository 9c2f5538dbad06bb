package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/mcpserver"
)

func init() {
	Register(&Command{
		Name: "mcp", Group: GroupOther, OwnTimeout: true, Server: true, Needs: NeedsAgentProject,
		Summary: "serve memory tools to an agent mid-run: a Model Context Protocol server on stdin/stdout",
		Description: `Serves nine tools to an MCP client such as Claude Code, for the agent's memory in the project: memory_store (scope "session": a key/value shared by the agents of this pipeline run; scope "project": a long-term memory, not stored again when one already says it), memory_recall (a session key), memory_search, memory_suggest_patterns, memory_stats, memory_forget, and memory_update, memory_history and memory_restore (correct a memory in place; read and restore its versions). Standard input and output carry the protocol (JSON-RPC, one message a line); logs go to standard error. It runs until the client closes standard input.

The session scope needs a session id: --session, else AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID (the pipeline run). Without one the session-scope calls fail with an explanation and the rest works. --timeout (AGENTMEM_TIMEOUT, default 30s) bounds each tool call; a failed call is a tool error the agent reads (API unreachable, key not found, bad argument), never a crash.

Results are readable text (what Claude Code shows the model); a line on standard input that is no JSON-RPC message is answered with a JSON-RPC error and the session goes on.

Add it to Claude Code (checked with Claude Code 2.1.330) with a .mcp.json in the workspace:
  {"mcpServers":{"agentmem":{"command":"agentmem","args":["mcp"],
    "env":{"AGENTMEM_AGENT":"nori","AGENTMEM_PROJECT":"checkout-service"}}}}
and, in print mode, allow its tools: claude -p "$PROMPT" --allowedTools mcp__agentmem. Interactive sessions ask to approve a .mcp.json server ("Pending approval" in claude mcp list): approve it with "enabledMcpjsonServers": ["agentmem"] in ~/.claude/settings.json, or use claude mcp add (below) or --mcp-config .mcp.json instead. The server inherits the rest of the environment (AGENTMEM_API_URL, AGENTMEM_AUTH, AGENTMEM_RUN_ID, the AWS credentials).`,
		Examples: []string{
			"agentmem mcp --agent nori --project checkout-service --session run-42",
			"AGENTMEM_AGENT=nori AGENTMEM_PROJECT=checkout-service AGENTMEM_RUN_ID=run-42 agentmem mcp",
			"claude mcp add agentmem -e AGENTMEM_AGENT=nori -e AGENTMEM_PROJECT=checkout-service -- agentmem mcp",
			`claude -p "$PROMPT" --mcp-config .mcp.json --allowedTools mcp__agentmem`,
		},
		New: func() Runner { return &mcpCommand{} },
	})
}

type mcpCommand struct {
	session string
	verbose bool
}

func (c *mcpCommand) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.session, "session", "", "session `ID` of the session scope (env AGENTMEM_SESSION_ID, else AGENTMEM_RUN_ID)")
	fs.BoolVar(&c.verbose, "verbose", false, "log every tool call on stderr, not only failures")
}

func (c *mcpCommand) Run(ctx context.Context, in *Invocation) error {
	if err := in.NoArgs(""); err != nil {
		return err
	}
	scope, err := in.Scope()
	if err != nil {
		return err
	}
	agent, project := scope.Agent, scope.Project
	session := firstNonEmpty(strings.TrimSpace(c.session), in.settings.session())
	if session != "" {
		if err := agentmem.ValidateSessionID(session); err != nil {
			return Usagef("--session: %s", agentmem.ErrorMessage(err))
		}
	}
	client, err := in.Client(ctx)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if c.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(in.Stderr, &slog.HandlerOptions{Level: level})).With("component", "agentmem-mcp")
	srv, err := mcpserver.New(client, mcpserver.Config{
		Agent: agent, Project: project, Session: session, CallTimeout: in.Timeout(), Log: log, Version: in.Build.version(),
	})
	if err != nil {
		return Usagef("%v", err)
	}
	if session == "" {
		session = "none (session-scope calls will fail)"
	}
	log.Info("serving memory tools on stdio", "agent", agent, "project", project, "session", session,
		"tools", len(mcpserver.Tools), "callTimeout", in.Timeout().String())
	// A client that closes its end right after its last request still gets
	// every answer: the transport waits for them (at most a call's timeout).
	err = srv.Run(ctx, mcpserver.Transport(in.Stdin, in.Stdout, in.Timeout()+time.Second))
	switch {
	case err == nil, errors.Is(err, io.EOF):
		log.Info("client closed the connection")
		return nil
	case ctx.Err() != nil:
		log.Info("stopped", "reason", context.Cause(ctx))
		return nil
	}
	return fmt.Errorf("serve MCP: %w", err)
}
