"""The example notebooks (``examples/*.ipynb``), run headless.

Their code cells run in order in one namespace, as a kernel would run them,
with the standard library only (no Jupyter): the notebooks' ``assert``s are
the checks. ``display`` is this module's, so the objects the notebooks show
can be rendered the way Jupyter would and the renderings checked.
``promotions.ipynb`` records JAX and ``porting-pytorch.ipynb`` PyTorch, so
each runs where its framework is installed.
"""

from __future__ import annotations

import importlib.util
import json
import linecache
import traceback
from pathlib import Path

import pytest

import dtype_lattice as dl

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Each notebook and the kinds of object it shows.
NOTEBOOKS = {
    "jep9407.ipynb": {dl.Lattice, dl.CheckReport, dl.AuditReport, dl.Table, dl.Explanation},
    "promotions.ipynb": {dl.Promotions},
    "porting-pytorch.ipynb": {dl.Promotions},
    "numpy2-migration.ipynb": {dl.Promotions},
}
#: The framework each notebook records, where it needs one installed.
NEEDS = {"promotions.ipynb": "jax", "porting-pytorch.ipynb": "torch"}


def load(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_is_nbformat_4_without_outputs(name: str) -> None:
    # Outputs are left out on purpose: what the notebook expects is in its
    # asserts, never in stored outputs from an earlier run.
    notebook = load(name)
    assert notebook["nbformat"] == 4 and "metadata" in notebook
    for index, cell in enumerate(notebook["cells"]):
        assert cell["cell_type"] in ("markdown", "code"), index
        assert isinstance(cell["source"], list) and "metadata" in cell, index
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, index


@pytest.fixture(scope="module", params=list(NOTEBOOKS))
def shown(request: pytest.FixtureRequest) -> tuple[str, list]:
    """Runs every code cell of a notebook in order; returns its name and
    what the cells passed to display."""
    name = request.param
    needed = NEEDS.get(name)
    if needed is not None and importlib.util.find_spec(needed) is None:
        pytest.skip(f"{needed} is not installed; the {name} notebook records it")
    displayed: list = []
    namespace = {"__name__": "__main__",
                 "display": lambda *objects: displayed.extend(objects)}
    for index, cell in enumerate(load(name)["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        filename = f"<{name} cell {index}>"
        # So that a traceback shows the cell's lines, and a report its code.
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        try:
            exec(compile(source, filename, "exec"), namespace)
            continue
        except Exception:
            failure = traceback.format_exc()
        # Outside the handler, so the report is the cell's traceback alone.
        pytest.fail(f"{name}: cell {index} failed\n{failure}", pytrace=False)
    return name, displayed


def test_every_cell_runs_and_shows_its_reports(shown: tuple[str, list]) -> None:
    name, objects = shown
    assert NOTEBOOKS[name] <= {type(obj) for obj in objects}


def test_what_the_cells_show_renders(shown: tuple[str, list]) -> None:
    _, objects = shown
    for obj in objects:
        if isinstance(obj, dl.Lattice):
            svg = obj._repr_svg_()
            assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>"), obj
            assert all(f">{node}</text>" in svg for node in obj.nodes), obj
        else:
            html = obj._repr_html_()
            assert html.startswith("<") and html.rstrip().endswith(">"), obj
