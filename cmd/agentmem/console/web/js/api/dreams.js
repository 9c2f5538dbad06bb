// Deep Dream: the diary, one day of it with each dream's plan and cited
// sources, running a dream and reverting one. What a dream changed is read
// into a diff by model/dreamdiff.js.
import { call, agentPath } from './http.js';

// list returns {dreams, nextCursor}, newest first.
export async function list(agent, project, { limit = 20, cursor, signal } = {}) {
  return (await call('GET', agentPath(agent, 'dreams'), { query: { projectId: project, limit, cursor }, signal })).data;
}

// day returns {date, dreams: [{...dream, written, replaced, sources}]}.
export async function day(agent, project, date, { plan = true, signal } = {}) {
  return (await call('GET', agentPath(agent, 'dreams', date), { query: { projectId: project, plan: plan ? 'true' : '' }, signal })).data;
}

// run asks the server to dream now: {status, reason?, dream?}.
export async function run(agent, project, { lookbackDays, keepManual, force } = {}) {
  const body = { projectId: project };
  if (lookbackDays) body.lookbackDays = lookbackDays;
  if (keepManual === false) body.keepManual = false;
  if (force) body.force = true;
  return (await call('POST', agentPath(agent, 'dreams'), { body })).data;
}

// revert restores the core as it was before the day's last dream.
export async function revert(agent, project, date) {
  return (await call('POST', agentPath(agent, 'dreams', date, 'revert'), { query: { projectId: project } })).data;
}
