// Stats: GET /api/stats (every scope, paginated) and GET .../stats (one
// scope: counts, usage by scope, eviction limit, Deep Dream status).
import { call, agentPath } from './http.js';

// allStats returns {totals, scopes, nextCursor}.
export async function allStats({ limit = 100, cursor, signal } = {}) {
  return (await call('GET', '/api/stats', { query: { limit, cursor }, signal })).data;
}

// scopeStats returns the counters of one agent in one project.
export async function scopeStats(agent, project, { signal } = {}) {
  return (await call('GET', agentPath(agent, 'stats'), { query: { projectId: project }, signal })).data;
}
