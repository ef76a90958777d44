// Where answers come from: the server's API (`dtype-lattice serve`) or,
// in the static export (`dtype-lattice site`), the files the same code
// wrote. The page computes nothing about promotion itself.

import { MODE, fileKey, settingsParams, state } from './state.js';

const cache = new Map();
const CACHE_ENTRIES = 300;

/** A GET, answered once per URL; an error answer becomes an Error.
 * `kind` is `json` (the default), `text`, or `gzip` for the static
 * export's gzipped JSON. */
export function get(url, kind) {
  if (!cache.has(url)) {
    const pending = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(await errorMessage(response));
      if (kind === 'gzip') return JSON.parse(await inflate(await response.arrayBuffer()));
      return kind === 'text' ? response.text() : response.json();
    });
    pending.catch(() => cache.delete(url));
    cache.set(url, pending);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value);
  }
  return cache.get(url);
}

/** The text of a gzipped file. A host that sends `.gz` files with
 * `Content-Encoding: gzip` has the browser inflate them already: bytes
 * that do not start with gzip's magic number are taken as they come. */
async function inflate(bytes) {
  const head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
  if (head[0] !== 0x1f || head[1] !== 0x8b) return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

/** A POST of `body`; an error answer becomes an Error. */
export async function post(url, body, contentType) {
  const response = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': contentType } });
  if (!response.ok) throw new Error(await errorMessage(response));
  return response;
}

/** The API's own words for an error, else the status line. */
async function errorMessage(response) {
  try {
    const body = await response.json();
    return body.error.message;
  } catch (e) {
    return response.status + ' ' + response.statusText;
  }
}

export const loadInfo = () => get(MODE === 'static' ? 'data/info.json' : 'api/info');

/** The table's answers, for the policy (`name`, the chosen one by
 * default), operation and its form, types and settings chosen (the static
 * export has promotion's only: its page offers no operation). */
export const source = {
  table(name = state.policy) {
    if (MODE === 'static') return get(`data/table/${fileKey(name)}.json.gz`, 'gzip').then((both) => both[state.types]);
    const q = settingsParams(new URLSearchParams({ policy: name, types: state.types }), name);
    if (state.op) q.set('op', state.op);
    if (state.form) q.set('form', state.form);
    return get('api/table?' + q);
  },
  async explain(table, a, b) {
    if (MODE === 'static') return (await get(`data/graph/${table.graph}.json.gz`, 'gzip')).explain[a][b];
    const q = settingsParams(new URLSearchParams({ policy: state.policy, a, b }), state.policy);
    return get('api/explain?' + q);
  },
  async graph(table, nodes) {
    if (MODE === 'static') return (await get(`data/graph/${table.graph}.json.gz`, 'gzip')).svg;
    const q = settingsParams(new URLSearchParams({ policy: state.policy }), state.policy);
    if (nodes) q.set('highlight', nodes.join(','));
    return get('api/graph.svg?' + q, 'text');
  },
};
