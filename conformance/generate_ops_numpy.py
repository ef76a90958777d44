#!/usr/bin/env python3
"""Golden data for the operations of the `numpy` and `array-api` policies.

Usage:
    python generate_ops_numpy.py [--out DIR]

Runs in the environment of ``generate_numpy.py`` (``requirements-numpy.txt``,
Python 3.12) and writes ``ops_numpy.jsonl`` and ``ops_array_api.jsonl`` in
the op-table format of ``golden_ops.py`` (read its docstring): the 24
operations on every operand and every ordered pair of operands.

Operands: arrays (``np.ones(2, dtype)``; ``xp.ones(2, dtype=...)``) of the
dtypes each library has of its own (NumPy's 14 numeric dtypes, as
``generate_numpy.py``'s ``add`` has them; array-api-strict's 13), and the Python scalars
of ``golden_ops.PY_SCALARS`` (``True``, ``2``, ``-1``, ``300``, ``2.5``,
``2j``). Each operation is called as its library's function of that name:

    operation      NumPy              array-api-strict
    add            np.add             x + y (the operator, as gen_array_api_add
                                      records it: the policy's addition)
    subtract       np.subtract        xp.subtract
    multiply       np.multiply        xp.multiply
    true_divide    np.true_divide     xp.divide
    floor_divide   np.floor_divide    xp.floor_divide
    remainder      np.remainder       xp.remainder
    power          np.power           xp.pow
    maximum        np.maximum         xp.maximum
    equal ...      np.equal ...       xp.equal ... (the six comparisons)
    bitwise_and    np.bitwise_and     xp.bitwise_and (and _or, _xor)
    logical_and    np.logical_and     xp.logical_and
    negative       np.negative        xp.negative
    abs            np.absolute        xp.abs
    sign, sqrt, exp, floor: the function of that name in both

The answer is the result's dtype (NumPy answers a NumPy scalar, with a
dtype, when both operands are Python scalars). After each table come the
call lines of ``generate_numpy.py``'s ``add`` (``gen_numpy_add``,
``gen_array_api_add``: more operand forms and values) that the table does
not make; those it does make must answer alike (``golden_ops.write_op_table``).
"""

from __future__ import annotations

import sys
from typing import Any

import array_api_strict as xp
import ml_dtypes
import numpy as np

import generate_numpy
import golden_io
from golden_io import DTYPE_NAMES, ours, parse_args
from golden_ops import OPS, PY_SCALARS, Table, typed, write_op_table

GENERATOR = "conformance/generate_ops_numpy.py"
NUMPY_NAMES = [n for n in DTYPE_NAMES if not hasattr(ml_dtypes, n)]
XP_NAMES = [n for n in DTYPE_NAMES if hasattr(xp, n)]
NUMPY_FUNCTIONS = {op: getattr(np, "absolute" if op == "abs" else op) for op in OPS}
XP_FUNCTIONS = {op: getattr(xp, {"true_divide": "divide", "power": "pow"}.get(op, op))
                for op in OPS}


def np_operands() -> list[tuple[Any, Any]]:
    arrays = [(lambda n=n: np.ones(2, np.dtype(n)), n) for n in NUMPY_NAMES]
    return arrays + [(lambda v=v: v, form) for v, form in PY_SCALARS]


def xp_operands() -> list[tuple[Any, Any]]:
    arrays = [(lambda n=n: xp.ones(2, dtype=getattr(xp, n)), n) for n in XP_NAMES]
    return arrays + [(lambda v=v: v, form) for v, form in PY_SCALARS]


def np_call(op: str, values: list) -> str:
    return typed(ours(str(np.dtype(NUMPY_FUNCTIONS[op](*values).dtype))))


def xp_call(op: str, values: list) -> str:
    if op == "add":
        result = values[0] + values[1]
    else:
        result = XP_FUNCTIONS[op](*values)
    if isinstance(result, (bool, int, float, complex)):
        raise golden_io.NotOurs(type(result).__name__)
    return typed(ours(str(result.dtype).removeprefix("array_api_strict.")))


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    head = golden_io.header(
        GENERATOR,
        {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__,
         "array_api_strict": xp.__version__},
        array_api_strict_flags={"api_version": xp.get_array_api_strict_flags()["api_version"]})
    numpy_table, numpy_operands = Table(), np_operands()
    numpy_table.record("numpy", numpy_operands, np_call)
    adds = (generate_numpy.header(), generate_numpy.gen_numpy_add())
    compared = write_op_table(out / "ops_numpy.jsonl", head,
                              [f for _, f in numpy_operands], numpy_table, adds)
    assert compared >= 50, compared  # the arrays with Python ints 300, -1
    xp_table, operands = Table(), xp_operands()
    xp_table.record("array-api", operands, xp_call)
    adds = (generate_numpy.header(), generate_numpy.gen_array_api_add())
    compared = write_op_table(out / "ops_array_api.jsonl", head,
                              [f for _, f in operands], xp_table, adds)
    assert compared == len(operands) ** 2, compared


if __name__ == "__main__":
    sys.exit(main())
