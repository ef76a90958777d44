#!/usr/bin/env python3
"""Extract two tables from the project's seed documents into test fixtures.

Usage:
    python extract_seed_tables.py [--seeds DIR] [--out DIR]

--seeds defaults to ``../shared/seeds`` from the repository root, --out to
``docs/`` next to this script. Standard library only. Writes:

* ``type_promotion_table_x64_differs.csv``: which cells of JAX's "Type
  promotion semantics" table (the reStructuredText page with the
  ``<table id="types">``) are highlighted as differing from NumPy
  (``<td class="d">``): ``d`` for a highlighted cell, empty otherwise, under
  the table's own labels.
* ``numpy_legacy_table.csv``: the table printed under "NumPy Type Promotion"
  in the appendix of JAX's type promotion design notebook (JEP 9407), cell for
  cell with the notebook's labels (``b``, ``u8``, ``bf16``, ``i*``...; ``-``
  where NumPy failed). The notebook in the seeds is raw notebook JSON whose
  HTML tags were stripped, so each cell is the text left on its own line.

The seed files are found by their content, not their names; where several
hold a table (two versions of the docs page do), they must agree.
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path

DOCS_MARKER = '<table id="types">'
NOTEBOOK_MARKER = "### NumPy Type Promotion"
SIZE = 18  # types per side in both tables


def seeds_with(seeds: Path, marker: str) -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted(seeds.iterdir())
             if p.is_file()]
    found = [t for t in texts if marker in t]
    if not found:
        raise SystemExit(f"no seed in {seeds} contains {marker!r}")
    return found


def the_one(tables: list[list[list[str]]], what: str) -> list[list[str]]:
    """The table, which every seed that holds it must agree on."""
    if any(t != tables[0] for t in tables):
        raise SystemExit(f"the seeds hold different versions of the {what}")
    return tables[0]


def docs_differs(text: str) -> list[list[str]]:
    """The docs table's labels and, per cell, "d" if highlighted."""
    table = text[text.index(DOCS_MARKER):text.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table)
    labels = re.findall(r"<th>([^<]*)</th>", rows[0])[1:]
    out = [[""] + labels]
    for row in rows[1:]:
        cells = re.findall(r'<td( class="d")?>([^<]*)</td>', row)
        head, body = cells[0][1], cells[1:]
        out.append([head] + ["d" if marked else "" for marked, _ in body])
    check_shape(out, "docs table")
    return out


def notebook_numpy_table(text: str) -> list[list[str]]:
    """The cells of the notebook's NumPy table, in reading order."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if NOTEBOOK_MARKER in line)
    html = next(i for i in range(start, len(lines))
                if lines[i].startswith('"text/html"'))
    end = next(i for i in range(html, len(lines))
               if lines[i].startswith('"text/plain"'))
    # What is left of each tag-stripped line of the output: a quote, a
    # newline escape, or the cell's text on its own line.
    cells = [line for line in lines[html + 1:end - 1]
             if line.strip() not in ('"', '\\n",', '" \\n",', "],", "")]
    labels = cells[:SIZE]
    body = cells[SIZE:]
    if len(body) != SIZE * (SIZE + 1):
        raise SystemExit(f"notebook table: {len(body)} cells after the labels")
    out = [[""] + labels]
    out += [body[r * (SIZE + 1):(r + 1) * (SIZE + 1)] for r in range(SIZE)]
    check_shape(out, "notebook table")
    if [row[0] for row in out[1:]] != labels:
        raise SystemExit("notebook table: row labels differ from column labels")
    return out


def check_shape(rows: list[list[str]], what: str) -> None:
    if len(rows) != SIZE + 1 or any(len(r) != SIZE + 1 for r in rows):
        raise SystemExit(f"{what}: not a {SIZE}x{SIZE} table")


def write_csv(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    print(f"wrote {path}")


def main() -> None:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=Path,
                        default=here.parents[1] / "shared" / "seeds")
    parser.add_argument("--out", type=Path, default=here / "docs")
    args = parser.parse_args()
    docs = [docs_differs(t) for t in seeds_with(args.seeds, DOCS_MARKER)]
    write_csv(args.out / "type_promotion_table_x64_differs.csv",
              the_one(docs, "docs table"))
    notebooks = [notebook_numpy_table(t)
                 for t in seeds_with(args.seeds, NOTEBOOK_MARKER)]
    write_csv(args.out / "numpy_legacy_table.csv",
              the_one(notebooks, "notebook's NumPy table"))


if __name__ == "__main__":
    main()
