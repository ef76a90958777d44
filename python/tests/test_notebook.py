"""The JEP 9407 notebook (``examples/jep9407.ipynb``), run headless.

Its code cells run in order in one namespace, as a kernel would run them,
with the standard library only (no Jupyter): the notebook's ``assert``s are
the checks. ``display`` is this module's, so the objects the notebook shows
can be rendered the way Jupyter would and the renderings checked.
"""

from __future__ import annotations

import json
import linecache
import traceback
from pathlib import Path

import pytest

import dtype_lattice as dl

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "jep9407.ipynb"


def load() -> dict:
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def test_the_notebook_is_nbformat_4_without_outputs():
    # Outputs are left out on purpose: what the notebook expects is in its
    # asserts, never in stored outputs from an earlier run.
    notebook = load()
    assert notebook["nbformat"] == 4 and "metadata" in notebook
    for index, cell in enumerate(notebook["cells"]):
        assert cell["cell_type"] in ("markdown", "code"), index
        assert isinstance(cell["source"], list) and "metadata" in cell, index
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, index


@pytest.fixture(scope="module")
def shown() -> list:
    """Runs every code cell in order; returns what they passed to display."""
    displayed: list = []
    namespace = {"__name__": "__main__",
                 "display": lambda *objects: displayed.extend(objects)}
    for index, cell in enumerate(load()["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        filename = f"<{NOTEBOOK.name} cell {index}>"
        # So that a traceback shows the cell's lines.
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        try:
            exec(compile(source, filename, "exec"), namespace)
            continue
        except Exception:
            failure = traceback.format_exc()
        # Outside the handler, so the report is the cell's traceback alone.
        pytest.fail(f"{NOTEBOOK.name}: cell {index} failed\n{failure}", pytrace=False)
    return displayed


def test_every_cell_runs_and_shows_lattices_and_reports(shown):
    kinds = {type(obj) for obj in shown}
    assert {dl.Lattice, dl.CheckReport, dl.AuditReport, dl.Table, dl.Explanation} <= kinds


def test_what_the_cells_show_renders(shown):
    for obj in shown:
        if isinstance(obj, dl.Lattice):
            svg = obj._repr_svg_()
            assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>"), obj
            assert all(f">{node}</text>" in svg for node in obj.nodes), obj
        else:
            html = obj._repr_html_()
            assert html.startswith("<") and html.rstrip().endswith(">"), obj
