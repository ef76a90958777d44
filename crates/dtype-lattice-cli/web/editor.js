// The lattice editor: a graph typed or loaded from the design notebook,
// checked, audited and drawn by the server as the user types, with its
// join table and the explanation of a chosen pair.

import { $, h, needsServer } from './dom.js';
import { showSvg } from './drawing.js';
import { explanation } from './explain.js';
import { makeGrid, markSelected } from './grid.js';
import { latestOnly } from './latest.js';
import { get, post } from './sources.js';
import { MODE, info, state, writeUrl } from './state.js';

const SAMPLE = `# The design notebook's right-hand DAG, as a Python dict
# (JSON or a lattice file work too; or load one of the notebook's graphs)
lattice = {
    'A': ['C', 'D'],
    'B': ['C', 'D'],
}
`;

const editorTurns = latestOnly();
let editorPair = null;
let editorTable = null;

/** Sends the text to the server, which reads, checks, audits and draws
 * it (and explains the chosen pair). */
async function analyze() {
  if (MODE === 'static') return;
  const turn = editorTurns();
  const text = $('lattice-text').value;
  const q = new URLSearchParams({ syntax: $('syntax').value });
  if (editorPair) {
    q.set('a', editorPair[0]);
    q.set('b', editorPair[1]);
  }
  const answer = await turn.settle(post('api/lattice?' + q, text, 'text/plain; charset=utf-8').then((response) => response.json()));
  if (answer.stale) return;
  if (answer.error) {
    // A refusal (a text too large, a busy server) answers nothing about
    // this text: what the last answer showed below goes too.
    $('lattice-report').replaceChildren(h('p', { class: 'verdict no', text: answer.error.message }));
    for (const id of ['lattice-table', 'lattice-panel', 'lattice-drawing']) $(id).replaceChildren();
    $('lattice-caption').textContent = '';
    return;
  }
  renderReport(answer.value);
}

function renderReport(result) {
  const report = $('lattice-report');
  report.dataset.valid = String(result.valid);
  if (!result.valid) {
    const error = result.error;
    const items = [h('p', { class: 'verdict no', text: 'Not read' }), h('p', { class: 'error-text', text: error.message })];
    if (error.line) {
      const go = h('button', { class: 'link', type: 'button', text: `go to line ${error.line}, column ${error.column}` });
      go.addEventListener('click', () => goTo(error.line, error.column));
      items.push(h('p', {}, go));
    }
    report.replaceChildren(...items);
    delete report.dataset.verdict;
    $('lattice-table').replaceChildren();
    $('lattice-caption').textContent = '';
    $('lattice-panel').replaceChildren();
    $('lattice-drawing').replaceChildren();
    return;
  }
  const check = result.check;
  // The notebook's sense: a lattice has a join for every pair. `check`
  // also accepts a partial lattice (JAX's is one), so that is said too.
  const kind = check.cycle || !check.lattice ? 'not' : check.no_upper_bound_count ? 'partial' : 'lattice';
  report.dataset.verdict = kind;
  report.dataset.name = check.name;
  let verdict;
  const pairs = (n) => (n === 1 ? '1 pair has' : `${n} pairs have`);
  if (check.cycle) verdict = h('p', { class: 'verdict no', text: 'Not a lattice: the edges form a cycle, ' + check.cycle.concat(check.cycle[0]).join(' → ') });
  else if (kind === 'lattice') verdict = h('p', { class: 'verdict yes', text: 'A lattice: every pair has a join' });
  else if (kind === 'partial') {
    verdict = h('div', {}, h('p', { class: 'verdict partial', text: `Not a lattice: ${pairs(check.no_upper_bound_count)} no upper bound` }),
      h('p', { class: 'help', text: 'A partial lattice, as JAX\'s is: every pair with an upper bound has a least one, so promotion is still order-independent where it is defined.' }));
  } else {
    verdict = h('p', { class: 'verdict no', text: `Not a lattice: ${pairs(check.ambiguous_count)} several minimal common upper bounds and no least one` });
  }
  const items = [verdict, h('p', { class: 'help', text: `${check.name} (${result.syntax === 'toml' ? 'lattice file' : 'dict'}): ${check.nodes.length} nodes, ${check.edges.length} edges.` })];
  if (!check.cycle) {
    items.push(h('h3', { text: `Ambiguous pairs: ${check.ambiguous_count}` }));
    if (check.ambiguous.length) {
      items.push(h('ul', { id: 'ambiguous' }, check.ambiguous.map((a) =>
        h('li', { 'data-pair': a.pair.join(','), 'data-candidates': a.candidates.join(',') },
          `{${a.pair.join(', ')}}: minimal common upper bounds ${a.candidates.join(', ')}${a.candidate_count > a.candidates.length ? `, and ${a.candidate_count - a.candidates.length} more` : ''}, none least`))));
      if (check.ambiguous.length < check.ambiguous_count) items.push(h('p', { class: 'help', text: `… and ${check.ambiguous_count - check.ambiguous.length} more` }));
    }
    items.push(h('h3', { text: `Pairs with no upper bound: ${check.no_upper_bound_count}` }));
    if (check.no_upper_bound.length) {
      items.push(h('ul', { id: 'unbounded' }, check.no_upper_bound.map((p) => h('li', { 'data-pair': p.join(',') }, `{${p.join(', ')}}`))));
      if (check.no_upper_bound.length < check.no_upper_bound_count) items.push(h('p', { class: 'help', text: `… and ${check.no_upper_bound_count - check.no_upper_bound.length} more` }));
    }
    if (check.laws) {
      const laws = check.laws;
      items.push(h('p', { class: 'help', text: `Laws checked on ${laws.pairs} ordered pairs and ${laws.triples} unordered triples${laws.exhaustive ? ' (all)' : ' (a sample)'}: the join is ${laws.commutative && laws.associative ? 'commutative and associative where defined' : 'not ' + (laws.commutative ? 'associative' : 'commutative')}.` }));
    }
  }
  if (result.audit) items.push(...auditBlock(result.audit));
  report.replaceChildren(...items);
  renderLatticeTable(result);
  renderLatticePanel(result);
  if (result.svg) showSvg($('lattice-drawing'), result.svg, `The Hasse diagram of ${check.name}, drawn by the library` + (result.explain && result.explain.explained ? '; the pair, the paths and the join are marked in red.' : '.'));
  else $('lattice-drawing').replaceChildren(h('p', { class: 'help', text: result.svg_note || '' }));
}

function auditBlock(audit) {
  const words = {
    dropped_component: 'dropped component', overflow: 'overflow', precision_loss: 'precision loss', wider_than_inputs: 'wider than the inputs',
  };
  const pairs = (list) => list.map((t) => `{${t[0]}, ${t[1]}} → ${t[2]}`).join(', ');
  const rows = [
    h('tr', {}, h('th', { text: 'pairs of dtypes' }), h('td', { class: 'count', text: audit.pairs }), h('td')),
    h('tr', {}, h('th', { text: 'undefined' }), h('td', { class: 'count', text: audit.undefined.length }), h('td', { text: audit.undefined.map((p) => `{${p[0]}, ${p[1]}}`).join(', ') })),
    ...Object.entries(audit.criteria).map(([name, list]) =>
      h('tr', { 'data-criterion': name }, h('th', { text: words[name] || name }), h('td', { class: 'count', text: list.length }), h('td', { text: pairs(list) }))),
  ];
  if (audit.pairs === 0) {
    return [h('h3', { text: 'The notebook\'s criteria' }),
      h('p', { class: 'help', text: 'No two nodes stand for dtypes, so the criteria (dropped component, overflow, precision loss, wider than the inputs) have nothing to judge: name nodes by dtype (int8, float32) or map them in a lattice file\'s [dtypes].' })];
  }
  return [h('h3', { text: 'The notebook\'s criteria' }),
    h('p', { class: 'help', text: 'Over every pair of distinct nodes that stand for a dtype (weak types and opaque labels are left out):' }),
    h('table', { class: 'audit' }, h('tbody', {}, rows))];
}

function renderLatticeTable(result) {
  const grid = $('lattice-table');
  const table = result.table;
  editorTable = table;
  if (!table || table.omitted) {
    $('lattice-caption').textContent = table ? `No join table: ${table.omitted}.` : '';
    grid.replaceChildren();
    return;
  }
  const n = table.labels.length;
  const head = h('tr', {}, h('th', { scope: 'col', 'aria-label': 'row node, column node' }),
    table.labels.map((l) => h('th', { scope: 'col', class: l.length > 3 ? 'long' : null, text: l })));
  const rows = table.cells.map((row, r) => h('tr', {}, h('th', { scope: 'row', text: table.labels[r] }),
    row.map((j, c) => h('td', {
      role: 'gridcell', tabindex: r === 0 && c === 0 ? '0' : '-1', 'data-r': r, 'data-c': c,
      class: j === -2 ? 'd amb' : j === -1 ? 'fail' : null,
      title: `${table.labels[r]} ∨ ${table.labels[c]}: ` + (j >= 0 ? table.labels[j] : j === -2 ? 'ambiguous, no least upper bound' : 'no upper bound'),
    }, j >= 0 ? table.labels[j] : j === -2 ? '?' : '-'))));
  $('lattice-caption').textContent = `Joins of ${result.check.name}: each pair's least upper bound, row with column; - where there is no upper bound, ? where there are several minimal ones (not a lattice). Click a cell, or move with the arrow keys and press Enter.`;
  grid.replaceChildren(h('thead', {}, head), h('tbody', {}, rows));
  grid.classList.toggle('wide', n > 20);
  if (editorPair) {
    const r = table.labels.indexOf(editorPair[0]);
    const c = table.labels.indexOf(editorPair[1]);
    if (r >= 0 && c >= 0) markSelected(grid, r, c);
  }
}

function renderLatticePanel(result) {
  const panel = $('lattice-panel');
  const why = result.explain;
  if (!editorTable || editorTable.omitted) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  if (!why) {
    panel.replaceChildren(h('p', { class: 'placeholder', text: 'Choose a cell to see why the pair joins where it does, or why it has no join.' }));
    return;
  }
  if (!why.explained) {
    panel.replaceChildren(h('p', { class: 'why', text: why.reason }));
    return;
  }
  why.types = why.inputs.map((i) => i.node);
  panel.replaceChildren(h('h3', { text: `${why.inputs[0].node} with ${why.inputs[1].node}` }), ...explanation(why));
  panel.dataset.join = why.join || '';
}

function goTo(line, column) {
  const area = $('lattice-text');
  const lines = area.value.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += column - 1;
  area.focus();
  area.setSelectionRange(offset, offset + 1);
}

async function loadExample(name) {
  state.example = name;
  writeUrl();
  if (!name) return;
  const text = await get('api/examples/' + encodeURIComponent(name), 'text');
  $('lattice-text').value = text;
  $('syntax').value = 'auto';
  editorPair = null;
  await analyze();
}

export function setupEditor() {
  const select = $('example');
  select.append(...info.examples.map((e) => h('option', { value: e.name, title: e.description, text: e.name })));
  if (MODE === 'static') {
    document.querySelector('#view-editor .editor-layout').replaceWith(needsServer('The lattice editor checks, audits and draws what you type on the server'));
    return;
  }
  $('lattice-text').value = SAMPLE;
  select.value = info.examples.some((e) => e.name === state.example) ? state.example : '';
  select.addEventListener('change', () => loadExample(select.value));
  $('syntax').addEventListener('change', analyze);
  let timer = null;
  $('lattice-text').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(analyze, 250);
  });
  makeGrid($('lattice-table'), (r, c) => {
    editorPair = [editorTable.labels[r], editorTable.labels[c]];
    markSelected($('lattice-table'), r, c);
    analyze();
  });
}

let editorStarted = false;

export function startEditor() {
  if (editorStarted || MODE === 'static') return;
  editorStarted = true;
  if (state.example) loadExample(state.example);
  else analyze();
}
