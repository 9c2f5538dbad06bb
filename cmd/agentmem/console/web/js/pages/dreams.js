// Dreams: the diary of a scope as a timeline, each day's dreams as a diff
// (added, updated, retired, kept, and dropped with the reason beside the
// sources), running a dream, and reverting the latest one.
import { h, route, withQuery, uid, fill } from '../ui/dom.js';
import { isAbort } from '../api/http.js';
import * as dreams from '../api/dreams.js';
import { diffOf, windowDays, classLabel, RULE_LABELS } from '../model/dreamdiff.js';
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
  if (d.kind === 'revert') return `restored ${d.created}, retired ${d.deleted}`;
  if (d.status === 'failed') return d.error || 'failed';
  const dropped = d.dropped ? d.dropped.length : 0;
  const removed = d.deleted ? `, ${d.deleted} removed` : '';
  return `${d.created} added, ${d.updated || 0} updated, ${d.retired || 0} retired${removed}, ${d.unchanged} unchanged, ${d.kept} kept, ${dropped} refused${d.compressed ? `, ${d.compressed} compressed` : ''}`;
}

// usageLine says what the dream's model calls cost, the verifier's and the
// restate pass's.
function usageLine(d) {
  const parts = [];
  if (d.usage && d.usage.calls) {
    parts.push(`${plural(d.usage.calls, 'model call')}, ${d.usage.inputTokens} input and ${d.usage.outputTokens} output tokens${d.usage.retries ? ` (${plural(d.usage.retries, 'answer')} cut off and asked again smaller)` : ''}`);
  }
  const v = d.verifier;
  if (v && v.status !== 'off') {
    parts.push(`verifier ${v.status}: ${v.checked} checked, ${v.dropped} refused, ${v.usage.inputTokens + v.usage.outputTokens} tokens${v.error ? ` (${v.error})` : ''}`);
  }
  const r = d.restate;
  if (r && r.status !== 'off') {
    parts.push(`restate ${r.status}: ${r.asked} asked, ${r.restated} restated, ${r.declined} declined, ${r.usage.inputTokens + r.usage.outputTokens} tokens${r.error ? ` (${r.error})` : ''}`);
  }
  return parts.join(' · ');
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
    h('p', { class: 'note' }, 'Deep Dream reviews the memories against the daily log of the last days and changes them only through operations that cite their sources. Open a day to review what each dream added, updated, retired, kept and refused, beside the sources, and to revert the latest one.'),
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
    note: 'The dream adds, updates and retires memories where the daily log gives a cited reason; old versions stay in each memory\'s history, and the dream can be reverted afterwards. The server\'s model can take up to 30 s.',
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
  const usage = usageLine(d);
  if (usage) parts.push(h('p', { class: 'meta usage' }, usage));
  if (d.notes && d.notes.length) parts.push(h('ul', { class: 'notes' }, d.notes.map((n) => h('li', {}, n))));
  if (d.kind === 'dream' && d.status !== 'failed') parts.push(diffView(d, { agent, project, base }));
  if (d.kind === 'revert' && (d.written || d.replaced)) {
    parts.push(section('Restored', d.written || [], (m) => memoryItem(m, agent, project)));
    parts.push(section('Removed', d.replaced || [], (m) => memoryItem(m, agent, project)));
  }
  if (d.kind === 'dream' && d.status === 'failed' && d.dropped && d.dropped.length) parts.push(droppedView(diffOf(d).dropped, d, base, agent, project));
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
    body: [h('p', {}, `The memories as they were before the dream of ${date} come back: the ${plural((d.updated || 0) + (d.retired || 0) + (d.deleted || 0), 'memory', 'memories')} it updated or retired get their earlier version back (same id), and the ${plural(d.created, 'memory', 'memories')} it added are retired (they stay in their history). Memories added or changed since by others are not touched. The revert gets its own diary entry.`)],
    confirmLabel: 'Revert',
    danger: true,
  });
  if (!ok) return;
  try {
    const rev = await dreams.revert(agent, project, date);
    report(`Reverted the dream of ${date}: ${rev.created} restored, ${rev.deleted} retired${rev.notes && rev.notes.length ? `; ${plural(rev.notes.length, 'change')} skipped (changed since)` : ''}.`);
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

// sourcesList shows the sources a change cites, their texts side by side
// with it: daily records link to their day, memories to their page.
function sourcesList(sources, agent, project, label = 'cited sources') {
  const base = scopeBase(agent, project);
  if (!sources || !sources.length) return h('div', { class: 'sources' }, h('div', { class: 'label' }, label), h('p', { class: 'muted' }, 'none'));
  return h('div', { class: 'sources' }, h('div', { class: 'label' }, label),
    h('ul', {}, sources.map((src) => h('li', { class: ['source', src.kind] },
      src.kind === 'daily'
        ? h('a', { href: withQuery(`${base}/daily`, { date: (src.at || '').slice(0, 10) }) }, ['daily ', h('span', {}, src.title || ''), ' ', (src.at || '').slice(0, 16).replace('T', ' ')])
        : h('a', { href: route('agents', agent, 'projects', project, 'memories', src.id) }, src.kind === 'memory' ? `memory ${src.id}` : src.id),
      src.text ? h('div', { class: 'source-text' }, src.text) : null))));
}

function noteLine(x) {
  return h('div', {},
    x.note ? h('div', { class: 'op-note muted' }, x.note) : null,
    x.restated ? h('div', { class: 'op-note muted' }, `restated in the sources' words; the model first wrote: ${x.restated}`) : null);
}

function diffView(d, { agent, project, base }) {
  const diff = diffOf(d);
  const parts = [];
  if (!diff.cited && !d.written && !d.replaced && (d.created || d.deleted)) {
    parts.push(h('p', { class: 'note' }, 'The plan of this dream is not available.'));
  }
  parts.push(section('Added', diff.added, (a) => h('div', { class: 'change' },
    h('div', { class: 'after' }, memoryItem(a.memory, agent, project), noteLine(a)),
    sourcesList(a.citations, agent, project))));
  parts.push(section('Updated', diff.updated, (u) => h('div', { class: 'change' },
    h('div', { class: 'side-by-side' },
      h('div', { class: 'before' }, h('div', { class: 'label' }, u.before.length > 1 ? `before (${u.before.length} merged)` : 'before'), u.before.map((m) => memoryItem(m, agent, project))),
      h('div', { class: 'after' }, h('div', { class: 'label' }, u.paired === 'sources' ? 'after (compressed, citing these)' : (u.version ? `after (version ${u.version})` : 'after')), memoryItem(u.after, agent, project), noteLine(u))),
    u.citations.length || diff.cited ? sourcesList(u.citations, agent, project) : null),
  diff.updated.some((u) => u.paired === 'wording') ? h('p', { class: 'note' }, 'This dream is from before cited operations: the console paired what it wrote with what it replaced by similar wording.') : null));
  parts.push(section('Retired', diff.retired, (r) => h('div', { class: 'change' },
    h('div', { class: 'before' }, memoryItem(r.memory, agent, project),
      r.rule ? h('div', { class: 'rule' }, `why: ${RULE_LABELS[r.rule] || r.rule}`) : null, noteLine(r)),
    diff.cited ? sourcesList(r.citations, agent, project) : null),
  h('p', { class: 'note' }, 'Retired memories left the memory the agent reads but stay in their history: a revert, or Restore on the memory\'s page, brings them back.')));
  parts.push(h('section', { class: 'diff-section kept' }, h('h3', {}, `Kept (${diff.kept.unchanged + diff.kept.kept})`),
    h('p', {}, `${plural(diff.kept.unchanged, 'memory', 'memories')} reviewed and kept as they were (the answer did not change them), ${plural(diff.kept.kept, 'memory', 'memories')} the dream may not change (pinned or manual). `,
      h('a', { href: `${base}/memories` }, 'See the memories'))));
  parts.push(droppedView(diff.dropped, d, base, agent, project));
  return h('div', { class: 'diff' }, parts);
}

// droppedView lists the operations the dream refused: the operation, the
// reason class and detail, and the sources it cited, side by side.
function droppedView(dropped, d, base, agent, project) {
  const days = windowDays(d);
  const windowSources = h('div', { class: 'sources' },
    h('div', { class: 'label' }, 'sources checked'),
    h('ul', {}, h('li', {}, h('a', { href: base }, 'the memories shown to the model')),
      days.map((day) => h('li', {}, h('a', { href: withQuery(`${base}/daily`, { date: day }) }, `daily log ${day}`)))));
  const items = dropped.map((b) => h('div', { class: 'dropped-row' },
    h('div', { class: 'bullet' }, h('div', { class: 'label' }, `refused ${b.op || ''} ${b.type || ''}`.replace(/\s+/g, ' ').trim()),
      b.memoryId ? h('a', { class: 'small', href: route('agents', agent, 'projects', project, 'memories', b.memoryId) }, b.memoryId) : null,
      h('div', { class: 'content' }, b.content)),
    h('div', { class: 'reason' }, h('div', { class: 'label' }, 'reason'),
      h('div', {}, classLabel(b.class), b.class ? [' ', h('code', { class: 'class' }, b.class)] : null),
      b.reason ? h('div', { class: 'detail' }, b.reason) : null,
      b.support ? h('div', { class: 'muted' }, `support ${Math.round(b.support * 100)}%`) : null,
      b.missing && b.missing.length ? h('div', {}, 'not in the sources: ', b.missing.map((w, i) => [i ? ', ' : '', h('code', {}, w)])) : null),
    b.citations && b.citations.length ? sourcesList(b.sources, agent, project) : windowSources.cloneNode(true)));
  const id = uid('sec');
  return h('section', { class: 'diff-section dropped', 'aria-labelledby': id },
    h('h3', { id }, `Dropped (${items.length})`),
    h('p', { class: 'note' }, 'Operations of the model\'s answer the dream refused, with the reason: never applied.'),
    items.length ? h('div', { class: 'dropped-list' }, items) : h('p', { class: 'muted' }, 'none'));
}
