#!/usr/bin/env python3
"""Generate the table of tinygrad's operations on whole tensors
(reductions, contractions, where/clip/cat/stack/full_like) by running real
tinygrad, for the policy ``tinygrad``.

Usage:
    python generate_array_ops_tinygrad.py [--out DIR]

Writes ``DIR/array_ops_tinygrad.jsonl`` (DIR defaults to ``golden/`` next
to this script) in the format of ``golden_array_ops.py`` (read its
docstring), every row with ``"policy": "tinygrad"``. The pinned versions
are ``requirements-tinygrad.txt``'s; ``generate_ops_tinygrad.py`` says how
tensors are made and their dtypes named (a weak result is `` (weak)``).

Arrays: ``Tensor.ones(2, 2, dtype=...)`` of each of tinygrad's 17 dtypes
among ours; Python scalars ``golden_ops.PY_SCALARS``. Calls (tinygrad is
lazy: the dtype is known when the call returns, nothing is realized):

    op           call
    sum, prod    x.sum([dtype=d]), x.prod([dtype=d])
    cumsum       x.cumsum(0) (cumprod alike)
    mean ...     x.mean() (var, std, max, min, argmax, argmin, any, all)
    matmul       a.matmul(b[, dtype=d])
    dot          a.dot(b[, dtype=d])
    einsum       Tensor.einsum("ij,jk->ik", a, b[, dtype=d])
    where        c.where(x, y)
    clip         x.clip(lo[, hi])
    concatenate  a.cat(b)
    stack        a.stack(b)
    full_like    x.full_like(v[, dtype=d])

``dtype=`` is each of the 17 dtypes where the call takes one (``sum``,
``prod``, the contractions, ``full_like``); tinygrad has no ``tensordot``
(no rows), and its ``cumsum``, ``cumprod``, ``mean``, ``var`` and ``std``
take no ``dtype=`` (no rows with one). ``where``'s condition is a ``bool``
tensor; a Python scalar ``x`` or ``y`` beside it is what ``c.where(2, y)``
makes of it.

``computes``: the dtype tinygrad accumulates in, read from its code
(``tinygrad.dtype.sum_acc_dtype``, which ``sum``, ``cumsum``, ``mean``,
``var`` and ``std`` cast to before reducing, and ``dot``'s ``sum(dtype=...)`` of the
products): ``sum_acc_dtype`` of the input (of the contraction's promoted
dtype) where no ``dtype=`` is given, the ``dtype=`` where one is; ``null``
for the other operations, which reduce in the input's own dtype.

Settings: as ``generate_ops_tinygrad.py``, at every ``DEFAULT_FLOAT`` and
``DEFAULT_INT`` (child processes), under ``DEV=PYTHON`` (a lazy tensor's
dtype does not depend on the device; ``generate_ops_tinygrad.py`` checks
PYTHON against CPU). Every call at the defaults (float32, int32), whose
rows carry no setting; at the other settings the calls without
``dtype=`` (an explicit ``dtype=`` names the result), a row written only
where it differs from the defaults' (with ``"tinygrad_default_float"`` and
``"tinygrad_default_int"``). About four minutes.
"""

from __future__ import annotations

import json
import os
from typing import Any

import golden_io
from generate_ops_tinygrad import answer_of, has_dtype, tinygrad_dtype
from generate_tinygrad import DEFAULT_FLOATS, DEFAULT_INTS
from golden_array_ops import ARRAY_OPS, header_operands, record_array_ops
from golden_io import DTYPE_NAMES, parse_args
from golden_ops import PY_SCALARS, Table, resolved, write_op_table

GENERATOR = "conformance/generate_array_ops_tinygrad.py"
POLICY = "tinygrad"
OPS = [op for op in ARRAY_OPS if op != "tensordot"]
TAKES_DTYPE = {"sum", "prod", "matmul", "dot", "einsum", "full_like"}
ACCUMULATE = {"sum", "cumsum", "mean", "var", "std", "matmul", "dot", "einsum"}
EINSUM = "ij,jk->ik"
SETTINGS = ("tinygrad_default_float", "tinygrad_default_int")
# Lazy tensors' dtypes do not depend on the device (generate_ops_tinygrad.py
# checks PYTHON against CPU); one suffices here.
DEVICE = "PYTHON"


def names() -> list[str]:
    return [n for n in DTYPE_NAMES if has_dtype(n)]


def arrays() -> list[tuple[Any, Any]]:
    from tinygrad import Tensor
    return [(lambda n=n: Tensor.ones(2, 2, dtype=tinygrad_dtype(n)), n)
            for n in names()]


def scalars() -> list[tuple[Any, Any]]:
    return [(lambda v=v: v, form) for v, form in PY_SCALARS]


def keywords(op: str) -> list[dict]:
    extra = [{"dtype": n} for n in names()] if op in TAKES_DTYPE else []
    return [{}, *extra]


def run(op: str, v: list, kw: dict) -> Any:
    from tinygrad import Tensor
    kw = {"dtype": tinygrad_dtype(kw["dtype"])} if kw else {}
    calls = {
        "cumsum": lambda: v[0].cumsum(0),
        "cumprod": lambda: v[0].cumprod(0),
        "matmul": lambda: v[0].matmul(v[1], **kw),
        "dot": lambda: v[0].dot(v[1], **kw),
        "einsum": lambda: Tensor.einsum(EINSUM, v[0], v[1], **kw),
        "where": lambda: v[0].where(v[1], v[2]),
        "clip": lambda: v[0].clip(*v[1:]),
        "concatenate": lambda: v[0].cat(v[1]),
        "stack": lambda: v[0].stack(v[1]),
        "full_like": lambda: v[0].full_like(v[1], **kw),
    }
    if op in calls:
        return calls[op]()
    return getattr(v[0], op)(**kw)


def computes(op: str, v: list, kw: dict) -> str | None:
    """The dtype tinygrad's code casts to before it reduces."""
    from tinygrad.dtype import least_upper_dtype, sum_acc_dtype
    from generate_ops_tinygrad import our_name
    if op not in ACCUMULATE:
        return None
    run(op, v, kw)  # a call that fails computes nothing
    if kw:
        return kw["dtype"]
    dtype = (v[0].dtype if len(v) == 1
             else least_upper_dtype(v[0].dtype, v[1].dtype))
    return our_name(sum_acc_dtype(dtype))


def child(every_keyword: bool) -> None:
    from tinygrad import Device, Tensor, dtypes
    assert Device.DEFAULT == os.environ["DEV"], Device.DEFAULT
    assert dtypes.default_float is tinygrad_dtype(os.environ["DEFAULT_FLOAT"])
    table = Table()
    record_array_ops(table, POLICY, arrays(), scalars(),
                     lambda op, v, kw: answer_of(run(op, v, kw)), ops=OPS,
                     keywords=keywords if every_keyword else lambda op: [{}],
                     computes=computes,
                     bool_array=lambda: Tensor.ones(2, 2, dtype=dtypes.bool))
    print(json.dumps(table.lines))


def main(argv: list[str] | None = None) -> None:
    def extra(parser):
        parser.add_argument("--child", action="store_true",
                            help="compute under $DEV, print the rows")
        parser.add_argument("--no-keywords", action="store_true",
                            help="with --child: no dtype= rows")
    args = parse_args(__doc__, argv, extra)
    if args.child:
        child(not args.no_keywords)
        return
    table = Table()
    defaults: dict[str, dict] = {}
    for default_float in DEFAULT_FLOATS:
        for default_int in DEFAULT_INTS:
            is_default = (default_float, default_int) == (
                DEFAULT_FLOATS[0], DEFAULT_INTS[0])
            flags = ["--child"] + ([] if is_default else ["--no-keywords"])
            rows = resolved(json.loads(golden_io.child_output(
                __file__, flags, DEV=DEVICE, DEFAULT_FLOAT=default_float,
                DEFAULT_INT=default_int)))
            settings = {} if is_default else dict(
                zip(SETTINGS, (default_float, default_int)))
            for row in rows:
                key = json.dumps({k: v for k, v in row.items()
                                  if k not in ("answers", "computes")})
                if is_default:
                    defaults[key] = row
                elif row == defaults[key]:
                    continue
                entry = {k: v for k, v in row.items()
                         if k not in ("answers", "computes")}
                entry.update(settings)
                entry["answers"] = [
                    table.error(*a) if isinstance(a, list) else a
                    for a in row["answers"]]
                if "computes" in row:
                    entry["computes"] = row["computes"]
                table.lines.append(entry)
    from importlib.metadata import version
    forms = header_operands(arrays(), scalars())
    head = golden_io.header(GENERATOR, {"tinygrad": version("tinygrad")},
                            devices=[DEVICE], default_float=DEFAULT_FLOATS,
                            default_int=DEFAULT_INTS, arrays=forms["arrays"])
    write_op_table(args.out / "array_ops_tinygrad.jsonl", head,
                   forms["operands"], table)


if __name__ == "__main__":
    main()
