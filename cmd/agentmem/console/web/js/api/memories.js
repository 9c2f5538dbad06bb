// Memories: list, get, create, delete, search, and the edits today's API
// allows.
//
// The seam for issue 11 (updates with history): today the API has no
// update route, so `capabilities.update` is false and `update` replaces a
// memory: it re-reads it (optimistic concurrency by comparison), writes
// the edited copy (a new id, source manual, created now) and deletes the
// old one. When PATCH /api/agents/{agentName}/memories/{id} and
// GET .../memories/{id}/history land, `update` sends the PATCH with the
// version the page read, `history` reads the versions, `restore` puts one
// back, and the flags turn true; the pages already branch on them.
import { call, agentPath, APIError } from './http.js';

export const capabilities = {
  // update keeps the id and records a version (issue 11); false: replace.
  update: false,
  // history lists a memory's versions and what superseded it (issue 11).
  history: false,
};

// TYPES are the memory types, in MEMORY.md order.
export const TYPES = ['pattern', 'decision', 'blocker', 'finding', 'learning', 'note', 'session'];
export const SOURCES = ['extraction', 'manual', 'system'];

// list returns {memories, nextCursor}, newest first.
export async function list(agent, project, { type, limit = 50, cursor, signal } = {}) {
  return (await call('GET', agentPath(agent, 'memories'), { query: { projectId: project, type, limit, cursor }, signal })).data;
}

export async function get(agent, id, { signal } = {}) {
  return (await call('GET', agentPath(agent, 'memories', id), { signal })).data;
}

export async function create(agent, input) {
  return (await call('POST', agentPath(agent, 'memories'), { body: input })).data;
}

export async function remove(agent, id) {
  await call('DELETE', agentPath(agent, 'memories', id));
}

// search returns {query, mode, searched, results: [{...memory, score}]}.
export async function search(agent, project, q, { type, limit = 50, signal } = {}) {
  return (await call('GET', agentPath(agent, 'memories', 'search'), { query: { projectId: project, q, type, limit }, signal })).data;
}

// TYPED_FIELDS are the typed fields each type takes (BRIEF §3).
export const TYPED_FIELDS = {
  decision: ['rationale'],
  blocker: ['status'],
  pattern: ['trigger', 'context', 'solution', 'confidence'],
};

// inputOf is the create body that stores memory m as it is.
export function inputOf(m) {
  const input = { projectId: m.projectId, content: m.content, type: m.type };
  for (const f of TYPED_FIELDS[m.type] || []) {
    if (m[f] !== undefined && m[f] !== null && m[f] !== '') input[f] = m[f];
  }
  if (m.tags && m.tags.length) input.tags = [...m.tags];
  if (m.pinned) input.pinned = true;
  if (m.runId) input.runId = m.runId;
  return input;
}

// EDITABLE are the fields an edit may change (and compares).
const EDITABLE = ['content', 'type', 'rationale', 'status', 'trigger', 'context', 'solution', 'confidence', 'pinned', 'tags'];

function same(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

// changedSince names the fields of current that differ from seen.
export function changedSince(seen, current) {
  return EDITABLE.filter((f) => !same(f === 'pinned' ? Boolean(seen[f]) : seen[f], f === 'pinned' ? Boolean(current[f]) : current[f]));
}

// update applies changes to the memory the page showed (seen). It fails
// with a conflict when someone changed or removed the memory since. Today
// (no update route) it replaces the memory and resolves to
// {memory: the new one, replaced: true}; the old id is gone.
export async function update(agent, seen, changes) {
  let current;
  try {
    current = await get(agent, seen.id);
  } catch (err) {
    if (err instanceof APIError && err.status === 404) {
      throw new APIError(409, 'conflict', `memory ${seen.id} was deleted or replaced since you opened it; reload to see the current memories`, 'GET', err.path);
    }
    throw err;
  }
  const moved = changedSince(seen, current);
  if (moved.length) {
    throw new APIError(409, 'conflict', `memory ${seen.id} changed since you opened it (${moved.join(', ')}); reload and edit again`, 'GET', agentPath(agent, 'memories', seen.id));
  }
  const next = { ...current, ...changes };
  const input = inputOf(next);
  if (!TYPED_FIELDS[input.type]) {
    for (const f of ['rationale', 'status', 'trigger', 'context', 'solution', 'confidence']) delete input[f];
  }
  const created = await create(agent, input);
  try {
    await remove(agent, seen.id);
  } catch (err) {
    err.message = `saved the edit as memory ${created.id}, but the old memory ${seen.id} could not be deleted: ${err.message}`;
    err.partial = created;
    throw err;
  }
  return { memory: created, replaced: true };
}
