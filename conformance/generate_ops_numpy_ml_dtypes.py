#!/usr/bin/env python3
"""Golden data for the `numpy` policy's operations on ml_dtypes' arrays.

Usage:
    python generate_ops_numpy_ml_dtypes.py [--out DIR]

Runs in the environment of ``generate_ops_numpy.py``
(``requirements-numpy.txt``, Python 3.12) and writes, in the op-table
format of ``golden_ops.py`` (read its docstring):

* ``ops_numpy_ml_dtypes.jsonl``: the 24 operations as NumPy's functions
  (``np.add`` ... as ``generate_ops_numpy.py`` calls them), on every operand
  and every ordered pair of operands;
* ``forms_numpy_ml_dtypes.jsonl``: the same operations as programs write
  them (``operator``, ``reflected``, ``inplace``, ``setitem``), by
  ``Table.record_forms`` as ``generate_forms_numpy.py`` records NumPy's own
  dtypes.

Operands: arrays (``np.ones(2, dtype)``; zeros for ``int1``, whose only
values are -1 and 0) of all 32 dtypes, NumPy's 14 and
ml_dtypes' 18 (``bfloat16``, the float8, float6 and float4 types, ``int1``
to ``int4`` and ``uint1`` to ``uint4``), so that each ml_dtypes type meets
each of NumPy's on either side; zero-dimensional arrays
(``np.ones((), dtype)``, ``int1``'s zero) of ml_dtypes' 18; the Python scalars of
``golden_ops.PY_SCALARS`` and, in the functions' table, the Python int
``2**63``, which no C ``long`` holds (ml_dtypes converts a Python int
through one; the forms table leaves it out, as Python would compute
``300 ** 2**63`` itself). The first
operand of ``inplace`` and the target of ``setitem`` is a fresh array of
each of the 32 dtypes. Cells where neither operand has an ml_dtypes type
repeat ``ops_numpy.jsonl`` and ``forms_numpy.jsonl`` (every row is whole);
the script checks that they answer alike.

An ml_dtypes type is a "legacy user dtype" to NumPy: its ufunc loops (for
its floats nearly every ufunc, for its integers ``add``, ``subtract``,
``multiply``, ``floor_divide`` and ``remainder``) and its casts are what
ml_dtypes registers, and NumPy picks a loop by searching the registered
ones (``docs/policies.md`` describes the rule).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import ml_dtypes
import numpy as np

import golden_io
from golden_io import DTYPE_NAMES, ours, parse_args
from golden_ops import OPS, PY_SCALARS, Table, typed, write_op_table

GENERATOR = "conformance/generate_ops_numpy_ml_dtypes.py"
ML_NAMES = [n for n in DTYPE_NAMES if hasattr(ml_dtypes, n)]
FUNCTIONS = {op: getattr(np, "absolute" if op == "abs" else op) for op in OPS}
# A Python int beyond C long's range.
BEYOND_LONG = 2**63


def filled(shape: tuple, name: str) -> Any:
    """Ones, as ``golden_ops`` wants them; zeros for ``int1``, which holds
    only -1 and 0 (and -1 as an exponent is refused for its value)."""
    make = np.zeros if name == "int1" else np.ones
    return make(shape, np.dtype(name))


def arrays() -> list[tuple[Any, Any]]:
    return [(lambda n=n: filled((2,), n), n) for n in DTYPE_NAMES]


def operands(beyond_long: bool = True) -> list[tuple[Any, Any]]:
    zero_dim = [(lambda n=n: filled((), n), f"0d:{n}") for n in ML_NAMES]
    scalars = PY_SCALARS + [(BEYOND_LONG, BEYOND_LONG)] * beyond_long
    return arrays() + zero_dim + [(lambda v=v: v, form) for v, form in scalars]


def dtype_name(result: Any) -> str:
    return typed(ours(str(np.dtype(result.dtype))))


def function_call(op: str, values: list) -> str:
    return dtype_name(FUNCTIONS[op](*values))


def form_call(run: Callable[[list], Any], values: list) -> str:
    return dtype_name(run(values))


def check_numpy_cells(path: Path, table: Table, forms: list[Any]) -> int:
    """The cells of ``table`` among NumPy's own dtypes and Python scalars
    answer as ``path`` (``ops_numpy.jsonl`` or ``forms_numpy.jsonl``)
    records them; returns how many were compared."""
    def cells(lines: list[dict], operand_forms: list[Any]) -> dict:
        errors = {e["error"]: [e["type"], e["message"]] for e in lines
                  if "error" in e}
        found = {}
        for row in lines:
            if "answers" not in row:
                continue
            key = [row.get("form"), row.get("fn"), row.get("a")]
            for b, answer in zip(operand_forms, row["answers"]):
                answer = errors.get(answer, answer) if isinstance(answer, int) else answer
                found[json.dumps(key + [b])] = answer
        return found

    with open(path) as file:
        recorded = [json.loads(line) for line in file]
    theirs = cells(recorded[1:], recorded[0]["header"]["operands"])
    ours_ = cells(table.lines, forms)
    compared = 0
    for key, answer in ours_.items():
        if key in theirs:
            assert theirs[key] == answer, (key, answer, theirs[key])
            compared += 1
    return compared


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    for name in DTYPE_NAMES:
        assert str(np.dtype(name)) == name, name
    head = golden_io.header(
        GENERATOR,
        {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__},
        byteorder=sys.byteorder)
    forms = [form for _, form in operands()]
    table = Table()
    table.record("numpy", operands(), function_call)
    compared = check_numpy_cells(out / "ops_numpy.jsonl", table, forms)
    assert compared >= 18 * 14 * 14, compared
    write_op_table(out / "ops_numpy_ml_dtypes.jsonl", head, forms, table)

    # Without 2**63: Python would compute `300 ** 2**63` itself, for ever.
    forms = [form for _, form in operands(beyond_long=False)]
    table = Table()
    table.record_forms("numpy", operands(beyond_long=False), arrays(), form_call)
    compared = check_numpy_cells(out / "forms_numpy.jsonl", table, forms)
    assert compared >= 16 * 14 * 14, compared
    write_op_table(out / "forms_numpy_ml_dtypes.jsonl", head, forms, table)


if __name__ == "__main__":
    sys.exit(main())
