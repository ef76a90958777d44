#!/usr/bin/env python3
"""Generate golden data for the `tensorflow`, `tensorflow-safe` and
`tensorflow-all` policies by running real TensorFlow (CPU).

Usage:
    python generate_tensorflow.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-tensorflow.txt``. The format is the one ``golden_io.py``
describes. Each policy is one dtype conversion mode of TensorFlow, which is
global and cannot be switched off again once NumPy behaviour is on, so each
mode runs in a child process of this script (``--mode``):

* ``tensorflow``: TensorFlow as it starts (mode ``off``)
* ``tensorflow-safe``, ``tensorflow-all``: after
  ``tf.experimental.numpy.experimental_enable_numpy_behavior(
  dtype_conversion_mode="safe"|"all")``

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: a tensor of that dtype with one dimension, made from a
  NumPy array of ``tf.as_dtype(name).as_numpy_dtype``; in ``promote_types``
  the dtype ``tf.as_dtype(name)``. A dtype TensorFlow lacks fails in
  ``tf.as_dtype`` when the call runs, and that error is the answer.
* ``{"dtype": "int32", "weak": true}``: a ``WeakTensor`` of that dtype (modes
  safe and all), made with ``WeakTensor.from_tensor``, which refuses dtypes
  other than int32, int64, float32, float64 and complex128.
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``.
* a JSON integer: that Python int.
* ``null``: ``None``.
* in ``promote_types``, ``"int"``, ``"float"``, ``"complex"``: the Python type
  objects.

Files:

* ``tensorflow_add``  (the call lines of ``ops_tensorflow.jsonl``, which
  ``generate_ops_tensorflow.py`` writes with ``add_lines``)
  ``tf.add(*args)`` in each mode (no operand, every single
  operand, every ordered pair): its dtype, and ``"weak"`` when the result is
  a ``WeakTensor``
* ``tensorflow_safe_result_type``, ``tensorflow_all_result_type``: TensorFlow's
  auto dtype conversion, ``flexible_dtypes.result_type(*args)`` (what
  ``tf.experimental.numpy.result_type`` and ``tf.add`` call in these modes; it
  returns the weak flag the public function drops); no operand, every single
  operand, every ordered pair
* ``tensorflow_safe_promote_types``, ``tensorflow_all_promote_types``:
  ``tf.experimental.numpy.result_type(a, b)`` over the 32 dtypes and
  Python's int, float, complex
"""

from __future__ import annotations

import json
import os
from typing import Any

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"  # must precede the import

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import flexible_dtypes, weak_tensor  # noqa: E402

import golden_io  # noqa: E402
from golden_io import (DTYPE_NAMES, PY_SCALARS, PYTHON_TYPES, Lazy,  # noqa: E402
                       Operand, ours, parse_args, py_scalar, py_value,
                       resolve, run, typed, unary_and_binary, write_all)

GENERATOR = "conformance/generate_tensorflow.py"
MODES = {"tensorflow": "off", "tensorflow-safe": "safe",
         "tensorflow-all": "all"}
# Python ints whose value matters: out of uint8's range, negative, just
# beyond int32 (the weak int's range in the NumPy modes), beyond int64.
PY_INT_VALUES = [300, -1, 2**31, 2**63]
# Python complex values (JSON has none: written {"complex": [REAL, IMAG]}).
PY_COMPLEX_VALUES = [1j, 2 + 3j]
# WeakTensor accepts these dtypes; int8 and uint1 show the refusals.
WEAK_NAMES = ["int32", "int64", "float32", "float64", "complex128", "int8",
              "uint1"]


def tf_dtype(name: str) -> tf.DType:
    """TensorFlow's dtype; raises TypeError for one it lacks."""
    return tf.as_dtype(name)


def make_tensor(name: str) -> tf.Tensor:
    return tf.constant(np.zeros(2, tf_dtype(name).as_numpy_dtype))


def tensor(name: str) -> Operand:
    return Operand(Lazy(lambda: make_tensor(name)), name)


def weak(name: str) -> Operand:
    return Operand(
        Lazy(lambda: weak_tensor.WeakTensor.from_tensor(make_tensor(name))),
        {"dtype": name, "weak": True})


def tf_type(name: str) -> Operand:
    if name in PYTHON_TYPES:
        return Operand(PYTHON_TYPES[name], name)
    return Operand(Lazy(lambda: tf_dtype(name)), name)


def call_add(*values: Any) -> dict:
    result = tf.add(*map(resolve, values))
    return typed(ours(result.dtype.name),
                 isinstance(result, weak_tensor.WeakTensor))


def call_result_type(*values: Any) -> dict:
    args = list(map(resolve, values))
    dtype, is_weak = flexible_dtypes.result_type(*args)
    # The public function is this one without the weak flag.
    assert tf.experimental.numpy.result_type(*args) == dtype
    return typed(ours(dtype.name), bool(is_weak))


def call_promote_types(*values: Any) -> str:
    return ours(tf.experimental.numpy.result_type(*map(resolve, values)).name)


def operands(mode: str) -> list[Operand]:
    weak_operands = [] if mode == "off" else [weak(n) for n in WEAK_NAMES]
    return ([tensor(n) for n in DTYPE_NAMES] + weak_operands
            + [py_scalar(s) for s in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES]
            + [Operand(v, {"complex": [v.real, v.imag]})
               for v in PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def check_mode(mode: str) -> None:
    """The mode is on, and arrays are strong unless made weak."""
    from tensorflow.python.framework import ops
    assert ops.get_dtype_conversion_mode().name.lower() == mode, mode
    x = make_tensor("int32")
    assert not isinstance(x, weak_tensor.WeakTensor)
    assert not isinstance(tf.add(x, x), weak_tensor.WeakTensor)


def child(policy: str) -> None:
    """Runs one mode's calls and prints their lines to stdout."""
    mode = MODES[policy]
    if mode != "off":
        tf.experimental.numpy.experimental_enable_numpy_behavior(
            dtype_conversion_mode=mode)
    check_mode(mode)
    lines = run("add", policy, call_add, unary_and_binary(operands(mode)))
    if mode != "off":
        lines += run("result_type", policy, call_result_type,
                     unary_and_binary(operands(mode)))
        types = [tf_type(n) for n in DTYPE_NAMES + list(PYTHON_TYPES)]
        lines += run("promote_types", policy, call_promote_types,
                     ([a, b] for a in types for b in types))
    for entry in lines:
        print(json.dumps(entry, separators=(",", ":")))


def mode_lines(policy: str) -> list[dict]:
    output = golden_io.child_output(__file__, ["--mode", policy])
    return [json.loads(text) for text in output.splitlines()]


def header() -> dict:
    return golden_io.header(
        GENERATOR,
        {"tensorflow": tf.__version__, "numpy": np.__version__,
         "ml_dtypes": ml_dtypes.__version__},
        device="cpu")


def add_lines() -> list[dict]:
    return [entry for policy in MODES for entry in mode_lines(policy)
            if entry["fn"] == "add"]


def generators() -> dict:
    lines = {policy: mode_lines(policy) for policy in MODES}

    def select(fn: str, *policies: str):
        return lambda: [entry for policy in policies for entry in lines[policy]
                        if entry["fn"] == fn]
    return {
        "tensorflow_safe_result_type": select("result_type", "tensorflow-safe"),
        "tensorflow_all_result_type": select("result_type", "tensorflow-all"),
        "tensorflow_safe_promote_types": select("promote_types",
                                                "tensorflow-safe"),
        "tensorflow_all_promote_types": select("promote_types",
                                               "tensorflow-all"),
    }


def main(argv: list[str] | None = None) -> None:
    args = parse_args(__doc__, argv, lambda parser: parser.add_argument(
        "--mode", choices=list(MODES), help="run one mode, print its lines"))
    if args.mode:
        child(args.mode)
    else:
        write_all(args.out, header(), generators())


if __name__ == "__main__":
    main()
