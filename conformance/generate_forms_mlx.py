#!/usr/bin/env python3
"""Golden data for the operations of the `mlx` policy as programs write
them: operators, reflected methods, in-place operators and item
assignment.

Usage:
    python generate_forms_mlx.py [--out DIR]

Runs in the environment of ``generate_ops_mlx.py`` (``requirements-mlx.txt``,
Python 3.12, Linux CPU) and writes ``forms_mlx.jsonl`` in the op-table
format of ``golden_ops.py``, each row with its ``"form"`` (read that
docstring): ``operator``, ``reflected``, ``inplace`` and ``setitem``, by
``Table.record_forms``.

Operands are those of ``generate_ops_mlx.py`` (``mx.ones((2,), dtype)`` of
MLX's 14 dtypes, a zero-dimensional array of each, the Python scalars of
``golden_ops.PY_SCALARS``). The first operand of ``inplace`` is each array,
zero-dimensional ones included; the target of ``setitem`` each array with
dimensions (a zero-dimensional one cannot take a value of shape ``(2,)``).
The answer is the dtype of the result, or of the target after the
assignment, after ``mx.eval``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import mlx.core as mx

import golden_io
from generate_ops_mlx import name_of, operands
from golden_io import parse_args
from golden_ops import FORMS, PY_SCALARS, Table, typed, write_op_table

GENERATOR = "conformance/generate_forms_mlx.py"
POLICY = "mlx"


def call(run: Callable[[list], Any], values: list) -> str:
    result = run(values)
    mx.eval(result)
    return typed(name_of(result.dtype))


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    assert mx.default_device() == mx.cpu, mx.default_device()
    ops = operands()
    arrays = ops[:-len(PY_SCALARS)]
    with_dims = [(make, form) for make, form in arrays
                 if not form.startswith("0d:")]
    forms = dict(FORMS)
    setitem = forms.pop("setitem")
    table = Table()
    table.record_forms(POLICY, ops, arrays, call, forms=forms)
    table.record_forms(POLICY, ops, with_dims, call,
                       forms={"setitem": setitem})
    head = golden_io.header(GENERATOR, {"mlx": mx.__version__}, device="cpu")
    write_op_table(out / "forms_mlx.jsonl", head, [f for _, f in ops], table)


if __name__ == "__main__":
    sys.exit(main())
