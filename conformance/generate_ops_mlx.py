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

The script checks its ``add`` row against ``golden/mlx_add.jsonl`` on the
operands the two share (there ``True`` is ``"py:bool"``, ``2``
``"py:int"``, ``2j`` ``"py:complex"``; ``2.5`` is compared with
``"py:float"``, which is ``2.0``: MLX reads a float's type, not its value),
and that MLX's 14 dtypes are the ones it has.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import mlx.core as mx

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


# The forms of golden/mlx_add.jsonl for our Python scalars.
ADD_FORMS = {json.dumps(form): old for form, old in [
    ("py:bool", "py:bool"), (2, "py:int"), (-1, -1), (300, 300),
    (2.5, "py:float"), ({"complex": [0.0, 2.0]}, "py:complex")]}


def check_add(table: Table, forms: list, path: Path) -> None:
    """Our ``add`` row answers as ``path`` on every pair both record."""
    old_form = lambda form: ADD_FORMS.get(json.dumps(form), form)  # noqa: E731
    recorded = {}
    for text in path.read_text(encoding="utf-8").splitlines()[1:]:
        entry = json.loads(text)
        if entry["fn"] == "add" and len(entry["args"]) == 2:
            recorded[json.dumps(entry["args"])] = entry["answer"]
    messages = {n: (e["type"], e["message"]) for e in table.lines
                if "error" in e for n in [e["error"]]}
    compared = 0
    for entry in table.lines:
        if entry.get("fn") != "add":
            continue
        for b, ours_ in zip(forms, entry["answers"]):
            old = recorded.get(json.dumps([old_form(entry["a"]), old_form(b)]))
            if old is None:
                continue
            if "ok" in old:
                want = typed(old["ok"]["dtype"], old["ok"]["weak"])
                assert ours_ == want, (entry["a"], b, ours_, old)
            else:
                assert isinstance(ours_, int) and messages[ours_] == (
                    old["error"]["type"], old["error"]["message"]), \
                    (entry["a"], b, ours_, old)
            compared += 1
    assert compared == len(forms) ** 2, compared
    print(f"add: {compared} pairs answer as {path.name}", file=sys.stderr)


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
    check_add(table, forms, Path(__file__).resolve().parent / "golden"
              / "mlx_add.jsonl")
    head = golden_io.header(GENERATOR, {"mlx": mx.__version__}, device="cpu")
    write_op_table(out_dir / "ops_mlx.jsonl", head, forms, table)


if __name__ == "__main__":
    main()
