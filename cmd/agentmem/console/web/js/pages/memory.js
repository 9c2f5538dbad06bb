// A memory: its fields, its actions (edit, pin, delete), its history of
// versions (who changed what, what superseded it), each version
// restorable, and the recent dreams of the scope that wrote or replaced
// it.
import { h, route, fill } from '../ui/dom.js';
import { APIError, isAbort } from '../api/http.js';
import * as memories from '../api/memories.js';
import * as dreams from '../api/dreams.js';
import { time } from '../ui/format.js';
import { errorBox } from '../ui/errors.js';
import { memoryText } from './scope.js';
import * as actions from './memoryactions.js';

// LINEAGE_DREAMS bounds the dreams searched for the memory's lineage.
const LINEAGE_DREAMS = 20;

export async function render(main, params, ctx) {
  const { agent, id } = params;
  let m = null;
  let missing = null;
  try {
    m = await memories.get(agent, id, { signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof APIError) || err.status !== 404) throw err;
    missing = err;
  }
  const project = params.project || (m && m.projectId);
  const base = project ? route('agents', agent, 'projects', project) : null;
  const crumbs = h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'Overview'), ' / ',
    base ? [h('a', { href: base }, `${agent} in ${project}`), ' / ', h('a', { href: `${base}/memories` }, 'Memories'), ' / '] : `${agent} / `, id);
  const lineage = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, project ? 'Reading the recent dreams…' : ''));
  const versions = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Reading the history…'));
  const parts = [crumbs, h('h1', {}, `Memory ${id}`)];
  const gone = m && m.state && m.state !== 'live';
  if (gone) {
    parts.push(h('p', { class: 'note state' }, m.state === 'superseded'
      ? ['This memory was superseded by ', h('a', { href: route('agents', agent, 'projects', project, 'memories', m.supersededBy) }, m.supersededBy),
        ': it is out of MEMORY.md, search and the lists. Restore a version below to bring it back.']
      : 'This memory was retired: it is out of MEMORY.md, search and the lists. Restore a version below to bring it back.'));
  }
  if (m) {
    const after = (saved) => {
      if (saved && saved.id !== m.id) ctx.navigate(route('agents', agent, 'projects', saved.projectId, 'memories', saved.id));
      else ctx.reload();
    };
    parts.push(
      h('div', { class: 'memory-card' }, memoryText(m)),
      h('dl', { class: 'props' },
        prop('Type', m.type), prop('Source', m.source), prop('Version', String(m.version || 1)), prop('Created', time(m.createdAt)),
        m.updatedAt ? prop('Changed', time(m.updatedAt)) : null,
        prop('Last used', time(m.lastAccessedAt)), prop('Pinned', m.pinned ? 'yes' : 'no'),
        m.runId ? prop('Run', m.runId) : null,
        m.sourceIds && m.sourceIds.length ? prop('Made from', m.sourceIds.map((s, i) => [i ? ', ' : '', h('a', { href: route('agents', agent, 'projects', project, 'memories', s) }, s)])) : null,
        m.supersedes && m.supersedes.length ? prop('Replaces', m.supersedes.map((s, i) => [i ? ', ' : '', h('a', { href: route('agents', agent, 'projects', project, 'memories', s) }, s)])) : null),
      gone ? null : h('div', { class: 'actions left' },
        h('button', { type: 'button', class: 'button primary', 'data-action': 'edit', on: { click: async () => after(await actions.edit(agent, m)) } }, 'Edit'),
        h('button', { type: 'button', class: 'button', 'data-action': 'pin', on: { click: async () => { const s = await actions.togglePin(agent, m); if (s) after(s); } } }, m.pinned ? 'Unpin' : 'Pin'),
        h('button', { type: 'button', class: 'button danger', 'data-action': 'delete', on: { click: async () => { if (await actions.remove(agent, m)) ctx.navigate(base ? `${base}/memories` : '#/'); } } }, 'Delete')));
  } else {
    parts.push(errorBox(missing, 'This memory is not in the scope now'));
  }
  parts.push(h('section', { 'aria-labelledby': 'hist-title' }, h('h2', { id: 'hist-title' }, 'History'), versions),
    h('section', { 'aria-labelledby': 'dreams-title' }, h('h2', { id: 'dreams-title' }, 'Dreams that touched it'), lineage));
  fill(main, ...parts);
  await readHistory(versions, agent, m || { id }, ctx);
  if (project) await readLineage(lineage, agent, project, id, ctx);
  else fill(lineage, h('p', { class: 'muted' }, 'Open this memory from its project to see its lineage.'));
}

// readHistory lists the memory's versions, newest first, each restorable
// but the current one.
async function readHistory(slot, agent, m, ctx) {
  let hist;
  try {
    hist = await memories.history(agent, m.id, { signal: ctx.signal });
  } catch (err) {
    if (!isAbort(err)) fill(slot, errorBox(err, 'Reading the history'));
    return;
  }
  const live = hist.state === 'live';
  fill(slot,
    h('p', { class: 'muted' }, `${hist.versions.length} version${hist.versions.length === 1 ? '' : 's'}, newest first; the memory is ${hist.state}${hist.supersededBy ? ` (superseded by ${hist.supersededBy})` : ''} at version ${hist.current}.`),
    h('ol', { class: 'versions' }, hist.versions.map((v) => h('li', { class: 'version', 'data-version': String(v.version) },
      h('div', { class: 'version-head' },
        h('strong', {}, `Version ${v.version}`), ' ', v.change,
        v.restoredFrom ? ` from version ${v.restoredFrom}` : '',
        v.supersededBy ? [' by ', h('a', { href: route('agents', agent, 'projects', hist.projectId, 'memories', v.supersededBy) }, v.supersededBy)] : '',
        ' ', time(v.at), ' · ', byText(v.by),
        v.changed && v.changed.length ? ` · changed ${v.changed.join(', ')}` : ''),
      h('div', { class: 'memory-card past' }, memoryText(v.memory)),
      live && v.version === hist.current ? null : h('button', {
        type: 'button', class: 'button small', 'data-action': 'restore', 'data-version': String(v.version),
        on: { click: async () => { if (await actions.restore(agent, m, v, hist)) ctx.reload(); } },
      }, `Restore version ${v.version}`)))),
    hist.nextCursor ? h('p', { class: 'note' }, 'Older versions are not shown (the API pages them: GET .../history?cursor=).') : null);
}

// byText says who made a change (the note, stored text, in an element of
// its own).
function byText(by) {
  if (!by) return '';
  let s = by.kind || '';
  if (by.dreamId) s += ` (dream ${by.dreamId})`;
  else if (by.runId) s += ` (run ${by.runId})`;
  return by.note ? [`${s}: `, h('span', {}, by.note)] : s;
}

// restoreNote says how the memory a dream replaced comes back.
function restoreNote(d, latest) {
  if (d.revertedBy) return h('p', { class: 'note' }, 'That dream was reverted: the memory came back.');
  if (latest && latest.id === d.id) return h('p', { class: 'note' }, 'To restore it, revert that dream (it is the scope\'s latest).');
  return h('p', { class: 'note' }, 'Only the scope\'s latest dream can be reverted; this copy is the record of what it replaced.');
}

function prop(label, value) {
  return [h('dt', {}, label), h('dd', {}, value)];
}

// readLineage finds the dreams of the last LINEAGE_DREAMS diary entries
// that wrote or replaced the memory.
async function readLineage(slot, agent, project, id, ctx) {
  try {
    const list = (await dreams.list(agent, project, { limit: LINEAGE_DREAMS, signal: ctx.signal })).dreams;
    const latest = list.find((d) => d.kind === 'dream' && d.status === 'committed' && !d.revertedBy);
    const dates = [...new Set(list.filter((d) => d.status !== 'failed').map((d) => d.date))];
    const found = [];
    for (const date of dates) {
      const day = await dreams.day(agent, project, date, { plan: true, signal: ctx.signal });
      for (const d of day.dreams) {
        const wrote = (d.written || []).find((m) => m.id === id);
        const replaced = (d.replaced || []).find((m) => m.id === id);
        if (wrote) found.push({ d, what: d.kind === 'revert' ? 'restored by' : 'written by', m: wrote });
        if (replaced) found.push({ d, what: d.kind === 'revert' ? 'removed by' : 'replaced by', m: replaced });
      }
    }
    if (!found.length) {
      fill(slot, h('p', { class: 'muted' }, `No change by the last ${list.length} diary entries.`));
      return;
    }
    found.sort((a, b) => String(a.d.startedAt).localeCompare(String(b.d.startedAt)));
    const base = route('agents', agent, 'projects', project);
    fill(slot, h('ol', { class: 'lineage' }, found.map(({ d, what, m }) => h('li', {},
      h('strong', {}, what), ' ', h('a', { href: `${base}/dreams/${encodeURIComponent(d.date)}` }, `the ${d.kind} of ${d.date}`), ' ', time(d.startedAt),
      what === 'replaced by' ? h('div', { class: 'memory-card past' }, h('div', { class: 'label' }, 'the memory as it was'), memoryText(m),
        restoreNote(d, latest)) : null))));
  } catch (err) {
    if (!isAbort(err)) fill(slot, errorBox(err, 'Reading the dreams'));
  }
}
