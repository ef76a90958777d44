#!/usr/bin/env python3
"""Generate the table of Keras 3's operations on whole arrays (reductions,
contractions, where/clip/concatenate/stack/full_like) by running real
Keras, for the policy ``keras``.

Usage:
    python generate_array_ops_keras.py [--out DIR]

Writes ``DIR/array_ops_keras.jsonl`` (DIR defaults to ``golden/`` next to
this script) in the format of ``golden_array_ops.py`` (read its
docstring), with ``"policy": "keras"`` and the settings ``"keras_backend"``
and ``"floatx"`` on every row, as ``generate_ops_keras.py`` writes them.
The pinned versions are ``requirements-keras.txt``'s. Keras reads its
backend once, at import, so each backend runs in a child process
(``--backend``, ``generate_keras.in_backend``); ``floatx`` is set there
with ``keras.config.set_floatx``, to each of ``FLOATX``. The PyTorch
backend is not measured.

Every call is ``keras.ops.<function>``, eager, on the CPU; the answer is
the result's dtype as Keras names it (``standardize_dtype``). Keras has no
weakly-typed arrays: no answer is weak, and Keras reports no computation
dtype: no ``computes``.

Arrays: ``keras.ops.ones((2, 2), dtype=name)`` of each of the 17 dtypes
Keras has, made inside the call (a dtype the backend cannot make answers
that error); Python scalars ``golden_ops.PY_SCALARS``. ``dtype=``: every
one of the 17 for the functions that take it (``prod``, ``cumsum``,
``cumprod``, ``full_like``), in floatx ``float32`` only (a given ``dtype=``
leaves floatx out of the call; the calls without it run in every floatx).
``sum``, ``mean``, ``var``, ``std`` and the contractions take no
``dtype=``: not recorded with one.

Calls (``x``, ``a``, ``b`` arrays, ``lo``/``hi`` bounds, ``v`` a value):

    op           call
    sum ...      keras.ops.sum(x) (prod, cumsum, cumprod, mean, var, std,
                 max, min, argmax, argmin, any, all alike)
    matmul       keras.ops.matmul(a, b)
    dot          keras.ops.dot(a, b)
    tensordot    keras.ops.tensordot(a, b, axes=1)
    einsum       keras.ops.einsum("ij,jk->ik", a, b)
    where        keras.ops.where(c, x, y)
    clip         keras.ops.clip(x, lo[, hi])
    concatenate  keras.ops.concatenate([a, b])
    stack        keras.ops.stack([a, b])
    full_like    keras.ops.full_like(x, v[, dtype=d])

``clip`` with one bound is the call with ``x_max`` left out (a
``TypeError``: it is required). The children run with
``PYTHONHASHSEED=0``, as ``generate_ops_keras.py``'s (the NumPy backend's
``concatenate`` and ``stack`` hand ``result_type`` a set of dtypes, whose
order the float8 refusal prints). Before its calls the TensorFlow child
converts ``-1`` to ``uint64`` once, as ``generate_array_ops_tensorflow.py``
does: TensorFlow refuses the first such conversion in a process only.
"""

from __future__ import annotations

import json
from typing import Any

import generate_keras
from generate_keras import BACKENDS, FLOATX, KERAS_DTYPES
from golden_array_ops import ARRAY_OPS, header_operands, record_array_ops
from golden_ops import PY_SCALARS, Table, resolved, typed, write_op_table

import golden_io

GENERATOR = "conformance/generate_array_ops_keras.py"
POLICY = "keras"
EINSUM = "ij,jk->ik"
# The functions of keras.ops that take ``dtype=``.
KERAS_TAKES_DTYPE = {"prod", "cumsum", "cumprod", "full_like"}


def arrays() -> list[tuple[Any, Any]]:
    from keras import ops
    return [((lambda n=n: ops.ones((2, 2), dtype=n)), n) for n in KERAS_DTYPES]


def scalars() -> list[tuple[Any, Any]]:
    return [((lambda v=v: v), form) for v, form in PY_SCALARS]


def call(op: str, v: list, kw: dict) -> str:
    from keras import ops
    from keras.src.backend import standardize_dtype
    result = {
        "matmul": lambda: ops.matmul(*v),
        "dot": lambda: ops.dot(*v),
        "tensordot": lambda: ops.tensordot(*v, axes=1),
        "einsum": lambda: ops.einsum(EINSUM, *v),
        "concatenate": lambda: ops.concatenate(v),
        "stack": lambda: ops.stack(v),
    }.get(op, lambda: getattr(ops, op)(*v, **kw))()
    return typed(golden_io.ours(standardize_dtype(result.dtype)))


def keywords(floatx: str):
    def of(op: str) -> list[dict]:
        if op in KERAS_TAKES_DTYPE and floatx == "float32":
            return [{}, *({"dtype": d} for d in KERAS_DTYPES)]
        return [{}]
    return of


def child(backend: str) -> None:
    """Prints this backend's rows in every floatx, as one JSON list."""
    import keras
    assert keras.config.backend() == backend
    if backend == "tensorflow":
        from generate_array_ops_tensorflow import first_negative_uint64
        first_negative_uint64()
    rows = []
    for floatx in FLOATX:
        keras.config.set_floatx(floatx)
        table = Table()
        record_array_ops(table, POLICY, arrays(), scalars(), call,
                         ops=ARRAY_OPS, keywords=keywords(floatx),
                         keras_backend=backend, floatx=floatx)
        rows += resolved(table.lines)
    print(json.dumps(rows))


def main(argv: list[str] | None = None) -> None:
    args = generate_keras.parent_args(__doc__, argv, child)
    if args is None:
        return
    table = Table()
    for backend in BACKENDS:
        for row in generate_keras.in_backend(__file__, backend):
            row["answers"] = [table.error(*a) if isinstance(a, list) else a
                              for a in row["answers"]]
            table.lines.append(row)
    forms = header_operands(arrays(), scalars())
    head = generate_keras.header(GENERATOR)
    head["header"]["arrays"] = forms["arrays"]
    write_op_table(args.out / "array_ops_keras.jsonl", head,
                   forms["operands"], table)


if __name__ == "__main__":
    main()
