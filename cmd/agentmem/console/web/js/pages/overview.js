// Overview: every scope (agent × project) with its counts by type and
// source, size, last change and Deep Dream status, sortable, with a chart
// of memories per scope. GET /api/stats lists the scopes; each scope's
// GET .../stats adds its dream status.
import { h, route, fill } from '../ui/dom.js';
import { allStats, scopeStats } from '../api/stats.js';
import { isAbort } from '../api/http.js';
import { sortable } from '../ui/table.js';
import { barChart } from '../ui/chart.js';
import { bytes, count, countsText, time, ago } from '../ui/format.js';
import { errorBox } from '../ui/errors.js';

const PAGE = 100;
// STATUS_WORKERS bounds the per-scope stats calls in flight.
const STATUS_WORKERS = 4;

function scopeHref(r) {
  return route('agents', r.agentName, 'projects', r.projectId);
}

function dreamCell(r) {
  const d = r.dream;
  if (!d) return h('span', { class: 'muted' }, r.dreamError ? 'unknown' : '…');
  const parts = [];
  if (d.pending) parts.push(h('span', { class: 'badge warn', title: `daily content waiting since ${d.pendingSince}` }, `pending ${ago(d.pendingSince)}`));
  if (d.lastDreamAt) parts.push(h('span', { class: 'muted', title: d.lastDreamAt }, ` last ${ago(d.lastDreamAt)}`));
  if (!parts.length) parts.push(h('span', { class: 'muted' }, 'nothing to dream'));
  return h('a', { href: route('agents', r.agentName, 'projects', r.projectId, 'dreams'), class: 'plain' }, parts);
}

// dreamRank sorts pending scopes first, longest waiting first.
function dreamRank(r) {
  if (!r.dream) return '';
  return r.dream.pending ? `1 ${invert(r.dream.pendingSince)}` : `0 ${r.dream.lastDreamAt || ''}`;
}

function invert(iso) {
  return String(9e15 - Date.parse(iso || 0));
}

export async function render(main, _params, ctx) {
  const { signal, query } = ctx;
  const first = await allStats({ limit: PAGE, signal });
  const rows = first.scopes.map((r) => ({ ...r }));
  let cursor = first.nextCursor;
  const t = first.totals;

  const filterInput = h('input', { type: 'search', id: 'scope-filter', placeholder: 'agent or project', value: query.get('q') || '' });
  const columns = [
    { key: 'agentName', label: 'Agent', cell: (r) => h('a', { href: scopeHref(r) }, r.agentName) },
    { key: 'projectId', label: 'Project', cell: (r) => h('a', { href: scopeHref(r) }, r.projectId) },
    { key: 'total', label: 'Memories', numeric: true, value: (r) => r.total, cell: (r) => count(r.total) },
    { key: 'byType', label: 'By type', value: (r) => countsText(r.byType), cell: (r) => h('span', { class: 'counts' }, countsText(r.byType) || '—') },
    { key: 'bySource', label: 'By source', value: (r) => countsText(r.bySource), cell: (r) => h('span', { class: 'counts' }, countsText(r.bySource) || '—') },
    { key: 'bytes', label: 'Size', numeric: true, value: (r) => r.bytes, cell: (r) => bytes(r.bytes) },
    { key: 'changedAt', label: 'Last change', value: (r) => r.changedAt || r.updatedAt || '', cell: (r) => time(r.changedAt || r.updatedAt) },
    { key: 'dream', label: 'Deep Dream', value: dreamRank, cell: dreamCell },
  ];
  const visible = () => {
    const q = filterInput.value.trim().toLowerCase();
    return q ? rows.filter((r) => r.agentName.toLowerCase().includes(q) || r.projectId.toLowerCase().includes(q)) : rows;
  };
  const table = sortable({
    columns, rows: visible(),
    state: { sort: query.get('sort') || 'total', dir: query.get('dir') || 'desc' },
    onSort: (st) => ctx.setQuery({ ...st, q: filterInput.value.trim() }),
    caption: 'Scopes: one agent in one project',
    empty: 'No agent holds memories yet. Add one with agentmem add, or let an agent run with agentmem extract.',
  });
  const chartSlot = h('div', { class: 'chart-slot' });
  const drawChart = () => {
    const items = visible().map((r) => ({ label: `${r.agentName} / ${r.projectId}`, value: r.total, href: scopeHref(r) }));
    fill(chartSlot, items.length ? barChart(items, { title: 'Memories per scope (the 20 largest)' }) : h('p', { class: 'muted' }, 'No scopes to chart.'));
  };
  filterInput.addEventListener('input', () => {
    table.update(visible());
    drawChart();
    ctx.setQuery({ sort: query.get('sort'), dir: query.get('dir'), q: filterInput.value.trim() });
  });
  const more = h('button', { type: 'button', class: 'button', hidden: !cursor }, 'Load more scopes');
  const moreError = h('div');
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const page = await allStats({ limit: PAGE, cursor, signal });
      rows.push(...page.scopes.map((r) => ({ ...r })));
      cursor = page.nextCursor;
      more.hidden = !cursor;
      table.update(visible());
      drawChart();
      loadStatuses(page.scopes.length);
    } catch (err) {
      if (!isAbort(err)) fill(moreError, errorBox(err, 'Loading more scopes'));
    } finally {
      more.disabled = false;
    }
  });

  fill(main, 
    h('h1', {}, 'Overview'),
    h('section', { class: 'totals', 'aria-label': 'Totals over every scope' },
      stat('Scopes', count(t.scopes)), stat('Memories', count(t.total)), stat('Size', bytes(t.bytes)),
      stat('By type', countsText(t.byType) || '—', true), stat('By source', countsText(t.bySource) || '—', true), stat('Last change', time(t.updatedAt), true)),
    h('section', { 'aria-labelledby': 'chart-title' }, h('h2', { id: 'chart-title' }, 'Memories per scope'), chartSlot),
    h('section', { 'aria-labelledby': 'scopes-title' },
      h('div', { class: 'section-head' }, h('h2', { id: 'scopes-title' }, 'Scopes'),
        h('label', { class: 'inline', for: 'scope-filter' }, 'Filter ', filterInput)),
      table.element, more, moreError),
  );
  drawChart();

  // The dream status of each scope, a few calls at a time, newest rows
  // first; the table re-sorts as they come.
  let next = 0;
  function loadStatuses() {
    const worker = async () => {
      while (next < rows.length && !signal.aborted) {
        const r = rows[next];
        next += 1;
        if (r.dream) continue;
        try {
          const st = await scopeStats(r.agentName, r.projectId, { signal });
          r.dream = st.dream || {};
        } catch (err) {
          if (isAbort(err)) return;
          r.dreamError = err;
        }
        table.resort();
      }
    };
    for (let i = 0; i < STATUS_WORKERS; i += 1) worker();
  }
  loadStatuses();
}

function stat(label, value, small = false) {
  return h('div', { class: 'stat' }, h('div', { class: 'stat-label' }, label), h('div', { class: ['stat-value', small && 'text'] }, value));
}
