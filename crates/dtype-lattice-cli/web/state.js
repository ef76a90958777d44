// What the page shows, kept in its URL so that any view can be linked to,
// and the configuration bar that sets the policies' settings.

import { $, h } from './dom.js';

export const MODE = document.body.dataset.mode === 'static' ? 'static' : 'serve';

/** `/api/info` (or the export's `data/info.json`): the policies, their
 * settings and the notebook's examples; set once when the page starts. */
export let info = null;
export function setInfo(answer) {
  info = answer;
}

/** What the table can show: each policy followed by its presets (a
 * familiar name for the policy with some settings fixed), in the
 * library's order. The playground asks the policies alone. */
export const tablePolicies = () =>
  info.policies.flatMap((p) => [p, ...info.presets.filter((preset) => preset.preset.entry === p.name)]);

/** The policy or preset called `name`. */
export const policyNamed = (name) => tablePolicies().find((p) => p.name === name);

export const state = {
  view: 'table',
  policy: 'jax',
  types: 'docs',
  diff: '',
  op: '', // the table's binary operation; '' for promotion (result_type)
  form: '', // the table's form of it ('setitem' with no operation); '' for each policy's own
  cell: null, // [type, type] of the promotion table
  settings: {},
  operands: null,
  playOp: '', // the playground's operation, of any arity; '' for result_type
  playForm: '', // the playground's form of it; '' for each policy's own
  example: '',
};

/** What the page measured, read by the browser tests: when the table
 * first answered clicks and keys, when the drawing under it was shown
 * too, and each redraw of the table (a fetch and the DOM). */
export const timings = { interactive: null, complete: null, tableRenders: [] };
window.explorerTimings = timings;

export function readUrl() {
  const q = new URLSearchParams(location.search);
  const views = ['table', 'playground', 'editor'];
  state.view = views.includes(q.get('view')) ? q.get('view') : 'table';
  const names = tablePolicies().map((p) => p.name);
  state.policy = names.includes(q.get('policy')) ? q.get('policy') : 'jax';
  state.types = q.get('types') === 'all' ? 'all' : 'docs';
  state.diff = names.includes(q.get('diff')) && q.get('diff') !== state.policy ? q.get('diff') : '';
  // `op` is the shown view's: a binary operation in the table (which the
  // static export has no answers for), any operation in the playground.
  const op = info.operations.find((o) => o.name === q.get('op'));
  state.op = state.view === 'table' && MODE === 'serve' && op && op.arity === 2 ? op.name : '';
  state.playOp = state.view === 'playground' && op ? op.name : '';
  // `form` too: one Python has for the operation (`setitem` for none).
  const form = q.get('form') || '';
  const shown = state.view === 'table' ? state.op : state.playOp;
  const allowed = (state.view === 'table' && MODE === 'static') ? [] : formsOf(shown);
  state.form = state.view === 'table' && allowed.includes(form) ? form : '';
  state.playForm = state.view === 'playground' && allowed.includes(form) ? form : '';
  const cell = (q.get('cell') || '').split(',');
  state.cell = cell.length === 2 && cell[0] && cell[1] ? cell : null;
  for (const s of info.settings) {
    const v = q.get(s.key);
    state.settings[s.key] = s.values.includes(v) ? v : s.values[0];
  }
  state.operands = q.get('operands');
  state.example = q.get('example') || '';
}

export function writeUrl(push) {
  const q = new URLSearchParams();
  if (state.view !== 'table') q.set('view', state.view);
  if (state.view === 'table' || state.view === 'playground') {
    if (state.view === 'table') {
      if (state.policy !== 'jax') q.set('policy', state.policy);
      if (state.types !== 'docs') q.set('types', state.types);
      if (state.op) q.set('op', state.op);
      if (state.form) q.set('form', state.form);
      if (state.diff) q.set('diff', state.diff);
      if (state.cell) q.set('cell', state.cell.join(','));
    }
    for (const s of info.settings) {
      if (state.settings[s.key] !== s.values[0]) q.set(s.key, state.settings[s.key]);
    }
    if (state.view === 'playground' && state.playOp) q.set('op', state.playOp);
    if (state.view === 'playground' && state.playForm) q.set('form', state.playForm);
    if (state.view === 'playground' && state.operands !== null) q.set('operands', state.operands);
  }
  if (state.view === 'editor' && state.example) q.set('example', state.example);
  const url = location.pathname + (q.toString() ? '?' + q.toString() : '');
  if (url !== location.pathname + location.search) {
    history[push ? 'pushState' : 'replaceState'](null, '', url);
  }
}

/** The forms a menu offers with the operation `name` chosen ('' for
 * none): those Python has for it (from `/api/info`), or with no operation
 * the assignment `x[...] = v`. */
export function formsOf(name) {
  if (!name) return ['setitem'];
  return info.operations.find((o) => o.name === name).forms;
}

/** The form menu (`select`) filled for the operation `name`: each
 * policy's own form first, then those Python has. */
export function fillForms(select, name, chosen) {
  const text = {
    function: 'function: lib.op(a, b)',
    operator: 'operator: a OP b',
    reflected: 'reflected: b.__rOP__(a)',
    inplace: 'in place: a OP= b',
    setitem: 'assignment: a[...] = b',
  };
  select.replaceChildren(h('option', { value: '', text: "as each policy's docs say" }),
    ...formsOf(name).map((f) => h('option', { value: f, text: text[f] })));
  select.value = formsOf(name).includes(chosen) ? chosen : '';
  return select.value;
}

/** `params` with every setting as chosen; for a preset (`name`), those it
 * fixes at its values, so that a choice made for another policy does not
 * contradict it. */
export function settingsParams(params, name) {
  for (const s of info.settings) params.set(s.key, state.settings[s.key]);
  const fixed = name === undefined ? null : policyNamed(name)?.preset;
  if (fixed) for (const [key, value] of Object.entries(fixed.settings)) params.set(key, value);
  return params;
}

/** The settings `name` reads (a preset: those it leaves free), in the
 * settings table's order. */
const readBy = (name) => {
  const read = policyNamed(name).settings;
  return info.settings.filter((s) => read.includes(s.key));
};

/** Where the static export filed a policy's answers under the chosen
 * values of the settings it reads (`site` writes the index). */
export const fileKey = (name) => info.keys[name][readBy(name).map((s) => `${s.key}-${state.settings[s.key]}`).join('_')];

/** The configuration bar; `changed()` redraws what the new setting
 * changes. */
export function renderSettings(changed) {
  const bar = $('settings');
  bar.replaceChildren();
  const change = (key, value) => {
    state.settings[key] = value;
    writeUrl();
    changed();
  };
  for (const s of info.settings) {
    let control;
    if (s.values.length === 2 && s.values[0] === 'false' && s.values[1] === 'true') {
      control = h('input', { type: 'checkbox', checked: state.settings[s.key] === 'true', 'data-setting': s.key });
      control.addEventListener('change', () => change(s.key, control.checked ? 'true' : 'false'));
    } else {
      control = h('select', { 'data-setting': s.key }, s.values.map((v) => h('option', { value: v, selected: v === state.settings[s.key], text: v })));
      control.addEventListener('change', () => change(s.key, control.value));
    }
    bar.append(h('label', { title: s.help, 'data-key': s.key }, control, s.key));
  }
  noteSettings();
}

/** Shows the settings the table's policy reads and hides the rest (the
 * playground asks every policy, so it shows them all). */
export function noteSettings() {
  const read = readBy(state.policy).map((s) => s.key);
  for (const label of $('settings').querySelectorAll('label')) {
    label.hidden = state.view === 'table' && !read.includes(label.dataset.key);
  }
  const preset = policyNamed(state.policy).preset;
  const fixed = preset ? Object.entries(preset.settings).map(([key, value]) => `${key}=${value}`).join(', ') : '';
  $('settings-note').textContent = state.view === 'table' && preset
    ? `${state.policy} is ${preset.entry} with ${fixed}` + (read.length ? '' : ': it reads no other settings')
    : state.view === 'table' && !read.length
      ? `${state.policy} reads no settings`
      : state.view === 'playground' ? 'each policy reads the settings it has' : '';
}
