#!/usr/bin/env python3
"""The `jax-lax` policy's ``lax.add`` calls, run on real JAX (CPU).

``generate_ops_jax.py`` imports this and writes the calls after the table
of ``ops_jax_lax.jsonl``, the header's ``"calls_from"`` being this
module's. The pinned versions are those of ``generate_jax.py``, in
``requirements-jax12.txt``. The format is the one
``golden_io.py`` describes, with ``"policy": "jax-lax"`` on every call line;
``"x64"`` is JAX's setting the call ran under (both are recorded).

``jax.lax.add`` promotes nothing: it takes two arrays of one dtype. Python
scalars become weakly-typed arrays of JAX's default dtypes, and the result
is weak only if both operands are.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: a strongly-typed array of that dtype with one dimension;
  ``{"dtype": "int8", "weak": true}``: a weakly-typed one. The arrays are
  tracers (``jax.make_jaxpr`` arguments made from ``jax.ShapeDtypeStruct``),
  as in ``generate_jax.py``, because XLA's CPU runtime cannot hold every
  dtype; they are made under the configuration the call runs in, so with x64
  off a 64-bit dtype becomes its 32-bit counterpart, as ``jnp.zeros`` does.
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``.
* a JSON integer: that Python int.
* ``null``: ``None``.

The calls: ``jax.lax.add(*args)`` (no operand, every single
operand, every ordered pair) in both x64 settings: the result's dtype and
``aval.weak_type``.
"""

from __future__ import annotations

import os
from typing import Any

os.environ["JAX_PLATFORMS"] = "cpu"  # must precede the jax import

import jax  # noqa: E402
import jaxlib  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

import golden_io  # noqa: E402
from golden_io import (DTYPE_NAMES, PY_SCALARS, Operand,  # noqa: E402
                       ours, py_scalar, py_value, run, typed,
                       unary_and_binary)

GENERATOR = "conformance/generate_jax_lax.py"
POLICY = "jax-lax"
# Python ints whose value matters: out of uint8's range, negative, beyond
# int32 (the default int with x64 off), beyond int64.
PY_INT_VALUES = [300, -1, 2**31, 2**63]


def call_add(*values: Any) -> dict:
    result = lax.add(*values)
    return typed(ours(str(result.dtype)), bool(result.aval.weak_type))


def traced_lines(x64: bool) -> list[dict]:
    """Every call, on tracers made under this x64 setting."""
    keys = [(name, weak) for weak in (False, True) for name in DTYPE_NAMES]
    structs = [jax.ShapeDtypeStruct((2,), np.dtype(name), weak_type=weak)
               for name, weak in keys]
    lines = []

    def body(*tracers):
        arrays = [Operand(x, {"dtype": name, "weak": True} if weak else name)
                  for (name, weak), x in zip(keys, tracers)]
        for (name, weak), x in zip(keys, tracers):
            assert x.aval.weak_type is weak, (name, weak)
        operands = (arrays + [py_scalar(s) for s in PY_SCALARS]
                    + [py_value(v) for v in PY_INT_VALUES]
                    + [Operand(None, None)])
        lines.extend(run("add", POLICY, call_add, unary_and_binary(operands),
                         x64))
        return ()

    jax.config.update("jax_enable_x64", x64)
    try:
        jax.make_jaxpr(body)(*structs)
    finally:
        jax.config.update("jax_enable_x64", False)
    return lines


def gen_add() -> list[dict]:
    return traced_lines(False) + traced_lines(True)


def header(generator: str = GENERATOR) -> dict:
    return golden_io.header(
        generator,
        {"jax": jax.__version__, "jaxlib": jaxlib.__version__,
         "numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__},
        platform=jax.default_backend())

