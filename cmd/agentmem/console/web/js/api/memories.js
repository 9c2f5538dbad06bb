// Memories: list, get, create, delete, search, and their edits with
// history: `update` sends PATCH .../memories/{id} with the
// version the page read (a change since is a 409 conflict, shown as the
// API says it), `history` reads the versions, `restore` puts one back.
import { call, agentPath } from './http.js';

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

// create stores a memory; resolves to the API's answer: the memory, with
// duplicate: true (and nothing stored) when one already says the same.
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

// patchOf is the PATCH body that turns seen into seen + changes: the
// version seen, and the fields that differ.
export function patchOf(seen, changes) {
  const body = { version: seen.version || 1 };
  const next = { ...changes };
  if (seen.tags && seen.tags.length && !next.tags) next.tags = [];
  for (const f of EDITABLE) {
    if (!(f in next) || next[f] === undefined) continue;
    const before = f === 'pinned' ? Boolean(seen[f]) : seen[f];
    const after = f === 'pinned' ? Boolean(next[f]) : next[f];
    if (f === 'type' || !same(before ?? (f === 'tags' ? [] : ''), after ?? (f === 'tags' ? [] : ''))) body[f] = after;
  }
  if (body.type === (seen.type || 'note')) delete body.type;
  return body;
}

// update applies changes to the memory the page showed (seen) as its next
// version; the API refuses (409 conflict) when someone changed it since.
// Resolves to {memory, changed}.
export async function update(agent, seen, changes, { note } = {}) {
  const body = patchOf(seen, changes);
  if (note) body.note = note;
  if (Object.keys(body).filter((k) => k !== 'version' && k !== 'note').length === 0) return { memory: seen, changed: false };
  const memory = (await call('PATCH', agentPath(agent, 'memories', seen.id), { body })).data;
  return { memory, changed: memory.version !== seen.version };
}

// history returns {id, state, supersededBy, current, versions: [...]},
// newest first.
export async function history(agent, id, { limit = 50, cursor, signal } = {}) {
  return (await call('GET', agentPath(agent, 'memories', id, 'history'), { query: { limit, cursor }, signal })).data;
}

// restore puts version back as the memory's next one (or brings back a
// superseded or retired memory); current, when given, is the version the
// page read. Resolves to the memory.
export async function restore(agent, id, version, { current, note } = {}) {
  const body = {};
  if (current) body.version = current;
  if (note) body.note = note;
  return (await call('POST', agentPath(agent, 'memories', id, 'history', String(version), 'restore'), { body })).data;
}
