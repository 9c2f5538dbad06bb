// Sortable tables: a header button per sortable column (keyboard and
// screen reader friendly, aria-sort), rows rebuilt on each sort.
import { h, fill } from './dom.js';

// sortable builds a table. columns: [{key, label, value(row) for sorting,
// cell(row) -> node or text, numeric, sortable (default true)}]. state:
// {sort, dir} (dir 'asc' or 'desc'); onSort(state) is called after a
// change (to keep it in the address). Returns {element, update(rows)}.
export function sortable({ columns, rows, state = {}, onSort, caption, empty = 'Nothing here yet.' }) {
  let current = { sort: state.sort || null, dir: state.dir === 'asc' ? 'asc' : 'desc' };
  let data = rows || [];
  const thead = h('thead');
  const tbody = h('tbody');
  const table = h('table', { class: 'table' }, caption ? h('caption', {}, caption) : null, thead, tbody);
  const wrap = h('div', { class: 'table-wrap' }, table);

  function compare(col) {
    const val = col.value || ((r) => r[col.key]);
    return (a, b) => {
      const x = val(a);
      const y = val(b);
      let c;
      if (typeof x === 'number' || typeof y === 'number') c = (Number(x) || 0) - (Number(y) || 0);
      else c = String(x ?? '').localeCompare(String(y ?? ''));
      return current.dir === 'asc' ? c : -c;
    };
  }

  function renderHead() {
    const tr = h('tr');
    for (const col of columns) {
      const sorted = current.sort === col.key;
      const ariaSort = sorted ? (current.dir === 'asc' ? 'ascending' : 'descending') : null;
      let label = col.label;
      if (col.sortable !== false) {
        label = h('button', {
          type: 'button', class: 'sort',
          on: {
            click: () => {
              if (current.sort === col.key) current.dir = current.dir === 'asc' ? 'desc' : 'asc';
              else current = { sort: col.key, dir: col.numeric ? 'desc' : 'asc' };
              render();
              if (onSort) onSort({ ...current });
              thead.querySelector(`[data-key="${col.key}"] button`).focus();
            },
          },
        }, col.label, h('span', { class: 'arrow', 'aria-hidden': 'true' }, sorted ? (current.dir === 'asc' ? ' ▲' : ' ▼') : ''));
      }
      tr.appendChild(h('th', { scope: 'col', 'aria-sort': ariaSort, class: col.numeric ? 'num' : null, dataset: { key: col.key } }, label));
    }
    fill(thead, tr);
  }

  function renderBody() {
    const sortedRows = [...data];
    const col = columns.find((c) => c.key === current.sort);
    if (col) sortedRows.sort(compare(col));
    if (!sortedRows.length) {
      fill(tbody, h('tr', {}, h('td', { colspan: columns.length, class: 'muted' }, empty)));
      return;
    }
    fill(tbody, ...sortedRows.map((row) => h('tr', {},
      columns.map((c) => h('td', { class: c.numeric ? 'num' : null, 'data-label': c.label }, c.cell ? c.cell(row) : String(row[c.key] ?? ''))))));
  }

  function render() {
    renderHead();
    renderBody();
  }
  render();
  return {
    element: wrap,
    update(rows) {
      data = rows;
      renderBody();
    },
    resort() {
      renderBody();
    },
  };
}
