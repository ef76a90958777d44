#!/usr/bin/env python3
"""Generate the table of PaddlePaddle's operations on whole arrays
(reductions, contractions, where/clip/concat/stack/full_like) by running
real PaddlePaddle (the CPU wheel, dynamic mode):
``golden/array_ops_paddle.jsonl``.

Usage:
    python generate_array_ops_paddle.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-paddle.txt``. The format is the op-table one of
``golden_ops.py`` with the additions of ``golden_array_ops.py``; every row
has ``"policy": "paddle"``, ``"x64": false``, ``"promotion": "standard"``.

Arrays (the header's ``"arrays"``): ``ones([2, 2])`` of each of Paddle's 17
dtypes among ours, made as ``generate_ops_paddle.py`` makes them
(``paddle.ones(..., dtype="float32").astype(dtype)``). Python scalars:
``golden_ops.PY_SCALARS`` (the header's ``"operands"``; no row of the
reductions or contractions uses them; the combinations take them).

Calls (``x`` an array, ``kw`` the row's ``dtype=`` as ``paddle.<name>``;
the answer is the result's dtype):

    sum, prod             paddle.sum(x, **kw), paddle.prod(x, **kw)
    cumsum, cumprod       paddle.cumsum(x, 0, **kw), paddle.cumprod(x, 0, **kw)
    mean, var, std        paddle.mean(x, **kw), paddle.var(x, **kw), paddle.std(x, **kw)
    max, min              paddle.max(x), paddle.min(x)
    argmax, argmin        paddle.argmax(x), paddle.argmin(x)
    any, all              paddle.any(x), paddle.all(x)
    matmul, dot           paddle.matmul(a, b, **kw), paddle.dot(a, b, **kw)
    tensordot             paddle.tensordot(a, b, 1, **kw)
    einsum                paddle.einsum("ij,jk->ik", a, b, **kw)
    where                 paddle.where(c, x, y)
    clip                  paddle.clip(x, lo[, hi])
    concatenate, stack    paddle.concat([a, b]), paddle.stack([a, b])
    full_like             paddle.full_like(x, v, **kw)

``dtype=``: every dtype for ``sum``, ``prod``, ``cumsum``, ``cumprod``,
``mean`` and ``full_like``; JAX's ``promote_integers=False`` for the
first four, which Paddle refuses; ``dtype=float32`` once for ``var``,
``std`` and the contractions, which take none (the refusal is recorded).
Paddle reports no computation type: no ``"computes"``.

After the table come call lines (``golden_io.py``'s format) of calls off
its grid (``EXTRA_CALLS``): Python numbers and ``None`` where the tensor
belongs, zero-dimensional tensors.

``var`` and ``std`` are Python compositions (``mean``, ``subtract``,
``pow``, ``sum``, ``maximum``, ``divide``, then ``sqrt``), whose kernels
fail in turn.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable

# Before Paddle loads: glog's warnings off (errors still raise as before).
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore", message="No ccache found")

import paddle  # noqa: E402

import generate_ops_paddle  # noqa: E402
import generate_paddle  # noqa: E402
import golden_io  # noqa: E402
from golden_array_ops import header_operands, record_array_ops  # noqa: E402
from golden_io import NotOurs, parse_args  # noqa: E402
from golden_ops import PY_SCALARS, Table, typed, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_array_ops_paddle.py"
POLICY = "paddle"
OUT_FILE = "array_ops_paddle.jsonl"

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sum": paddle.sum, "prod": paddle.prod,
    "cumsum": lambda x, **kw: paddle.cumsum(x, 0, **kw),
    "cumprod": lambda x, **kw: paddle.cumprod(x, 0, **kw),
    "mean": paddle.mean, "var": paddle.var, "std": paddle.std,
    "max": paddle.max, "min": paddle.min,
    "argmax": paddle.argmax, "argmin": paddle.argmin,
    "any": paddle.any, "all": paddle.all,
    "matmul": paddle.matmul, "dot": paddle.dot,
    "tensordot": lambda a, b, **kw: paddle.tensordot(a, b, 1, **kw),
    "einsum": lambda a, b, **kw: paddle.einsum("ij,jk->ik", a, b, **kw),
    "where": paddle.where, "clip": paddle.clip,
    "concatenate": lambda *xs: paddle.concat(list(xs)),
    "stack": lambda *xs: paddle.stack(list(xs)),
    "full_like": paddle.full_like,
}
TAKES_DTYPE = {"sum", "prod", "cumsum", "cumprod", "mean", "full_like"}
# The operations whose ``dtype=`` (the library's) Paddle has not: one row
# records the refusal.
REFUSES_DTYPE = {"var", "std", "matmul", "dot", "tensordot", "einsum"}
# JAX's keyword, which Paddle's functions refuse.
PROMOTE_INTEGERS = {"sum", "prod", "cumsum", "cumprod"}


def call(op: str, values: list, kw: dict) -> str:
    keywords = {k: getattr(paddle, v) if k == "dtype" else v
                for k, v in kw.items()}
    result = FUNCTIONS[op](*values, **keywords)
    if not isinstance(result, paddle.Tensor):
        raise NotOurs(type(result).__name__)
    return typed(generate_ops_paddle.name_of(result.dtype))


def keywords(dtypes: list[str]) -> Callable[[str], list[dict]]:
    def of(op: str) -> list[dict]:
        jax_only = ([{"promote_integers": False}]
                    if op in PROMOTE_INTEGERS else [])
        if op in TAKES_DTYPE:
            return [{}, *({"dtype": d} for d in dtypes), *jax_only]
        if op in REFUSES_DTYPE:
            return [{}, {"dtype": "float32"}]
        return [{}]
    return of


# Calls off the table's grid, as (fn, operand forms): Python numbers and
# None where a tensor belongs, zero-dimensional tensors, three tensors in
# a list, bounds and fill values out of range.
EXTRA_CALLS: list[tuple[str, list]] = [
    ("sum", [2]), ("prod", [2.5]), ("cumsum", [2]), ("cumprod", [True]),
    ("mean", [2.5]), ("max", [2]), ("argmin", [2]), ("all", [None]),
    ("sum", ["0d:int32"]), ("cumsum", ["0d:int8"]), ("max", ["0d:float32"]),
    ("argmax", ["0d:int16"]),
    ("var", [2]), ("std", [2.5]), ("std", ["0d:float64"]),
    ("matmul", ["float32", 2]), ("matmul", [2, "float32"]),
    ("dot", ["float32", None]), ("tensordot", ["float32", 2]),
    ("einsum", ["float32", 2.5]),
    ("where", ["0d:bool", "0d:int32", "0d:float32"]),
    ("where", ["0d:bool", "0d:float16", "0d:float32"]),
    ("where", ["0d:bool", 2, 2]), ("where", ["bool", "int32", None]),
    ("where", ["int32", "float32", "float32"]),
    ("where", [2, "int32", "int32"]),
    ("clip", ["float32", None, 3]), ("clip", ["int32", "0d:float32"]),
    ("clip", ["float32", "0d:int32"]), ("clip", [2, 1]),
    ("clip", ["int64", 2.5, 2]), ("clip", ["int32", None, -2]),
    ("concatenate", ["float32", "float32", "int8"]),
    ("concatenate", ["float32", 2]), ("concatenate", ["float8_e4m3fn"]),
    ("stack", ["int32", "int32", "int8"]),
    ("stack", ["complex64", "uint8", "float16"]), ("stack", [None, "int8"]),
    ("full_like", ["float32", None]), ("full_like", [2, 1]),
    ("full_like", ["float16", 1000000.0]), ("full_like", ["float32", 1e300]),
    ("full_like", ["bfloat16", 1e300]), ("full_like", ["int32", 2 ** 40]),
    ("full_like", ["int16", 2 ** 20]), ("full_like", ["int64", -(2 ** 62)]),
    ("full_like", ["float32", "0d:int32"]),
    ("full_like", ["uint8", {"complex": [300.0, 2.0]}]),
]


def value_of(form: Any) -> Any:
    """A tensor of ones of a form (``"0d:"`` zero-dimensional, else 2 by
    2), or the Python value itself."""
    if isinstance(form, str):
        name = form.removeprefix("0d:")
        shape = [] if form.startswith("0d:") else [2, 2]
        return paddle.ones(shape, dtype="float32").astype(getattr(paddle, name))
    if isinstance(form, dict):
        return complex(*form["complex"])
    return form


def extra_calls() -> list[dict]:
    def run(fn: str, forms: list) -> dict:
        result = FUNCTIONS[fn](*[value_of(f) for f in forms])
        if not isinstance(result, paddle.Tensor):
            raise NotOurs(type(result).__name__)
        return {"dtype": generate_ops_paddle.name_of(result.dtype),
                "weak": False}
    return [golden_io.line(fn, POLICY, forms,
                           golden_io.answer(lambda f=fn, a=forms: run(f, a)))
            for fn, forms in EXTRA_CALLS]


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    generate_paddle.check_environment()
    names = generate_ops_paddle.PADDLE_DTYPES

    def tensor(name: str) -> Callable[[], Any]:
        return lambda: paddle.ones([2, 2], dtype="float32").astype(
            getattr(paddle, name))

    arrays = [(tensor(n), n) for n in names]
    scalars = [(lambda v=v: v, form) for v, form in PY_SCALARS]
    table = Table()
    record_array_ops(table, POLICY, arrays, scalars, call,
                     ops=list(FUNCTIONS), keywords=keywords(names))
    head = golden_io.header(GENERATOR, {"paddlepaddle": paddle.__version__},
                            device="cpu", mode="dynamic")
    operands = header_operands(arrays, scalars)
    head["header"]["arrays"] = operands["arrays"]
    write_op_table(out_dir / OUT_FILE, head, operands["operands"], table,
                   (head, extra_calls()))


if __name__ == "__main__":
    main()
