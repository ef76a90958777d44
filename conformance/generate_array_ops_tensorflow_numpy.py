#!/usr/bin/env python3
"""Generate the table of ``tf.experimental.numpy``'s (tnp's) operations on
whole arrays (reductions, contractions, where/clip/concatenate/stack/
full_like) by running real TensorFlow (CPU), for the policy
``tensorflow-numpy``.

Usage:
    python generate_array_ops_tensorflow_numpy.py [--out DIR]

DIR defaults to ``golden/`` next to this script; the pinned versions are
``requirements-tensorflow.txt``'s. The format is ``golden_array_ops.py``'s
(read its docstring). NumPy behaviour cannot be turned off once on, so each
configuration runs in a child process of this script (``--config``), as in
``generate_array_ops_tensorflow.py``, whose arrays, Python scalars and
first conversion of ``-1`` to ``uint64`` this script shares.

File ``array_ops_tensorflow_numpy.jsonl``: tnp's functions with NumPy
behaviour ``legacy``, ``safe`` and ``all``, each with ``prefer_float32``
False and True (``tnp.experimental_enable_numpy_behavior(prefer_float32=...,
dtype_conversion_mode=...)``); tnp is not modelled with NumPy behaviour
off (the policy refuses every call), so it is not recorded. Rows carry
``tensorflow_numpy_behavior`` and ``tensorflow_prefer_float32``.

Arrays: ``tf.constant(np.ones((2, 2), dtype))`` for each of the 25 dtypes
TensorFlow has; Python scalars ``golden_ops.PY_SCALARS``. ``dtype=`` is
passed as ``tf.as_dtype(name).as_numpy_dtype`` (what tnp's functions
read with ``np_utils.result_type``), every dtype for ``sum``, ``prod``,
``cumsum``, ``cumprod``, ``mean``, ``var`` and ``full_like``. ``einsum``
takes ``**kwargs`` and reads only ``casting`` and ``optimize``, so a
``dtype=`` is accepted and ignored: rows with ``dtype=`` float32, int8 and
bool show that. With ``prefer_float32`` True, ``full_like`` and ``einsum``
have no ``dtype=`` rows (``keywords``). ``std``, ``matmul``, ``dot`` and ``tensordot`` take no
``dtype=``: a row with ``dtype=float32`` each (the ``TypeError``).
TensorFlow reports no computation dtype: no ``computes``.

Calls (``x``, ``a``, ``b`` arrays, ``lo``/``hi`` bounds, ``v`` a value):

    op           call
    sum ...      tnp.sum(x[, dtype=d]) (prod, cumsum, cumprod, mean, var alike)
    std          tnp.std(x)
    max, min     tnp.max(x), tnp.min(x) (aliases of amax, amin)
    argmax       tnp.argmax(x) (argmin alike)
    any, all     tnp.any(x), tnp.all(x)
    matmul       tnp.matmul(a, b)
    dot          tnp.dot(a, b)
    tensordot    tnp.tensordot(a, b, axes=1)
    einsum       tnp.einsum("ij,jk->ik", a, b)
    where        tnp.where(c, x, y)
    clip         tnp.clip(x, lo[, hi])
    concatenate  tnp.concatenate([a, b])
    stack        tnp.stack([a, b])
    full_like    tnp.full_like(x, v[, dtype=d])

``clip`` with one bound is the call with ``a_max`` left out, which tnp
refuses (``TypeError``: the argument is required).
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
from generate_array_ops_tensorflow import (arrays, first_negative_uint64,  # noqa: E402
                                           scalars)
from generate_ops_tensorflow import dtype_of, tf_names  # noqa: E402
from golden_array_ops import (ARRAY_OPS, TAKES_DTYPE,  # noqa: E402
                              header_operands, record_array_ops)
from golden_ops import Table, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_array_ops_tensorflow_numpy.py"
EINSUM = "ij,jk->ik"
tnp = tf.experimental.numpy

# The functions that take ``dtype=`` and read it.
READS_DTYPE = {"sum", "prod", "cumsum", "cumprod", "mean", "var", "full_like"}
# ``dtype=`` values of the einsum rows (accepted and ignored).
EINSUM_DTYPES = ["float32", "int8", "bool"]
CONFIGS = [(mode, prefer) for mode in ["legacy", "safe", "all"]
           for prefer in [False, True]]


def tnp_call(op: str, v: list, kw: dict) -> Any:
    kw = {k: tf.as_dtype(d).as_numpy_dtype for k, d in kw.items()}
    return {
        "sum": lambda: tnp.sum(*v, **kw),
        "prod": lambda: tnp.prod(*v, **kw),
        "cumsum": lambda: tnp.cumsum(*v, **kw),
        "cumprod": lambda: tnp.cumprod(*v, **kw),
        "mean": lambda: tnp.mean(*v, **kw),
        "var": lambda: tnp.var(*v, **kw),
        "std": lambda: tnp.std(*v, **kw),
        "max": lambda: tnp.max(*v, **kw),
        "min": lambda: tnp.min(*v, **kw),
        "argmax": lambda: tnp.argmax(*v, **kw),
        "argmin": lambda: tnp.argmin(*v, **kw),
        "any": lambda: tnp.any(*v, **kw),
        "all": lambda: tnp.all(*v, **kw),
        "matmul": lambda: tnp.matmul(*v, **kw),
        "dot": lambda: tnp.dot(*v, **kw),
        "tensordot": lambda: tnp.tensordot(*v, axes=1, **kw),
        "einsum": lambda: tnp.einsum(EINSUM, *v, **kw),
        "where": lambda: tnp.where(*v, **kw),
        "clip": lambda: tnp.clip(*v, **kw),
        "concatenate": lambda: tnp.concatenate(v, **kw),
        "stack": lambda: tnp.stack(v, **kw),
        "full_like": lambda: tnp.full_like(*v, **kw),
    }[op]()


def keywords(prefer: bool):
    """The keyword sets of each operation. With ``prefer_float32``, which
    changes only the dtype NumPy's ``result_type`` gives a Python float or
    complex, ``full_like`` and ``einsum`` are recorded without ``dtype=``
    only: ``full_like``'s ``dtype=`` is its target whatever the fill
    value, and ``einsum`` ignores it (this keeps the file under 3 MB)."""
    def of(op: str) -> list[dict]:
        if prefer and op in ("full_like", "einsum"):
            return [{}]
        if op in READS_DTYPE:
            return [{}, *({"dtype": d} for d in tf_names())]
        if op == "einsum":
            return [{}, *({"dtype": d} for d in EINSUM_DTYPES)]
        if op in TAKES_DTYPE:
            return [{}, {"dtype": "float32"}]
        return [{}]
    return of


def config_settings(mode: str, prefer: bool) -> dict:
    return {"tensorflow_numpy_behavior": mode,
            "tensorflow_prefer_float32": prefer}


def child(mode: str, prefer: bool) -> None:
    """One configuration's rows on stdout, each answer a dtype or
    [type, message]."""
    from tensorflow.python.framework import ops
    from tensorflow.python.ops.numpy_ops import np_dtypes
    tnp.experimental_enable_numpy_behavior(
        prefer_float32=prefer, dtype_conversion_mode=mode)
    assert ops.get_dtype_conversion_mode().name.lower() == mode, mode
    assert np_dtypes.is_prefer_float32() == prefer
    tf.get_logger().setLevel("ERROR")
    first_negative_uint64()
    table = Table()
    record_array_ops(table, "tensorflow-numpy", arrays(), scalars(),
                     lambda op, v, kw: dtype_of(tnp_call(op, v, kw)),
                     ops=ARRAY_OPS, keywords=keywords(prefer),
                     **config_settings(mode, prefer))
    table.print_rows()


def write(out: Any) -> None:
    table = Table()
    for mode, prefer in CONFIGS:
        table.add_rows_of([sys.executable, __file__, "--config", mode, str(prefer)])
    forms = header_operands(arrays(), scalars())
    head = golden_io.header(
        GENERATOR, {"tensorflow": tf.__version__, "numpy": np.__version__,
                    "ml_dtypes": ml_dtypes.__version__},
        device="cpu", arrays=forms["arrays"])
    write_op_table(out / "array_ops_tensorflow_numpy.jsonl", head,
                   forms["operands"], table)


def main(argv: list[str] | None = None) -> None:
    def extra(parser):
        parser.add_argument("--config", nargs=2, metavar=("MODE", "PREFER"),
                            help="run one configuration (mode, prefer_float32 "
                            "True/False), print its rows")
    args = golden_io.parse_args(__doc__, argv, extra)
    if args.config:
        mode, prefer = args.config
        child(mode, prefer == "True")
        return
    write(args.out)


if __name__ == "__main__":
    main()
