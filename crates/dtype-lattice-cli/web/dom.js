// Building the page's elements. Answers are put in as text nodes, never
// as markup, so nothing an answer holds can run on the page.

export const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text). */
export function h(tag, attrs, ...children) {
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
export function breakable(label) {
  const cut = label.indexOf('_');
  if (label.length <= 6 || cut < 0) return label;
  const span = document.createDocumentFragment();
  span.append(label.slice(0, cut + 1), document.createElement('wbr'), label.slice(cut + 1));
  return span;
}

export const chips = (labels, mark) =>
  h('span', { class: 'chips' }, labels.map((l) => h('span', { class: 'chip' + (mark && mark(l) ? ' ' + mark(l) : ''), text: l })));

/** What the static export shows in place of a view that asks the server
 * for answers nobody could have written down in advance. */
export function needsServer(what) {
  return h('div', { class: 'needs-server' },
    h('p', {}, `${what}, so it works with `, h('code', { text: 'dtype-lattice serve' }), ' only: this page is the static export, whose answers were computed when it was written.'));
}
