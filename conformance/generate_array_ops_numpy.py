#!/usr/bin/env python3
"""Golden data for the operations on whole arrays of the `numpy` and
`array-api` policies.

Usage:
    python generate_array_ops_numpy.py [--out DIR]

Runs in the environment of ``generate_ops_numpy.py``
(``requirements-numpy.txt``, Python 3.12) and writes, in the format of
``golden_array_ops.py`` (read its docstring):

* ``array_ops_numpy.jsonl``: NumPy's functions on arrays of all 32 dtypes
  (NumPy's 14 and ml_dtypes' 18; ``int1`` arrays hold zeros, its only
  values being -1 and 0), ``dtype=`` each of the 32 (of NumPy's 14 for
  ``matmul`` and ``einsum``: an ml_dtypes type as a ufunc's ``dtype=``
  goes through resolution paths the policy does not model, and says so);
* ``array_ops_array_api.jsonl``: array-api-strict's functions (API version
  2025.12) on arrays of its 13 dtypes, ``dtype=`` each of the 13.

Python scalars: those of ``golden_ops.PY_SCALARS``. Each operation is
called as::

    operation     NumPy                             array-api-strict
    sum ... all   np.sum(x, **kw) ...               xp.sum(x, **kw) ...
    cumsum        np.cumsum(x, **kw)                xp.cumulative_sum(x, axis=0, **kw)
    cumprod       np.cumprod(x, **kw)               xp.cumulative_prod(x, axis=0, **kw)
    matmul        np.matmul(a, b, **kw)             xp.matmul(a, b, **kw)
    dot           np.dot(a, b, **kw)                (none)
    tensordot     np.tensordot(a, b, **kw)          xp.tensordot(a, b, **kw)
    einsum        np.einsum("ij,jk->ik", a, b, **kw)  (none)
    where         np.where(c, x, y)                 xp.where(c, x, y)
    clip          np.clip(x, lo[, hi])              xp.clip(x, lo[, hi])
    concatenate   np.concatenate([a, b])            xp.concat([a, b])
    stack         np.stack([a, b])                  xp.stack([a, b])
    full_like     np.full_like(x, v, **kw)          xp.full_like(x, v, **kw)

(array-api-strict's cumulative functions want an axis for arrays of two
dimensions.) ``dtype=`` is given where the function takes one; where the
library's function has none (``np.dot``, ``np.tensordot``, the Array
API's ``mean``, ``var``, ``std``, ``matmul``, ``tensordot``) one row with
``dtype="float64"`` records the refusal. NumPy's ``sum``, ``prod``, ``max``
and ``min`` also take ``initial=`` (``INITIALS``), recorded as rows of
``"initial"`` (alone, and with a ``dtype=`` or two, ``INITIAL_DTYPES``):
it never changes the result's type, but its conversion to the reduction's
type can fail. NumPy reports no type it computes in, so the files have no
``"computes"``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import array_api_strict as xp
import ml_dtypes
import numpy as np

import golden_io
from golden_array_ops import ARRAY_OPS, header_operands, record_array_ops
from golden_io import DTYPE_NAMES, ours, parse_args
from golden_ops import PY_SCALARS, Table, typed, write_op_table
from numpy_array_calls import SHAPE, keywords, np_array, np_call, numpy_keywords

GENERATOR = "conformance/generate_array_ops_numpy.py"
XP_NAMES = [n for n in DTYPE_NAMES if hasattr(xp, n)]
NUMPY_NAMES = [n for n in DTYPE_NAMES if not hasattr(ml_dtypes, n)]
XP: dict[str, Callable[..., Any]] = {
    "cumsum": lambda x, **kw: xp.cumulative_sum(x, axis=0, **kw),
    "cumprod": lambda x, **kw: xp.cumulative_prod(x, axis=0, **kw),
    "concatenate": lambda *arrays: xp.concat(arrays),
    "stack": lambda *arrays: xp.stack(arrays),
}
XP_OPS = [op for op in ARRAY_OPS if op not in ("dot", "einsum")]
# The functions that take ``dtype=`` in the Array API.
XP_DTYPE = {"sum", "prod", "cumsum", "cumprod", "full_like"}


def xp_call(op: str, values: list, kw: dict) -> str:
    function = XP.get(op) or getattr(xp, op)
    if "dtype" in kw:
        kw = {**kw, "dtype": getattr(xp, kw["dtype"])}
    result = function(*values, **kw)
    return typed(ours(str(result.dtype).removeprefix("array_api_strict.")))


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    head = golden_io.header(
        GENERATOR,
        {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__,
         "array_api_strict": xp.__version__},
        array_api_strict_flags={
            "api_version": xp.get_array_api_strict_flags()["api_version"]})
    scalars = [(lambda v=v: v, form) for v, form in PY_SCALARS]

    arrays = [(lambda n=n: np_array(n), n) for n in DTYPE_NAMES]
    table = Table()
    record_array_ops(table, "numpy", arrays, scalars, np_call,
                     keywords=numpy_keywords(DTYPE_NAMES, NUMPY_NAMES))
    forms = header_operands(arrays, scalars)
    head["header"]["arrays"] = forms["arrays"]
    write_op_table(out / "array_ops_numpy.jsonl", head, forms["operands"],
                   table)

    arrays = [(lambda n=n: xp.ones(SHAPE, dtype=getattr(xp, n)), n)
              for n in XP_NAMES]
    table = Table()
    record_array_ops(table, "array-api", arrays, scalars, xp_call,
                     ops=XP_OPS, keywords=keywords(XP_NAMES, XP_DTYPE))
    forms = header_operands(arrays, scalars)
    head["header"]["arrays"] = forms["arrays"]
    write_op_table(out / "array_ops_array_api.jsonl", head,
                   forms["operands"], table)


if __name__ == "__main__":
    sys.exit(main())
