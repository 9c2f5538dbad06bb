// Session context: the key/values of a project's session (seed 003).
import { call, segment } from './http.js';

function keyPath(project, session, key) {
  return ['/api/projects', segment(project), 'sessions', segment(session), 'context', segment(key)].join('/');
}

export async function get(project, session, key) {
  return (await call('GET', keyPath(project, session, key))).data;
}

export async function put(project, session, key, value, ttlSeconds) {
  const body = { value };
  if (ttlSeconds) body.ttlSeconds = ttlSeconds;
  return (await call('PUT', keyPath(project, session, key), { body })).data;
}

export async function remove(project, session, key) {
  await call('DELETE', keyPath(project, session, key));
}

// end deletes every key of the session; resolves to {deleted}.
export async function end(project, session) {
  return (await call('DELETE', ['/api/projects', segment(project), 'sessions', segment(session)].join('/'))).data;
}
