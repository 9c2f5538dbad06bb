// A small Markdown reader for MEMORY.md, daily logs and diaries that
// builds DOM nodes with text only: headings, lists (with indented
// continuation lines), fenced code, paragraphs, and inline code and bold
// spans. It never produces markup from the text, so a memory that
// contains HTML, a script or a link shows as the characters it is.
import { h } from './dom.js';

// inline renders code spans and **bold** inside one line as nodes.
function inline(line) {
  const out = [];
  const re = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const m of line.matchAll(re)) {
    if (m.index > last) out.push(line.slice(last, m.index));
    if (m[1]) out.push(h('code', {}, m[2]));
    else out.push(h('strong', {}, m[3]));
    last = m.index + m[0].length;
  }
  if (last < line.length) out.push(line.slice(last));
  return out;
}

// render reads text into a fragment of elements.
export function render(text) {
  const frag = document.createDocumentFragment();
  const lines = String(text || '').replace(/\r\n?/g, '\n').split('\n');
  let list = null;
  let item = null;
  let para = null;
  const closeBlocks = () => {
    list = null;
    item = null;
    para = null;
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const fence = line.match(/^\s*(```+|~~~+)/);
    if (fence) {
      closeBlocks();
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) {
        body.push(lines[i]);
        i += 1;
      }
      frag.appendChild(h('pre', { class: 'code-block' }, h('code', {}, body.join('\n'))));
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      closeBlocks();
      const level = Math.min(6, heading[1].length + 2); // under the page's own h1/h2
      frag.appendChild(h(`h${level}`, { class: 'md-heading' }, inline(heading[2])));
      continue;
    }
    const bullet = line.match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
    if (bullet && bullet[1].length < 2) {
      para = null;
      if (!list) {
        list = h(/\d/.test(bullet[2]) ? 'ol' : 'ul', { class: 'md-list' });
        frag.appendChild(list);
      }
      item = h('li', {}, inline(bullet[3]));
      list.appendChild(item);
      continue;
    }
    if (item && /^\s{2,}\S/.test(line)) {
      item.appendChild(h('br'));
      item.appendChild(h('span', { class: 'cont' }, inline(line.trim())));
      continue;
    }
    if (!line.trim()) {
      closeBlocks();
      continue;
    }
    list = null;
    item = null;
    if (!para) {
      para = h('p', {});
      frag.appendChild(para);
    } else {
      para.appendChild(document.createTextNode(' '));
    }
    para.append(...inline(line).map((x) => (typeof x === 'string' ? document.createTextNode(x) : x)));
  }
  return frag;
}
