// Reports of what an action did (or why it failed), announced to screen
// readers through the live region #toasts.
import { h } from './dom.js';
import { describe } from './errors.js';

// report shows a message; kind is 'ok' or 'error'. Success reports fade
// after a while; errors stay until dismissed.
export function report(message, kind = 'ok') {
  const box = document.getElementById('toasts');
  const close = h('button', { type: 'button', class: 'link', 'aria-label': 'Dismiss' }, '×');
  const item = h('div', { class: ['toast', kind], role: kind === 'error' ? 'alert' : 'status' }, h('span', {}, message), close);
  close.addEventListener('click', () => item.remove());
  box.appendChild(item);
  if (kind !== 'error') setTimeout(() => item.remove(), 8000);
  return item;
}

// reportError reports an API error as the API said it.
export function reportError(err, what) {
  return report(`${what ? `${what}: ` : ''}${describe(err)}`, 'error');
}
