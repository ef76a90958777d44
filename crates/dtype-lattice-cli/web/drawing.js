// The library's drawings (SVG) on the page: the policy's lattice under the
// table and the editor's graph.

import { h } from './dom.js';

let drawings = 0;

/** Puts the library's SVG into `figure`, its ids made unique on the
 * page (several drawings share marker names), and returns it. */
export function showSvg(figure, text, caption) {
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
export function applyMarks(svg, marks) {
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
