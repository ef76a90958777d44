// The keyboard and mouse behaviour shared by the promotion table and the
// editor's join table: one focusable cell at a time (a roving tabindex),
// so Tab enters and leaves the grid in one step.

/** Arrow keys move the focus over a grid's cells, Home and End to a
 * row's ends, Enter or Space (or a click) activates a cell. */
export function makeGrid(table, activate) {
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
    // Rows and columns may differ in number (a reduction's table).
    const n = table.querySelectorAll('tbody tr').length;
    const m = td.parentElement.querySelectorAll('td[data-r]').length;
    const moves = {
      ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
      Home: [r, 0], End: [r, m - 1], PageUp: [0, c], PageDown: [n - 1, c],
    };
    if (event.key in moves) {
      const [nr, nc] = moves[event.key];
      focus(cellAt(Math.max(0, Math.min(n - 1, nr)), Math.max(0, Math.min(m - 1, nc))));
      event.preventDefault();
    } else if (event.key === 'Enter' || event.key === ' ') {
      activate(r, c);
      event.preventDefault();
    }
  });
}

/** Marks the chosen cell and its row and column headers. */
export function markSelected(table, r, c) {
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
