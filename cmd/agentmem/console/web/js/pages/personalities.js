// Personalities: the list, and one personality's form (create, edit with
// optimistic concurrency by version, delete).
import { h, route, uid, fill } from '../ui/dom.js';
import { APIError } from '../api/http.js';
import { AGENT_NAME_PATTERN, NAME_RULE } from '../api/names.js';
import * as personalities from '../api/personalities.js';
import { sortable } from '../ui/table.js';
import { time } from '../ui/format.js';
import { errorBox } from '../ui/errors.js';
import { confirm } from '../ui/dialog.js';
import { report, reportError } from '../ui/toast.js';

export async function renderList(main, _params, ctx) {
  const list = await personalities.list({ signal: ctx.signal });
  const table = sortable({
    columns: [
      { key: 'agentName', label: 'Agent', cell: (p) => h('a', { href: route('personalities', p.agentName) }, p.agentName) },
      { key: 'displayName', label: 'Name' },
      { key: 'voice', label: 'Voice' },
      { key: 'traits', label: 'Traits', value: (p) => (p.traits || []).join(', '), cell: (p) => (p.traits || []).join(', ') },
      { key: 'updatedAt', label: 'Updated', cell: (p) => time(p.updatedAt) },
      { key: 'version', label: 'Version', numeric: true },
    ],
    rows: list, state: { sort: 'agentName', dir: 'asc' },
    caption: 'Personalities, one per agent (shared by its projects)',
    empty: 'No personalities yet.',
  });
  const agentInput = h('input', { type: 'text', id: uid('agent'), required: true, pattern: AGENT_NAME_PATTERN, title: `An agent name: 1 to 64 ${NAME_RULE}.`, placeholder: 'agent name' });
  fill(main, h('h1', {}, 'Personalities'),
    h('p', { class: 'note' }, 'What agentmem inject prepends to CLAUDE.md as the "# Personality" section, and the git identity of the agent\'s commits.'),
    table.element,
    h('form', { class: 'filters', on: { submit: (e) => { e.preventDefault(); ctx.navigate(`${route('personalities', agentInput.value.trim())}?new=1`); } } },
      h('label', { for: agentInput.id }, 'New personality for ', agentInput), h('button', { type: 'submit', class: 'button' }, 'Create')));
}

export async function renderEdit(main, { agent }, ctx) {
  let p = null;
  const creating = ctx.query.get('new') === '1';
  if (!creating) p = await personalities.get(agent, { signal: ctx.signal });
  const f = (name, label, value, { area = false, hint } = {}) => {
    const id = uid(name);
    const input = area ? h('textarea', { id, name, rows: 6 }) : h('input', { type: 'text', id, name, value: value || '' });
    if (area) input.value = value || '';
    return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('div', { class: 'hint' }, hint) : null);
  };
  const out = h('div', { 'aria-live': 'assertive' });
  const save = h('button', { type: 'submit', class: 'button primary' }, creating ? 'Create' : 'Save');
  const formEl = h('form', { class: 'stack narrow' },
    f('displayName', 'Display name', p && p.displayName),
    f('voice', 'Voice', p && p.voice),
    f('traits', 'Traits', p && (p.traits || []).join('\n'), { area: true, hint: 'one per line' }),
    f('prompt', 'Persona prompt', p && p.prompt, { area: true }),
    f('gitName', 'Git name', p && p.gitName),
    f('gitEmail', 'Git email', p && p.gitEmail),
    h('p', { class: 'note' }, creating ? 'Creating fails if the agent already has a personality.' : `Version ${p.version}: saving fails with a conflict if someone saved another version since you opened it.`),
    out,
    h('div', { class: 'actions left' }, save,
      creating ? null : h('button', { type: 'button', class: 'button danger', on: { click: () => remove(agent, ctx) } }, 'Delete')));
  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    const data = new FormData(formEl);
    const input = {};
    for (const k of ['displayName', 'voice', 'prompt', 'gitName', 'gitEmail']) {
      const v = String(data.get(k) || '').trim();
      if (v) input[k] = v;
    }
    const traits = String(data.get('traits') || '').split('\n').map((x) => x.trim()).filter(Boolean);
    if (traits.length) input.traits = traits;
    save.disabled = true;
    out.replaceChildren();
    try {
      const saved = await personalities.put(agent, input, p ? p.version : 0);
      report(`Saved the personality of ${agent} (version ${saved.version}).`);
      if (creating) ctx.navigate(route('personalities', agent));
      else ctx.reload();
    } catch (err) {
      fill(out, errorBox(err, 'Save'));
      save.disabled = false;
    }
  });
  fill(main, 
    h('p', { class: 'crumbs' }, h('a', { href: '#/personalities' }, 'Personalities'), ' / ', agent),
    h('h1', {}, creating ? `New personality for ${agent}` : `Personality of ${agent}`),
    p ? h('p', { class: 'muted' }, 'Updated ', time(p.updatedAt), `, version ${p.version}.`) : null,
    formEl);
}

async function remove(agent, ctx) {
  const ok = await confirm({
    title: 'Delete this personality?',
    body: h('p', {}, `${agent} loses its personality: the next inject writes CLAUDE.md without a personality section and sets no git identity. Its memories stay.`),
    confirmLabel: 'Delete',
    danger: true,
  });
  if (!ok) return;
  try {
    await personalities.remove(agent);
    report(`Deleted the personality of ${agent}.`);
    ctx.navigate('#/personalities');
  } catch (err) {
    if (err instanceof APIError) reportError(err, 'Delete');
    else throw err;
  }
}
