// An agent in a project: the MEMORY.md the agent will receive and its
// personality section (what agentmem inject writes), the memories as a
// table (filters, search with scores, pin, edit, delete), the daily log
// by day, and the session context.
import { h, route, withQuery, uid, fill } from '../ui/dom.js';
import { isAbort, APIError } from '../api/http.js';
import { scopeStats } from '../api/stats.js';
import { bootstrap } from '../api/bootstrap.js';
import * as memories from '../api/memories.js';
import * as daily from '../api/daily.js';
import * as sessions from '../api/sessions.js';
import { SESSION_ID_PATTERN, KEY_PATTERN, NAME_RULE } from '../api/names.js';
import { sortable } from '../ui/table.js';
import { render as markdown } from '../ui/markdown.js';
import { bytes, count, countsText, time, today, addDays, ago, plural } from '../ui/format.js';
import { errorBox } from '../ui/errors.js';
import { confirm } from '../ui/dialog.js';
import { report } from '../ui/toast.js';
import * as actions from './memoryactions.js';

const TABS = [
  ['memory', 'MEMORY.md'],
  ['memories', 'Memories'],
  ['daily', 'Daily log'],
  ['session', 'Session context'],
];

export async function render(main, params, ctx) {
  const { agent, project } = params;
  const tab = params.tab || 'memory';
  if (!TABS.some(([k]) => k === tab)) {
    throw new APIError(404, 'not_found', `no tab ${tab}: the tabs are ${TABS.map(([k]) => k).join(', ')}`);
  }
  const stats = await scopeStats(agent, project, { signal: ctx.signal });
  const base = route('agents', agent, 'projects', project);
  const nav = h('nav', { class: 'tabs', 'aria-label': 'Sections' },
    TABS.map(([k, label]) => h('a', { href: k === 'memory' ? base : `${base}/${k}`, 'aria-current': k === tab ? 'page' : null }, label)),
    h('a', { href: `${base}/dreams` }, 'Dreams'),
    h('a', { href: route('personalities', agent) }, 'Personality'));
  const d = stats.dream || {};
  const summary = h('p', { class: 'summary' },
    `${plural(stats.total, 'memory', 'memories')} · ${bytes(stats.bytes)} · limit ${count(stats.limit)}`,
    stats.total ? ` · ${countsText(stats.byType)}` : '',
    ' · ', d.pending ? h('span', { class: 'badge warn' }, `dream pending since ${ago(d.pendingSince)}`) : h('span', { class: 'muted' }, d.lastDreamAt ? `last dream ${ago(d.lastDreamAt)}` : 'never dreamed'));
  const body = h('div', { class: 'tab-body' });
  fill(main, 
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'Overview'), ' / ', `${agent} in ${project}`),
    h('h1', {}, `${agent} in ${project}`),
    summary, nav, body);
  const pages = { memory: memoryTab, memories: memoriesTab, daily: dailyTab, session: sessionTab };
  await pages[tab](body, { agent, project, stats, base }, ctx);
}

// memoryTab shows what inject writes, exactly.
async function memoryTab(body, { agent, project }, ctx) {
  const b = await bootstrap(agent, project, { signal: ctx.signal });
  const raw = ctx.query.get('view') !== 'rendered';
  const toggle = h('div', { class: 'toggle', role: 'group', 'aria-label': 'How to show MEMORY.md' },
    h('a', { href: withQuery(route('agents', agent, 'projects', project), {}), 'aria-current': raw ? 'true' : null }, 'As written'),
    h('a', { href: withQuery(route('agents', agent, 'projects', project), { view: 'rendered' }), 'aria-current': raw ? null : 'true' }, 'Rendered'));
  const file = b.memoryFile
    ? (raw ? h('pre', { class: 'file', tabindex: '0', 'aria-label': 'MEMORY.md as written' }, b.memoryFile) : h('div', { class: 'file rendered' }, markdown(b.memoryFile)))
    : h('p', { class: 'muted' }, 'No memories: inject writes no MEMORY.md (and removes one an earlier run wrote).');
  const personality = b.personality
    ? [h('p', {}, h('span', {}, b.personality.displayName || agent), `, version ${b.personality.version}. `, h('a', { href: route('personalities', agent) }, 'Edit the personality')),
      h('pre', { class: 'file', tabindex: '0', 'aria-label': 'Personality section as written' }, b.personalitySection)]
    : [h('p', { class: 'muted' }, `${agent} has no personality: inject leaves CLAUDE.md without a personality section. `, h('a', { href: withQuery(route('personalities', agent), { new: '1' }) }, 'Create one'))];
  fill(body, 
    h('section', { 'aria-labelledby': 'mf-title' },
      h('div', { class: 'section-head' }, h('h2', { id: 'mf-title' }, '.claude/memory/MEMORY.md'), toggle),
      h('p', { class: 'note' }, `What agentmem inject writes for the next run: ${plural(b.memoryCount, 'memory', 'memories')}, byte for byte as the bootstrap route returns it.`),
      file),
    h('section', { 'aria-labelledby': 'ps-title' },
      h('h2', { id: 'ps-title' }, 'Personality section of CLAUDE.md'), personality));
}

// memoriesTab is the table of memories with filters and search.
async function memoriesTab(body, { agent, project, base }, ctx) {
  const { query, signal } = ctx;
  const state = { type: query.get('type') || '', source: query.get('source') || '', q: query.get('q') || '' };
  const typeSel = h('select', { id: uid('type'), value: state.type }, h('option', { value: '' }, 'all types'), memories.TYPES.map((t) => h('option', { value: t }, t)));
  const sourceSel = h('select', { id: uid('source'), value: state.source }, h('option', { value: '' }, 'all sources'), memories.SOURCES.map((t) => h('option', { value: t }, t)));
  const qInput = h('input', { type: 'search', id: uid('q'), name: 'q', value: state.q, placeholder: 'search words' });
  const filters = h('form', { class: 'filters', role: 'search' },
    h('label', { for: typeSel.id }, 'Type ', typeSel),
    h('label', { for: sourceSel.id }, 'Source ', sourceSel),
    h('label', { for: qInput.id }, 'Search ', qInput),
    h('button', { type: 'submit', class: 'button' }, 'Apply'),
    h('button', { type: 'button', class: 'button', on: { click: async () => {
      const created = await actions.create(agent, project);
      if (created) ctx.reload();
    } } }, 'Add a memory'));
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    ctx.navigate(withQuery(`${base}/memories`, { type: typeSel.value, source: sourceSel.value, q: qInput.value.trim() }));
  });
  sourceSel.addEventListener('change', () => filters.requestSubmit());
  typeSel.addEventListener('change', () => filters.requestSubmit());

  const searching = Boolean(state.q);
  let rows = [];
  let cursor = '';
  let info = '';
  if (searching) {
    const res = await memories.search(agent, project, state.q, { type: state.type, signal });
    rows = res.results;
    info = `${plural(res.results.length, 'result')} of ${count(res.searched)} memories searched (${res.mode}), best first.`;
  } else {
    const page = await memories.list(agent, project, { type: state.type, signal });
    rows = page.memories;
    cursor = page.nextCursor || '';
  }
  const shown = () => (state.source ? rows.filter((m) => m.source === state.source) : rows);
  const refresh = () => ctx.reload();
  const columns = [
    searching ? { key: 'score', label: 'Score', numeric: true, cell: (m) => m.score.toFixed(3) } : null,
    { key: 'createdAt', label: 'Created', cell: (m) => time(m.createdAt) },
    { key: 'type', label: 'Type', cell: (m) => h('span', { class: ['badge', `t-${m.type}`] }, m.type) },
    { key: 'source', label: 'Source' },
    { key: 'content', label: 'Memory', cell: (m) => memoryText(m) },
    { key: 'pinned', label: 'Pinned', value: (m) => (m.pinned ? 1 : 0), cell: (m) => (m.pinned ? h('span', { class: 'pin', title: 'pinned' }, '★ pinned') : '') },
    {
      key: 'actions', label: 'Actions', sortable: false,
      cell: (m) => h('div', { class: 'row-actions' },
        h('a', { href: route('agents', agent, 'projects', project, 'memories', m.id), class: 'button small', 'aria-label': `Open memory ${m.id}` }, 'Open'),
        h('button', { type: 'button', class: 'button small', 'data-action': 'edit', 'data-id': m.id, on: { click: async () => { if (await actions.edit(agent, m)) refresh(); } } }, 'Edit'),
        h('button', { type: 'button', class: 'button small', 'data-action': 'pin', 'data-id': m.id, on: { click: async () => { if (await actions.togglePin(agent, m)) refresh(); } } }, m.pinned ? 'Unpin' : 'Pin'),
        h('button', { type: 'button', class: 'button small danger', 'data-action': 'delete', 'data-id': m.id, on: { click: async () => { if (await actions.remove(agent, m)) refresh(); } } }, 'Delete')),
    },
  ].filter(Boolean);
  const table = sortable({
    columns, rows: shown(),
    state: { sort: searching ? 'score' : 'createdAt', dir: 'desc' },
    caption: searching ? `Search: ${state.q}` : 'Memories, newest first',
    empty: searching ? 'No memory matches.' : 'No memories match these filters.',
  });
  const more = h('button', { type: 'button', class: 'button', hidden: !cursor }, 'Load older memories');
  const moreError = h('div');
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const page = await memories.list(agent, project, { type: state.type, cursor, signal });
      rows = rows.concat(page.memories);
      cursor = page.nextCursor || '';
      more.hidden = !cursor;
      table.update(shown());
    } catch (err) {
      if (!isAbort(err)) fill(moreError, errorBox(err, 'Loading older memories'));
    } finally {
      more.disabled = false;
    }
  });
  fill(body, 
    h('h2', {}, 'Memories'),
    filters,
    state.source ? h('p', { class: 'note' }, `Showing source ${state.source} only (filtered in the page; the API filters by type).`) : null,
    info ? h('p', { class: 'note' }, info) : null,
    table.element, more, moreError);
}

// memoryText shows a memory's text and typed fields, as text, each field
// in an element of its own (stored text may hold bidirectional controls).
export function memoryText(m) {
  const extra = [];
  if (m.rationale) extra.push(`why: ${m.rationale}`);
  if (m.type === 'blocker' && m.status) extra.push(`status: ${m.status}`);
  if (m.trigger) extra.push(`when: ${m.trigger}`);
  if (m.context) extra.push(`context: ${m.context}`);
  if (m.solution) extra.push(`do: ${m.solution}`);
  if (m.confidence !== undefined && m.confidence !== null && m.type === 'pattern') extra.push(`confidence: ${Number(m.confidence).toFixed(2)}`);
  if (m.tags && m.tags.length) extra.push(`tags: ${m.tags.join(', ')}`);
  const fields = extra.flatMap((f, i) => [i ? ' · ' : null, h('span', {}, f)]);
  return h('div', { class: 'memory-text' }, h('div', { class: 'content' }, m.content), extra.length ? h('div', { class: 'fields' }, fields) : null);
}

// dailyTab shows the daily log one day at a time.
async function dailyTab(body, { agent, project, stats, base }, ctx) {
  const last = stats.dream && stats.dream.lastAppendAt ? stats.dream.lastAppendAt.slice(0, 10) : today();
  const date = ctx.query.get('date') || last;
  const dateInput = h('input', { type: 'date', id: uid('date'), value: date });
  const go = (d) => ctx.navigate(withQuery(`${base}/daily`, { date: d }));
  dateInput.addEventListener('change', () => dateInput.value && go(dateInput.value));
  const picker = h('div', { class: 'filters' },
    h('a', { class: 'button small', href: withQuery(`${base}/daily`, { date: addDays(date, -1) }) }, '← Previous day'),
    h('label', { for: dateInput.id }, 'Day ', dateInput),
    h('a', { class: 'button small', href: withQuery(`${base}/daily`, { date: addDays(date, 1) }) }, 'Next day →'),
    last !== date ? h('a', { class: 'button small', href: withQuery(`${base}/daily`, { date: last }) }, `Latest (${last})`) : null);
  let content;
  try {
    const day = await daily.day(agent, project, date, { signal: ctx.signal });
    content = h('ol', { class: 'records' }, day.records.map((r) => h('li', { class: 'record' },
      h('div', { class: 'record-head' }, h('strong', {}, r.title || '(untitled)'), ' ', time(r.at)),
      h('div', { class: 'record-body' }, markdown(r.content)))));
  } catch (err) {
    if (err instanceof APIError && err.status === 404) content = h('p', { class: 'muted' }, `No daily records on ${date}.`);
    else throw err;
  }
  fill(body, h('h2', {}, `Daily log, ${date}`),
    h('p', { class: 'note' }, 'The medium-term tier: what runs appended (summaries, trimmed session context); Deep Dream consolidates it into the memories.'),
    picker, content);
}

// sessionTab reads and writes the project's session context by key: the
// API lists no keys, so a person names the session and the key.
async function sessionTab(body, { project, stats }, ctx) {
  const usage = (stats.byScope && stats.byScope.session) || {};
  const session = h('input', { type: 'text', id: uid('session'), name: 'session', required: true, value: ctx.query.get('session') || '' });
  const key = h('input', { type: 'text', id: uid('key'), name: 'key', required: true, value: ctx.query.get('key') || '' });
  const value = h('textarea', { id: uid('value'), name: 'value', rows: 4 });
  const out = h('div', { class: 'result', 'aria-live': 'polite' });
  const need = () => {
    if (!session.value.trim() || !key.value.trim()) {
      fill(out, h('p', { class: 'error' }, 'Name the session and the key.'));
      return false;
    }
    for (const [input, what, pattern] of [[session, 'session id', SESSION_ID_PATTERN], [key, 'key', KEY_PATTERN]]) {
      if (!new RegExp(pattern).test(input.value.trim())) {
        fill(out, h('p', { class: 'error' }, `The ${what} "${input.value.trim()}" is not a name: 1 to 128 ${NAME_RULE}.`));
        return false;
      }
    }
    ctx.setQuery({ session: session.value.trim(), key: key.value.trim() });
    return true;
  };
  const read = async () => {
    if (!need()) return;
    try {
      const v = await sessions.get(project, session.value.trim(), key.value.trim());
      value.value = v.value;
      fill(out, h('p', {}, `Read ${v.key}: set ${ago(v.updatedAt)}, expires ${v.expiresAt ? time(v.expiresAt).textContent : 'with the session'}.`));
    } catch (err) {
      fill(out, errorBox(err, 'Read'));
    }
  };
  const write = async () => {
    if (!need()) return;
    try {
      await sessions.put(project, session.value.trim(), key.value.trim(), value.value);
      report(`Set ${key.value.trim()} in session ${session.value.trim()}.`);
      fill(out, h('p', {}, 'Saved.'));
    } catch (err) {
      fill(out, errorBox(err, 'Set'));
    }
  };
  const del = async () => {
    if (!need()) return;
    const ok = await confirm({ title: 'Delete this key?', body: h('p', {}, `Key ${key.value.trim()} of session ${session.value.trim()} in ${project} will be deleted.`), confirmLabel: 'Delete', danger: true });
    if (!ok) return;
    try {
      await sessions.remove(project, session.value.trim(), key.value.trim());
      report(`Deleted ${key.value.trim()} from session ${session.value.trim()}.`);
      value.value = '';
      fill(out, h('p', {}, 'Deleted.'));
    } catch (err) {
      fill(out, errorBox(err, 'Delete'));
    }
  };
  const endSession = async () => {
    if (!session.value.trim()) {
      fill(out, h('p', { class: 'error' }, 'Name the session.'));
      return;
    }
    const ok = await confirm({ title: 'End this session?', body: h('p', {}, `Every key of session ${session.value.trim()} in project ${project} will be deleted, for every agent of the project.`), confirmLabel: 'End session', danger: true });
    if (!ok) return;
    try {
      const r = await sessions.end(project, session.value.trim());
      report(`Ended session ${session.value.trim()}: ${plural(r.deleted, 'key')} deleted.`);
      fill(out, h('p', {}, `Ended: ${plural(r.deleted, 'key')} deleted.`));
    } catch (err) {
      fill(out, errorBox(err, 'End session'));
    }
  };
  fill(body, 
    h('h2', {}, 'Session context'),
    h('p', { class: 'note' }, `Short-lived key/values shared by the agents of ${project} during one session (a pipeline run), gone when it ends or expires. Live now: ${plural(usage.sessions || 0, 'session')}, ${plural(usage.total || 0, 'key')}, ${bytes(usage.bytes || 0)}. The API lists no keys: name the session and the key to read one.`),
    h('form', { class: 'stack narrow', on: { submit: (e) => { e.preventDefault(); read(); } } },
      h('div', { class: 'field' }, h('label', { for: session.id }, 'Session id'), session),
      h('div', { class: 'field' }, h('label', { for: key.id }, 'Key'), key),
      h('div', { class: 'field' }, h('label', { for: value.id }, 'Value'), value),
      h('div', { class: 'actions left' },
        h('button', { type: 'submit', class: 'button primary' }, 'Read'),
        h('button', { type: 'button', class: 'button', on: { click: write } }, 'Set'),
        h('button', { type: 'button', class: 'button danger', on: { click: del } }, 'Delete key'),
        h('button', { type: 'button', class: 'button danger', on: { click: endSession } }, 'End session'))),
    out);
}
