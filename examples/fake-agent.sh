#!/usr/bin/env bash
# fake-agent.sh: stands in for `claude -p PROMPT` in examples/agent-entrypoint.sh.
# It reports what agentmem inject gave it, commits a file with the git
# identity it found, and exits with FAKE_AGENT_EXIT (default 0).
set -euo pipefail
prompt=${!#}
echo "fake agent: prompt: ${prompt%%$'\n'*}"
if grep -q '^# Personality$' CLAUDE.md; then
  echo "fake agent: personality: $(sed -n 's/^You are \*\*\(.*\)\*\*\..*/\1/p' CLAUDE.md | head -1)"
else
  echo "fake agent: personality: none"
fi
if [ -f .claude/memory/MEMORY.md ]; then
  echo "fake agent: memories: $(grep -c '^- ' .claude/memory/MEMORY.md)"
else
  echo "fake agent: memories: none"
fi
echo "fake agent: imports MEMORY.md: $(grep -cx '@.claude/memory/MEMORY.md' CLAUDE.md || true)"
echo "retries are idempotent now" > webhook-notes.md
git add webhook-notes.md
git commit --quiet -m "Make webhook retries idempotent"
echo "fake agent: committed as $(git log -1 --format='%an <%ae>')"
echo "Learned: the payment provider retries webhooks 3 times; dedupe on the event id."
exit "${FAKE_AGENT_EXIT:-0}"
