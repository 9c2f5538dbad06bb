// Daily log: GET .../daily?date=, one day of records.
import { call, agentPath } from './http.js';

// day returns {date, records: [{at, title, content, ...}]}; 404 when the
// day has no records.
export async function day(agent, project, date, { signal } = {}) {
  return (await call('GET', agentPath(agent, 'daily'), { query: { projectId: project, date }, signal })).data;
}
