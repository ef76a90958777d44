#!/usr/bin/env python3
"""Generate the op-table golden data of the `mlx` policy by
running real MLX (Linux CPU build).

Usage:
    python generate_ops_mlx.py [--out DIR]

Writes ``DIR/ops_mlx.jsonl`` (DIR defaults to ``golden/`` next to this
script) in the op-table format that ``golden_ops.py`` describes, with
``"policy": "mlx"``, ``"x64": false`` and ``"promotion": "standard"`` on
every line (MLX has no settings that change promotion). The pinned versions
are in ``requirements-mlx.txt``.

Every operation is MLX's function, as ``generate_mlx.py`` calls ``mx.add``
(``mx`` is ``mlx.core``); the answer is the result's ``dtype``, after
``mx.eval`` of the result (so a kernel that fails only when it runs would
answer its error; on the CPU none does):

============== ==========================
op             call
============== ==========================
add            ``mx.add(a, b)``
subtract       ``mx.subtract(a, b)``
multiply       ``mx.multiply(a, b)``
true_divide    ``mx.divide(a, b)``
floor_divide   ``mx.floor_divide(a, b)``
remainder      ``mx.remainder(a, b)``
power          ``mx.power(a, b)``
maximum        ``mx.maximum(a, b)``
equal          ``mx.equal(a, b)``
not_equal      ``mx.not_equal(a, b)``
less           ``mx.less(a, b)``
less_equal     ``mx.less_equal(a, b)``
greater        ``mx.greater(a, b)``
greater_equal  ``mx.greater_equal(a, b)``
bitwise_and    ``mx.bitwise_and(a, b)``
bitwise_or     ``mx.bitwise_or(a, b)``
bitwise_xor    ``mx.bitwise_xor(a, b)``
logical_and    ``mx.logical_and(a, b)``
negative       ``mx.negative(x)``
abs            ``mx.abs(x)``
sign           ``mx.sign(x)``
sqrt           ``mx.sqrt(x)``
exp            ``mx.exp(x)``
floor          ``mx.floor(x)``
============== ==========================

Operands (the header's ``"operands"``, the notation of ``generate_mlx.py``):
an array of ones with shape ``(2,)`` of each of MLX's 14 dtypes (``"int8"``;
``mx.ones((2,), dtype=...)``, MLX spells ``bool`` ``mx.bool_``), a
zero-dimensional array of ones of each (``"0d:int8"``; MLX promotes these
as arrays with dimensions, recorded to show it for every operation), and the
Python scalars of ``golden_ops.PY_SCALARS`` (``"py:bool"`` is ``True``,
``2``, ``-1``, ``300``, ``2.5``, ``{"complex": [0.0, 2.0]}`` is ``2j``).
MLX's functions take two Python scalars too (they make arrays of them), so
every ordered pair is an MLX call. MLX has no weakly-typed arrays: no answer
is weak.

After the table come the call lines of ``generate_mlx.py``'s ``mx.add``
(no operand, one, dtypes MLX lacks) that the table does not make; on every
pair of forms both make (there ``True`` is ``"py:bool"``, ``2``
``"py:int"``, ``2j`` ``"py:complex"``; ``2.5`` is compared with
``"py:float"``, which is ``2.0``: MLX reads a float's type, not its value)
the answers must agree (``golden_ops.write_op_table``). The script checks
too that MLX's 14 dtypes are the ones it has.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

import generate_mlx
import golden_io
from golden_io import DTYPE_NAMES, ours, parse_args
from golden_ops import OPS, PY_SCALARS, Table, typed, write_op_table

GENERATOR = "conformance/generate_ops_mlx.py"
POLICY = "mlx"
# The function each operation calls (``mx.<name>``).
MLX_FUNCTIONS = {op: op for op in OPS} | {"true_divide": "divide"}
# MLX's dtypes, in our order.
MLX_DTYPES = [n for n in DTYPE_NAMES
              if hasattr(mx, "bool_" if n == "bool" else n)]


def mlx_dtype(name: str) -> Any:
    return getattr(mx, "bool_" if name == "bool" else name)


def name_of(dtype: Any) -> str:
    return ours(str(dtype).removeprefix("mlx.core."))


def operands() -> list[tuple[Any, Any]]:
    """``(make, form)`` for every operand form."""
    def array(name: str, shape: tuple) -> Any:
        return lambda: mx.ones(shape, dtype=mlx_dtype(name))

    return ([(array(n, (2,)), n) for n in MLX_DTYPES]
            + [(array(n, ()), f"0d:{n}") for n in MLX_DTYPES]
            + [((lambda v=v: v), form) for v, form in PY_SCALARS])


def call(op: str, values: list) -> str:
    result = getattr(mx, MLX_FUNCTIONS[op])(*values)
    mx.eval(result)
    return typed(name_of(result.dtype))


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    assert mx.default_device() == mx.cpu, mx.default_device()
    assert MLX_DTYPES == [
        "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
        "int32", "int64", "bfloat16", "float16", "float32", "float64",
        "complex64"], MLX_DTYPES
    assert all(hasattr(mx, f) for f in MLX_FUNCTIONS.values())
    ops = operands()
    forms = [form for _, form in ops]
    table = Table()
    table.record(POLICY, ops, call)
    head = golden_io.header(GENERATOR, {"mlx": mx.__version__}, device="cpu")
    adds = (generate_mlx.header(), generate_mlx.gen_add())
    compared = write_op_table(out_dir / "ops_mlx.jsonl", head, forms, table,
                              adds)
    assert compared == len(forms) ** 2, compared


if __name__ == "__main__":
    main()
