// The console's shell: hash routing (every page has an address), the
// header, focus management, and the page modules.
import { h, fill } from './ui/dom.js';
import { call, isAbort } from './api/http.js';
import { errorBox } from './ui/errors.js';
import * as overview from './pages/overview.js';
import * as scope from './pages/scope.js';
import * as dreams from './pages/dreams.js';
import * as memory from './pages/memory.js';
import * as personalities from './pages/personalities.js';

// ROUTES maps address patterns to pages; :name segments are parameters.
const ROUTES = [
  ['/', overview.render],
  ['/agents/:agent/projects/:project', scope.render],
  ['/agents/:agent/projects/:project/dreams', dreams.renderTimeline],
  ['/agents/:agent/projects/:project/dreams/:date', dreams.renderDay],
  ['/agents/:agent/projects/:project/memories/:id', memory.render],
  ['/agents/:agent/projects/:project/:tab', scope.render],
  ['/agents/:agent/memories/:id', memory.render],
  ['/personalities', personalities.renderList],
  ['/personalities/:agent', personalities.renderEdit],
];

// parse splits the address after '#' into a path and a query.
export function parse(hash) {
  const raw = (hash || '').replace(/^#/, '') || '/';
  const [path, qs = ''] = raw.split('?');
  return { path: path || '/', query: new URLSearchParams(qs) };
}

function match(path) {
  const segs = path.split('/').filter(Boolean);
  for (const [pattern, page] of ROUTES) {
    const ps = pattern.split('/').filter(Boolean);
    if (ps.length !== segs.length) continue;
    const params = {};
    let ok = true;
    for (let i = 0; i < ps.length; i += 1) {
      if (ps[i].startsWith(':')) {
        try {
          params[ps[i].slice(1)] = decodeURIComponent(segs[i]);
        } catch {
          ok = false;
        }
      } else if (ps[i] !== segs[i]) ok = false;
    }
    if (ok) return { page, params };
  }
  return null;
}

let controller = null;
let lastPath = null;

async function show() {
  const main = document.getElementById('main');
  const { path, query } = parse(location.hash);
  const found = match(path);
  if (controller) controller.abort();
  controller = new AbortController();
  const { signal } = controller;
  const samePage = path === lastPath;
  lastPath = path;
  for (const a of document.querySelectorAll('header nav a')) {
    const target = parse(a.getAttribute('href')).path;
    const current = target === '/' ? path === '/' || path.startsWith('/agents/') : path.startsWith(target);
    if (current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!found) {
    fill(main, h('h1', { tabindex: '-1' }, 'No such page'), h('p', {}, 'The console has no page at this address. '), h('a', { href: '#/' }, 'Back to the overview'));
    document.title = 'agentmem console';
    main.querySelector('h1').focus();
    return;
  }
  const ctx = {
    signal,
    query,
    // navigate changes the address (and so the page).
    navigate: (href) => {
      if (location.hash === href) show();
      else location.hash = href;
    },
    // setQuery rewrites the address's query without reloading the page
    // (filters and sort orders stay linkable).
    setQuery: (params) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
      const qs = q.toString();
      history.replaceState(null, '', `#${path}${qs ? `?${qs}` : ''}`);
    },
    // reload renders the page again.
    reload: () => show(),
  };
  try {
    main.setAttribute('aria-busy', 'true');
    await found.page(main, found.params, ctx);
    if (signal.aborted) return;
    main.removeAttribute('aria-busy');
    const h1 = main.querySelector('h1');
    if (h1) {
      document.title = `${h1.textContent} · agentmem console`;
      if (!samePage) {
        h1.setAttribute('tabindex', '-1');
        h1.focus({ preventScroll: false });
      }
    }
  } catch (err) {
    if (isAbort(err) || signal.aborted) return;
    main.removeAttribute('aria-busy');
    fill(main, h('h1', { tabindex: '-1' }, 'Something went wrong'), errorBox(err));
  }
}

async function info() {
  try {
    const { data } = await call('GET', '/console/info');
    const el = document.getElementById('api-info');
    fill(el, h('span', { title: `signing: ${data.auth}` }, `API ${data.apiUrl}`), h('span', { class: 'muted' }, ` · ${data.auth === 'none' ? 'unsigned (local dev)' : 'SigV4'} · ${data.version}`));
  } catch (err) {
    fill(document.getElementById('api-info'), errorBox(err, 'console'));
  }
}

function start() {
  document.getElementById('skip').addEventListener('click', (e) => {
    e.preventDefault();
    const target = document.querySelector('#main h1') || document.getElementById('main');
    target.setAttribute('tabindex', '-1');
    target.focus();
  });
  // Links a page builds are hash routes; plain '#/' anchors navigate.
  window.addEventListener('hashchange', show);
  info();
  show();
}

start();
