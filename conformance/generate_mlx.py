#!/usr/bin/env python3
"""Generate golden data for the `mlx` policy by running real MLX (Linux CPU).

Usage:
    python generate_mlx.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-mlx.txt``. The format is the one ``golden_io.py`` describes,
with ``"policy": "mlx"`` on every call line.

MLX promotes by a 14 x 14 table (``mlx/dtype.cpp``, "following JAX"):
``mx.result_type`` folds its arguments, arrays and dtypes only, through the
table from the left. Python scalars never reach the table as types: the
operations (``mx.add``, the ``+`` operator) first make each scalar an array
of a dtype chosen from the other operand's (``to_arrays`` in MLX's Python
bindings), and only then promote.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: an array of that dtype with one dimension
  (``mx.zeros((2,), dtype=...)``); in ``promote_types`` the dtype itself.
  MLX spells ``bool`` as ``mx.bool_``.
* ``"0d:int8"``: a zero-dimensional array (``mx.zeros((), dtype=...)``).
  MLX promotes these exactly as arrays with dimensions; they are recorded to
  show it.
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``.
* a JSON integer: that Python int (at the edges MLX checks: out of an 8-bit
  range, negative, beyond int32, beyond int64, beyond uint64).
* ``{"complex": [RE, IM]}``: that Python complex.
* ``null``: ``None``.
* in ``promote_types``, ``"int"``, ``"float"``, ``"complex"``: the Python type
  objects, which ``mx.result_type`` refuses.

A dtype MLX lacks is looked up as ``getattr(mx, name)`` when the call runs,
so the answer is the AttributeError Python raises.

Files:

* ``mlx_promote_types``  ``mx.result_type(a, b)`` on two dtypes (MLX has no
  ``promote_types``; this is its C++ ``promote_types`` as Python reaches it),
  over the 32 dtypes and Python's int, float, complex
* ``mlx_result_type``    ``mx.result_type(*args)``: no operand, every single
  operand, every ordered pair, and every ordered triple of MLX's 14 dtypes
  (the fold's order)
* ``mlx_add``            (the call lines of ``ops_mlx.jsonl``, which
  ``generate_ops_mlx.py`` writes with ``gen_add``) ``mx.add(*args).dtype``: no operand, every single
  operand, every ordered pair

The script also runs ``x + y`` on every ordered pair and checks that it
answers as ``mx.add`` does wherever an operand is an array, but for the
names in the ``TypeError`` for ``None`` (``__add__``/``__radd__`` instead of
``add``); two Python scalars Python adds itself.

Answers: a dtype name for ``promote_types``; ``{"dtype": NAME, "weak":
false}`` for ``result_type`` and ``add`` (MLX has no weakly-typed arrays).
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

import golden_io
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS,
                       PYTHON_TYPES, Lazy, Operand, answer, ours, parse_args,
                       py_scalar, py_value, resolve, run, typed,
                       unary_and_binary, write_all)

GENERATOR = "conformance/generate_mlx.py"
POLICY = "mlx"
# Python ints at the edges of what MLX reads: out of an 8-bit range,
# negative, just beyond int32 either way (where a lone int becomes int64),
# beyond 32 bits, beyond int64 and uint64, below int64.
PY_INT_VALUES = [300, -1, 2**31, -2**31 - 1, 2**40, 2**63, 2**64, -2**63 - 1]
# MLX's dtypes, in the order of its table.
MLX_DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
              "int32", "int64", "float16", "float32", "float64", "bfloat16",
              "complex64"]


def mlx_dtype(name: str) -> Any:
    """MLX's dtype; raises AttributeError for one it lacks."""
    return getattr(mx, "bool_" if name == "bool" else name)


def array(name: str, shape: tuple, encoded: str) -> Operand:
    return Operand(Lazy(lambda: mx.zeros(shape, dtype=mlx_dtype(name))),
                   encoded)


def mlx_type(name: str) -> Operand:
    if name in PYTHON_TYPES:
        return Operand(PYTHON_TYPES[name], name)
    return Operand(Lazy(lambda: mlx_dtype(name)), name)


def name_of(dtype: mx.Dtype) -> str:
    return ours(str(dtype).removeprefix("mlx.core."))


def call_result_type(*values: Any) -> Any:
    return mx.result_type(*map(resolve, values))


def gen_promote_types() -> list[dict]:
    types = [mlx_type(n) for n in DTYPE_NAMES + list(PYTHON_TYPES)]
    return run("promote_types", POLICY,
               lambda *v: name_of(call_result_type(*v)),
               ([a, b] for a in types for b in types))


def operands() -> list[Operand]:
    """Arrays with dimensions, zero-dimensional arrays, Python scalars and
    None."""
    return ([array(n, (2,), n) for n in DTYPE_NAMES]
            + [array(n, (), f"0d:{n}") for n in DTYPE_NAMES]
            + [py_scalar(s) for s in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def gen_result_type() -> list[dict]:
    triples = [[array(a, (2,), a), array(b, (2,), b), array(c, (2,), c)]
               for a in MLX_DTYPES for b in MLX_DTYPES for c in MLX_DTYPES]
    return run("result_type", POLICY,
               lambda *v: typed(name_of(call_result_type(*v))),
               unary_and_binary(operands()) + triples)


def call_add(*values: Any) -> dict:
    return typed(name_of(mx.add(*map(resolve, values)).dtype))


def gen_add() -> list[dict]:
    return run("add", POLICY, call_add, unary_and_binary(operands()))


def is_array(operand: Operand) -> bool:
    return isinstance(operand.value, Lazy)


def check_operator() -> None:
    """``x + y`` answers as ``mx.add`` on every pair with an array, but for
    the method's name in the TypeError for None."""
    ops = operands()
    checked = 0
    for x in ops:
        for y in ops:
            if not (is_array(x) or is_array(y)):
                continue
            add = answer(lambda: call_add(x.value, y.value))
            plus = answer(lambda: typed(name_of(
                (resolve(x.value) + resolve(y.value)).dtype)))
            if add != plus:
                method = "__add__" if is_array(x) else "__radd__"
                assert (None in (x.value, y.value)
                        and plus["error"]["type"] == "TypeError"
                        and plus["error"]["message"].startswith(
                            f"{method}(): incompatible function arguments")), \
                    (x.encoded, y.encoded, add, plus)
            checked += 1
    print(f"x + y: {checked} pairs with an array answer as mx.add",
          file=__import__("sys").stderr)


GENERATORS = {
    "mlx_promote_types": gen_promote_types,
    "mlx_result_type": gen_result_type,
}


def check_environment() -> None:
    """The answers are the CPU's; MLX's table has 14 dtypes."""
    assert mx.default_device() == mx.cpu, mx.default_device()
    assert [name_of(mlx_dtype(n)) for n in MLX_DTYPES] == MLX_DTYPES


def header() -> dict:
    return golden_io.header(GENERATOR, {"mlx": mx.__version__},
                            device="cpu")


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    check_environment()
    check_operator()
    write_all(out_dir, header(), GENERATORS)


if __name__ == "__main__":
    main()
