#!/usr/bin/env python3
"""Generate the table of MLX's operations on whole arrays (reductions,
contractions, where/clip/concatenate/stack/full) by running real MLX
(Linux CPU build), for the policy ``mlx``.

Usage:
    python generate_array_ops_mlx.py [--out DIR]

Writes ``DIR/array_ops_mlx.jsonl`` (DIR defaults to ``golden/`` next to
this script) in the format of ``golden_array_ops.py`` (read its
docstring), every row with ``"policy": "mlx"``. The pinned versions are
``requirements-mlx.txt``'s; ``generate_ops_mlx.py`` says how arrays and
dtypes are made and read. MLX reports no computation dtype: no
``computes``.

Arrays: ``mx.ones((2, 2), dtype)`` of each of MLX's 14 dtypes; Python
scalars ``golden_ops.PY_SCALARS``. Calls (``mx`` is ``mlx.core``; each
result evaluated with ``mx.eval``):

    op           call
    sum ...      mx.sum(x) (prod, mean, var, std, max, min, argmax,
                 argmin, any, all alike)
    cumsum       mx.cumsum(x) (cumprod alike)
    matmul       mx.matmul(a, b)
    tensordot    mx.tensordot(a, b, axes=1)
    einsum       mx.einsum("ij,jk->ik", a, b)
    where        mx.where(c, x, y)
    clip         mx.clip(x, lo[, hi])
    concatenate  mx.concatenate([a, b])
    stack        mx.stack([a, b])
    full_like    mx.full(x.shape, v[, dtype=d])

MLX's reductions and contractions take no ``dtype=`` and it has no
``dot``: no rows with ``dtype`` but ``full_like``'s (each of the 14
dtypes). It has no ``full_like`` either; ``mx.full(x.shape, v)`` is what
MLX programs write for it (``dtype=`` the one the array's is when given).
``clip`` with one bound is ``mx.clip(x, lo, None)``, which MLX allows.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx

import golden_io
from generate_ops_mlx import MLX_DTYPES, mlx_dtype, name_of
from golden_array_ops import ARRAY_OPS, header_operands, record_array_ops
from golden_ops import PY_SCALARS, Table, typed, write_op_table

GENERATOR = "conformance/generate_array_ops_mlx.py"
POLICY = "mlx"
OPS = [op for op in ARRAY_OPS if op != "dot"]
EINSUM = "ij,jk->ik"


def arrays() -> list[tuple[Any, Any]]:
    return [(lambda n=n: mx.ones((2, 2), dtype=mlx_dtype(n)), n)
            for n in MLX_DTYPES]


def scalars() -> list[tuple[Any, Any]]:
    return [(lambda v=v: v, form) for v, form in PY_SCALARS]


def keywords(op: str) -> list[dict]:
    extra = [{"dtype": n} for n in MLX_DTYPES] if op == "full_like" else []
    return [{}, *extra]


def run(op: str, v: list, kw: dict) -> Any:
    if op == "full_like":
        dtype = {"dtype": mlx_dtype(kw["dtype"])} if kw else {}
        return mx.full(v[0].shape, v[1], **dtype)
    if op == "clip" and len(v) == 2:
        return mx.clip(v[0], v[1], None)
    special = {
        "tensordot": lambda: mx.tensordot(*v, axes=1),
        "einsum": lambda: mx.einsum(EINSUM, *v),
        "concatenate": lambda: mx.concatenate(v),
        "stack": lambda: mx.stack(v),
    }
    if op in special:
        return special[op]()
    return getattr(mx, op)(*v)


def call(op: str, values: list, kw: dict) -> str:
    result = run(op, values, kw)
    mx.eval(result)
    return typed(name_of(result.dtype))


def main(argv: list[str] | None = None) -> None:
    out_dir = golden_io.parse_args(__doc__, argv).out
    assert mx.default_device() == mx.cpu, mx.default_device()
    table = Table()
    record_array_ops(table, POLICY, arrays(), scalars(), call, ops=OPS,
                     keywords=keywords)
    forms = header_operands(arrays(), scalars())
    head = golden_io.header(GENERATOR, {"mlx": mx.__version__}, device="cpu",
                            arrays=forms["arrays"])
    write_op_table(out_dir / "array_ops_mlx.jsonl", head, forms["operands"],
                   table)


if __name__ == "__main__":
    main()
