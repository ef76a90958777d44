// The explorer's page. It computes nothing about promotion: every answer
// comes from the server's API (`dtype-lattice serve`) or, in the static
// export (`dtype-lattice site`), from the files the same code wrote. This
// script only asks, lays the answers out, and keeps the page's state in
// its URL so that any view can be linked to.
'use strict';

(function () {
  const MODE = document.body.dataset.mode === 'static' ? 'static' : 'serve';
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- DOM

  /** An element with attributes and children (strings become text). */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else if (key.startsWith('data-')) node.setAttribute(key, value);
      else if (key in node && typeof value !== 'string') node[key] = value;
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  /** A long name (`float8_e4m3b11fnuz`) that may break after its `_`. */
  function breakable(label) {
    const cut = label.indexOf('_');
    if (label.length <= 6 || cut < 0) return label;
    const span = document.createDocumentFragment();
    span.append(label.slice(0, cut + 1), document.createElement('wbr'), label.slice(cut + 1));
    return span;
  }

  const chips = (labels, mark) =>
    h('span', { class: 'chips' }, labels.map((l) => h('span', { class: 'chip' + (mark && mark(l) ? ' ' + mark(l) : ''), text: l })));

  // -------------------------------------------------------------- state

  let info = null;
  const state = {
    view: 'table',
    policy: 'jax',
    types: 'docs',
    diff: '',
    cell: null, // [type, type] of the promotion table
    settings: {},
    operands: null,
    example: '',
  };
  /** What the page measured, read by the browser tests: when the table
   * first answered clicks and keys, when the drawing under it was shown
   * too, and each redraw of the table (a fetch and the DOM). */
  const timings = { interactive: null, complete: null, tableRenders: [] };
  window.explorerTimings = timings;

  function readUrl() {
    const q = new URLSearchParams(location.search);
    const views = ['table', 'playground', 'editor'];
    state.view = views.includes(q.get('view')) ? q.get('view') : 'table';
    const names = info.policies.map((p) => p.name);
    state.policy = names.includes(q.get('policy')) ? q.get('policy') : 'jax';
    state.types = q.get('types') === 'all' ? 'all' : 'docs';
    state.diff = names.includes(q.get('diff')) && q.get('diff') !== state.policy ? q.get('diff') : '';
    const cell = (q.get('cell') || '').split(',');
    state.cell = cell.length === 2 && cell[0] && cell[1] ? cell : null;
    for (const s of info.settings) {
      const v = q.get(s.key);
      state.settings[s.key] = s.values.includes(v) ? v : s.values[0];
    }
    state.operands = q.get('operands');
    state.example = q.get('example') || '';
  }

  function writeUrl(push) {
    const q = new URLSearchParams();
    if (state.view !== 'table') q.set('view', state.view);
    if (state.view === 'table' || state.view === 'playground') {
      if (state.view === 'table') {
        if (state.policy !== 'jax') q.set('policy', state.policy);
        if (state.types !== 'docs') q.set('types', state.types);
        if (state.diff) q.set('diff', state.diff);
        if (state.cell) q.set('cell', state.cell.join(','));
      }
      for (const s of info.settings) {
        if (state.settings[s.key] !== s.values[0]) q.set(s.key, state.settings[s.key]);
      }
      if (state.view === 'playground' && state.operands !== null) q.set('operands', state.operands);
    }
    if (state.view === 'editor' && state.example) q.set('example', state.example);
    const url = location.pathname + (q.toString() ? '?' + q.toString() : '');
    if (url !== location.pathname + location.search) {
      history[push ? 'pushState' : 'replaceState'](null, '', url);
    }
  }

  // ------------------------------------------------------------ sources

  const cache = new Map();
  const CACHE_ENTRIES = 300;

  /** A GET, answered once per URL; an error answer becomes an Error. */
  function get(url, kind) {
    if (!cache.has(url)) {
      const pending = fetch(url).then(async (response) => {
        if (!response.ok) throw new Error(await errorMessage(response));
        return kind === 'text' ? response.text() : response.json();
      });
      pending.catch(() => cache.delete(url));
      cache.set(url, pending);
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value);
    }
    return cache.get(url);
  }

  async function errorMessage(response) {
    try {
      const body = await response.json();
      return body.error.message;
    } catch (e) {
      return response.status + ' ' + response.statusText;
    }
  }

  function settingsParams(params) {
    for (const s of info.settings) params.set(s.key, state.settings[s.key]);
    return params;
  }

  /** Where the static export filed a policy's answers under the chosen
   * configuration (`site` writes the index). */
  const fileKey = (name) => info.keys[name][info.settings.map((s) => `${s.key}-${state.settings[s.key]}`).join('_')];

  const source = {
    table() {
      if (MODE === 'static') return get(`data/table/${fileKey(state.policy)}_${state.types}.json`);
      const q = settingsParams(new URLSearchParams({ policy: state.policy, types: state.types }));
      return get('api/table?' + q);
    },
    diff() {
      if (MODE === 'static') {
        // Each pair is filed once, its keys in order; the other way round
        // the report is the same with its sides exchanged.
        const [left, right] = [fileKey(state.policy), fileKey(state.diff)];
        if (left < right) return get(`data/diff/${state.types}/${left}/${right}.json`);
        return get(`data/diff/${state.types}/${right}/${left}.json`).then((d) => ({
          ...d, left: d.right, right: d.left,
          differences: d.differences.map((x) => ({ ...x, left: x.right, right: x.left })),
        }));
      }
      const q = settingsParams(new URLSearchParams({ left: state.policy, right: state.diff, types: state.types }));
      return get('api/diff?' + q);
    },
    async explain(table, a, b) {
      if (MODE === 'static') {
        const row = await get(`data/explain/${table.graph}/${encodeURIComponent(a)}.json`);
        return row[b];
      }
      const q = settingsParams(new URLSearchParams({ policy: state.policy, a, b }));
      return get('api/explain?' + q);
    },
    graph(table, nodes) {
      if (MODE === 'static') return get(`data/graph/${table.graph}.svg`, 'text');
      const q = settingsParams(new URLSearchParams({ policy: state.policy }));
      if (nodes) q.set('highlight', nodes.join(','));
      return get('api/graph.svg?' + q, 'text');
    },
  };

  // ------------------------------------------------------------- drawings

  let drawings = 0;

  /** Puts the library's SVG into `figure`, its ids made unique on the
   * page (several drawings share marker names), and returns it. */
  function showSvg(figure, text, caption) {
    const prefix = 'd' + ++drawings;
    const unique = text
      .replace(/id="([^"]+)"/g, `id="${prefix}-$1"`)
      .replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`);
    const doc = new DOMParser().parseFromString(unique, 'image/svg+xml');
    const svg = doc.documentElement;
    figure.replaceChildren();
    if (caption) figure.append(h('figcaption', { text: caption }));
    if (svg.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
      figure.append(h('p', { class: 'error-text', text: 'The drawing could not be read.' }));
      return null;
    }
    const node = document.importNode(svg, true);
    node.dataset.prefix = prefix;
    // A sketch of a few nodes is drawn larger, so its labels stay legible.
    const width = parseFloat(node.getAttribute('width'));
    const height = parseFloat(node.getAttribute('height'));
    if (width > 0 && width < 600) {
      const scale = Math.min(1.6, 600 / width);
      node.setAttribute('width', (width * scale).toFixed(0));
      node.setAttribute('height', (height * scale).toFixed(0));
    }
    node.setAttribute('role', 'img');
    figure.append(node);
    return node;
  }

  /** Sets a drawing's marks (the static export's one drawing per
   * lattice): what the library's highlighted drawing shows. */
  function applyMarks(svg, marks) {
    if (!svg || !marks) return;
    const prefix = svg.dataset.prefix;
    const ns = 'http://www.w3.org/2000/svg';
    svg.classList.add('marked');
    const node = (label) => Array.from(svg.querySelectorAll('g.node')).find((g) => g.dataset.label === label);
    for (const label of marks.inputs) {
      const g = node(label);
      if (g) {
        g.classList.add('input');
        g.querySelector('rect').classList.add('box');
      }
    }
    for (const label of marks.targets) {
      const g = node(label);
      if (!g) continue;
      g.classList.add(marks.role);
      const box = g.querySelector('rect');
      box.classList.add('box');
      const ring = document.createElementNS(ns, 'rect');
      for (const [k, d] of [['x', -4], ['y', -4], ['width', 8], ['height', 8]]) {
        ring.setAttribute(k, (parseFloat(box.getAttribute(k)) + d).toFixed(1));
      }
      ring.setAttribute('rx', '9');
      ring.setAttribute('fill', 'none');
      ring.setAttribute('stroke', '#d62728');
      ring.setAttribute('stroke-width', '1.5');
      g.insertBefore(ring, box);
    }
    const edges = Array.from(svg.querySelectorAll('path.edge'));
    for (const [from, to] of marks.edges) {
      const path = edges.find((p) => p.dataset.from === from && p.dataset.to === to);
      if (!path) continue;
      path.classList.add('path');
      path.setAttribute('marker-end', `url(#${prefix}-arrow-path)`);
      path.parentNode.append(path);
    }
  }

  // --------------------------------------------------------------- grids

  /** Arrow keys move the focus over a grid's cells, Home and End to a
   * row's ends, Enter or Space (or a click) activates a cell. */
  function makeGrid(table, activate) {
    const cellAt = (r, c) => table.querySelector(`td[data-r="${r}"][data-c="${c}"]`);
    const focus = (td) => {
      if (!td) return;
      for (const other of table.querySelectorAll('td[tabindex="0"]')) other.tabIndex = -1;
      td.tabIndex = 0;
      td.focus();
    };
    table.addEventListener('click', (event) => {
      const td = event.target.closest('td[data-r]');
      if (!td) return;
      focus(td);
      activate(+td.dataset.r, +td.dataset.c);
    });
    table.addEventListener('keydown', (event) => {
      const td = event.target.closest('td[data-r]');
      if (!td) return;
      const r = +td.dataset.r;
      const c = +td.dataset.c;
      const n = table.querySelectorAll('tbody tr').length;
      const moves = {
        ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
        Home: [r, 0], End: [r, n - 1], PageUp: [0, c], PageDown: [n - 1, c],
      };
      if (event.key in moves) {
        const [nr, nc] = moves[event.key];
        focus(cellAt(Math.max(0, Math.min(n - 1, nr)), Math.max(0, Math.min(n - 1, nc))));
        event.preventDefault();
      } else if (event.key === 'Enter' || event.key === ' ') {
        activate(r, c);
        event.preventDefault();
      }
    });
  }

  /** Marks the chosen cell and its row and column headers. */
  function markSelected(table, r, c) {
    for (const old of table.querySelectorAll('[aria-selected="true"], th.on')) {
      old.removeAttribute('aria-selected');
      old.classList.remove('on');
    }
    if (r === null) return;
    const td = table.querySelector(`td[data-r="${r}"][data-c="${c}"]`);
    if (!td) return;
    td.setAttribute('aria-selected', 'true');
    table.querySelectorAll('thead th')[c + 1].classList.add('on');
    table.querySelectorAll('tbody tr')[r].querySelector('th').classList.add('on');
    for (const other of table.querySelectorAll('td[tabindex="0"]')) other.tabIndex = -1;
    td.tabIndex = 0;
  }

  // ------------------------------------------------------ the table view

  let current = null; // the table shown, with its diff
  let renderToken = 0;

  const answerText = (cell, table) => {
    if (cell.error !== undefined) return 'no promotion';
    return cell.dtype + (cell.weak ? ' (weak)' : '');
  };

  async function renderTable() {
    const token = ++renderToken;
    const started = performance.now();
    let table;
    let diff = null;
    try {
      [table, diff] = await Promise.all([source.table(), state.diff ? source.diff() : null]);
    } catch (err) {
      if (token === renderToken) $('types').replaceChildren(h('caption', { class: 'error-text', text: err.message }));
      return;
    }
    if (token !== renderToken) return;
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
        let title = `${table.names[r]} with ${table.names[c]}: ${answerText(cell, table)}`;
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
    await showExplanation();
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
    await showExplanation();
  }

  let explainToken = 0;

  async function showExplanation() {
    const token = ++explainToken;
    const panel = $('panel');
    const figure = $('drawing');
    const { table } = current;
    if (!state.cell) {
      panel.replaceChildren(h('p', { class: 'placeholder', text: 'Choose a cell: the panel shows each type\'s upper bounds, the common ones, the join and a shortest path to it, and the drawing below marks them.' }));
      delete panel.dataset.join;
      panel.dataset.cell = '';
      await drawPolicy(table, null, token);
      return;
    }
    for (const key of ['join', 'joinDtype', 'joinWeak', 'outcome']) delete panel.dataset[key];
    const [a, b] = state.cell;
    const r = table.types.indexOf(a);
    const c = table.types.indexOf(b);
    const cell = table.cells[r][c];
    const head = [
      h('h3', {}, `${table.names[r]} with ${table.names[c]}`),
      h('p', { class: 'answer' }, 'result_type: ', h('b', { text: answerText(cell, table) })),
    ];
    if (!table.lattice) {
      panel.replaceChildren(...head, ...errorBlock(cell, table),
        h('p', { class: 'why', text: `${table.name} is defined by rules, not by a lattice, so there is no graph to trace: the cell is its result_type.` }));
      panel.dataset.join = '';
      panel.dataset.cell = state.cell.join(',');
      await drawPolicy(table, null, token);
      return;
    }
    let why;
    try {
      why = await source.explain(table, a, b);
    } catch (err) {
      if (token === explainToken) panel.replaceChildren(...head, h('p', { class: 'error-text', text: err.message }));
      return;
    }
    if (token !== explainToken) return;
    if (!why || !why.explained) {
      panel.replaceChildren(...head, ...errorBlock(cell, table), h('p', { class: 'why', text: why ? why.reason : 'No explanation.' }));
      panel.dataset.join = '';
      panel.dataset.cell = state.cell.join(',');
      await drawPolicy(table, null, token);
      return;
    }
    panel.replaceChildren(...head, ...explanation(why));
    panel.dataset.join = why.join || '';
    panel.dataset.joinDtype = why.join_type ? why.join_type.dtype : '';
    panel.dataset.joinWeak = why.join_type ? String(why.join_type.weak) : '';
    panel.dataset.outcome = why.outcome;
    await drawPolicy(table, why, token);
    // Set last: the explanation and its drawing are both shown.
    if (token === explainToken) panel.dataset.cell = state.cell.join(',');
  }

  function errorBlock(cell, table) {
    if (cell.error === undefined) return [];
    const error = table.errors[cell.error];
    return [h('p', { class: 'message' }, h('b', { text: error.type + ': ' }), error.message)];
  }

  /** The explanation, as `explain` prints it. */
  function explanation(why) {
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

  async function drawPolicy(table, why, token) {
    const figure = $('drawing');
    if (!table.lattice) {
      figure.replaceChildren(h('p', { class: 'help', text: `${table.name} is defined by rules, not by a lattice: there is no graph to draw. Policies with a lattice: ` +
        info.policies.filter((p) => p.lattice).map((p) => p.name).join(', ') + '.' }));
      return;
    }
    const nodes = why ? why.inputs.map((i) => i.node) : null;
    let svg;
    try {
      svg = await source.graph(table, nodes);
    } catch (err) {
      if (token === explainToken) figure.replaceChildren(h('p', { class: 'error-text', text: err.message }));
      return;
    }
    if (token !== explainToken) return;
    const shown = showSvg(figure, svg, `The Hasse diagram of ${table.name}, drawn by the library` + (why ? '; the pair, the paths and the join are marked in red.' : '.'));
    if (MODE === 'static' && why) applyMarks(shown, why.marks);
  }

  // ------------------------------------------------------------ settings

  function renderSettings() {
    const bar = $('settings');
    bar.replaceChildren();
    for (const s of info.settings) {
      let control;
      if (s.values.length === 2 && s.values[0] === 'false' && s.values[1] === 'true') {
        control = h('input', { type: 'checkbox', checked: state.settings[s.key] === 'true', 'data-setting': s.key });
        control.addEventListener('change', () => changeSetting(s.key, control.checked ? 'true' : 'false'));
      } else {
        control = h('select', { 'data-setting': s.key }, s.values.map((v) => h('option', { value: v, selected: v === state.settings[s.key], text: v })));
        control.addEventListener('change', () => changeSetting(s.key, control.value));
      }
      bar.append(h('label', { title: s.help, 'data-key': s.key }, control, s.key));
    }
    noteSettings();
  }

  /** Greys the settings the table's policy does not read. */
  function noteSettings() {
    const policy = info.policies.find((p) => p.name === state.policy);
    const ignored = [];
    for (const label of $('settings').querySelectorAll('label')) {
      const unread = state.view === 'table' && !policy.settings.includes(label.dataset.key);
      label.classList.toggle('ignored', unread);
      if (unread) ignored.push(label.dataset.key);
    }
    $('settings-note').textContent = state.view === 'table' && ignored.length
      ? `${state.policy} does not read ${ignored.join(' or ')}`
      : state.view === 'playground' ? 'each policy reads the settings it has' : '';
  }

  function changeSetting(key, value) {
    state.settings[key] = value;
    writeUrl();
    if (state.view === 'table') renderTable();
    if (state.view === 'playground') runPlayground();
  }

  function renderTableControls() {
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

  function fillDiff() {
    const select = $('diff');
    select.replaceChildren(h('option', { value: '', text: 'nothing' }),
      ...info.policies.filter((p) => p.name !== state.policy).map((p) => h('option', { value: p.name, text: p.name })));
    select.value = state.diff;
  }

  // ---------------------------------------------------------- playground

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

  let playToken = 0;

  async function runPlayground() {
    if (MODE === 'static') return;
    const token = ++playToken;
    const status = $('play-status');
    const input = $('operands').value;
    state.operands = input;
    writeUrl();
    let tokens;
    try {
      tokens = tokenize(input);
    } catch (err) {
      status.textContent = err.message;
      status.className = 'status error';
      return;
    }
    const lines = info.policies.map((p) => JSON.stringify({ fn: 'result_type', args: tokens, policy: p.name }));
    let answers;
    try {
      const response = await fetch('api/batch?' + settingsParams(new URLSearchParams()), {
        method: 'POST', body: lines.join('\n') + '\n', headers: { 'Content-Type': 'application/jsonl' },
      });
      if (!response.ok) throw new Error(await errorMessage(response));
      answers = (await response.text()).trim().split('\n').map((line) => JSON.parse(line));
    } catch (err) {
      if (token === playToken) {
        status.textContent = err.message;
        status.className = 'status error';
      }
      return;
    }
    if (token !== playToken) return;
    status.className = 'status';
    status.textContent = `result_type(${tokens.join(', ')}) under ${info.settings.map((s) => `${s.key}=${state.settings[s.key]}`).join(', ')}:`;
    const rows = info.policies.map((p, i) => {
      const answer = answers[i];
      if (answer.ok) {
        return h('tr', { 'data-policy': p.name },
          h('th', { scope: 'row', text: p.name }),
          h('td', { class: 'result', text: answer.ok.dtype }),
          h('td', {}, answer.ok.weak ? h('span', { class: 'weak-yes', text: 'weak' }) : 'strong'),
          h('td', { text: '' }));
      }
      return h('tr', { 'data-policy': p.name },
        h('th', { scope: 'row', text: p.name }),
        h('td', { class: 'result', text: '-' }),
        h('td', { text: '' }),
        h('td', { class: 'err' }, h('b', { text: answer.error.type + ': ' }), answer.error.message));
    });
    $('play-results').dataset.operands = input;
    $('play-results').replaceChildren(
      h('thead', {}, h('tr', {}, ['Policy', 'Result', 'Weak', 'Error'].map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, rows));
  }

  function setupPlayground() {
    if (MODE === 'static') {
      $('play-form').replaceWith(needsServer('The result_type playground asks the server for every answer'));
      return;
    }
    if (state.operands !== null) $('operands').value = state.operands;
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

  function needsServer(what) {
    return h('div', { class: 'needs-server' },
      h('p', {}, `${what}, so it works with `, h('code', { text: 'dtype-lattice serve' }), ' only: this page is the static export, whose answers were computed when it was written.'));
  }

  // -------------------------------------------------------------- editor

  const SAMPLE = `# The design notebook's right-hand DAG, as a Python dict
# (JSON or a lattice file work too; or load one of the notebook's graphs)
lattice = {
    'A': ['C', 'D'],
    'B': ['C', 'D'],
}
`;

  let editorToken = 0;
  let editorPair = null;
  let editorTable = null;

  async function analyze() {
    if (MODE === 'static') return;
    const token = ++editorToken;
    const text = $('lattice-text').value;
    const q = new URLSearchParams({ syntax: $('syntax').value });
    if (editorPair) {
      q.set('a', editorPair[0]);
      q.set('b', editorPair[1]);
    }
    let result;
    try {
      const response = await fetch('api/lattice?' + q, { method: 'POST', body: text, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      if (!response.ok) throw new Error(await errorMessage(response));
      result = await response.json();
    } catch (err) {
      if (token === editorToken) $('lattice-report').replaceChildren(h('p', { class: 'verdict no', text: err.message }));
      return;
    }
    if (token !== editorToken) return;
    renderReport(result);
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
            `{${a.pair.join(', ')}}: minimal common upper bounds ${a.candidates.join(', ')}, none least`))));
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

  function setupEditor() {
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

  function startEditor() {
    if (editorStarted || MODE === 'static') return;
    editorStarted = true;
    if (state.example) loadExample(state.example);
    else analyze();
  }

  // --------------------------------------------------------------- views

  async function setView(view, push) {
    state.view = view;
    for (const v of ['table', 'playground', 'editor']) $('view-' + v).hidden = v !== view;
    for (const a of document.querySelectorAll('.tabs a')) {
      if (a.dataset.view === view) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    $('config-bar').hidden = view === 'editor';
    noteSettings();
    writeUrl(push);
    if (view === 'playground' && MODE === 'serve') await runPlayground();
    if (view === 'editor') startEditor();
  }

  async function start() {
    info = await get(MODE === 'static' ? 'data/info.json' : 'api/info');
    readUrl();
    renderSettings();
    renderTableControls();
    setupPlayground();
    setupEditor();
    for (const a of document.querySelectorAll('.tabs a')) {
      a.addEventListener('click', (event) => {
        event.preventDefault();
        setView(a.dataset.view, true);
      });
    }
    window.addEventListener('popstate', () => {
      readUrl();
      renderSettings();
      $('policy').value = state.policy;
      fillDiff();
      for (const radio of document.querySelectorAll('input[name="types"]')) radio.checked = radio.value === state.types;
      setView(state.view, false);
      renderTable();
    });
    $('footer').textContent = `Every answer on this page comes from the dtype-lattice library ${info.version}, the one the command line and the Python package use` +
      (MODE === 'static' ? '; this is the static export, written by dtype-lattice site.' : '.');
    await setView(state.view, false);
    await renderTable();
    timings.complete = performance.now();
    performance.mark('explorer-complete');
    document.body.dataset.ready = 'true';
  }

  start().catch((err) => {
    document.querySelector('main').prepend(h('p', { class: 'status error', text: 'The explorer could not start: ' + err.message }));
  });
})();
