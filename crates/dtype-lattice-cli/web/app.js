// The explorer's page. It computes nothing about promotion: every answer
// comes from the server's API (`dtype-lattice serve`) or, in the static
// export (`dtype-lattice site`), from the files the same code wrote. The
// modules only ask, lay the answers out, and keep the page's state in its
// URL so that any view can be linked to. This one starts the page and
// switches between its views.

import { $, h } from './dom.js';
import { setupEditor, startEditor } from './editor.js';
import { runPlayground, setupPlayground, syncPlayground } from './playground.js';
import { loadInfo } from './sources.js';
import { MODE, info, noteSettings, readUrl, renderSettings, setInfo, state, timings, writeUrl } from './state.js';
import { renderTable, renderTableControls, syncTableControls } from './table.js';

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

/** A new setting changes the answers of the view that shows them. */
function settingChanged() {
  if (state.view === 'table') renderTable();
  if (state.view === 'playground') runPlayground();
}

async function start() {
  setInfo(await loadInfo());
  readUrl();
  renderSettings(settingChanged);
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
    renderSettings(settingChanged);
    syncTableControls();
    syncPlayground();
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
