// Package e2e holds agentmem's end-to-end tests with the real Claude Code:
// the CLI of npm's @anthropic-ai/claude-code, pinned with its lockfile in
// tools/e2e and installed by `make test` (or `make e2e-tools`: npm ci
// --prefix tools/e2e), runs in print mode against anthropictest, a
// stand-in of the Anthropic Messages API that records what reaches the
// model, with the agentmem binary built from this module and the real API
// over DynamoDB Local.
//
// The tests check what docs/SECURITY.md promises (no text stored in agentmem
// makes Claude Code load a file) and what README.md and docs/DEPLOY.md
// say about Claude Code: inject, extract --llm claude, the MCP server and
// the context flush hooks. They never skip: without the pinned client
// they fail and say how to install it. The MCP Inspector, pinned beside
// Claude Code, checks the MCP tool schemas in its --strict mode.
package e2e
