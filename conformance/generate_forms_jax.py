#!/usr/bin/env python3
"""Golden data for the operations of the `jax` policy as programs write
them: operators, reflected methods, in-place operators and item assignment.

Usage:
    python generate_forms_jax.py [--out DIR]

Runs in the environment of ``generate_ops_jax.py`` (``requirements-jax12.txt``,
JAX 0.12.0.1, Python 3.12) and writes ``forms_jax.jsonl`` in the op-table
format of ``golden_ops.py``, each row with its ``"form"`` (read that
docstring): ``operator``, ``reflected``, ``inplace`` and ``setitem``, by
``Table.record_forms``, with x64 off and on, each with
``jax_numpy_dtype_promotion`` ``"standard"`` and ``"strict"``.

Operands are those of ``ops_jax`` (``generate_ops_jax.py``): a
strongly-typed array of each of the 32 dtypes, an abstract argument of
``jax.eval_shape`` (``jax.ShapeDtypeStruct((2,), dtype)``; with x64 off
JAX truncates a 64-bit one to its 32-bit counterpart, with a warning, as
``ops_jax``'s answers show too), and the Python scalars of
``golden_ops.PY_SCALARS``. Every call of a setting runs inside one
``jax.eval_shape`` of the 32 arrays (nothing is compiled; on 2,400 sampled
calls, checked when this was written, it answered as one ``eval_shape``
per call, ``generate_ops_jax.py``'s way, does); the answer is the result's
dtype, with `` (weak)`` where its ``weak_type`` is set. The first operand
of ``inplace`` and the target of ``setitem`` is each of the 32 arrays. JAX
arrays have no in-place operators, so ``x += b`` rebinds ``x`` to
``x + b``; item assignment raises JAX's ``TypeError`` (arrays are
immutable) whatever the types, the same on a traced array as on a
concrete one.

Determinism: as in ``generate_jax.py``, the script re-executes itself with
PYTHONHASHSEED=0 so that messages naming a set of dtypes come out the same.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import golden_io

if __name__ == "__main__":
    golden_io.reexec_with_fixed_hash_seed()

os.environ["JAX_PLATFORMS"] = "cpu"  # must precede the jax import

import jax  # noqa: E402
import numpy as np  # noqa: E402

import generate_jax_lax  # noqa: E402
from generate_ops_jax import (Ones, configure, jax_array_form,  # noqa: E402
                              operands)
from golden_io import DTYPE_NAMES, ours, parse_args  # noqa: E402
from golden_ops import Table, typed, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_forms_jax.py"


class Traced:
    """The forms' calls of one setting, all traced in one ``jax.eval_shape``
    of the 32 abstract arrays (one trace per call would take half an
    hour): ``call`` answers from the result tracer's abstract value, the
    ``dtype`` and ``weak_type`` that ``eval_shape`` would return."""

    def __init__(self) -> None:
        self.arrays: dict[str, Any] = {}

    def record(self, table: Table, forms: list, targets: list,
               **config: Any) -> None:
        def body(*arrays):
            self.arrays = dict(zip(DTYPE_NAMES, arrays))
            table.record_forms("jax", forms, targets, self.call, **config)
            self.arrays = {}

        jax.eval_shape(body, *[jax.ShapeDtypeStruct((2,), np.dtype(name))
                               for name in DTYPE_NAMES])

    def call(self, run: Callable[[list], Any], values: list) -> str:
        """The answer of ``run(values)``, the arrays the traced ones."""
        out = run([self.arrays[v.dtype.name] if isinstance(v, Ones) else v
                   for v in values])
        aval = jax.typeof(out)
        return typed(ours(str(aval.dtype)), bool(aval.weak_type))


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    head = generate_jax_lax.header(GENERATOR)
    assert head["header"]["platform"] == "cpu", head
    forms = operands(jax_array_form)
    targets = forms[:len(DTYPE_NAMES)]
    assert [form for _, form in targets] == [jax_array_form(name)
                                              for name in DTYPE_NAMES]
    table = Table()
    for x64 in (False, True):
        for promotion in ("standard", "strict"):
            configure(x64, promotion)
            Traced().record(table, forms, targets, x64=x64,
                            promotion=promotion)
    configure(False, "standard")
    write_op_table(out_dir / "forms_jax.jsonl", head,
                   [form for _, form in forms], table)


if __name__ == "__main__":
    main()
