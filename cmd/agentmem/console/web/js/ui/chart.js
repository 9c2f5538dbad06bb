// A small horizontal bar chart in inline SVG (no library): one bar per
// item, its label and value as text, each bar a link when href is given.
import { s } from './dom.js';
import { count } from './format.js';

// barChart draws items [{label, value, href}] (largest first, at most
// max); title names the chart for assistive technology.
export function barChart(items, { title, max = 20, width = 640 } = {}) {
  const rows = [...items].sort((a, b) => b.value - a.value).slice(0, max);
  const barH = 18;
  const gap = 6;
  const labelW = Math.min(260, Math.round(width * 0.4));
  const valueW = 56;
  const height = Math.max(1, rows.length) * (barH + gap) + gap;
  const top = Math.max(1, ...rows.map((r) => r.value));
  const span = width - labelW - valueW - 8;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': title || 'chart', preserveAspectRatio: 'xMinYMin meet' },
    s('title', {}, title || ''));
  rows.forEach((r, i) => {
    const y = gap + i * (barH + gap);
    const w = Math.max(2, Math.round((r.value / top) * span));
    const label = r.label.length > 34 ? `${r.label.slice(0, 33)}…` : r.label;
    const group = s('g', { class: 'bar' },
      s('title', {}, `${r.label}: ${count(r.value)}`),
      s('text', { x: labelW - 6, y: y + barH - 5, 'text-anchor': 'end', class: 'bar-label' }, label),
      s('rect', { x: labelW, y, width: w, height: barH, rx: 3 }),
      s('text', { x: labelW + w + 6, y: y + barH - 5, class: 'bar-value' }, count(r.value)));
    svg.appendChild(r.href ? s('a', { href: r.href, 'aria-label': `${r.label}: ${count(r.value)} memories` }, group) : group);
  });
  return svg;
}
