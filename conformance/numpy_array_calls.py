"""NumPy's operations on whole arrays as the generators call them, for
NumPy 2 (``generate_array_ops_numpy.py``) and NumPy 1.26
(``generate_numpy1.py``) alike: NumPy and the standard library only, since
NumPy 1's environment has neither ml_dtypes nor array-api-strict.

Each operation is called as ``np.<name>(*values, **kw)`` but for those of
``NUMPY`` (``einsum``'s subscripts, the sequence of ``concatenate`` and
``stack``); ``keywords`` and ``numpy_keywords`` say which keyword sets a
row is recorded with (``golden_array_ops.py`` documents the rows).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from golden_array_ops import CONTRACTIONS, TAKES_DTYPE
from golden_io import ours
from golden_ops import PY_SCALARS, typed

SHAPE = (2, 2)

NUMPY: dict[str, Callable[..., Any]] = {
    "matmul": np.matmul, "dot": np.dot, "tensordot": np.tensordot,
    "einsum": lambda a, b, **kw: np.einsum("ij,jk->ik", a, b, **kw),
    "where": np.where, "clip": np.clip,
    "concatenate": lambda *arrays: np.concatenate(arrays),
    "stack": lambda *arrays: np.stack(arrays),
    "full_like": np.full_like,
}
# The functions of NumPy's that take ``dtype=``.
NUMPY_DTYPE = TAKES_DTYPE - {"dot", "tensordot"}

# ``initial=``'s values: ``golden_ops.PY_SCALARS``' and a negative float
# (truncated, then bounds-checked for an unsigned type).
TAKES_INITIAL = {"sum", "prod", "max", "min"}
INITIALS: list[Any] = [v for v, _ in PY_SCALARS] + [-2.5]
INITIAL_DTYPES: list[dict] = [{"dtype": "int8", "initial": 300},
                              {"dtype": "float32", "initial": 2j}]


def np_array(name: str) -> Any:
    """A 2 by 2 array of ``name``: ones, but zeros for ``int1`` (whose
    only values are -1 and 0)."""
    make = np.zeros if name == "int1" else np.ones
    return make(SHAPE, np.dtype(name))


def keywords(names: list[str], takes: set[str],
             contracting: list[str] | None = None) -> Callable[[str], list[dict]]:
    """No keywords; then each ``dtype=`` of ``names`` (of ``contracting``
    for a contraction, where given) where the library's function takes
    one, or ``float64`` alone to record the refusal where ours takes one
    and the library's does not."""
    def of(op: str) -> list[dict]:
        if op in takes:
            given = contracting if op in CONTRACTIONS and contracting else names
            return [{}] + [{"dtype": n} for n in given]
        return [{}, {"dtype": "float64"}] if op in TAKES_DTYPE else [{}]
    return of


def numpy_keywords(names: list[str], contracting: list[str],
                   initials: list[Any] = INITIALS) -> Callable[[str], list[dict]]:
    """``keywords`` for NumPy (``dtype=`` each of ``names``, of
    ``contracting`` for a contraction), then ``initial=`` each of
    ``initials`` where NumPy takes it."""
    plain = keywords(names, NUMPY_DTYPE, contracting)

    def of(op: str) -> list[dict]:
        extra = []
        if op in TAKES_INITIAL:
            extra = [{"initial": v} for v in initials]
            if op in NUMPY_DTYPE:
                extra += INITIAL_DTYPES
        return plain(op) + extra
    return of


def np_call(op: str, values: list, kw: dict) -> str:
    """The dtype name of NumPy's ``op`` of ``values`` with ``kw``."""
    function = NUMPY.get(op) or getattr(np, op)
    return typed(ours(str(np.dtype(function(*values, **kw).dtype))))
