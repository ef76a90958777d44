// What the browser tests of the explorer (explorer.test.mjs) stand on:
// the binary and its command line, the servers (`serve`, and a static file
// server for the `site` export) and their cleanup, the count of checks,
// and the checks of the promotion table that serve and the export share.

import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

export const CHROMIUM = '/usr/bin/chromium';
// Checked before anything is started, so a missing browser leaves nothing
// running behind.
if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: the browser tests need Debian's Chromium. Install it as root:\n` +
    '    apt-get update && apt-get install -y chromium');
  process.exit(1);
}

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..');
export const shots = join(here, 'screenshots');
mkdirSync(shots, { recursive: true });

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
export const GOALS = { interactive: 300, policySwitch: 50 };

function binary() {
  if (process.env.DTYPE_LATTICE_BIN) return process.env.DTYPE_LATTICE_BIN;
  const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
  const found = ['release', 'debug'].map((p) => join(target, p, 'dtype-lattice')).filter(existsSync);
  if (!found.length) throw new Error(`no dtype-lattice binary under ${target}: run cargo build first`);
  return found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

export const BIN = binary();

// ------------------------------------------------------------- processes

// What to undo before exiting, the last started first: the browser is
// closed before the server it talks to, whose graceful stop then has no
// open connections to wait for.
export const cleanups = [];
let stopping = null;

export function stopAll() {
  stopping ??= (async () => {
    while (cleanups.length) {
      const undo = cleanups.pop();
      try {
        await undo();
      } catch (err) {
        console.error('while stopping:', err);
      }
    }
  })();
  return stopping;
}

/** `promise`, or a rejection after `ms`: a wedged browser must not keep
 * the script (and the server) alive. */
export function within(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const GRACE_MS = 2000;

/** Ctrl-C for the child (the server then finishes the requests under
 * way), SIGKILL if it has not exited after a grace. */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGINT');
  });
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`${signal}: stopping the browser and the servers`);
    stopAll().finally(() => process.exit(128 + constants.signals[signal]));
  });
}
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (err) => {
    console.error(`${event}:`, err);
    stopAll().finally(() => process.exit(1));
  });
}

/** The command's standard output; exit 1 (a promotion error, a graph
 * that is not a lattice) is an answer too. */
export function cli(args) {
  const run = spawnSync(BIN, args, { encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) throw new Error(`dtype-lattice ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}
export const cliJson = (args) => JSON.parse(cli(args));
/** The command's output, or its message when it fails (exit 1). */
export function cliAnswer(args) {
  const run = spawnSync(BIN, args, { encoding: 'utf8' });
  return (run.status === 0 ? run.stdout : run.stderr).trim();
}

/** Starts `serve --port 0`, to be stopped on the way out; resolves with
 * its page's address. */
export function serve() {
  const child = spawn(BIN, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => stopChild(child));
  const listening = new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      const match = out.match(/http:\/\/\S+\//);
      if (match) resolvePromise(match[0]);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => reject(new Error(`serve exited with ${code ?? signal}`)));
  });
  return within(15000, listening, 'dtype-lattice serve --port 0').then((url) => ({ url, child }));
}

/** A static file server for the `site` export (what any host does).
 * With `gzipEncoded`, it sends `.gz` files as some hosts do, with
 * `Content-Encoding: gzip`, so that the browser inflates them itself. */
export function staticServer(dir, { gzipEncoded = false } = {}) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.gz': 'application/gzip' };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = resolve(dir, '.' + (path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(dir + sep) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    const headers = { 'Content-Type': types[extname(file)] || 'application/octet-stream' };
    if (gzipEncoded && file.endsWith('.gz')) headers['Content-Encoding'] = 'gzip';
    res.writeHead(200, headers);
    res.end(readFileSync(file));
  });
  cleanups.push(() => new Promise((done) => {
    server.closeAllConnections();
    if (server.listening) server.close(() => done());
    else done();
  }));
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

/** How many checks passed, for the closing line. */
export const tally = { checks: 0 };
export function check(condition, message) {
  assert.ok(condition, message);
  tally.checks++;
}

/** A page that records console errors, page errors and failed requests. */
export async function openPage(browser, viewport = { width: 1400, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  page.problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') page.problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push('page error: ' + e.message));
  page.on('requestfailed', (r) => page.problems.push('request failed: ' + r.url()));
  page.on('response', (r) => { if (r.status() >= 400) page.problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  return page;
}

export const ready = (page) => page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });

export async function waitForTable(page, { policy, types, diff, op = '', form = '' }) {
  await page.waitForFunction(([policy, types, diff, op, form]) => {
    const t = document.getElementById('types');
    return t.dataset.policy === policy && t.dataset.types === types && t.dataset.diff === diff && t.dataset.op === op &&
      t.dataset.form === form;
  }, [policy, types, diff, op, form]);
}

export async function setSettings(page, x64, strict) {
  for (const [key, on] of [['x64', x64], ['strict', strict]]) {
    const box = page.locator(`input[data-setting="${key}"]`);
    if ((await box.isChecked()) !== on) await box.click();
  }
}

export const jaxName = (x64, strict) => `jax (x64 ${x64 ? 'on' : 'off'}, ${strict ? 'strict' : 'standard'})`;

/** The (row, column) labels of the cells marked as differing. */
export async function markedCells(page) {
  return page.$$eval('#types td[data-differs="true"]', (cells) => {
    const table = document.getElementById('types');
    // Rows and columns apart: a reduction's columns are its dtype=.
    const columns = Array.from(table.querySelectorAll('thead th')).slice(1).map((th) => th.textContent);
    const rows = Array.from(table.querySelectorAll('tbody tr th')).map((th) => th.textContent);
    return cells.map((td) => `${rows[+td.dataset.r]}|${columns[+td.dataset.c]}`).sort();
  });
}

export const diffCells = (report) => report.differences.map((d) => `${d.row}|${d.column}`).sort();

/** The comparison as the page shows it: each marked cell with what its
 * title says of the partner, and the legend's count. */
async function shownDiff(page, partner) {
  const cells = await page.$$eval('#types td[data-differs="true"]', (tds, partner) => {
    const columns = Array.from(document.querySelectorAll('#types thead th')).slice(1).map((th) => th.textContent);
    const rows = Array.from(document.querySelectorAll('#types tbody tr th')).map((th) => th.textContent);
    return tds.map((td) => `${rows[+td.dataset.r]}|${columns[+td.dataset.c]}|${td.title.slice(td.title.lastIndexOf(`; ${partner}: `))}`).sort();
  }, partner);
  return { cells, legend: await page.textContent('#legend') };
}

/** The page's comparison is `dtype-lattice diff`'s, cell for cell: the
 * cells, the partner's answers, the dtypes not native to one side, and
 * the count (`args` are the command's, which prints the report). */
export async function checkDiffIsTheCli(page, args) {
  const report = cliJson(['diff', ...args, '--format', 'json', '--labels', 'short']);
  const { cells, legend } = await shownDiff(page, report.right);
  const expected = report.differences.map((d) => `${d.row}|${d.column}|; ${report.right}: ${d.right ?? 'no promotion'}` +
    d.not_native.map((x) => ` (${x.dtype} is not native to ${x.policy})`).join('')).sort();
  assert.deepEqual(cells, expected, `diff ${args.join(' ')}: the page's cells and answers`);
  check(legend.includes(`differ from ${report.right}: ${report.count} of ${report.cells},`), `diff ${args.join(' ')}: the count, ${report.count} of ${report.cells}: ${legend}`);
}

/** The settings in the bar: those the chosen policy reads, the rest
 * hidden (what the registry, through /api/info, says it reads). */
export async function checkSettingsBar(page, policy) {
  const read = await page.evaluate((name) => window.fetch(document.body.dataset.mode === 'static' ? 'data/info.json' : 'api/info')
    .then((r) => r.json()).then((i) => [...i.policies, ...i.presets].find((p) => p.name === name).settings), policy);
  const shown = await page.$$eval('#settings label', (labels) => labels.filter((l) => l.offsetParent !== null).map((l) => l.dataset.key));
  assert.deepEqual(shown, read, `the bar shows the settings ${policy} reads`);
  tally.checks++;
}
