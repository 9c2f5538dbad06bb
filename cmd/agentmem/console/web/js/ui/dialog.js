// Confirmation and form dialogs on <dialog>: modal, keyboard-first (Esc
// cancels, focus stays inside, the safe choice has the focus first).
import { h, fill } from './dom.js';
import { errorBox } from './errors.js';

// confirm asks a question; resolves true when the person confirms.
// body: nodes explaining exactly what will happen.
export function confirm({ title, body, confirmLabel = 'Confirm', danger = false }) {
  return new Promise((resolve) => {
    const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
    const ok = h('button', { type: 'button', class: ['button', danger ? 'danger' : 'primary'], 'data-confirm': '' }, confirmLabel);
    const titleId = `dlg-${Math.random().toString(36).slice(2)}`;
    const dlg = h('dialog', { class: 'dialog', 'aria-labelledby': titleId },
      h('h2', { id: titleId }, title),
      h('div', { class: 'dialog-body' }, body),
      h('div', { class: 'actions' }, cancel, ok));
    let answered = false;
    const done = (v) => {
      if (answered) return;
      answered = true;
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    cancel.addEventListener('click', () => done(false));
    ok.addEventListener('click', () => done(true));
    dlg.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(false);
    });
    // Esc may close the dialog without a cancel event (Chrome's close
    // watcher, without user activation): that is a no too.
    dlg.addEventListener('close', () => done(false));
    document.body.appendChild(dlg);
    dlg.showModal();
    cancel.focus();
  });
}

// form shows a modal form; submit(values) may throw to keep it open with
// the error shown. Resolves to submit's result, or null when cancelled.
export function form({ title, fields, note, submitLabel = 'Save', submit }) {
  return new Promise((resolve) => {
    const titleId = `dlg-${Math.random().toString(36).slice(2)}`;
    const errorSlot = h('div', { class: 'dialog-error', 'aria-live': 'assertive' });
    const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
    const save = h('button', { type: 'submit', class: ['button', 'primary'] }, submitLabel);
    const f = h('form', { method: 'dialog', class: 'stack' }, fields, note ? h('p', { class: 'note' }, note) : null, errorSlot, h('div', { class: 'actions' }, cancel, save));
    const dlg = h('dialog', { class: 'dialog wide', 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), f);
    let finished = false;
    const done = (v) => {
      if (finished) return;
      finished = true;
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    cancel.addEventListener('click', () => done(null));
    dlg.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(null);
    });
    dlg.addEventListener('close', () => done(null));
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      save.disabled = true;
      errorSlot.replaceChildren();
      try {
        const result = await submit(new FormData(f), f);
        done(result);
      } catch (err) {
        fill(errorSlot, errorBox(err));
        save.disabled = false;
      }
    });
    document.body.appendChild(dlg);
    dlg.showModal();
    const first = f.querySelector('input, textarea, select');
    if (first) first.focus();
  });
}
