// Browser tests of the explorer: `dtype-lattice serve` on a free loopback
// port and `dtype-lattice site` behind a static file server, driven in
// headless Chromium by Playwright. Expected answers come from the golden
// data recorded from real JAX and from the command line itself, never
// from this script.
//
//   node explorer.test.mjs          (DTYPE_LATTICE_BIN picks the binary;
//                                    else the newest of target/{release,debug})
//
// Prints the timings measured with the Performance API and writes
// screenshots to screenshots/ (git-ignored). Whatever way it ends (a
// failed check, an exception, Chromium failing to start, Ctrl-C or
// SIGTERM) it closes the browser and stops the servers it started.

import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import {
  BIN, CHROMIUM, CHROMIUM_ARGS, GOALS, check, checkDiffIsTheCli, checkSettingsBar, cleanups, cli, cliAnswer, cliJson,
  diffCells, jaxName, markedCells, openPage, ready, root, serve, setSettings, shots, staticServer, stopAll, tally,
  waitForTable, within,
} from './support.mjs';

// ------------------------------------------------------------- the tests

async function tableHasEveryCell(page) {
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
  check(await page.locator('#types tbody td').count() === 18 * 18, '18 x 18 cells');
  check(await page.locator('#types thead th').count() === 19, '18 column headers and the corner');
  await page.locator('input[name="types"][value="all"]').check();
  await waitForTable(page, { policy: jaxName(false, false), types: 'all', diff: '' });
  check(await page.locator('#types tbody td').count() === 36 * 36, '36 x 36 cells: the 33 dtypes and Python\'s three types');
  // Every cell is the command line's.
  const theirs = cliJson(['table', '--all', '--labels', 'short', '--format', 'json']);
  const ours = await page.$$eval('#types tbody tr', (rows) => rows.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.dataset.label)));
  assert.deepEqual(ours, theirs.rows.map((row) => row.map((cell) => cell ?? '-')));
  tally.checks++;
  await page.screenshot({ path: join(shots, 'table-all-nodes.png'), fullPage: true });
  await page.locator('input[name="types"][value="docs"]').check();
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
}

/** Clicks a sample of the documentation table's cells in each
 * configuration: the panel's join is real JAX's answer, each path runs
 * from its input's node to the join, and the drawing marks the pair and
 * the join. */
async function cellsExplainAsJaxAnswers(page) {
  const golden = readFileSync(join(root, 'conformance/golden/docs_table.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
  const types = await page.evaluate(() => window.fetch('api/info').then((r) => r.json()).then((i) => i.types.docs.map((t) => t.name)));
  let clicked = 0;
  for (const [x64, strict] of [[false, false], [true, false], [false, true], [true, true]]) {
    await setSettings(page, x64, strict);
    await waitForTable(page, { policy: jaxName(x64, strict), types: 'docs', diff: '' });
    const cases = golden.filter((c) => c.x64 === x64 && (c.promotion === 'strict') === strict);
    // Every 9th cell (a sample that crosses every row and column) and the
    // docs' notable ones.
    const notable = new Set(['int8,uint8', 'bfloat16,float16', 'uint64,int64', 'int,float', 'uint32,int32', 'float16,complex', 'bool,int']);
    const sample = cases.filter((c, i) => i % 9 === 4 || notable.has(c.args.join(',')));
    for (const c of sample) {
      const [a, b] = c.args.map((t) => ({ int: 'int', float: 'float', complex: 'complex' }[t] ?? t));
      const r = types.indexOf(a);
      const col = types.indexOf(b);
      check(r >= 0 && col >= 0, `${a} and ${b} are in the table`);
      await page.locator(`#types td[data-r="${r}"][data-c="${col}"]`).click();
      await page.waitForSelector(`#panel[data-cell="${a},${b}"]`);
      const got = await page.$eval('#panel', (p) => ({ ...p.dataset }));
      const where = `${a} with ${b}, x64=${x64} strict=${strict}`;
      if (c.answer.ok) {
        check(got.joinDtype === c.answer.ok.dtype && got.joinWeak === String(c.answer.ok.weak),
          `${where}: join ${got.join} (${got.joinDtype}, weak ${got.joinWeak}), JAX ${JSON.stringify(c.answer.ok)}`);
        const paths = await page.$$eval('#panel li.path', (items) => items.map((li) => JSON.parse(li.dataset.path)));
        check(paths.length === 2, `${where}: two paths`);
        for (const path of paths) check(path[path.length - 1] === got.join, `${where}: a path ends at the join`);
        const marked = await page.$$eval('#drawing svg g.node.input', (g) => g.map((n) => n.dataset.label));
        check(marked.includes(paths[0][0]) && marked.includes(paths[1][0]), `${where}: the drawing marks the pair (${marked})`);
        check(paths.every((p) => marked.includes(p[0])), `${where}: each path starts at an input`);
        const join = await page.$$eval('#drawing svg g.node.join', (g) => g.map((n) => n.dataset.label));
        check(join.length === 1 && join[0] === got.join, `${where}: the drawing marks the join`);
        const drawnPath = await page.locator('#drawing svg path.edge.path').count();
        check(drawnPath >= Math.max(...paths.map((p) => p.length - 1)), `${where}: the drawing marks the path`);
      } else {
        check(got.outcome === 'no_upper_bound', `${where}: no join, as JAX raises ${c.answer.error.type}`);
        const family = await page.$eval('#panel .family', (p) => p.textContent);
        check(family.includes(c.answer.error.type), `${where}: the error's type`);
      }
      clicked++;
    }
  }
  await setSettings(page, false, false);
  return clicked;
}

async function diffMarksTheCliCells(page) {
  await page.selectOption('#diff', 'numpy');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: 'numpy' });
  const expected = diffCells(cliJson(['diff', 'jax', 'numpy', '--format', 'json', '--labels', 'short']));
  assert.deepEqual(await markedCells(page), expected);
  await checkDiffIsTheCli(page, ['jax', 'numpy']);
  check(expected.length === 101, 'JAX differs from NumPy in 101 of the docs\' cells');
  const symbols = await page.locator('#types td[data-differs="true"] .sym').count();
  check(symbols === expected.length, 'every marked cell has the symbol too');
  await page.locator('#types td[data-r="5"][data-c="8"]').click(); // int8 with int64
  await page.waitForSelector('#panel[data-cell="int8,int64"]');
  await page.screenshot({ path: join(shots, 'table-diff-numpy.png'), fullPage: true });
  await page.locator('input[name="types"][value="all"]').check();
  await waitForTable(page, { policy: jaxName(false, false), types: 'all', diff: 'numpy' });
  assert.deepEqual(await markedCells(page), diffCells(cliJson(['diff', 'jax', 'numpy', '--all', '--format', 'json', '--labels', 'short'])));
  tally.checks++;
  await checkDiffIsTheCli(page, ['jax', 'numpy', '--all']);
  await page.locator('input[name="types"][value="docs"]').check();
  await setSettings(page, true, false);
  await page.selectOption('#diff', 'torch');
  await waitForTable(page, { policy: jaxName(true, false), types: 'docs', diff: 'torch' });
  assert.deepEqual(await markedCells(page), diffCells(cliJson(['diff', 'jax', 'torch', '--x64', '--format', 'json', '--labels', 'short'])));
  tally.checks++;
  await checkDiffIsTheCli(page, ['jax', 'torch', '--x64']);
  await page.screenshot({ path: join(shots, 'table-jax-x64-diff-torch.png'), fullPage: false });
  await page.selectOption('#diff', '');
  await setSettings(page, false, false);
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
}

async function keyboardMovesAndExplains(page) {
  await page.locator('#types td[data-r="0"][data-c="0"]').focus();
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowLeft']) await page.keyboard.press(key);
  let at = await page.evaluate(() => [document.activeElement.dataset.r, document.activeElement.dataset.c]);
  assert.deepEqual(at, ['3', '1']);
  tally.checks++;
  await page.keyboard.press('End');
  at = await page.evaluate(() => [document.activeElement.dataset.r, document.activeElement.dataset.c]);
  assert.deepEqual(at, ['3', '17']);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter'); // uint16 with bool
  await page.waitForSelector('#panel[data-cell="uint16,bool"]');
  check((await page.$eval('#panel', (p) => p.dataset.join)) === 'uint16', 'Enter explains the focused cell');
  const tabbable = await page.locator('#types td[tabindex="0"]').count();
  check(tabbable === 1, 'one cell is in the tab order');
}

async function permalinksRestoreTheState(page, url) {
  await page.selectOption('#policy', 'torch');
  await page.selectOption('#diff', 'numpy');
  await waitForTable(page, { policy: 'torch', types: 'docs', diff: 'numpy' });
  await page.locator('#types td[data-r="5"][data-c="1"]').click();
  await page.waitForSelector('#panel[data-cell="int8,uint8"]');
  const link = page.url();
  check(link.includes('policy=torch') && link.includes('diff=numpy') && link.includes('cell=int8%2Cuint8'), 'the URL holds the state: ' + link);
  const other = await openPage(page.context().browser());
  await other.goto(link);
  await ready(other);
  await other.waitForSelector('#panel[data-cell="int8,uint8"]');
  check(await other.$eval('#policy', (s) => s.value) === 'torch', 'the policy comes back');
  check((await markedCells(other)).length === (await markedCells(page)).length, 'the diff comes back');
  check(await other.$eval('#panel', (p) => p.dataset.join) === 'int16', 'the explanation comes back');
  assert.deepEqual(other.problems, []);
  await other.close();
  await page.goto(url);
  await ready(page);
}

/** A drawing past the server's weight is refused with a way to get it,
 * the analysis shown all the same; an answer the server refuses whole
 * (a 503 when it holds too many answers) is a message, in the editor and
 * under the explorer's table. */
async function refusalsAreMessages(page, browser, url) {
  await page.locator('.tabs a[data-view="editor"]').click();
  await page.selectOption('#example', '');
  const tops = Array.from({ length: 300 }, (_, j) => `'b${j}'`).join(', ');
  const rows = Array.from({ length: 300 }, (_, i) => `  'a${i}': [${tops}],`).join('\n');
  await page.fill('#lattice-text', `lattice = {\n${rows}\n}\n`);
  await page.waitForSelector('#lattice-report[data-verdict="not"]', { timeout: 30000 });
  const note = await page.textContent('#lattice-drawing');
  check(note.includes('the drawing would weigh') && note.includes('dtype-lattice graph FILE -o drawing.dot'),
    'a heavy drawing is refused in words: ' + note);
  await page.screenshot({ path: join(shots, 'editor-heavy-drawing.png'), fullPage: false });
  const busy = JSON.stringify({ error: { status: 503, message: 'the server is holding 64 MiB of answers for other clients, its most: try again in a few seconds' } });
  const refuse = (route) => route.fulfill({ status: 503, contentType: 'application/json', headers: { 'retry-after': '5' }, body: busy });
  await page.route('**/api/lattice?*', refuse);
  await page.fill('#lattice-text', "lattice = {'A': ['B']}\n");
  await page.waitForFunction(() => document.querySelector('#lattice-report').textContent.includes('64 MiB of answers'));
  await page.screenshot({ path: join(shots, 'editor-refused.png'), fullPage: false });
  await page.unroute('**/api/lattice?*', refuse);
  // The browser reports the refusal it was served as a failed load.
  page.problems = page.problems.filter((p) => !p.includes('503'));
  await page.locator('.tabs a[data-view="table"]').click();
  // A page of its own: this one keeps the drawings it has already had.
  const fresh = await openPage(browser);
  await fresh.route('**/api/graph.svg?*', refuse);
  await fresh.goto(url);
  await fresh.waitForFunction(() => document.querySelector('#drawing').textContent.includes('64 MiB of answers'));
  await fresh.screenshot({ path: join(shots, 'explorer-refused.png'), fullPage: true });
  await fresh.close();
  tally.checks += 3;
}

async function editorFindsTheNotebooksNonLattices(page) {
  await page.locator('.tabs a[data-view="editor"]').click();
  for (const name of ['not-a-lattice-left', 'not-a-lattice-right']) {
    await page.selectOption('#example', name);
    await page.waitForSelector(`#lattice-report[data-name="${name}"]`);
    const expected = cliJson(['check', join(root, 'examples/lattices', name + '.toml'), '--format', 'json']);
    check(expected.lattice === false || expected.no_upper_bound_count > 0, `${name} is not a lattice`);
    const verdict = await page.$eval('#lattice-report', (r) => r.dataset.verdict);
    check(verdict === (expected.lattice ? 'partial' : 'not'), `${name}: the editor says not a lattice (${verdict})`);
    check((await page.textContent('#lattice-report .verdict')).startsWith('Not a lattice'), `${name}: in words`);
    const ambiguous = await page.$$eval('#ambiguous li', (items) => items.map((li) => [li.dataset.pair.split(','), li.dataset.candidates.split(',')]));
    assert.deepEqual(ambiguous, expected.ambiguous.map((a) => [a.pair, a.candidates]));
    const unbounded = await page.$$eval('#unbounded li', (items) => items.map((li) => li.dataset.pair.split(',')));
    assert.deepEqual(unbounded, expected.no_upper_bound);
    tally.checks += 2;
  }
  // The right-hand DAG's ambiguous pair, explained and drawn.
  const cell = page.locator('#lattice-table td[title^="A ∨ B"]');
  await cell.click();
  await page.waitForSelector('#lattice-drawing svg g.node.candidate');
  const candidates = await page.$$eval('#lattice-drawing svg g.node.candidate', (g) => g.map((n) => n.dataset.label).sort());
  assert.deepEqual(candidates, ['C', 'D']);
  tally.checks++;
  await page.screenshot({ path: join(shots, 'editor-not-a-lattice.png'), fullPage: true });
  // A Python dict typed in, with a mistake, then fixed.
  await page.selectOption('#example', '');
  await page.fill('#lattice-text', "lattice = {\n  'int8': ['int16'],\n  'uint8': [int16],\n}\n");
  await page.waitForFunction(() => document.querySelector('#lattice-report').dataset.valid === 'false');
  const error = await page.$eval('#lattice-report .error-text', (p) => p.textContent);
  check(error.includes('dict:3:13') && error.includes("'int16'"), 'the mistake is placed: ' + error);
  await page.fill('#lattice-text', "lattice = {\n  'int8': ['int16'],\n  'uint8': ['int16'],\n}\n");
  await page.waitForSelector('#lattice-report[data-name="lattice"][data-verdict="lattice"]');
  const audit = await page.$eval('tr[data-criterion="wider_than_inputs"] td.count', (td) => td.textContent);
  check(audit === '1', 'the audit counts {int8, uint8} -> int16 as wider than its inputs');
  await page.locator('.tabs a[data-view="table"]').click();
}

/** Frameworks added after the first four, which the menu must list too. */
const ADDED_POLICIES = ['keras', 'mlx', 'paddle', 'tinygrad'];

/** Every policy but JAX, against JAX: its table is the command line's, a
 * sample of its cells clicked answer as that table does (and, where it
 * is a lattice, the explanation joins there), and the diff against JAX
 * marks exactly the cells `dtype-lattice diff` reports. */
async function everyPolicyAgainstJax(page) {
  const info = await page.evaluate(() => window.fetch('api/info').then((r) => r.json()));
  // The menu's policies and presets (a preset: its entry with settings fixed).
  const listed = [...info.policies, ...info.presets];
  const names = listed.map((p) => p.name);
  for (const name of ADDED_POLICIES) check(names.includes(name), `the policy menu lists ${name}`);
  for (const name of ['tensorflow-safe', 'tensorflow-all']) check(info.presets.some((p) => p.name === name && p.preset.entry === 'tensorflow'), `the menu lists the preset ${name}`);
  const graphs = new Set(listed.filter((p) => p.graph).map((p) => p.name));
  for (const name of ['keras', 'tinygrad']) check(graphs.has(name) && !listed.find((p) => p.name === name).lattice, `${name}: a graph its rules are written on`);
  let clicked = 0;
  for (const policy of names.filter((n) => n !== 'jax')) {
    const theirs = cliJson(['table', '--policy', policy, '--labels', 'short', '--format', 'json']);
    await page.selectOption('#policy', policy);
    await page.selectOption('#diff', 'jax');
    await waitForTable(page, { policy: theirs.name, types: 'docs', diff: 'jax' });
    const ours = await page.$$eval('#types tbody tr', (rows) => rows.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.dataset.label)));
    assert.deepEqual(ours, theirs.rows.map((row) => row.map((cell) => cell ?? '-')), `${policy}: every cell is the command line's`);
    tally.checks++;
    const expected = diffCells(cliJson(['diff', policy, 'jax', '--format', 'json', '--labels', 'short']));
    assert.deepEqual(await markedCells(page), expected, `${policy}: the diff against JAX`);
    tally.checks++;
    await checkDiffIsTheCli(page, [policy, 'jax']);
    await checkSettingsBar(page, policy);
    // Every 29th cell: a sample crossing every row and column.
    const n = theirs.types.length;
    for (let i = 7; i < n * n; i += 29) {
      const [r, c] = [Math.floor(i / n), i % n];
      const [a, b] = [theirs.types[r], theirs.types[c]];
      await page.locator(`#types td[data-r="${r}"][data-c="${c}"]`).click();
      await page.waitForSelector(`#panel[data-cell="${a},${b}"]`);
      const cell = theirs.cells[r][c];
      const answer = await page.$eval('#panel .answer b', (e) => e.textContent);
      const want = cell.error !== undefined ? 'no promotion' : cell.dtype + (cell.weak ? ' (weak)' : '');
      check(answer === want, `${policy}, ${a} with ${b}: the panel says ${answer}, the command line ${want}`);
      if (graphs.has(policy) && cell.error === undefined) {
        // Where the rules answer without the graph (the Array API's Python
        // scalars, PyTorch's unsigned types), the panel gives the reason
        // `explain` refuses with; where they go on after it (Keras,
        // tinygrad), it gives their answer beside the join, as `explain`.
        const [join, why, rules] = await page.$eval('#panel', (p) => [p.dataset.joinDtype, p.querySelector('.why')?.textContent ?? '',
          p.querySelector('.rules-answer')?.dataset.answer]);
        if (join === undefined) {
          const refusal = cliAnswer(['explain', '--policy', policy, theirs.names[r], theirs.names[c]]);
          check(refusal === `error: ${why}`, `${policy}, ${a} with ${b}: the panel's reason is explain's: ${why} / ${refusal}`);
        } else if (rules !== undefined) {
          const report = cliJson(['explain', '--policy', policy, '--format', 'json', theirs.names[r], theirs.names[c]]);
          check(report.rules_answer && rules === want && report.rules_answer.dtype === cell.dtype && join !== cell.dtype,
            `${policy}, ${a} with ${b}: the join ${join} and the rules' answer ${rules} are explain's`);
        } else check(join === cell.dtype, `${policy}, ${a} with ${b}: the explanation joins at ${join}`);
      }
      clicked++;
    }
    if (graphs.has(policy) && !listed.find((p) => p.name === policy).lattice) await rulesAfterGraph(page, policy, theirs);
    if (ADDED_POLICIES.includes(policy)) await page.screenshot({ path: join(shots, `table-${policy}-diff-jax.png`), fullPage: true });
  }
  await page.selectOption('#policy', 'jax');
  await page.selectOption('#diff', '');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
  return clicked;
}

/** A policy whose rules are written on a graph and go on after it: the
 * first cell (row by row) where `explain` answers otherwise than the join
 * shows the join drawn and the rules' answer beside it, as `explain`. */
async function rulesAfterGraph(page, policy, theirs) {
  const n = theirs.types.length;
  for (let i = 0; i < n * n; i++) {
    const [r, c] = [Math.floor(i / n), i % n];
    if (theirs.cells[r][c].error !== undefined) continue;
    const report = cliJson(['explain', '--policy', policy, '--format', 'json', theirs.names[r], theirs.names[c]]);
    if (!report.rules_answer) continue;
    const [a, b] = [theirs.types[r], theirs.types[c]];
    await page.locator(`#types td[data-r="${r}"][data-c="${c}"]`).click();
    await page.waitForSelector(`#panel[data-cell="${a},${b}"]`);
    const [joined, rules] = await page.$eval('#panel', (p) => [p.dataset.join, p.querySelector('.rules-answer')?.dataset.answer]);
    const said = report.rules_answer.dtype + (report.rules_answer.weak ? ' (weak)' : '');
    check(joined === report.join && rules === said, `${policy}, ${a} with ${b}: the panel joins at ${joined} (explain: ${report.join}) and says the rules answer ${rules} (explain: ${said})`);
    check(await page.$eval('#drawing', (f) => f.querySelector('svg') !== null), `${policy}: the graph its rules are written on is drawn`);
    await page.screenshot({ path: join(shots, `explain-${policy}-rules-after-graph.png`), fullPage: true });
    return;
  }
  check(false, `${policy}: no cell where its rules go on after the graph`);
}

/** `text` as the command line prints a message: control characters
 * escaped as Rust's `escape_debug` escapes them. */
const escapeControls = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
  ({ '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`);

/** The rows of the table shown: each cell's label. */
const shownRows = (page) => page.$$eval('#types tbody tr', (rows) => rows.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.dataset.label)));

/** The operation menu: its options are the library's binary operations,
 * `true_divide` for JAX is `table --op true_divide`'s table, a cell's
 * panel gives its answer and says it explains promotion only, the URL
 * keeps the operation, the diff of one operation against another policy
 * marks `diff --op`'s cells, and a policy that does not model it gets the
 * command line's words. */
async function operationTables(page) {
  const info = await page.evaluate(() => window.fetch('api/info').then((r) => r.json()));
  const offered = await page.$$eval('#op option', (options) => options.map((o) => o.value));
  const tabled = [...info.operations.filter((o) => !o.family && o.arity === 2),
    ...info.operations.filter((o) => o.family === 'reduction'),
    ...info.operations.filter((o) => o.family && o.family !== 'reduction')];
  assert.deepEqual(offered, ['', ...tabled.map((o) => o.name)], 'the menu: promotion, the binary operations, the reductions, the contractions and combinations');
  tally.checks++;
  await page.selectOption('#op', 'true_divide');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '', op: 'true_divide' });
  const theirs = cliJson(['table', '--op', 'true_divide', '--labels', 'short', '--format', 'json']);
  assert.deepEqual(await shownRows(page), theirs.rows.map((row) => row.map((cell) => cell ?? '-')), 'jax true_divide: every cell is the command line\'s');
  tally.checks++;
  check(await page.$eval('#types caption', (c) => c.textContent) === theirs.caption, 'the caption is the table\'s own');
  check(theirs.caption.includes('true_divide'), 'the caption says which operation');
  // int8 / int8: float32 (JAX's float for integers), though int8 and int8
  // promote to int8; the panel says it explains promotion only.
  const int8 = theirs.types.indexOf('int8');
  await page.locator(`#types td[data-r="${int8}"][data-c="${int8}"]`).click();
  await page.waitForSelector('#panel[data-cell="int8,int8"][data-op="true_divide"]');
  const cell = theirs.cells[int8][int8];
  check(await page.$eval('#panel .answer b', (b) => b.textContent) === cell.dtype + (cell.weak ? ' (weak)' : ''), 'the panel gives the operation\'s answer');
  check(cell.dtype === 'float32', 'int8 / int8 is float32 in JAX');
  const note = await page.$eval('#panel .op-note', (p) => p.textContent);
  check(note.includes('explains promotion only'), 'the panel says it explains promotion only: ' + note);
  check(await page.$eval('#panel', (p) => p.dataset.joinDtype) === 'int8', 'the explanation is promotion\'s (the join int8), not true_divide\'s');
  const link = page.url();
  check(link.includes('op=true_divide') && link.includes('cell=int8%2Cint8'), 'the URL keeps the operation: ' + link);
  await page.screenshot({ path: join(shots, 'table-jax-true_divide.png'), fullPage: true });
  const other = await openPage(page.context().browser());
  await other.goto(link);
  await ready(other);
  await other.waitForSelector('#panel[data-cell="int8,int8"][data-op="true_divide"]');
  check(await other.$eval('#op', (s) => s.value) === 'true_divide', 'the operation comes back from the URL');
  assert.deepEqual(other.problems, []);
  await other.close();
  // A diff of the operation, with x64 (a setting) on.
  await setSettings(page, true, false);
  await page.selectOption('#diff', 'numpy');
  await waitForTable(page, { policy: jaxName(true, false), types: 'docs', diff: 'numpy', op: 'true_divide' });
  assert.deepEqual(await shownRows(page), cliJson(['table', '--op', 'true_divide', '--x64', '--labels', 'short', '--format', 'json']).rows.map((row) => row.map((c) => c ?? '-')));
  const expected = diffCells(cliJson(['diff', 'jax', 'numpy', '--op', 'true_divide', '--x64', '--format', 'json', '--labels', 'short']));
  assert.deepEqual(await markedCells(page), expected, 'jax x64 against numpy, true_divide: `diff --op`\'s cells');
  check(expected.length > 0, 'JAX and NumPy divide differently somewhere');
  tally.checks += 2;
  await page.screenshot({ path: join(shots, 'table-jax-true_divide-diff-numpy.png'), fullPage: true });
  // A partner that does not model the operation: the table stays, the
  // legend gives the command line's words (the API answers 422).
  const unmodelled = info.policies.find((p) => !p.operations.includes('true_divide')).name;
  await page.selectOption('#diff', unmodelled);
  await page.waitForSelector('#legend [data-diff-error="true"]');
  const refusal = cliAnswer(['diff', 'jax', unmodelled, '--op', 'true_divide', '--x64']);
  const legendError = await page.$eval('#legend [data-diff-error="true"]', (p) => p.textContent);
  check(refusal === `error: ${legendError.slice(legendError.indexOf(': ') + 2)}`, `the diff's refusal is the command line's: ${legendError} / ${refusal}`);
  await page.selectOption('#diff', '');
  await setSettings(page, false, false);
  // A policy that does not model it: no table, the command line's words.
  check((await page.$eval(`#op option[value="true_divide"]`, (o) => o.textContent)) === 'true_divide', 'jax models true_divide');
  await page.selectOption('#policy', unmodelled);
  await page.waitForSelector('#types caption.error-text');
  check((await page.$eval('#op option[value="true_divide"]', (o) => o.textContent)).endsWith('(not modelled)'), `the menu says ${unmodelled} does not model true_divide`);
  const words = cliAnswer(['table', '--policy', unmodelled, '--op', 'true_divide']);
  check(words === 'error: ' + await page.$eval('#types caption', (c) => c.textContent), `${unmodelled}: the command line's words (${words})`);
  // The refusals were answers with an error status, as asked: 422 (which
  // the browser's console reports too).
  const refused = page.problems.filter((p) => p.startsWith('HTTP 422: ') && p.includes('op=true_divide'));
  const logged = page.problems.filter((p) => p === 'console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)');
  check(refused.length === 2 && logged.length === 2, 'two refusals, 422: ' + refused);
  page.problems = page.problems.filter((p) => !refused.includes(p) && !logged.includes(p));
  await page.selectOption('#policy', 'jax');
  await page.selectOption('#op', '');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
}

/** Each row of the playground's answers is what `dtype-lattice
 * result-type` (`argsFor(policy)`) says: its dtype (exit 0), its error
 * (exit 1), or "not modelled" where the command line says the policy does
 * not model or answer it (exit 2); counted by kind. */
async function playedAsTheCommandLine(page, argsFor, asked) {
  const rows = await page.$$eval('#play-results tbody tr', (trs) => trs.map((tr) => ({
    policy: tr.dataset.policy, cells: Array.from(tr.querySelectorAll('td')).map((td) => td.textContent),
  })));
  const counts = { ok: 0, error: 0, unmodelled: 0 };
  for (const row of rows) {
    const run = spawnSync(BIN, argsFor(row.policy), { encoding: 'utf8' });
    const [result, weak, error] = row.cells;
    const where = `${asked}, ${row.policy}: ${row.cells}`;
    if (run.status === 0) {
      check(run.stdout.trim() === `${result}${weak === 'weak' ? ' (weak)' : ''}`, `${where} vs ${run.stdout}`);
      counts.ok++;
    } else if (run.status === 1) {
      check(result === '-' && run.stderr.trim() === escapeControls(error).trim(), `${where} vs ${run.stderr}`);
      counts.error++;
    } else {
      check(run.status === 2 && /does not (model|answer)/.test(run.stderr), `${where}: ${run.stderr}`);
      check(result === 'not modelled' && !error, `${where}: not modelled, not an error`);
      counts.unmodelled++;
    }
  }
  return counts;
}

/** The form menu: it offers the forms Python has for the operation
 * chosen (none but the assignment without one, no operator for
 * `maximum`); NumPy's `a / b` with the operator and the assignment
 * `x[...] = v` are `table --op --form`'s tables, the URL keeps the form,
 * and a diff against JAX marks `diff --op --form`'s cells. */
async function formTables(page) {
  const info = await page.evaluate(() => window.fetch('api/info').then((r) => r.json()));
  const offered = () => page.$$eval('#form option', (options) => options.map((o) => o.value));
  assert.deepEqual(await offered(), ['', 'setitem'], 'promotion: the assignment alone');
  await page.selectOption('#op', 'maximum');
  assert.deepEqual(await offered(), ['', 'function'], 'maximum has no operator');
  await page.selectOption('#op', 'true_divide');
  assert.deepEqual(await offered(), ['', ...info.operations.find((o) => o.name === 'true_divide').forms], 'true_divide: every form Python has for it');
  tally.checks += 3;
  await page.selectOption('#policy', 'numpy');
  for (const [op, form] of [['true_divide', 'operator'], ['power', 'inplace'], ['', 'setitem']]) {
    await page.selectOption('#op', op);
    await page.selectOption('#form', form);
    await waitForTable(page, { policy: 'numpy', types: 'docs', diff: '', op, form });
    const args = ['table', '--policy', 'numpy', ...(op ? ['--op', op] : []), '--form', form, '--labels', 'short', '--format', 'json'];
    const theirs = cliJson(args);
    assert.deepEqual(await shownRows(page), theirs.rows.map((row) => row.map((cell) => cell ?? '-')), `numpy ${op} ${form}: every cell is the command line's`);
    tally.checks++;
    check(await page.$eval('#types caption', (c) => c.textContent) === theirs.caption, `numpy ${op} ${form}: the caption is the table's own`);
    check(page.url().includes(`form=${form}`), `the URL keeps the form: ${page.url()}`);
    if (form === 'setitem') await page.screenshot({ path: join(shots, 'table-numpy-setitem.png'), fullPage: true });
  }
  // NumPy's operator against JAX's: `diff --op --form`'s cells.
  await page.selectOption('#op', 'true_divide');
  await page.selectOption('#form', 'operator');
  await page.selectOption('#diff', 'jax');
  await waitForTable(page, { policy: 'numpy', types: 'docs', diff: 'jax', op: 'true_divide', form: 'operator' });
  const expected = diffCells(cliJson(['diff', 'numpy', 'jax', '--op', 'true_divide', '--form', 'operator', '--format', 'json', '--labels', 'short']));
  assert.deepEqual(await markedCells(page), expected, 'numpy against jax, a / b: `diff --op --form`\'s cells');
  check(expected.length > 0, 'NumPy and JAX divide differently somewhere');
  tally.checks++;
  await page.screenshot({ path: join(shots, 'table-numpy-operator-diff-jax.png'), fullPage: true });
  await page.selectOption('#diff', '');
  await page.selectOption('#op', '');
  await page.selectOption('#policy', 'jax');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
}

/** The playground with a form: every policy answers as `result-type
 * --form` does, "not modelled" where it does not model the form. */
async function playgroundAsksAForm(page) {
  await page.locator('.tabs a[data-view="playground"]').click();
  for (const [op, form, operands] of [['true_divide', 'reflected', '2 int8'], ['', 'setitem', 'int8 2.5']]) {
    await page.selectOption('#play-op', op);
    await page.selectOption('#play-form-menu', form);
    await page.fill('#operands', operands);
    await page.click('#play-form button');
    await page.waitForSelector(`#play-results[data-operands="${operands}"][data-op="${op}"][data-form="${form}"]`);
    const counts = await playedAsTheCommandLine(page, (policy) =>
      ['result-type', '--policy', policy, ...(op ? ['--op', op] : []), '--form', form, ...operands.split(' ')],
      `${op} ${form} ${operands}`);
    check(counts.ok, `${form}: some policy answers (${JSON.stringify(counts)})`);
    check(page.url().includes(`form=${form}`), `the URL keeps the playground's form: ${page.url()}`);
    if (form === 'reflected') await page.screenshot({ path: join(shots, 'playground-form.png'), fullPage: true });
  }
  await page.selectOption('#play-op', '');
  await page.selectOption('#play-form-menu', '');
  await page.locator('.tabs a[data-view="table"]').click();
}

/** The operations on whole arrays: JAX's `matmul` table is `table --op
 * matmul`'s, cell for cell, with the type each cell computes in as a
 * second mark where it has one; the playground's `sum` and `mean` answer
 * as `result-type --op` does in every policy, the type computed in
 * included. */
async function arrayOperations(page) {
  await page.selectOption('#op', 'matmul');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '', op: 'matmul' });
  const theirs = cliJson(['table', '--op', 'matmul', '--labels', 'short', '--format', 'json']);
  const shown = await page.$$eval('#types tbody tr', (trs) => trs.map((tr) =>
    Array.from(tr.querySelectorAll('td')).map((td) => [td.dataset.label, td.dataset.computes ?? null])));
  assert.deepEqual(shown, theirs.cells.map((row) => row.map((cell) => [cell.label, cell.computes_in ?? null])),
    'jax matmul: every cell and its second mark is the command line\'s');
  tally.checks++;
  await page.screenshot({ path: join(shots, 'table-matmul.png'), fullPage: true });
  // A reduction's table: a row per array dtype, a column per dtype= (None
  // first), each cell and its second mark the command line's; a cell's
  // panel gives the answer and the policy's rule; a diff marks `diff`'s cells.
  await page.selectOption('#op', 'mean');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '', op: 'mean' });
  const mean = cliJson(['table', '--op', 'mean', '--labels', 'short', '--format', 'json']);
  const heads = await page.$$eval('#types thead th', (ths) => ths.slice(1).map((th) => th.textContent));
  assert.deepEqual(heads, mean.column_labels, 'jax mean: the columns are None and each dtype=');
  const meanShown = await page.$$eval('#types tbody tr', (trs) => trs.map((tr) =>
    Array.from(tr.querySelectorAll('td')).map((td) => [td.dataset.label, td.dataset.computes ?? null])));
  assert.deepEqual(meanShown, mean.cells.map((row) => row.map((cell) => [cell.label, cell.computes_in ?? null])),
    'jax mean: every cell and its second mark is the command line\'s');
  check(mean.cells[10][0].computes_in === 'float32', `jax's float16 mean computes in float32: ${JSON.stringify(mean.cells[10][0])}`);
  await page.click('#types td[data-r="10"][data-c="0"]');
  await page.waitForSelector('#panel[data-cell="float16,None"]');
  const panel = await page.textContent('#panel');
  check(panel.includes('computes in float32') && panel.includes(mean.rule), `the panel gives the answer and the rule: ${panel}`);
  await page.screenshot({ path: join(shots, 'table-mean.png'), fullPage: true });
  await page.selectOption('#diff', 'numpy');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: 'numpy', op: 'mean' });
  await checkDiffIsTheCli(page, ['jax', 'numpy', '--op', 'mean']);
  await page.selectOption('#diff', '');
  await page.selectOption('#op', '');
  await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: '' });
  await page.locator('.tabs a[data-view="playground"]').click();
  for (const [op, operands] of [['sum', 'int8'], ['mean', 'float16']]) {
    await page.selectOption('#play-op', op);
    await page.fill('#operands', operands);
    await page.click('#play-form button');
    await page.waitForSelector(`#play-results[data-operands="${operands}"][data-op="${op}"]`);
    const counts = await playedAsTheCommandLine(page, (policy) =>
      ['result-type', '--policy', policy, '--op', op, operands], `${op} ${operands}`);
    check(counts.ok && counts.unmodelled, `${op}: answers, and policies that do not model it (${JSON.stringify(counts)})`);
  }
  await page.screenshot({ path: join(shots, 'playground-mean.png'), fullPage: true });
  await page.selectOption('#play-op', '');
  await page.locator('.tabs a[data-view="table"]').click();
}

/** The playground with an operation: every policy answers as
 * `dtype-lattice result-type --op` does (exit 1: the framework's error),
 * those that do not model it (exit 2) say "not modelled"; a unary
 * operation uses the first operand and says so. */
async function playgroundAsksAnOperation(page) {
  await page.locator('.tabs a[data-view="playground"]').click();
  for (const [op, operands, unused] of [['less', 'int8 2.5', ''], ['sqrt', 'int8 2.5', '2.5']]) {
    await page.selectOption('#play-op', op);
    await page.fill('#operands', operands);
    await page.click('#play-form button');
    await page.waitForSelector(`#play-results[data-operands="${operands}"][data-op="${op}"]`);
    const counts = await playedAsTheCommandLine(page, (policy) =>
      ['result-type', '--policy', policy, '--op', op, ...operands.split(' ').slice(0, unused ? 1 : 2)],
      `${op} ${operands}`);
    check(counts.ok && counts.error && counts.unmodelled, `${op}: answers, errors and policies that do not model it (${JSON.stringify(counts)})`);
    const status = await page.$eval('#play-status', (p) => p.textContent);
    check(status.startsWith(`${op}(`), `the status names ${op}: ${status}`);
    const left = await page.$eval('#play-status', (p) => p.querySelector('[data-unused]')?.dataset.unused ?? '');
    check(left === unused, `${op}: the operands left out (${left}) are said`);
    check(page.url().includes(`op=${op}`), `the URL keeps the playground's operation: ${page.url()}`);
    if (op === 'less') await page.screenshot({ path: join(shots, 'playground-op.png'), fullPage: true });
  }
  await page.selectOption('#play-op', '');
  await page.locator('.tabs a[data-view="table"]').click();
}

async function playgroundAsksEveryPolicy(page) {
  await page.locator('.tabs a[data-view="playground"]').click();
  const operands = 'int8 2 weak:float32 1j';
  await page.fill('#operands', operands);
  await page.click('#play-form button');
  await page.waitForSelector(`#play-results[data-operands="${operands}"]`);
  const rows = await page.$$eval('#play-results tbody tr', (trs) => trs.map((tr) => ({
    policy: tr.dataset.policy, cells: Array.from(tr.querySelectorAll('td')).map((td) => td.textContent),
  })));
  const policies = await page.evaluate(() => window.fetch('api/info').then((r) => r.json()).then((i) => i.policies.map((p) => p.name)));
  check(rows.length === policies.length && rows.every((row, i) => row.policy === policies[i]), 'every policy answers');
  for (const row of rows) {
    const theirs = cliAnswer(['result-type', '--policy', row.policy, ...operands.split(' ')]);
    const [result, weak, error] = row.cells;
    if (result !== '-') check(theirs === `${result}${weak === 'weak' ? ' (weak)' : ''}`, `${row.policy}: ${row.cells} vs ${theirs}`);
    else check(theirs.endsWith(error.slice(error.indexOf(':') + 2)), `${row.policy}: ${error} vs ${theirs}`);
  }
  await page.screenshot({ path: join(shots, 'playground.png'), fullPage: true });
  await page.locator('.tabs a[data-view="table"]').click();
}

/** Time to interactive over fresh loads, and table redraws on a policy
 * switch, both measured in the page with the Performance API. */
async function measure(browser, url) {
  const loads = [];
  const completes = [];
  for (let i = 0; i < 9; i++) {
    const page = await openPage(browser);
    await page.goto(url);
    await ready(page);
    const t = await page.evaluate(() => window.explorerTimings);
    loads.push(t.interactive);
    completes.push(t.complete);
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  const page = await openPage(browser);
  await page.goto(url);
  await ready(page);
  const switches = [];
  const order = ['numpy', 'torch', 'array-api', 'tensorflow-all', 'jax', 'numpy', 'torch', 'array-api', 'tensorflow-all', 'jax'];
  for (let round = 0; round < 2; round++) {
    for (const policy of order) {
      const before = await page.evaluate(() => window.explorerTimings.tableRenders.length);
      await page.selectOption('#policy', policy);
      await page.waitForFunction((n) => window.explorerTimings.tableRenders.length > n, before);
      switches.push(await page.evaluate(() => window.explorerTimings.tableRenders.at(-1)));
    }
  }
  await page.close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { loads, completes, switches, interactive: median(loads), complete: median(completes), policySwitch: median(switches), worstSwitch: Math.max(...switches) };
}

async function staticExport(browser) {
  const dir = mkdtempSync(join(tmpdir(), 'dtype-lattice-site-'));
  try {
    cli(['site', dir]);
    const { server, url } = await staticServer(dir);
    const page = await openPage(browser);
    await page.goto(url + '?cell=uint64,int8');
    await ready(page);
    check(await page.locator('#types tbody td').count() === 324, 'static: every cell');
    await page.waitForSelector('#panel[data-cell="uint64,int8"]');
    check(await page.$eval('#panel', (p) => p.dataset.joinDtype) === 'int32', 'static: uint64 with int8 is int32 without x64');
    const marked = await page.$$eval('#drawing svg g.node.input', (g) => g.map((n) => n.dataset.label).sort());
    assert.deepEqual(marked, ['int8', 'uint32']);
    check(await page.locator('#drawing svg g.node.join[data-label="int32"]').count() === 1, 'static: the join is marked');
    const explained = await page.$eval('#panel', (p) => p.innerText);
    await checkSettingsBar(page, 'jax');
    // Diffs are the page's own comparison of two tables, either way round
    // and under a setting, as the command line finds them.
    await page.selectOption('#diff', 'numpy');
    await waitForTable(page, { policy: jaxName(false, false), types: 'docs', diff: 'numpy' });
    await checkDiffIsTheCli(page, ['jax', 'numpy']);
    await setSettings(page, true, false);
    await page.selectOption('#diff', 'torch');
    await waitForTable(page, { policy: jaxName(true, false), types: 'docs', diff: 'torch' });
    await checkDiffIsTheCli(page, ['jax', 'torch', '--x64']);
    await page.screenshot({ path: join(shots, 'static-jax-x64-diff-torch.png'), fullPage: false });
    await page.selectOption('#policy', 'numpy');
    await page.selectOption('#diff', 'jax');
    await waitForTable(page, { policy: 'numpy', types: 'docs', diff: 'jax' });
    assert.deepEqual(await markedCells(page), diffCells(cliJson(['diff', 'numpy', 'jax', '--x64', '--format', 'json', '--labels', 'short'])));
    tally.checks++;
    await checkDiffIsTheCli(page, ['numpy', 'jax', '--x64']);
    await checkSettingsBar(page, 'numpy');
    check((await page.textContent('#settings-note')) === 'numpy reads no settings', 'static: numpy reads no settings');
    await page.selectOption('#policy', 'keras');
    await waitForTable(page, { policy: cliJson(['table', '--policy', 'keras', '--format', 'json']).name, types: 'docs', diff: 'jax' });
    await checkSettingsBar(page, 'keras');
    // A preset is its entry under the settings it fixes, whatever the bar
    // says for the entry: filed apart in the export, diffed as the
    // command line diffs it, its note saying what it fixes.
    await page.selectOption('#policy', 'tensorflow');
    await page.selectOption('select[data-setting="tensorflow_numpy_behavior"]', 'safe');
    await waitForTable(page, { policy: 'tensorflow (numpy behavior safe)', types: 'docs', diff: 'jax' });
    await page.selectOption('#policy', 'tensorflow-all');
    await waitForTable(page, { policy: 'tensorflow (numpy behavior all)', types: 'docs', diff: 'jax' });
    assert.deepEqual(await markedCells(page), diffCells(cliJson(['diff', 'tensorflow-all', 'jax', '--x64', '--format', 'json', '--labels', 'short'])));
    tally.checks++;
    await checkSettingsBar(page, 'tensorflow-all');
    // It leaves tensorflow_prefer_float32 free, which the bar shows.
    check((await page.textContent('#settings-note')) === 'tensorflow-all is tensorflow with tensorflow_numpy_behavior=all',
      'static: a preset says what it fixes');
    check(page.url().includes('policy=tensorflow-all'), `static: the URL names the preset: ${page.url()}`);
    await page.selectOption('#policy', 'tensorflow');
    await page.selectOption('select[data-setting="tensorflow_numpy_behavior"]', 'off');
    await page.selectOption('#diff', '');
    await page.selectOption('#policy', 'numpy');
    await page.selectOption('#diff', 'jax');
    await waitForTable(page, { policy: 'numpy', types: 'docs', diff: 'jax' });
    await page.screenshot({ path: join(shots, 'static-export.png'), fullPage: true });
    check(await page.$eval('#op', (s) => s.disabled), 'static: the operation menu is disabled');
    check((await page.textContent('#op-note')).includes('dtype-lattice serve'), 'static: operations need serve');
    await page.locator('.tabs a[data-view="editor"]').click();
    check((await page.textContent('#view-editor')).includes('dtype-lattice serve'), 'static: the editor says it needs serve');
    check(!(await page.$('#play-op')), 'static: the playground, with its operation menu, needs serve');
    assert.deepEqual(page.problems, []);
    await page.close();
    // A host that sends the gzipped answers with Content-Encoding: gzip
    // has the browser inflate them: the page reads them all the same.
    const encoded = await staticServer(dir, { gzipEncoded: true });
    const other = await openPage(browser);
    await other.goto(encoded.url + '?cell=uint64,int8');
    await ready(other);
    await other.waitForSelector('#panel[data-cell="uint64,int8"]');
    check(await other.locator('#types tbody td').count() === 324, 'static, Content-Encoding: gzip: every cell');
    check(await other.$eval('#panel', (p) => p.innerText) === explained, 'static, Content-Encoding: gzip: the same explanation');
    check(await other.locator('#drawing svg g.node.join').count() === 1, 'static, Content-Encoding: gzip: the join is marked');
    assert.deepEqual(other.problems, []);
    await other.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ main

let failed = false;
try {
  const { url } = await serve();
  // Playwright's own signal handlers would close the browser and leave
  // the server: the handlers above stop both.
  const browser = await chromium.launch({
    executablePath: CHROMIUM, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  cleanups.push(() => within(10000, browser.close(), 'closing Chromium'));
  console.log(`binary: ${BIN}\nserving: ${url}`);
  const page = await openPage(browser);
  await page.goto(url);
  await ready(page);
  assert.deepEqual(page.problems, [], 'no console errors on load');
  await tableHasEveryCell(page);
  console.log('ok  the table has every cell (18 x 18 and 36 x 36), as the command line prints it');
  const clicked = await cellsExplainAsJaxAnswers(page);
  console.log(`ok  ${clicked} cells clicked in four configurations join where real JAX answers; paths and drawing marks check out`);
  await diffMarksTheCliCells(page);
  console.log('ok  diff marks exactly the cells `dtype-lattice diff` reports, with its answers and count (jax/numpy docs and all, jax x64/torch)');
  const sampled = await everyPolicyAgainstJax(page);
  console.log(`ok  every policy against JAX: its table is the command line's, ${sampled} cells clicked answer as it does, its diff is \`dtype-lattice diff\`'s; the bar shows the settings it reads`);
  await keyboardMovesAndExplains(page);
  console.log('ok  arrow keys, Home and End move the focus; Enter explains');
  await page.screenshot({ path: join(shots, 'table.png'), fullPage: false });
  await permalinksRestoreTheState(page, url);
  console.log('ok  the URL restores policy, diff partner and cell');
  await editorFindsTheNotebooksNonLattices(page);
  console.log('ok  the editor reports the notebook\'s two non-lattices with `check`\'s pairs; a dict typed in is read, placed and audited');
  await refusalsAreMessages(page, browser, url);
  console.log('ok  a drawing past its weight, and an answer refused whole, are messages in the editor and the explorer');
  await playgroundAsksEveryPolicy(page);
  console.log('ok  the playground answers as `dtype-lattice result-type` for every policy');
  await operationTables(page);
  console.log('ok  operations: jax true_divide is `table --op`\'s, the panel explains promotion only, the URL keeps it, a diff with x64 marks `diff --op`\'s cells, refusals are the command line\'s');
  await playgroundAsksAnOperation(page);
  await arrayOperations(page);
  console.log('ok  the playground answers an operation as `dtype-lattice result-type --op` for every policy, "not modelled" where it is not; a unary one takes the first operand');
  await formTables(page);
  console.log('ok  forms: the menu offers what Python has; numpy a / b, a **= b and x[...] = v are `table --op --form`\'s, the URL keeps the form, a diff with jax marks `diff --op --form`\'s cells');
  await playgroundAsksAForm(page);
  console.log('ok  the playground answers a form (2 / x reflected, x[...] = 2.5) as `dtype-lattice result-type --form` for every policy');
  assert.deepEqual(page.problems, [], 'no console errors, page errors or failed requests');
  await page.close();
  await staticExport(browser);
  console.log('ok  the static export: table, explanation with marks, diffs computed by the page as `dtype-lattice diff` (jax/numpy, jax x64/torch, numpy/jax x64), the settings each policy reads, a host that sends Content-Encoding: gzip; the editor and the operations need serve');
  const timings = await measure(browser, url);
  const verdict = (value, goal) => `${value.toFixed(1)} ms (goal <= ${goal} ms: ${value <= goal ? 'met' : 'NOT met'})`;
  console.log(`time to interactive: median ${verdict(timings.interactive, GOALS.interactive)}; loads ${timings.loads.map((x) => x.toFixed(0)).join(', ')}`);
  console.log(`with the drawing shown too: median ${timings.complete.toFixed(1)} ms; loads ${timings.completes.map((x) => x.toFixed(0)).join(', ')}`);
  console.log(`policy switch redraw: median ${verdict(timings.policySwitch, GOALS.policySwitch)}, worst ${timings.worstSwitch.toFixed(1)} ms`);
  console.log(`${tally.checks} checks passed; screenshots in ${shots}`);
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await stopAll();
}
process.exit(failed ? 1 : 0);
