// Dreams: the diary of a scope as a timeline, each day's dreams as a diff
// (added, updated, retired, kept, and dropped with the reason beside the
// sources), running a dream, and reverting the latest one.
import { h, route, withQuery, uid, fill } from '../ui/dom.js';
import { isAbort } from '../api/http.js';
import * as dreams from '../api/dreams.js';
import { diffOf, windowDays } from '../model/dreamdiff.js';
import { plural, shortTime, addDays } from '../ui/format.js';
import { errorBox } from '../ui/errors.js';
import { confirm, form } from '../ui/dialog.js';
import { report, reportError } from '../ui/toast.js';
import { memoryText } from './scope.js';

function scopeBase(agent, project) {
  return route('agents', agent, 'projects', project);
}

function head(agent, project, title) {
  const base = scopeBase(agent, project);
  return [
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'Overview'), ' / ', h('a', { href: base }, `${agent} in ${project}`), ' / ',
      title === 'Dreams' ? 'Dreams' : h('a', { href: `${base}/dreams` }, 'Dreams')),
    h('h1', {}, title === 'Dreams' ? `Dreams of ${agent} in ${project}` : title),
  ];
}

function statusBadge(d) {
  const cls = { committed: 'ok', failed: 'bad', reverted: 'muted', committing: 'warn' }[d.status] || '';
  return h('span', { class: ['badge', cls] }, d.kind === 'revert' ? `revert ${d.status}` : d.status);
}

// latestRevertable is the scope's most recent committed dream, the only
// one the API reverts.
function latestRevertable(list) {
  return list.find((d) => d.kind === 'dream' && d.status === 'committed' && !d.revertedBy) || null;
}

function countsLine(d) {
  if (d.kind === 'revert') return `restored ${d.created}, removed ${d.deleted}`;
  if (d.status === 'failed') return d.error || 'failed';
  const dropped = d.dropped ? d.dropped.length : 0;
  return `${d.created} written, ${d.deleted} replaced, ${d.unchanged} unchanged, ${d.kept} kept, ${dropped} dropped${d.compressed ? `, ${d.compressed} compressed` : ''}`;
}

// renderTimeline shows the diary, newest first.
export async function renderTimeline(main, { agent, project }, ctx) {
  const page = await dreams.list(agent, project, { signal: ctx.signal });
  let entries = page.dreams;
  let cursor = page.nextCursor || '';
  const list = h('ol', { class: 'timeline' });
  const draw = () => {
    fill(list, ...entries.map((d) => h('li', { class: ['entry', d.status] },
      h('div', { class: 'entry-head' },
        h('a', { href: `${scopeBase(agent, project)}/dreams/${encodeURIComponent(d.date)}` }, `${d.date}`), ' ',
        h('span', { class: 'muted' }, shortTime(d.startedAt).slice(11)), ' ', statusBadge(d),
        d.trigger ? h('span', { class: 'muted' }, ` · ${d.trigger}`) : null),
      h('div', { class: 'entry-body' }, countsLine(d)),
      d.diary ? h('p', { class: 'diary' }, d.diary) : null)));
    if (!entries.length) fill(list, h('li', { class: 'muted' }, 'No dreams yet. The nightly schedule dreams scopes with new daily records; Dream now runs one.'));
  };
  draw();
  const more = h('button', { type: 'button', class: 'button', hidden: !cursor }, 'Load older dreams');
  const moreError = h('div');
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const next = await dreams.list(agent, project, { cursor, signal: ctx.signal });
      entries = entries.concat(next.dreams);
      cursor = next.nextCursor || '';
      more.hidden = !cursor;
      draw();
    } catch (err) {
      if (!isAbort(err)) fill(moreError, errorBox(err, 'Loading older dreams'));
    } finally {
      more.disabled = false;
    }
  });
  fill(main, ...head(agent, project, 'Dreams'),
    h('p', { class: 'note' }, 'Deep Dream consolidates the daily log of the last days into the memories. Open a day to review what each dream added, replaced, kept and dropped, and to revert the latest one.'),
    h('div', { class: 'actions left' }, h('button', { type: 'button', class: 'button primary', on: { click: () => runDream(agent, project, ctx) } }, 'Dream now')),
    h('section', { 'aria-labelledby': 'tl-title' }, h('h2', { id: 'tl-title' }, 'Diary'), list, more, moreError));
}

async function runDream(agent, project, ctx) {
  const lookback = h('input', { type: 'number', name: 'lookbackDays', min: 1, max: 30, placeholder: 'server default (3)', id: uid('lb') });
  const keepManual = h('input', { type: 'checkbox', name: 'keepManual', checked: true });
  const force = h('input', { type: 'checkbox', name: 'force' });
  const res = await form({
    title: `Dream now: ${agent} in ${project}`,
    fields: [
      h('div', { class: 'field' }, h('label', { for: lookback.id }, 'Days of daily records'), lookback),
      h('div', { class: 'field check' }, h('label', {}, keepManual, ' Keep manual memories as they are')),
      h('div', { class: 'field check' }, h('label', {}, force, ' Dream even if the daily log did not change')),
    ],
    note: 'The dream rewrites the memories the daily log supports; it can be reverted afterwards. The server\'s model can take up to 30 s.',
    submitLabel: 'Dream',
    submit: async (data) => dreams.run(agent, project, {
      lookbackDays: Number(data.get('lookbackDays')) || undefined,
      keepManual: data.get('keepManual') === 'on',
      force: data.get('force') === 'on',
    }),
  });
  if (!res) return;
  if (res.status === 'skipped') {
    report(`Skipped: ${res.reason}`);
    return;
  }
  const d = res.dream;
  report(`Dreamed: ${countsLine(d)}.`);
  ctx.navigate(`${scopeBase(agent, project)}/dreams/${encodeURIComponent(d.date)}`);
}

// renderDay shows each dream of a day as a diff.
export async function renderDay(main, { agent, project, date }, ctx) {
  const [day, recent] = await Promise.all([
    dreams.day(agent, project, date, { plan: true, signal: ctx.signal }),
    dreams.list(agent, project, { limit: 20, signal: ctx.signal }),
  ]);
  const latest = latestRevertable(recent.dreams);
  fill(main, ...head(agent, project, `Dreams of ${date}`),
    h('p', { class: 'note' }, `${agent} in ${project}: ${plural(day.dreams.length, 'diary entry', 'diary entries')} on ${date}.`),
    ...day.dreams.map((d) => dreamView(d, { agent, project, date, latest, ctx })));
}

function dreamView(d, { agent, project, date, latest, ctx }) {
  const base = scopeBase(agent, project);
  const titleId = uid('dream');
  const parts = [
    h('h2', { id: titleId }, `${d.kind === 'revert' ? 'Revert' : 'Dream'} at ${shortTime(d.startedAt).slice(11)} `, statusBadge(d)),
    h('p', { class: 'meta' }, `${d.trigger || 'api'} · ${d.model || 'no model'} · prompt ${d.prompt || '—'} · window ${d.windowFrom ? `${d.windowFrom.slice(0, 10)} to ${addDays(d.windowTo.slice(0, 10), -1)}` : '—'} · ${plural(d.records || 0, 'record')}`),
  ];
  if (d.revertOf) parts.push(h('p', { class: 'note' }, `This entry reverted dream ${d.revertOf}.`));
  if (d.revertedBy) parts.push(h('p', { class: 'note' }, `Reverted by ${d.revertedBy}.`));
  if (d.error) parts.push(errorBox({ message: d.error }, 'The dream failed; nothing changed'));
  if (d.diary) parts.push(h('blockquote', { class: 'diary' }, h('p', {}, d.diary)));
  if (d.notes && d.notes.length) parts.push(h('ul', { class: 'notes' }, d.notes.map((n) => h('li', {}, n))));
  if (d.kind === 'dream' && d.status !== 'failed') parts.push(diffView(d, { agent, project, base }));
  if (d.kind === 'revert' && (d.written || d.replaced)) {
    parts.push(section('Restored', d.written || [], (m) => memoryItem(m, agent, project)));
    parts.push(section('Removed', d.replaced || [], (m) => memoryItem(m, agent, project)));
  }
  if (d.kind === 'dream' && d.status === 'failed' && d.dropped && d.dropped.length) parts.push(droppedView(d, base));
  if (latest && latest.id === d.id) {
    parts.push(h('div', { class: 'actions left' }, h('button', {
      type: 'button', class: 'button danger', 'data-action': 'revert',
      on: { click: () => revertDream(d, { agent, project, date, ctx }) },
    }, 'Revert this dream')));
  } else if (d.kind === 'dream' && d.status === 'committed') {
    parts.push(h('p', { class: 'muted' }, 'Only the scope\'s latest committed dream can be reverted.'));
  }
  return h('article', { class: 'dream', 'aria-labelledby': titleId }, parts);
}

async function revertDream(d, { agent, project, date, ctx }) {
  const ok = await confirm({
    title: 'Revert this dream?',
    body: [h('p', {}, `The memories as they were before the dream of ${date} come back: the ${plural(d.deleted, 'memory', 'memories')} it replaced are restored with their ids, and the ${plural(d.created, 'memory', 'memories')} it wrote are removed. Memories added since by others stay. The revert gets its own diary entry.`)],
    confirmLabel: 'Revert',
    danger: true,
  });
  if (!ok) return;
  try {
    const rev = await dreams.revert(agent, project, date);
    report(`Reverted the dream of ${date}: ${rev.created} restored, ${rev.deleted} removed.`);
    ctx.reload();
  } catch (err) {
    reportError(err, 'Revert');
  }
}

function section(title, items, item, extra) {
  const id = uid('sec');
  return h('section', { class: ['diff-section', title.toLowerCase()], 'aria-labelledby': id },
    h('h3', { id }, `${title} (${items.length})`), extra || null,
    items.length ? h('ul', { class: 'diff-list' }, items.map((x) => h('li', {}, item(x)))) : h('p', { class: 'muted' }, 'none'));
}

function memoryItem(m, agent, project) {
  return h('div', { class: 'diff-item' },
    h('span', { class: ['badge', `t-${m.type}`] }, m.type), ' ',
    memoryText(m),
    h('a', { class: 'small', href: route('agents', agent, 'projects', project, 'memories', m.id) }, m.id));
}

function diffView(d, { agent, project, base }) {
  const diff = diffOf(d);
  const parts = [];
  if (!d.written && !d.replaced && (d.created || d.deleted)) {
    parts.push(h('p', { class: 'note' }, 'The plan of this dream is not available.'));
  }
  parts.push(section('Added', diff.added, (m) => memoryItem(m, agent, project)));
  parts.push(section('Updated', diff.updated, (u) => h('div', { class: 'side-by-side' },
    h('div', { class: 'before' }, h('div', { class: 'label' }, u.before.length > 1 ? `before (${u.before.length} merged)` : 'before'), u.before.map((m) => memoryItem(m, agent, project))),
    h('div', { class: 'after' }, h('div', { class: 'label' }, u.paired === 'sources' ? 'after (compressed, citing these)' : 'after'), memoryItem(u.after, agent, project))),
  diff.updated.some((u) => u.paired === 'wording') ? h('p', { class: 'note' }, 'Paired by similar wording: the dream replaced the old memory and wrote the new one; which replaced which is the console\'s reading until dreams cite their operations (issue 10).') : null));
  parts.push(section('Retired', diff.retired, (m) => memoryItem(m, agent, project),
    h('p', { class: 'note' }, 'Replaced memories no new memory took over. A revert restores them.')));
  parts.push(h('section', { class: 'diff-section kept' }, h('h3', {}, `Kept (${diff.kept.unchanged + diff.kept.kept})`),
    h('p', {}, `${plural(diff.kept.unchanged, 'memory', 'memories')} the dream repeated unchanged (same id), ${plural(diff.kept.kept, 'memory', 'memories')} kept as they were (pinned, manual, or not shown to the model). `,
      h('a', { href: `${base}/memories` }, 'See the memories'))));
  parts.push(droppedView(d, base));
  return h('div', { class: 'diff' }, parts);
}

// droppedView lists the bullets the support test refused: the bullet,
// the reason, and the sources it was checked against, side by side.
function droppedView(d, base) {
  const days = windowDays(d);
  const sources = h('div', { class: 'sources' },
    h('div', { class: 'label' }, 'sources checked'),
    h('ul', {}, h('li', {}, h('a', { href: base }, 'the memories shown to the model')),
      days.map((day) => h('li', {}, h('a', { href: withQuery(`${base}/daily`, { date: day }) }, `daily log ${day}`)))));
  const items = (d.dropped || []).map((b) => h('div', { class: 'dropped-row' },
    h('div', { class: 'bullet' }, h('div', { class: 'label' }, `dropped ${b.type || ''}`.trim()), h('div', { class: 'content' }, b.content)),
    h('div', { class: 'reason' }, h('div', { class: 'label' }, 'reason'), h('div', {}, b.reason),
      h('div', { class: 'muted' }, `support ${Math.round((b.support || 0) * 100)}%`),
      b.missing && b.missing.length ? h('div', {}, 'not in the sources: ', b.missing.map((w, i) => [i ? ', ' : '', h('code', {}, w)])) : null),
    sources.cloneNode(true)));
  const id = uid('sec');
  return h('section', { class: 'diff-section dropped', 'aria-labelledby': id },
    h('h3', { id }, `Dropped (${items.length})`),
    h('p', { class: 'note' }, 'Bullets of the model\'s answer the sources do not support: never written.'),
    items.length ? h('div', { class: 'dropped-list' }, items) : h('p', { class: 'muted' }, 'none'));
}

