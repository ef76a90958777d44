// The promotion table: its controls (policy, operation, types,
// comparison), the grid of cells as the documentation draws it, and its
// legend. With an operation chosen, the table is that operation's (the
// type `a OP b` gives), as `table --op` prints it.

import { $, breakable, h } from './dom.js';
import { compare } from './compare.js';
import { answerText, showExplanation } from './explain.js';
import { makeGrid, markSelected } from './grid.js';
import { latestOnly } from './latest.js';
import { source } from './sources.js';
import { MODE, fillForms, info, noteSettings, policyNamed, state, tablePolicies, timings, writeUrl } from './state.js';

let current = null; // the table shown, with its diff
const tableTurns = latestOnly();

export async function renderTable() {
  const turn = tableTurns();
  const started = performance.now();
  // The partner's table, compared with this one here. A partner with no
  // table (one that does not model the operation) leaves this table
  // shown, the reason in its legend.
  const partner = state.diff ? source.table(state.diff).then((value) => ({ value }), (error) => ({ error })) : null;
  const answer = await turn.settle(Promise.all([source.table(), partner]));
  if (answer.stale) return;
  if (answer.error) {
    // No table (a policy that does not model the operation): the API's
    // words in its place, and nothing left of the one before.
    const grid = $('types');
    grid.replaceChildren(h('caption', { class: 'error-text', text: answer.error.message }));
    grid.dataset.policy = '';
    $('legend').replaceChildren();
    $('table-help').hidden = true;
    $('panel').replaceChildren(h('p', { class: 'placeholder', text: 'No table to choose a cell from: the message above says why.' }));
    $('drawing').replaceChildren();
    return;
  }
  const [table, other] = answer.value;
  const diff = other && other.value ? compare(table, other.value, [state.policy, state.diff]) : null;
  // What a cell is of: an operation (in a form), or the assignment.
  const op = asked(table);
  const [n, m] = [table.types.length, table.columns.length];
  const marks = new Map();
  if (diff) for (const d of diff.differences) marks.set(d.r + ',' + d.c, d);
  const grid = $('types');
  const head = h('tr', {}, h('th', { scope: 'col', 'aria-label': 'row type, column type' }));
  // A reduction's columns are its dtype= (None: without it).
  const keyword = table.column_keyword ? `${table.column_keyword}=` : '';
  table.column_labels.forEach((label, c) =>
    head.append(h('th', { scope: 'col', title: keyword + table.column_names[c], class: label.length > 3 ? 'long' : null, text: label })));
  const body = document.createDocumentFragment();
  for (let r = 0; r < n; r++) {
    const row = h('tr', {}, h('th', { scope: 'row', title: table.names[r], text: table.labels[r] }));
    for (let c = 0; c < m; c++) {
      const cell = table.cells[r][c];
      const mark = marks.get(r + ',' + c);
      let title = `${op ? op + ' of ' : ''}${table.names[r]} with ${keyword}${table.column_names[c]}: ${answerText(cell, table)}`;
      if (cell.computes_label) title += `; computes in ${cell.computes_in}`;
      if (mark) title += `; ${state.diff}: ${mark.right === null ? (op ? 'an error' : 'no promotion') : mark.right}` +
        mark.not_native.map((x) => ` (${x.dtype} is not native to ${x.policy})`).join('');
      const td = h('td', {
        role: 'gridcell', tabindex: '-1', 'data-r': r, 'data-c': c,
        class: [mark ? 'd' : '', cell.error !== undefined ? 'fail' : '', cell.label.length > 6 ? 'long' : ''].join(' ').trim() || null,
        title,
        'data-label': cell.label,
        'data-differs': mark ? 'true' : null,
      }, breakable(cell.label));
      if (mark) td.append(h('span', { class: 'sym', 'aria-hidden': 'true', text: '≠' }));
      // The second mark: the type the cell computes in, where it differs.
      if (cell.computes_label) {
        td.dataset.computes = cell.computes_in;
        td.append(h('span', { class: 'computes', text: cell.computes_label }));
      }
      row.append(td);
    }
    body.append(row);
  }
  grid.replaceChildren(h('caption', { text: table.caption }), h('thead', {}, head), h('tbody', {}, body));
  grid.dataset.size = n;
  grid.classList.toggle('wide', m > 20);
  $('table-wrap').classList.toggle('wide', m > 20);
  grid.dataset.policy = table.name;
  grid.dataset.diff = state.diff;
  grid.dataset.types = state.types;
  grid.dataset.op = table.op ?? '';
  grid.dataset.form = table.form ?? '';
  current = { table, diff };
  $('table-help').hidden = false;
  $('table-help').textContent = table.column_keyword
    ? `Click a cell, or move with the arrow keys and press Enter, to see what ${op} gives of an array of the row's dtype with the column's ${keyword} and the rule it follows.`
    : op
      ? `Click a cell, or move with the arrow keys and press Enter, to see what ${op} gives, and why its two types promote as they do (the panel explains promotion, not ${op}).`
      : 'Click a cell, or move with the arrow keys and press Enter, to see why its two types promote as they do.';
  renderLegend(table, diff, other && other.error);
  let selected = null;
  if (state.cell) {
    const r = table.types.indexOf(state.cell[0]);
    const c = table.columns.indexOf(state.cell[1]);
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

/** How a title names what the table asks: `true_divide`, `true_divide
 * (reflected)`, `the assignment`; null for promotion. */
function asked(table) {
  if (table.form === 'setitem') return 'the assignment';
  if (!table.op) return null;
  return table.form ? `${table.op} (${table.form})` : table.op;
}

function renderLegend(table, diff, diffError) {
  const legend = $('legend');
  legend.replaceChildren();
  if (table.legend.length) {
    legend.append(h('dl', {}, table.legend.map((l) => h('div', {}, h('dt', { text: l.label }), h('dd', { text: l.dtype })))));
  }
  const op = asked(table);
  const fails = table.column_keyword ? `a call ${op} raises an error for`
    : op ? `a pair ${op} raises an error for` : 'a pair that does not promote';
  legend.append(h('p', { text: `i*, f*, c* are weak types: Python's int, float and complex, which take the other operand's width. - marks ${fails}.` }));
  if (table.cells.some((row) => row.some((cell) => cell.computes_label))) {
    legend.append(h('p', { text: 'A small second label is the type the framework computes the cell in, where it is not the result\'s (a half float\'s accumulator, PyTorch\'s opmath).' }));
  }
  if (diff) {
    const by = op
      ? `compared by the dtype ${op} gives`
      : 'compared by promote_types as JAX\'s documentation compares JAX with NumPy';
    legend.append(h('p', {},
      h('span', { class: 'swatch', text: 'i2', }, h('span', { class: 'sym', text: '≠' })),
      ` Green cells marked ≠ differ from ${diff.right}: ${diff.count} of ${diff.cells}, ${by} (a dtype native to one policy but not the other counts too).`));
  }
  if (diffError) {
    legend.append(h('p', { class: 'error-text', 'data-diff-error': 'true', text: `No comparison with ${state.diff}: ${diffError.message}` }));
  }
}

async function selectCell(r, c) {
  const { table } = current;
  state.cell = [table.types[r], table.columns[c]];
  writeUrl();
  markSelected($('types'), r, c);
  await showExplanation(table);
}

export function renderTableControls() {
  const policy = $('policy');
  policy.replaceChildren(...tablePolicies().map((p) => h('option', { value: p.name, text: menuText(p) + (p.lattice ? '' : ' (rules)') })));
  policy.value = state.policy;
  policy.addEventListener('change', () => {
    state.policy = policy.value;
    if (state.diff === state.policy) state.diff = '';
    fillDiff();
    fillOps();
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
  fillOps();
  if (MODE === 'static') {
    $('op').disabled = true;
    $('form').disabled = true;
    $('op-note').hidden = false;
    $('op-note').append('operations\' tables need ', h('code', { text: 'dtype-lattice serve' }),
      ': this static export holds the promotion tables only');
  }
  $('op').addEventListener('change', () => {
    state.op = $('op').value;
    state.form = fillForms($('form'), state.op, state.form);
    writeUrl();
    renderTable();
  });
  $('form').addEventListener('change', () => {
    state.form = $('form').value;
    writeUrl();
    renderTable();
  });
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
  fillOps();
  for (const radio of document.querySelectorAll('input[name="types"]')) radio.checked = radio.value === state.types;
}

/** The operation menu: promotion, then the binary operations (the
 * library's, from `/api/info`), those the policy does not model said so. */
function fillOps() {
  const select = $('op');
  const models = new Set(policyNamed(state.policy).operations);
  const option = (o) => h('option', { value: o.name, text: o.name + (models.has(o.name) ? '' : ' (not modelled)') });
  // A reduction's table: a row per input dtype, a column per dtype=.
  const binary = info.operations.filter((o) => !o.family && o.arity === 2);
  const reductions = info.operations.filter((o) => o.family === 'reduction');
  const arrays = info.operations.filter((o) => o.family && o.family !== 'reduction');
  select.replaceChildren(h('option', { value: '', text: 'promotion (result_type)' }),
    h('optgroup', { label: 'binary operations' }, binary.map(option)),
    h('optgroup', { label: 'reductions (a row per array dtype, a column per dtype=)' }, reductions.map(option)),
    h('optgroup', { label: 'contractions and combinations' }, arrays.map(option)));
  select.value = state.op;
  state.form = fillForms($('form'), state.op, state.form);
}

function fillDiff() {
  const select = $('diff');
  select.replaceChildren(h('option', { value: '', text: 'nothing' }),
    ...tablePolicies().filter((p) => p.name !== state.policy).map((p) => h('option', { value: p.name, text: menuText(p) })));
  select.value = state.diff;
}

/** A menu's text for a policy; a preset indented under its entry, with
 * the settings it fixes. */
function menuText(p) {
  if (!p.preset) return p.name;
  const fixed = Object.entries(p.preset.settings).map(([key, value]) => `${key}=${value}`).join(', ');
  return `\u00a0\u00a0${p.name} (${p.preset.entry}, ${fixed})`;
}
