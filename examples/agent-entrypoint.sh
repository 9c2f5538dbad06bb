#!/usr/bin/env bash
# agent-entrypoint.sh: an agent step of a pipeline with agentmem (seed 002,
# proposed flow). The memory steps (2b, 2c, 3, 6b) are best effort: with the
# API down they print one warning each and the step goes on; the step's exit
# status is the agent's.
#
#   1  bootstrap workspace             2  copy role CLAUDE.md
#   2b personality -> CLAUDE.md        2c memories -> .claude/memory/MEMORY.md
#   3  git identity from the personality
#   4  build prompt                    5  run the agent
#   6  push commits                    6b extract learnings from the output
#   7  exit with the agent's status
#
# Try it against `make dev` with a fake agent (after make cli):
#
#   AGENTMEM_AUTH=none AGENTMEM_API_URL=http://127.0.0.1:3000 AGENTMEM=bin/agentmem \
#   AGENT_NAME=nori PROJECT_ID=checkout-service AGENT_CMD=examples/fake-agent.sh \
#   examples/agent-entrypoint.sh
#
# Plain `make dev` has no LLM, so step 6b ends with a warning (503
# llm_unavailable) and saves nothing; the step still succeeds. Start make dev
# with an LLM (README: "Try the three tiers", tools/fakellm) or set
# EXTRACT_LLM=claude to extract with the claude CLI in this container.
#
# Settings (environment):
#   AGENT_NAME, PROJECT_ID  required: whose memory, which project
#   AGENTMEM_API_URL        the API (AGENTMEM_AUTH=none for make dev; in ECS
#                           the task role signs requests with SigV4)
#   WORKSPACE               the agent's workspace (default: a new temporary directory,
#                           removed at the end unless KEEP_WORKSPACE=1)
#   REPO_URL                cloned into WORKSPACE when set (else WORKSPACE is a new git repository)
#   ROLE_FILE               the role's CLAUDE.md (default: examples/roles/coder.md)
#   TASK                    the run's task (default: a sample task)
#   RUN_ID                  the pipeline run's id (default: generated)
#   AGENT_CMD               the agent; it gets the prompt as its last argument (default: claude -p)
#   AGENTMEM                the agentmem binary (default: agentmem on PATH)
#   AGENTMEM_EXTRACT_TIMEOUT  bound on step 6b; the server's LLM takes seconds (default 30s)
#   EXTRACT_LLM             empty: the server's LLM extracts (default); claude: the claude CLI
#                           here does (agentmem extract --llm claude)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${AGENT_NAME:?set AGENT_NAME (e.g. nori)}"
: "${PROJECT_ID:?set PROJECT_ID (e.g. checkout-service)}"
temporary_workspace=
if [ -z "${WORKSPACE:-}" ]; then
  WORKSPACE=$(mktemp -d "${TMPDIR:-/tmp}/agent-workspace.XXXXXX") || exit 1
  [ -n "${KEEP_WORKSPACE:-}" ] || temporary_workspace=$WORKSPACE
fi
output_log=
cleanup() {
  [ -z "$output_log" ] || rm -f "$output_log"
  [ -z "$temporary_workspace" ] || rm -rf "$temporary_workspace"
}
trap cleanup EXIT
ROLE_FILE=${ROLE_FILE:-$here/roles/coder.md}
TASK=${TASK:-Make the webhook handler idempotent and add a test for retried deliveries.}
RUN_ID=${RUN_ID:-run-$(date -u +%Y%m%dT%H%M%SZ)-$$}
AGENT_CMD=${AGENT_CMD:-claude -p}
AGENTMEM=${AGENTMEM:-agentmem}
AGENTMEM_EXTRACT_TIMEOUT=${AGENTMEM_EXTRACT_TIMEOUT:-30s}

log() { printf 'entrypoint: %s\n' "$*" >&2; }

# 1. Bootstrap the workspace.
if [ -n "${REPO_URL:-}" ]; then
  git clone --quiet "$REPO_URL" "$WORKSPACE" || { log "clone of $REPO_URL failed"; exit 1; }
else
  mkdir -p "$WORKSPACE" && git -C "$WORKSPACE" init --quiet || { log "cannot create $WORKSPACE"; exit 1; }
fi
if [ -n "$temporary_workspace" ]; then
  log "workspace $WORKSPACE (temporary: removed at the end; KEEP_WORKSPACE=1 keeps it), run $RUN_ID"
else
  log "workspace $WORKSPACE, run $RUN_ID"
fi

# 2. Copy the role's CLAUDE.md.
cp "$ROLE_FILE" "$WORKSPACE/CLAUDE.md" || { log "cannot copy $ROLE_FILE"; exit 1; }

# 2b, 2c, 3. One round trip: the personality is prepended to CLAUDE.md, the
# memories go to .claude/memory/MEMORY.md (imported by CLAUDE.md), and --git
# sets the git identity from the personality. Best effort: never fails.
"$AGENTMEM" inject --agent "$AGENT_NAME" --project "$PROJECT_ID" --workspace "$WORKSPACE" --git --task "$TASK"

# 3 (fallback). A git identity when there is no personality (or no API).
git -C "$WORKSPACE" config user.name >/dev/null || git -C "$WORKSPACE" config user.name "$AGENT_NAME (agent)"
git -C "$WORKSPACE" config user.email >/dev/null || git -C "$WORKSPACE" config user.email "$AGENT_NAME@agents.invalid"

# 4. Build the prompt.
prompt="You are working on project $PROJECT_ID. Task: $TASK
Commit your work with clear messages. End with a short summary of what you learned."

# 5. Run the agent in the workspace, keeping its output for step 6b.
output_log=$(mktemp "${TMPDIR:-/tmp}/agent-output.XXXXXX")
read -r -a agent_cmd <<<"$AGENT_CMD"
case ${agent_cmd[0]} in */*) [[ ${agent_cmd[0]} = /* ]] || agent_cmd[0]=$PWD/${agent_cmd[0]} ;; esac # runs from the workspace
(cd "$WORKSPACE" && "${agent_cmd[@]}" "$prompt") 2>&1 | tee "$output_log"
agent_status=${PIPESTATUS[0]}
log "agent exited with status $agent_status"

# 6. Push the commits when there is a remote.
if git -C "$WORKSPACE" remote get-url origin >/dev/null 2>&1; then
  git -C "$WORKSPACE" push --quiet origin HEAD || log "push failed"
fi

# 6b. Extract learnings from the output and save them (best effort).
extract_llm=()
if [ -n "${EXTRACT_LLM:-}" ]; then
  extract_llm=(--llm "$EXTRACT_LLM")
  log "extracting learnings with the $EXTRACT_LLM CLI"
else
  log "extracting learnings with the server's LLM (a server without one, like plain make dev, answers 503 llm_unavailable: one warning, nothing saved; EXTRACT_LLM=claude uses the claude CLI instead)"
fi
"$AGENTMEM" extract --agent "$AGENT_NAME" --project "$PROJECT_ID" --run-id "$RUN_ID" \
  --input "$output_log" --timeout "$AGENTMEM_EXTRACT_TIMEOUT" ${extract_llm[@]+"${extract_llm[@]}"}

# 7. The step's status is the agent's.
exit "$agent_status"
