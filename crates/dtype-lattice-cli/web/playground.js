// result_type, or an operation, under every policy at once: one batch
// request (the batch protocol's JSON lines) for all of them. The
// operations and which policy models which come from `/api/info`, so a
// policy that does not model the operation is shown as such, not as an
// error of its framework.

import { $, h, needsServer } from './dom.js';
import { latestOnly } from './latest.js';
import { post } from './sources.js';
import { MODE, fillForms, info, settingsParams, state, writeUrl } from './state.js';

const playTurns = latestOnly();

/** Splits the operands as a shell would: spaces separate, quotes hold. */
function tokenize(text) {
  const tokens = [];
  const re = /\s*(?:"([^"]*)"|'([^']*)'|(\S+))/gy;
  let match;
  let rest = text;
  while ((match = re.exec(text)) !== null) {
    if (match[0].trim() === '') break;
    tokens.push(match[1] ?? match[2] ?? match[3]);
    rest = text.slice(re.lastIndex);
  }
  if (rest.trim()) throw new Error('an operand has no closing quote: ' + rest.trim());
  return tokens;
}

function showError(message) {
  const status = $('play-status');
  status.textContent = message;
  status.className = 'status error';
}

export async function runPlayground() {
  if (MODE === 'static') return;
  const turn = playTurns();
  const input = $('operands').value;
  state.operands = input;
  writeUrl();
  let tokens;
  try {
    tokens = tokenize(input);
  } catch (err) {
    showError(err.message);
    return;
  }
  const op = info.operations.find((o) => o.name === state.playOp);
  const form = state.playForm;
  // An operation takes as many operands as it has: a unary one the first;
  // the assignment the array and the value.
  const arity = op ? op.arity : form === 'setitem' ? 2 : null;
  const args = arity ? tokens.slice(0, arity) : tokens;
  const left = arity ? tokens.slice(arity) : [];
  const fn = op ? op.name : form === 'setitem' ? 'the assignment' : 'result_type';
  const request = (p) => {
    const line = { args, policy: p.name };
    if (op || !form) line.fn = op ? op.name : 'result_type';
    if (form) line.form = form;
    return JSON.stringify(line);
  };
  const lines = info.policies.map(request);
  const asked = post('api/batch?' + settingsParams(new URLSearchParams()), lines.join('\n') + '\n', 'application/jsonl')
    .then(async (response) => (await response.text()).trim().split('\n').map((line) => JSON.parse(line)));
  const answer = await turn.settle(asked);
  if (answer.stale) return;
  if (answer.error) {
    showError(answer.error.message);
    return;
  }
  const answers = answer.value;
  const status = $('play-status');
  status.className = 'status';
  const written = form === 'setitem' ? `${args[0] ?? '?'}[...] = ${args[1] ?? '?'}` : `${fn}(${args.join(', ')})${form ? ` as ${form}` : ''}`;
  status.textContent = `${written} under ${info.settings.map((s) => `${s.key}=${state.settings[s.key]}`).join(', ')}:`;
  if (left.length) {
    const takes = op.arity === 1 ? 'one operand, so only the first is used' : `${op.arity} operands, so only the first ${op.arity} are used`;
    status.append(h('span', { class: 'note', 'data-unused': left.join(' '), text: `${fn} takes ${takes}: ${left.join(', ')} left out.` }));
  }
  const rows = info.policies.map((p, i) => {
    const one = answers[i];
    const unmodelled = form
      ? !(form in p.forms) || (op && !p.forms[form].includes(op.name))
      : op && !p.operations.includes(op.name);
    if (unmodelled && one.error) {
      // The library's own words for it, on hover: the batch answer.
      return h('tr', { 'data-policy': p.name, 'data-not-modelled': 'true' },
        h('th', { scope: 'row', text: p.name }),
        h('td', { class: 'result not-modelled', title: one.error.message, text: 'not modelled' }),
        h('td', { text: '' }),
        h('td', { text: '' }));
    }
    if (one.ok) {
      return h('tr', { 'data-policy': p.name },
        h('th', { scope: 'row', text: p.name }),
        h('td', { class: 'result', text: one.ok.computes_in ? `${one.ok.dtype} (computes in ${one.ok.computes_in})` : one.ok.dtype }),
        h('td', {}, one.ok.weak ? h('span', { class: 'weak-yes', text: 'weak' }) : 'strong'),
        h('td', { text: '' }));
    }
    return h('tr', { 'data-policy': p.name },
      h('th', { scope: 'row', text: p.name }),
      h('td', { class: 'result', text: '-' }),
      h('td', { text: '' }),
      h('td', { class: 'err' }, h('b', { text: one.error.type + ': ' }), one.error.message));
  });
  $('play-results').dataset.operands = input;
  $('play-results').dataset.op = state.playOp;
  $('play-results').dataset.form = state.playForm;
  $('play-results').replaceChildren(
    h('thead', {}, h('tr', {}, ['Policy', 'Result', 'Weak', 'Error'].map((t) => h('th', { scope: 'col', text: t })))),
    h('tbody', {}, rows));
}

export function setupPlayground() {
  if (MODE === 'static') {
    $('play-form').replaceWith(needsServer('The result_type playground asks the server for every answer'));
    return;
  }
  if (state.operands !== null) $('operands').value = state.operands;
  const select = $('play-op');
  const group = (label, keep) => h('optgroup', { label },
    info.operations.filter(keep).map((o) => h('option', { value: o.name, text: o.name })));
  select.append(group('binary operations', (o) => !o.family && o.arity === 2),
    group('unary operations (the first operand)', (o) => !o.family && o.arity === 1),
    group('reductions (the first operand)', (o) => o.family === 'reduction'),
    group('contractions and combinations (where: condition first)', (o) => o.family && o.family !== 'reduction'));
  select.value = state.playOp;
  const forms = $('play-form-menu');
  state.playForm = fillForms(forms, state.playOp, state.playForm);
  select.addEventListener('change', () => {
    state.playOp = select.value;
    state.playForm = fillForms(forms, state.playOp, state.playForm);
    runPlayground();
  });
  forms.addEventListener('change', () => {
    state.playForm = forms.value;
    runPlayground();
  });
  let timer = null;
  $('play-form').addEventListener('submit', (e) => {
    e.preventDefault();
    runPlayground();
  });
  $('operands').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(runPlayground, 300);
  });
}

/** The playground's controls set from `state` again (after the history
 * moved). */
export function syncPlayground() {
  if (MODE === 'static') return;
  $('play-op').value = state.playOp;
  state.playForm = fillForms($('play-form-menu'), state.playOp, state.playForm);
  if (state.operands !== null) $('operands').value = state.operands;
}
