// Bootstrap: GET .../bootstrap, what `agentmem inject` receives: the
// personality, its CLAUDE.md section and MEMORY.md exactly as written.
import { call, agentPath } from './http.js';

export async function bootstrap(agent, project, { task, signal } = {}) {
  return (await call('GET', agentPath(agent, 'bootstrap'), { query: { projectId: project, task }, signal })).data;
}
