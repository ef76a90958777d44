// Why a cell promotes as it does: the panel beside the promotion table
// (also the editor's) and the drawing under it, marked with the pair, the
// paths and the join. For an operation's table the panel gives the cell's
// answer and says plainly that what it explains is promotion only.

import { $, chips, h } from './dom.js';
import { applyMarks, showSvg } from './drawing.js';
import { latestOnly } from './latest.js';
import { source } from './sources.js';
import { MODE, state, tablePolicies } from './state.js';

const explainTurns = latestOnly();

/** A cell's answer in words: its type, or for an operation's table the
 * error it raises (`table` gives the errors). */
export const answerText = (cell, table) => {
  if (cell.error !== undefined) return table && table.op ? table.errors[cell.error].type : 'no promotion';
  return cell.dtype + (cell.weak ? ' (weak)' : '');
};

/** Explains the chosen cell (`state.cell`) of `table`, or invites a
 * choice. `panel.dataset.cell` is set last, once the explanation and its
 * drawing are both shown. */
export async function showExplanation(table) {
  const turn = explainTurns();
  const panel = $('panel');
  if (!state.cell) {
    panel.replaceChildren(h('p', { class: 'placeholder', text: 'Choose a cell: the panel shows each type\'s upper bounds, the common ones, the join and a shortest path to it, and the drawing below marks them.' }));
    delete panel.dataset.join;
    panel.dataset.cell = '';
    await drawPolicy(table, null, turn);
    return;
  }
  for (const key of ['join', 'joinDtype', 'joinWeak', 'outcome']) delete panel.dataset[key];
  const [a, b] = state.cell;
  const r = table.types.indexOf(a);
  const c = table.columns.indexOf(b);
  const cell = table.cells[r][c];
  const op = table.op;
  panel.dataset.op = op ?? '';
  const keyword = table.column_keyword ? `${table.column_keyword}=` : '';
  const head = [
    h('h3', {}, `${table.names[r]} with ${keyword}${table.column_names[c]}`),
    h('p', { class: 'answer' }, `${op ?? 'result_type'}: `, h('b', { text: answerText(cell, table) }),
      cell.computes_in ? ` (computes in ${cell.computes_in})` : ''),
  ];
  // A reduction's cell is one array and a dtype=: no pair to promote, so
  // the panel gives the answer and the policy's rule in words.
  if (table.column_keyword) {
    const rule = table.rule ? [h('p', { class: 'why', text: `${table.name}'s rule for ${op}: ${table.rule}` })] : [];
    panel.replaceChildren(...head, ...errorBlock(cell, table), ...rule);
    panel.dataset.join = '';
    panel.dataset.cell = state.cell.join(',');
    await drawPolicy(table, null, turn);
    return;
  }
  // An operation's error is its answer, shown at once; promotion's comes
  // with the explanation (or without one where there is none).
  const promotionError = op ? [] : errorBlock(cell, table);
  if (op) {
    const [x, y] = [table.names[r], table.names[c]];
    head.push(...errorBlock(cell, table), h('p', { class: 'op-note', text: table.graph
      ? `The panel explains promotion only: below is why ${x} and ${y} promote as they do (their result_type). ${op}'s answer above is the policy's rule for ${op}, applied after promotion and not traced here, so the join below need not be ${op}'s answer.`
      : `The panel explains promotion only, and ${table.name} is defined by rules, not by a lattice, so there is no graph to trace: ${op}'s answer above is the policy's rule for ${op}.` }));
  }
  if (!table.graph) {
    const why = op ? [] : [h('p', { class: 'why', text: `${table.name} is defined by rules, not by a lattice, so there is no graph to trace: the cell is its result_type.` })];
    panel.replaceChildren(...head, ...promotionError, ...why);
    panel.dataset.join = '';
    panel.dataset.cell = state.cell.join(',');
    await drawPolicy(table, null, turn);
    return;
  }
  const answer = await turn.settle(source.explain(table, a, b));
  if (answer.stale) return;
  if (answer.error) {
    panel.replaceChildren(...head, h('p', { class: 'error-text', text: answer.error.message }));
    return;
  }
  const why = answer.value;
  if (!why || !why.explained) {
    panel.replaceChildren(...head, ...promotionError, h('p', { class: 'why', text: why ? why.reason : 'No explanation.' }));
    panel.dataset.join = '';
    panel.dataset.cell = state.cell.join(',');
    await drawPolicy(table, null, turn);
    return;
  }
  panel.replaceChildren(...head, ...explanation(why, table.name));
  panel.dataset.join = why.join || '';
  panel.dataset.joinDtype = why.join_type ? why.join_type.dtype : '';
  panel.dataset.joinWeak = why.join_type ? String(why.join_type.weak) : '';
  panel.dataset.outcome = why.outcome;
  await drawPolicy(table, why, turn);
  if (turn.current()) panel.dataset.cell = state.cell.join(',');
}

function errorBlock(cell, table) {
  if (cell.error === undefined) return [];
  const error = table.errors[cell.error];
  return [h('p', { class: 'message' }, h('b', { text: error.type + ': ' }), error.message)];
}

/** The explanation, as `explain` prints it; `name` is the policy's, for
 * the rules that go on after its graph. */
export function explanation(why, name) {
  const [x, y] = why.inputs;
  const out = [];
  const asNodes = why.inputs.filter((input, i) => input.node !== why.types[i]);
  if (asNodes.length) {
    out.push(h('p', { class: 'why', text: 'Traced at the nodes ' + why.inputs.map((i) => i.node).join(' and ') +
      ': ' + why.inputs.map((input, i) => input.node !== why.types[i] ? `${why.types[i]} is ${input.node} here` : null).filter(Boolean).join(', ') + '.' }));
  }
  // The outcome first (the join and the paths to it, or why there is
  // none), then the bounds it comes from.
  if (why.outcome === 'join') {
    const type = why.join_type;
    const stands = type && (type.weak || type.dtype !== why.join) ? ` (${type.weak ? 'a weak ' : ''}${type.dtype})` : '';
    out.push(h('p', { class: 'answer' }, 'join: ', h('b', { class: 'join', text: why.join }), stands));
    const paths = h('ol', { class: 'paths', 'aria-label': 'shortest paths to the join' });
    for (const input of why.inputs) {
      const li = h('li', { class: 'path', 'data-path': JSON.stringify(input.path) });
      input.path.forEach((step, i) => {
        if (i) li.append(h('span', { class: 'arrow', 'aria-label': 'to', text: '→' }));
        li.append(step);
      });
      if (input.path.length === 1) li.append(h('span', { class: 'note', text: ' (the join itself)' }));
      paths.append(li);
    }
    out.push(paths);
  } else if (why.outcome === 'ambiguous') {
    out.push(h('p', { class: 'why' }, h('b', { text: 'No join: ' }), `{${x.node}, ${y.node}} has ${why.candidates.length} minimal common upper bounds, `,
      why.candidates.join(', '), ', and none is least, so the graph is not a lattice.'));
  } else {
    out.push(h('p', { class: 'why' }, h('b', { text: 'No join: ' }), `${x.node} and ${y.node} have no common upper bound.`));
  }
  // Keras and tinygrad write their rules on a graph, then go on: where
  // the policy's answer is not the join, the explanation says so.
  const rules = why.rules_answer;
  if (rules) {
    const said = rules.error ? `${rules.error.type}: ${rules.error.message}` : rules.dtype + (rules.weak ? ' (weak)' : '');
    out.push(h('p', { class: 'rules-answer', 'data-answer': said },
      `but ${name} answers `, h('b', { text: said }), ': its rules go on after the graph (docs/policies.md).'));
  }
  const common = new Set(why.common_upper_bounds);
  const role = (l) => (l === why.join ? 'join' : common.has(l) ? 'common' : '');
  out.push(h('dl', { class: 'bounds' },
    h('dt', { text: `Upper bounds of ${x.node} (${x.upper_bounds.length})` }),
    h('dd', {}, chips(x.upper_bounds, role)),
    h('dt', { text: `Upper bounds of ${y.node} (${y.upper_bounds.length})` }),
    h('dd', {}, chips(y.upper_bounds, role)),
    h('dt', { text: `Common upper bounds (${why.common_upper_bounds.length})` }),
    h('dd', {}, why.common_upper_bounds.length ? chips(why.common_upper_bounds, role) : 'none')));
  if (why.error) {
    out.push(h('p', { class: 'family' }, 'error family: ', h('b', { text: why.error.type }),
      why.error.summary ? ` (${why.error.summary})` : ''));
    out.push(h('p', { class: 'message', text: why.error.message }));
  }
  return out;
}

/** The policy's lattice under the table, `why`'s pair marked; `turn` is
 * the explanation's, so a drawing for an older choice is dropped. */
async function drawPolicy(table, why, turn) {
  const figure = $('drawing');
  if (!table.graph) {
    figure.replaceChildren(h('p', { class: 'help', text: `${table.name} is defined by rules, not by a lattice: there is no graph to draw. Policies with a graph: ` +
      tablePolicies().filter((p) => p.graph).map((p) => p.name).join(', ') + '.' }));
    return;
  }
  const nodes = why ? why.inputs.map((i) => i.node) : null;
  const answer = await turn.settle(source.graph(table, nodes));
  if (answer.stale) return;
  if (answer.error) {
    figure.replaceChildren(h('p', { class: 'error-text', text: answer.error.message }));
    return;
  }
  const shown = showSvg(figure, answer.value, `The Hasse diagram of ${table.name}, drawn by the library` + (why ? '; the pair, the paths and the join are marked in red.' : '.'));
  if (MODE === 'static' && why) applyMarks(shown, why.marks);
}
