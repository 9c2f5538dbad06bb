// Errors shown as the API says them: status, code and message.
import { h } from './dom.js';

// describe is "404 not_found: no memory ... " for an APIError, else the
// error's message.
export function describe(err) {
  if (err && err.name === 'APIError') {
    return `${err.status || ''} ${err.code}: ${err.message}`.trim();
  }
  return (err && err.message) || String(err);
}

// errorBox is a block showing err (role=alert).
export function errorBox(err, what) {
  return h('div', { class: 'error', role: 'alert' },
    what ? h('strong', {}, `${what}: `) : null,
    err && err.name === 'APIError'
      ? [h('code', { class: 'code' }, `${err.status || ''} ${err.code}`.trim()), ' ', h('span', {}, err.message)]
      : h('span', {}, describe(err)));
}
