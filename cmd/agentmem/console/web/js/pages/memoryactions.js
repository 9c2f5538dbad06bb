// The actions on one memory, shared by the scope's table and the memory's
// own page: edit, pin or unpin, delete, each confirmed when it destroys
// something and reported when done.
import { h, uid, fill } from '../ui/dom.js';
import * as memories from '../api/memories.js';
import { confirm, form } from '../ui/dialog.js';
import { report, reportError } from '../ui/toast.js';

// EDIT_NOTE says what an edit does.
export const EDIT_NOTE = 'Saving makes the next version of this memory: it keeps its id and age, and its history keeps the version you edited (restorable from the memory\'s page). If someone changed it since you opened it, the API refuses and nothing is lost: reload and edit again.';

function field(label, input, hint) {
  const id = input.id || uid('f');
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('div', { class: 'hint' }, hint) : null);
}

// memoryFields builds the form fields of a memory (m: its current values).
export function memoryFields(m, { typeEditable = true } = {}) {
  const type = h('select', { name: 'type', value: m.type || 'note', disabled: !typeEditable },
    memories.TYPES.map((t) => h('option', { value: t }, t)));
  const typed = h('div', { class: 'typed' });
  const content = h('textarea', { name: 'content', rows: 5, required: true, maxlength: 8192 });
  content.value = m.content || '';
  const values = { ...m };
  const drawTyped = () => {
    const t = type.value;
    const parts = [];
    if (t === 'decision') parts.push(field('Rationale', textInput('rationale', values.rationale)));
    if (t === 'blocker') {
      parts.push(field('Status', h('select', { name: 'status', value: values.status || 'open' }, h('option', { value: 'open' }, 'open'), h('option', { value: 'resolved' }, 'resolved'))));
    }
    if (t === 'pattern') {
      parts.push(field('When (trigger)', textInput('trigger', values.trigger)));
      parts.push(field('Context', textInput('context', values.context)));
      parts.push(field('Do (solution)', textInput('solution', values.solution)));
      parts.push(field('Confidence (0 to 1)', h('input', { name: 'confidence', type: 'number', min: 0, max: 1, step: 0.01, value: values.confidence ?? 0.5 })));
    }
    fill(typed, ...parts);
  };
  type.addEventListener('change', drawTyped);
  drawTyped();
  const tags = textInput('tags', (m.tags || []).join(', '));
  const pinned = h('input', { type: 'checkbox', name: 'pinned', checked: Boolean(m.pinned) });
  return [
    field('Type', type),
    field('Content', content),
    typed,
    field('Tags', tags, 'comma separated'),
    h('div', { class: 'field check' }, h('label', {}, pinned, ' Pinned (kept by dreams and eviction)')),
  ];
}

function textInput(name, value) {
  return h('input', { type: 'text', name, value: value || '' });
}

// valuesOf reads the form into memory fields.
export function valuesOf(data, type) {
  const out = { type: data.get('type') || type, content: String(data.get('content') || '').trim() };
  for (const f of ['rationale', 'status', 'trigger', 'context', 'solution']) {
    if (data.has(f)) out[f] = String(data.get(f)).trim();
  }
  if (data.has('confidence') && data.get('confidence') !== '') out.confidence = Number(data.get('confidence'));
  const tags = String(data.get('tags') || '').split(',').map((x) => x.trim()).filter(Boolean);
  out.tags = tags.length ? tags : undefined;
  out.pinned = data.get('pinned') === 'on';
  return out;
}

// edit opens the edit form; resolves to the saved memory or null.
export async function edit(agent, m) {
  const note = h('input', { type: 'text', name: 'note', maxlength: 500 });
  return form({
    title: `Edit memory ${m.id} (version ${m.version || 1})`,
    fields: [...memoryFields(m), field('Why (kept in the history)', note, 'optional')],
    note: EDIT_NOTE,
    submitLabel: 'Save',
    submit: async (data) => {
      const changes = valuesOf(data, m.type);
      const { memory, changed } = await memories.update(agent, m, changes, { note: String(data.get('note') || '').trim() });
      report(changed ? `Saved memory ${memory.id} as version ${memory.version}.` : `Nothing changed in memory ${memory.id}.`);
      return memory;
    },
  });
}

// togglePin pins or unpins m (a new version, nothing lost: no
// confirmation); resolves to the saved memory or null.
export async function togglePin(agent, m) {
  const pin = !m.pinned;
  try {
    const { memory } = await memories.update(agent, m, { pinned: pin }, { note: pin ? 'pinned in the console' : 'unpinned in the console' });
    report(`${pin ? 'Pinned' : 'Unpinned'} memory ${memory.id} (version ${memory.version}).`);
    return memory;
  } catch (err) {
    reportError(err, pin ? 'Pin' : 'Unpin');
    return null;
  }
}

// restore puts version v of m back after confirmation; resolves to the
// restored memory or null.
export async function restore(agent, m, v, current) {
  const ok = await confirm({
    title: `Restore version ${v.version}?`,
    body: [
      h('p', {}, current.state && current.state !== 'live'
        ? `Memory ${m.id} is ${current.state} now; it comes back into the scope (MEMORY.md, search) as version ${current.current + 1} with the text of version ${v.version}.${current.supersededBy ? ` The memory that replaced it (${current.supersededBy}) stays: delete it to undo the replacement.` : ''}`
        : `Memory ${m.id} gets version ${current.current + 1} with the text of version ${v.version}; version ${current.current} stays in the history.`),
      quote(v.memory),
    ],
    confirmLabel: 'Restore',
  });
  if (!ok) return null;
  try {
    const memory = await memories.restore(agent, m.id, v.version, { current: current.current, note: 'restored in the console' });
    report(`Restored version ${v.version} of memory ${m.id}: it is version ${memory.version} now.`);
    return memory;
  } catch (err) {
    reportError(err, 'Restore');
    return null;
  }
}

// remove deletes m after confirmation; resolves true when deleted.
export async function remove(agent, m) {
  const ok = await confirm({
    title: 'Delete this memory?',
    body: [h('p', {}, `Memory ${m.id} (${m.type}, ${m.source}) will be deleted for good, with its history: the API keeps no copy of a deleted memory. To correct it instead, edit it (its history keeps every version).`), quote(m)],
    confirmLabel: 'Delete',
    danger: true,
  });
  if (!ok) return false;
  try {
    await memories.remove(agent, m.id);
    report(`Deleted memory ${m.id}.`);
    return true;
  } catch (err) {
    reportError(err, 'Delete');
    return false;
  }
}

// create opens the form of a new memory; resolves to it or null.
export async function create(agent, project) {
  return form({
    title: `Add a memory to ${agent} in ${project}`,
    fields: memoryFields({ type: 'finding' }),
    submitLabel: 'Add',
    submit: async (data) => {
      const v = valuesOf(data, 'note');
      const input = memories.inputOf({ ...v, projectId: project });
      const created = await memories.create(agent, input);
      report(created.duplicate ? `Not added: memory ${created.id} already says this.` : `Added memory ${created.id}.`);
      return created;
    },
  });
}

// quote shows a memory's text (as text) in a dialog.
export function quote(m) {
  return h('blockquote', { class: 'quote' }, m.content);
}
