// Personalities: list, get, create or replace (optimistic concurrency by
// version), delete.
import { call, agentPath } from './http.js';

export async function list({ signal } = {}) {
  return (await call('GET', '/api/personalities', { signal })).data.personalities || [];
}

export async function get(agent, { signal } = {}) {
  return (await call('GET', agentPath(agent, 'personality'), { signal })).data;
}

// put writes the personality; version is the one read (0: must not exist).
export async function put(agent, input, version) {
  return (await call('PUT', agentPath(agent, 'personality'), { body: { ...input, version } })).data;
}

export async function remove(agent) {
  await call('DELETE', agentPath(agent, 'personality'));
}
