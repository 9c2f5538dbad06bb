// DOM building without HTML strings. Every text, stored memory text above
// all (it may be poisoned), becomes a text node; nothing here parses
// markup, and the page's Content-Security-Policy requires Trusted Types,
// so an HTML sink would throw rather than run.

const SVG_NS = 'http://www.w3.org/2000/svg';

// Attributes that could carry script or load something: refused whatever
// the value, so that a call with a stored value cannot open a door.
const FORBIDDEN = /^(on|style$|srcdoc$|formaction$)/i;

function apply(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'on') {
      for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (name === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (name === 'href') {
      el.setAttribute('href', safeHref(value));
    } else if (name === 'value' && 'value' in el) {
      el.value = value;
    } else if (name === 'checked' || name === 'selected' || name === 'disabled' || name === 'open') {
      el[name] = Boolean(value);
    } else if (FORBIDDEN.test(name)) {
      throw new Error(`dom: attribute ${name} is not allowed`);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

// safeHref allows the console's own routes (#/...) and nothing else.
export function safeHref(value) {
  const s = String(value);
  if (s.startsWith('#/') || s === '#') return s;
  throw new Error(`dom: href ${s} is not one of the console's routes`);
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === '') continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// h builds an HTML element: h('a', {href: '#/x', class: 'y'}, 'text', node).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  append(el, children);
  apply(el, attrs); // after the children: a select's value needs its options
  return el;
}

// s builds an SVG element.
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (name === 'on') {
      for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    } else if (FORBIDDEN.test(name)) {
      throw new Error(`dom: attribute ${name} is not allowed`);
    } else if (name === 'href') {
      el.setAttribute('href', safeHref(value));
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

// fill replaces el's children with children (nested arrays flattened,
// null, undefined and false left out, other values as text).
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// text returns a text node.
export function text(value) {
  return document.createTextNode(value == null ? '' : String(value));
}

// route builds a console address from path segments, each encoded:
// route('agents', 'nori', 'projects', 'p') is '#/agents/nori/projects/p'.
export function route(...segments) {
  let path = '#/' + segments.filter((x) => x !== undefined && x !== null && x !== '').map((x) => encodeURIComponent(String(x))).join('/');
  return path;
}

// withQuery appends a query to a route, leaving out empty values.
export function withQuery(href, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const qs = q.toString();
  return qs ? `${href}?${qs}` : href;
}

// uid returns an id unique in the page, for label/for pairs.
let next = 0;
export function uid(prefix = 'id') {
  next += 1;
  return `${prefix}-${next}`;
}
