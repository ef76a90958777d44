#!/usr/bin/env python3
"""Generate the table of TensorFlow's operations on whole arrays
(reductions, contractions, where/clip/concatenate/stack/full_like) by
running real TensorFlow (CPU), for the policy ``tensorflow``.

Usage:
    python generate_array_ops_tensorflow.py [--out DIR]

DIR defaults to ``golden/`` next to this script; the pinned versions are
``requirements-tensorflow.txt``'s. The format is ``golden_array_ops.py``'s
(read its docstring). NumPy behaviour cannot be turned off once on, so each
setting runs in a child process of this script (``--mode``), as in
``generate_ops_tensorflow.py``.

File ``array_ops_tensorflow.jsonl``: TensorFlow's own functions, with
``tensorflow_numpy_behavior`` ``off`` (as TensorFlow starts), ``safe`` and
``all`` (``weak_tensor_ops`` then wraps ``reduce_*``, ``clip_by_value``,
``minimum``, ``maximum`` and ``matmul``). TensorFlow takes no ``dtype=``
on any of these (``tf.linalg.matmul``'s ``output_type``, whose kernels
exist only for 8-bit integers to int32, is not recorded), so every row is
without keywords. It has no ``dot``: no rows. ``tf.experimental.numpy``'s
functions (policy ``tensorflow-numpy``) are recorded by
``generate_array_ops_tensorflow_numpy.py``.

Arrays: ``tf.constant(np.ones((2, 2), dtype))`` for each of the 25 dtypes
TensorFlow has (``generate_ops_tensorflow.tf_names``); Python scalars
``golden_ops.PY_SCALARS``. TensorFlow reports no computation dtype: no
``computes``.

Calls (``x``, ``a``, ``b`` arrays, ``lo``/``hi`` bounds, ``v`` a value):

    op           call
    sum ...      tf.reduce_sum(x) (prod, mean, max, min, any, all alike)
    cumsum       tf.math.cumsum(x) (cumprod alike)
    var, std     tf.math.reduce_variance(x), tf.math.reduce_std(x)
    argmax       tf.argmax(x) (argmin alike)
    matmul       tf.linalg.matmul(a, b)
    tensordot    tf.tensordot(a, b, axes=1)
    einsum       tf.einsum("ij,jk->ik", a, b)
    where        tf.where(c, x, y)
    clip         tf.clip_by_value(x, lo[, hi])
    concatenate  tf.concat([a, b], 0)
    stack        tf.stack([a, b])
    full_like    tf.fill(tf.shape(x), v)

Before its calls each child process converts ``-1`` to ``uint64`` once:
TensorFlow refuses the first such conversion in a process
(``OverflowError``) and makes every later one, so the table holds what a
program's calls answer after its first.

``clip`` with one bound is the call with the upper bound left out, which
TensorFlow refuses (a ``TypeError``: the bound is required). TensorFlow has no
``full_like``; ``tf.fill(tf.shape(x), v)`` is what TensorFlow programs
write for it (``tf.fill``'s documentation compares it to ``np.full``): the
value's dtype, not ``x``'s, and an array value is refused (it must be a
scalar).
"""

from __future__ import annotations

import os
import sys
from typing import Any

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"  # must precede the import

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import golden_io  # noqa: E402
from generate_ops_tensorflow import dtype_of, tf_names  # noqa: E402
from golden_array_ops import (ARRAY_OPS, header_operands,  # noqa: E402
                              record_array_ops)
from golden_ops import PY_SCALARS, Table, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_array_ops_tensorflow.py"
EINSUM = "ij,jk->ik"


def tf_call(op: str, v: list, kw: dict) -> Any:
    assert not kw
    reductions = {
        "sum": tf.reduce_sum, "prod": tf.reduce_prod,
        "cumsum": tf.math.cumsum, "cumprod": tf.math.cumprod,
        "mean": tf.reduce_mean, "var": tf.math.reduce_variance,
        "std": tf.math.reduce_std, "max": tf.reduce_max,
        "min": tf.reduce_min, "argmax": tf.argmax, "argmin": tf.argmin,
        "any": tf.reduce_any, "all": tf.reduce_all,
    }
    if op in reductions:
        return reductions[op](*v)
    return {
        "matmul": lambda: tf.linalg.matmul(*v),
        "tensordot": lambda: tf.tensordot(*v, axes=1),
        "einsum": lambda: tf.einsum(EINSUM, *v),
        "where": lambda: tf.where(*v),
        "clip": lambda: tf.clip_by_value(*v),
        "concatenate": lambda: tf.concat(v, 0),
        "stack": lambda: tf.stack(v),
        "full_like": lambda: tf.fill(tf.shape(v[0]), v[1]),
    }[op]()


OPS = [op for op in ARRAY_OPS if op != "dot"]
MODES = ["off", "safe", "all"]


def arrays() -> list[tuple[Any, Any]]:
    return [(lambda n=n: tf.constant(
        np.ones((2, 2), tf.as_dtype(n).as_numpy_dtype)), n)
        for n in tf_names()]


def scalars() -> list[tuple[Any, Any]]:
    return [(lambda v=v: v, form) for v, form in PY_SCALARS]


def first_negative_uint64() -> None:
    """Converts a negative Python int to uint64 once, which TensorFlow
    refuses the first time in a process only (OverflowError "can't convert
    negative int to unsigned"), so that the table records what every later
    call answers."""
    uint64 = tf.constant(np.ones(2, np.uint64))
    try:
        tf.where(tf.constant([True, True]), uint64, -1)
    except OverflowError:
        return
    raise AssertionError("the first conversion of -1 to uint64 passed")


def child(mode: str) -> None:
    """One setting's rows on stdout, each answer a dtype or [type, message]."""
    if mode != "off":
        tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
    tf.get_logger().setLevel("ERROR")
    first_negative_uint64()
    table = Table()
    record_array_ops(table, "tensorflow", arrays(), scalars(),
                     lambda op, v, kw: dtype_of(tf_call(op, v, kw)), ops=OPS,
                     tensorflow_numpy_behavior=mode,
                     tensorflow_prefer_float32=False)
    table.print_rows()


def write(out: Any) -> None:
    table = Table()
    for mode in MODES:
        table.add_rows_of([sys.executable, __file__, "--mode", mode])
    forms = header_operands(arrays(), scalars())
    head = golden_io.header(
        GENERATOR, {"tensorflow": tf.__version__, "numpy": np.__version__,
                    "ml_dtypes": ml_dtypes.__version__},
        device="cpu", arrays=forms["arrays"])
    write_op_table(out / "array_ops_tensorflow.jsonl", head,
                   forms["operands"], table)


def main(argv: list[str] | None = None) -> None:
    def extra(parser):
        parser.add_argument("--mode", choices=MODES,
                            help="run one mode, print its rows")
    args = golden_io.parse_args(__doc__, argv, extra)
    if args.mode:
        child(args.mode)
        return
    write(args.out)


if __name__ == "__main__":
    main()
