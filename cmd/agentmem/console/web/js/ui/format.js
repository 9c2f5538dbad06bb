// Formatting of numbers, sizes and times for people.
import { h } from './dom.js';

export function bytes(n) {
  n = Number(n) || 0;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function count(n) {
  return (Number(n) || 0).toLocaleString('en');
}

// ago says how long ago an ISO time was, in one unit.
export function ago(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (!iso || Number.isNaN(t)) return '';
  const s = Math.round((now - t) / 1000);
  if (s < 0) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

// shortTime is YYYY-MM-DD HH:MM UTC.
export function shortTime(iso) {
  if (!iso) return '';
  return `${String(iso).slice(0, 10)} ${String(iso).slice(11, 16)} UTC`;
}

// time is a <time> element: the short time, with the exact one on hover.
export function time(iso, { relative = false } = {}) {
  if (!iso) return h('span', { class: 'muted' }, '—');
  return h('time', { datetime: iso, title: iso }, relative ? `${ago(iso)}` : shortTime(iso));
}

// today is the UTC day, YYYY-MM-DD.
export function today() {
  return new Date().toISOString().slice(0, 10);
}

// addDays moves a YYYY-MM-DD day by n days.
export function addDays(day, n) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

// countsText renders {type: n} as "finding 3 · decision 1", largest first.
export function countsText(map) {
  const entries = Object.entries(map || {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.map(([k, n]) => `${k} ${n}`).join(' · ');
}

export function plural(n, one, many = `${one}s`) {
  return `${count(n)} ${n === 1 ? one : many}`;
}
