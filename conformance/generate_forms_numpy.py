#!/usr/bin/env python3
"""Golden data for the operations of the `numpy` and `array-api` policies
as programs write them: operators, reflected methods, in-place operators
and item assignment.

Usage:
    python generate_forms_numpy.py [--out DIR]

Runs in the environment of ``generate_ops_numpy.py``
(``requirements-numpy.txt``, Python 3.12) and writes ``forms_numpy.jsonl``
and ``forms_array_api.jsonl`` in the op-table format of ``golden_ops.py``,
each row with its ``"form"`` (read that docstring): ``operator``,
``reflected``, ``inplace`` and ``setitem``, by ``Table.record_forms``;
and, for the Array API, whose ``add`` is ``+``, ``xp.add`` as the form
``function``.

Operands are those of ``generate_ops_numpy.py`` (``np.ones(2, dtype)`` of
NumPy's 14 numeric dtypes; ``xp.ones(2, dtype=...)`` of
array-api-strict's 13; the Python scalars of ``golden_ops.PY_SCALARS``).
The first operand of ``inplace`` and the target of ``setitem`` is a fresh
array of each dtype (the operands' arrays; neither library promotes a 0-d
array apart, and a 0-d target could not take a shape-``(2,)`` value).
The answer is the dtype of the result, or of the
target after the assignment; an operator NumPy answers with a NumPy scalar
(0-d operands) answers its dtype too.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import array_api_strict as xp
import ml_dtypes
import numpy as np

import golden_io
from generate_ops_numpy import (NUMPY_NAMES, XP_NAMES, np_operands,
                                xp_operands)
from golden_io import ours, parse_args
from golden_ops import Table, typed, write_op_table

GENERATOR = "conformance/generate_forms_numpy.py"


def np_call(run: Callable[[list], Any], values: list) -> str:
    return typed(ours(str(np.dtype(run(values).dtype))))


def xp_call(run: Callable[[list], Any], values: list) -> str:
    return typed(ours(str(run(values).dtype).removeprefix("array_api_strict.")))


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    head = golden_io.header(
        GENERATOR,
        {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__,
         "array_api_strict": xp.__version__},
        array_api_strict_flags={"api_version": xp.get_array_api_strict_flags()["api_version"]})
    for name, policy, operands, arrays, call in (
            ("forms_numpy.jsonl", "numpy", np_operands(), NUMPY_NAMES, np_call),
            ("forms_array_api.jsonl", "array-api", xp_operands(), XP_NAMES,
             xp_call)):
        table = Table()
        targets = operands[:len(arrays)]
        assert [form for _, form in targets] == arrays
        table.record_forms(policy, operands, targets, call)
        if policy == "array-api":
            # The policy's `add` is `+` (ops_array_api.jsonl); its
            # function is asked as a form.
            table.record(policy, operands,
                         lambda op, values: call(lambda v: xp.add(*v), values),
                         ops=["add"], form="function")
        write_op_table(out / name, head, [f for _, f in operands], table)


if __name__ == "__main__":
    sys.exit(main())
