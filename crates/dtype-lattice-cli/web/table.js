// The promotion table: its controls (policy, types, comparison), the grid
// of cells as the documentation draws it, and its legend.

import { $, breakable, h } from './dom.js';
import { answerText, showExplanation } from './explain.js';
import { makeGrid, markSelected } from './grid.js';
import { latestOnly } from './latest.js';
import { source } from './sources.js';
import { info, noteSettings, state, timings, writeUrl } from './state.js';

let current = null; // the table shown, with its diff
const tableTurns = latestOnly();

export async function renderTable() {
  const turn = tableTurns();
  const started = performance.now();
  const answer = await turn.settle(Promise.all([source.table(), state.diff ? source.diff() : null]));
  if (answer.stale) return;
  if (answer.error) {
    $('types').replaceChildren(h('caption', { class: 'error-text', text: answer.error.message }));
    return;
  }
  const [table, diff] = answer.value;
  const n = table.types.length;
  const marks = new Map();
  if (diff) {
    const index = new Map(table.labels.map((l, i) => [l, i]));
    for (const d of diff.differences) marks.set(index.get(d.row) + ',' + index.get(d.column), d);
  }
  const grid = $('types');
  const head = h('tr', {}, h('th', { scope: 'col', 'aria-label': 'row type, column type' }));
  table.labels.forEach((label, c) =>
    head.append(h('th', { scope: 'col', title: table.names[c], class: label.length > 3 ? 'long' : null, text: label })));
  const body = document.createDocumentFragment();
  for (let r = 0; r < n; r++) {
    const row = h('tr', {}, h('th', { scope: 'row', title: table.names[r], text: table.labels[r] }));
    for (let c = 0; c < n; c++) {
      const cell = table.cells[r][c];
      const mark = marks.get(r + ',' + c);
      let title = `${table.names[r]} with ${table.names[c]}: ${answerText(cell)}`;
      if (mark) title += `; ${state.diff}: ${mark.right === null ? 'no promotion' : mark.right}` +
        mark.not_native.map((x) => ` (${x.dtype} is not native to ${x.policy})`).join('');
      const td = h('td', {
        role: 'gridcell', tabindex: '-1', 'data-r': r, 'data-c': c,
        class: [mark ? 'd' : '', cell.error !== undefined ? 'fail' : '', cell.label.length > 6 ? 'long' : ''].join(' ').trim() || null,
        title,
        'data-label': cell.label,
        'data-differs': mark ? 'true' : null,
      }, breakable(cell.label));
      if (mark) td.append(h('span', { class: 'sym', 'aria-hidden': 'true', text: '≠' }));
      row.append(td);
    }
    body.append(row);
  }
  grid.replaceChildren(h('caption', { text: table.caption }), h('thead', {}, head), h('tbody', {}, body));
  grid.dataset.size = n;
  grid.classList.toggle('wide', n > 20);
  $('table-wrap').classList.toggle('wide', n > 20);
  grid.dataset.policy = table.name;
  grid.dataset.diff = state.diff;
  grid.dataset.types = state.types;
  current = { table, diff };
  renderLegend(table, diff);
  let selected = null;
  if (state.cell) {
    const r = table.types.indexOf(state.cell[0]);
    const c = table.types.indexOf(state.cell[1]);
    if (r >= 0 && c >= 0) selected = [r, c];
    else state.cell = null;
  }
  if (selected) markSelected(grid, selected[0], selected[1]);
  else grid.querySelector('td').tabIndex = 0;
  const drawn = performance.now();
  timings.tableRenders.push(drawn - started);
  performance.measure('table-render', { start: started, end: drawn });
  if (timings.interactive === null) {
    timings.interactive = drawn;
    performance.mark('explorer-interactive');
  }
  await showExplanation(table);
}

function renderLegend(table, diff) {
  const legend = $('legend');
  legend.replaceChildren();
  if (table.legend.length) {
    legend.append(h('dl', {}, table.legend.map((l) => h('div', {}, h('dt', { text: l.label }), h('dd', { text: l.dtype })))));
  }
  legend.append(h('p', { text: 'i*, f*, c* are weak types: Python\'s int, float and complex, which take the other operand\'s width. - marks a pair that does not promote.' }));
  if (diff) {
    legend.append(h('p', {},
      h('span', { class: 'swatch', text: 'i2', }, h('span', { class: 'sym', text: '≠' })),
      ` Green cells marked ≠ differ from ${diff.right}: ${diff.count} of ${diff.cells}, compared by promote_types as JAX's documentation compares JAX with NumPy (a dtype native to one policy but not the other counts too).`));
  }
}

async function selectCell(r, c) {
  const { table } = current;
  state.cell = [table.types[r], table.types[c]];
  writeUrl();
  markSelected($('types'), r, c);
  await showExplanation(table);
}

export function renderTableControls() {
  const policy = $('policy');
  policy.replaceChildren(...info.policies.map((p) => h('option', { value: p.name, text: p.name + (p.lattice ? '' : ' (rules)') })));
  policy.value = state.policy;
  policy.addEventListener('change', () => {
    state.policy = policy.value;
    if (state.diff === state.policy) state.diff = '';
    fillDiff();
    writeUrl();
    noteSettings();
    renderTable();
  });
  for (const radio of document.querySelectorAll('input[name="types"]')) {
    radio.checked = radio.value === state.types;
    radio.addEventListener('change', () => {
      state.types = radio.value;
      writeUrl();
      renderTable();
    });
  }
  fillDiff();
  $('diff').addEventListener('change', () => {
    state.diff = $('diff').value;
    writeUrl();
    renderTable();
  });
  $('table-controls').addEventListener('submit', (e) => e.preventDefault());
  makeGrid($('types'), selectCell);
}

/** The controls set from `state` again (after the history moved). */
export function syncTableControls() {
  $('policy').value = state.policy;
  fillDiff();
  for (const radio of document.querySelectorAll('input[name="types"]')) radio.checked = radio.value === state.types;
}

function fillDiff() {
  const select = $('diff');
  select.replaceChildren(h('option', { value: '', text: 'nothing' }),
    ...info.policies.filter((p) => p.name !== state.policy).map((p) => h('option', { value: p.name, text: p.name })));
  select.value = state.diff;
}
