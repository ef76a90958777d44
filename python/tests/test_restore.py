"""Leaving ``dl.record()`` and undoing ``dl.patch_jax()`` put JAX back,
whatever happened to the replaced names meanwhile, and recording is
process-wide.

A name that something else replaced while the recorder or the patch was
active is left holding that replacement (overwriting it would undo someone
else's change); every other name gets JAX's own object back, a
``RuntimeWarning`` names the one left, and a later ``record()`` or
``patch_jax()`` works once the name holds JAX's object or ours again, as it
does when whatever replaced it puts back what it found (``monkeypatch`` and
``mock.patch`` do).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed; recording needs it")
import dtype_lattice as dl  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from dtype_lattice import _jax, _record  # noqa: E402
from jax._src import dtypes  # noqa: E402
from jax._src.numpy import ufuncs  # noqa: E402
from test_patch_jax import left_as_found  # noqa: E402

if jax.__version__ not in _record.CHECKED or jax.__version__ not in _jax.CHECKED:
    pytest.skip(f"recording was not checked against JAX {jax.__version__}",
                allow_module_level=True)

RECORDED = _record.CHECKED[jax.__version__]


def names_holding_others(expected: dict[tuple[str, str], Any]) -> list[str]:
    """The ``module.name`` of every recorded binding that does not hold
    JAX's object ``expected[(home, name)]``."""
    return sorted(f"{module}.{name}" for (home, name), modules in RECORDED.items()
                  for module in modules
                  if getattr(sys.modules[module], name) is not expected[(home, name)])


@pytest.fixture(autouse=True)
def restore_jax() -> Iterator[None]:
    with left_as_found(_record.active, "stop", "a recording active"):
        with left_as_found(_jax.active, "undo", "JAX patched"):
            yield


@pytest.fixture()
def jax_own() -> dict[tuple[str, str], Any]:
    with dl.record():  # imports every module recording replaces names in
        pass
    return {key: getattr(sys.modules[key[0]], key[1]) for key in RECORDED}


def test_recording_restores_every_other_name_and_names_the_replaced_one(
        jax_own: dict[tuple[str, str], Any]) -> None:
    assert names_holding_others(jax_own) == []
    count = sum(len(modules) for modules in RECORDED.values())
    assert count >= 78  # the probe's count under JAX 0.10.2
    message = (r"dtype_lattice\.record\(\) restored JAX's own functions except under "
               r"jax\._src\.numpy\.ufuncs\.promote_args, which something else replaced while "
               r"it was active and still holds; that was left as it is .* Undo that "
               r"replacement to put JAX's function back")
    with pytest.warns(RuntimeWarning, match=message):
        with dl.record() as report:
            ours = ufuncs.promote_args
            # A replacement that calls what it replaced, as a wrapper would.
            replacement = lambda *args: ours(*args)  # noqa: E731
            ufuncs.promote_args = replacement
            jnp.ones(2, jnp.int8) * 2.5  # promoted to float32
    try:
        assert len(report) == 1  # the report is still filled
        assert _record.active() is None
        assert names_holding_others(jax_own) == ["jax._src.numpy.ufuncs.promote_args"]
        # Ours, still called by the replacement, hands each call to JAX's.
        assert (jnp.ones(2, jnp.int8) * 2.5).dtype == jnp.float32
        # A recording would miss the calls through the replaced name: refused,
        # naming it and the fix.
        with pytest.raises(RuntimeError, match=r"ufuncs\.promote_args is not .*something "
                                               r"else has replaced it: undo that"):
            dl.record().__enter__()
        assert names_holding_others(jax_own) == ["jax._src.numpy.ufuncs.promote_args"]
    finally:
        # What monkeypatch's undo does: puts back what it found, ours.
        ufuncs.promote_args = ours
    with dl.record() as later:
        jnp.ones(2, jnp.int8) * 2.5
    assert [e["operation"] for e in later] == ["multiply"]
    assert names_holding_others(jax_own) == []


def test_recording_restores_when_the_block_raises_too(
        jax_own: dict[tuple[str, str], Any]) -> None:
    ours = None
    with pytest.warns(RuntimeWarning, match=r"except under jax\._src\.dtypes\.result_type"):
        with pytest.raises(ZeroDivisionError):
            with dl.record():
                ours = dtypes.result_type
                dtypes.result_type = print
                1 / 0  # noqa: B018
    assert names_holding_others(jax_own) == ["jax._src.dtypes.result_type"]
    dtypes.result_type = ours
    with dl.record() as later:
        jnp.ones((2, 2), jnp.int8) @ jnp.ones((2, 2), jnp.int16)
    assert [e["operation"] for e in later] == ["matmul"]
    assert names_holding_others(jax_own) == []


def test_undoing_the_patch_restores_the_rest_and_names_the_replaced_one() -> None:
    originals = {"promote_types": dtypes.promote_types,
                 "lattice_result_type": dtypes.lattice_result_type}
    patch = dl.patch_jax()
    ours = jnp.promote_types
    jnp.promote_types = print
    try:
        with pytest.warns(RuntimeWarning, match=r"dtype_lattice\.patch_jax\(\) restored JAX's "
                                                r"own functions except under "
                                                r"jax\.numpy\.promote_types"):
            patch.undo()
        assert not patch.active and _jax.active() is None
        assert dtypes.promote_types is originals["promote_types"]
        assert dtypes.lattice_result_type is originals["lattice_result_type"]
        assert jnp.promote_types is print
        # Ours answers through JAX's own once undone, wherever it is called.
        assert ours("int8", "uint8") == jnp.dtype("int16")
        assert patch.answered == 0
    finally:
        jnp.promote_types = ours
    with dl.patch_jax() as again:  # ours, undone, is taken as JAX's
        assert jnp.promote_types("int8", "uint8") == jnp.dtype("int16")
        assert again.answered == 1
    assert jnp.promote_types is originals["promote_types"]
    patch.undo()  # already undone: does nothing


def test_recording_is_process_wide() -> None:
    # A recording sees every thread's JAX calls while it is active, each at
    # its own line (docs/python.md says so).
    def other_thread() -> None:
        jnp.ones(2, jnp.int8) * 2.5  # other thread

    with dl.record() as report:
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
    assert [(e["operation"], e["site"]["function"]) for e in report] == \
        [("multiply", "test_recording_is_process_wide.<locals>.other_thread")]
