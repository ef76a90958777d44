#!/usr/bin/env python3
"""Generate the op-table golden data of the `keras` policy by
running real Keras 3.

Usage:
    python generate_ops_keras.py [--out DIR]

Writes ``DIR/ops_keras.jsonl`` (DIR defaults to ``golden/`` next to this
script) in the op-table format that ``golden_ops.py`` describes, with
``"policy": "keras"``, ``"x64": false``, ``"promotion": "standard"`` and
the settings ``"keras_backend"`` and ``"floatx"`` on every line, as the
lines of ``generate_keras.py`` carry them. The pinned versions are in
``requirements-keras.txt`` (Keras with its JAX, NumPy and TensorFlow
backends). Keras reads its backend once, at import (``KERAS_BACKEND``), so
each backend runs in a child process of this script (``--backend``);
``floatx`` is set in it with ``keras.config.set_floatx``, to each of
``FLOATX``. The PyTorch backend is not measured (PyPI's Linux PyTorch is
the CUDA build).

Every operation is Keras's function, as ``generate_keras.py`` calls
``keras.ops.add``; the answer is the result's dtype as Keras names it
(``keras.src.backend.standardize_dtype``). Keras has no weakly-typed
arrays: no answer is weak.

============== ================================
op             call
============== ================================
add            ``keras.ops.add(a, b)``
subtract       ``keras.ops.subtract(a, b)``
multiply       ``keras.ops.multiply(a, b)``
true_divide    ``keras.ops.true_divide(a, b)``
floor_divide   ``keras.ops.floor_divide(a, b)``
remainder      ``keras.ops.mod(a, b)``
power          ``keras.ops.power(a, b)``
maximum        ``keras.ops.maximum(a, b)``
equal          ``keras.ops.equal(a, b)``
not_equal      ``keras.ops.not_equal(a, b)``
less           ``keras.ops.less(a, b)``
less_equal     ``keras.ops.less_equal(a, b)``
greater        ``keras.ops.greater(a, b)``
greater_equal  ``keras.ops.greater_equal(a, b)``
bitwise_and    ``keras.ops.bitwise_and(a, b)``
bitwise_or     ``keras.ops.bitwise_or(a, b)``
bitwise_xor    ``keras.ops.bitwise_xor(a, b)``
logical_and    ``keras.ops.logical_and(a, b)``
negative       ``keras.ops.negative(x)``
abs            ``keras.ops.absolute(x)``
sign           ``keras.ops.sign(x)``
sqrt           ``keras.ops.sqrt(x)``
exp            ``keras.ops.exp(x)``
floor          ``keras.ops.floor(x)``
============== ================================

The calls are eager, on the CPU, with arrays of the backend: abstract
evaluation (``jax.eval_shape``) would be cheaper on JAX but answers
otherwise where JAX checks values eagerly (``keras.ops.power(x, -1)`` on an
integer array raises ``TypeError: Integers cannot be raised to negative
powers`` only when run).

Operands (the header's ``"operands"``, the notation of
``generate_keras.py``): an array of ones with shape ``(2,)`` of each of
the 17 dtypes Keras has (``"int8"``; ``keras.ops.ones((2,), dtype=name)``,
made inside the call, so that a dtype the backend cannot make answers the
error that raises: TensorFlow casts no int64 to a float8 type), and the
Python scalars of ``golden_ops.PY_SCALARS`` (``"py:bool"`` is ``True``,
``2``, ``-1``, ``300``, ``2.5``, ``{"complex": [0.0, 2.0]}`` is ``2j``).
Keras's functions take two Python scalars too, so every ordered pair is a
Keras call. Arrays without dimensions add as arrays with dimensions do
(``generate_keras.py`` checks it), so they are not recorded.

After the table come the call lines of ``generate_keras.py``'s
``keras.ops.add`` (``recorded``: arrays of zeros, in every backend and
floatx) that the table does not make; on every pair of forms both make, in
every backend and floatx (there ``True`` is ``"py:bool"``, ``2``
``"py:int"``, ``2j`` ``"py:complex"``; ``2.5`` is compared with
``"py:float"``, which is ``2.0``: Keras reads a float's type, not its
value), the answers must agree (``golden_ops.write_op_table``). JAX names the inputs of a TypePromotionError in set order,
so the children run with ``PYTHONHASHSEED=0``. One list is not
deterministic even so: on JAX, ``jax.lax``'s "Accepted dtypes ... are
subtypes of integer, floating, complexfloating" (``sub``, ``neg``,
``sign``, ``rem``, ``and`` ... refusing a dtype) iterates a set of NumPy
type objects, hashed by address, so another run may list the kinds in
another order (as in ``ops_jax_lax.jsonl``): compare that list as a set.
Everything else is the same on every run. About six minutes on two
shared cores, mostly JAX compiling each call.
"""

from __future__ import annotations

import json
from typing import Any

import generate_keras
import golden_io
from generate_keras import BACKENDS, FLOATX, KERAS_DTYPES
from golden_ops import OPS, PY_SCALARS, Table, resolved, typed, write_op_table

GENERATOR = "conformance/generate_ops_keras.py"
POLICY = "keras"
# keras.ops.<name> for each operation.
KERAS_FUNCTIONS = {op: op for op in OPS} | {"remainder": "mod",
                                            "abs": "absolute"}


def operands() -> list[tuple[Any, Any]]:
    from keras import ops
    return ([((lambda n=n: ops.ones((2,), dtype=n)), n) for n in KERAS_DTYPES]
            + [((lambda v=v: v), form) for v, form in PY_SCALARS])


def call(op: str, values: list) -> str:
    from keras import ops
    from keras.src.backend import standardize_dtype
    result = getattr(ops, KERAS_FUNCTIONS[op])(*values)
    return typed(golden_io.ours(standardize_dtype(result.dtype)))


def child(backend: str) -> None:
    """Prints this backend's rows in every floatx, as one JSON list."""
    import keras
    assert keras.config.backend() == backend
    assert all(hasattr(keras.ops, f) for f in KERAS_FUNCTIONS.values())
    rows = []
    for floatx in FLOATX:
        keras.config.set_floatx(floatx)
        table = Table()
        table.record(POLICY, operands(), call, keras_backend=backend,
                     floatx=floatx)
        rows += resolved(table.lines)
    print(json.dumps(rows))


def main(argv: list[str] | None = None) -> None:
    args = generate_keras.parent_args(__doc__, argv, child)
    if args is None:
        return
    forms = KERAS_DTYPES + [form for _, form in PY_SCALARS]
    table = Table()
    for backend in BACKENDS:
        for row in generate_keras.in_backend(__file__, backend):
            settings = {k: row[k] for k in ("keras_backend", "floatx")}
            answers = [table.error(*a) if isinstance(a, list) else a
                       for a in row["answers"]]
            table.row(row["fn"], POLICY, answers, a=row.get("a"), **settings)
    keras_head, files = generate_keras.recorded()
    adds = [line for backend in BACKENDS for line in files[f"keras_add_{backend}"]]
    compared = write_op_table(args.out / "ops_keras.jsonl",
                              generate_keras.header(GENERATOR), forms, table,
                              (keras_head, adds))
    assert compared == len(BACKENDS) * len(FLOATX) * len(forms) ** 2, compared


if __name__ == "__main__":
    main()
