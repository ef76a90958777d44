#!/usr/bin/env python3
"""Generate the operation tables of the `tensorflow`, `tensorflow-safe` and
`tensorflow-all` policies by running real TensorFlow (CPU).

Usage:
    python generate_ops_tensorflow.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-tensorflow.txt`` (the environment of
``generate_tensorflow.py``). The format is the op-table one that
``golden_ops.py`` describes. As in ``generate_tensorflow.py``, each policy
is one dtype conversion mode of TensorFlow, which cannot be switched off
again once NumPy behaviour is on, so each mode runs in a child process of
this script (``--mode``):

* ``tensorflow``: TensorFlow as it starts (mode ``off``)
* ``tensorflow-safe``, ``tensorflow-all``: after
  ``tf.experimental.numpy.experimental_enable_numpy_behavior(
  dtype_conversion_mode="safe"|"all")`` (``prefer_float32`` left False)

Files:

* ``ops_tensorflow.jsonl``: the three policies, the TensorFlow functions
  below (the ``tf.add`` of ``generate_tensorflow.py`` and its siblings) in
  each mode. Every call line has ``"x64": false``, ``"promotion":
  "standard"``, as ``generate_tensorflow.py``'s lines do. Under NumPy
  behaviour ``weak_tensor_ops`` wraps some of these functions so that they
  promote with ``flexible_dtypes.result_type``, TensorFlow's auto dtype
  conversion (the promotion the ``tensorflow-safe`` and ``tensorflow-all``
  policies describe), and answer a ``WeakTensor`` (`` (weak)``) where the
  result is weak: add, subtract, multiply, truediv, floordiv, floormod,
  pow, and, as "comparison methods" whose result is never weak, maximum
  and equal. The others (not_equal, less, less_equal, greater,
  greater_equal, the bitwise ones, logical_and) do not promote in any mode
  (they answer as in mode off, but for a Python complex beside a
  non-complex tensor in mode safe, which raises the PromoMode.SAFE
  TypeError); the unary ones answer as in mode off, weak for a Python
  scalar.
* ``ops_tensorflow_tnp.jsonl``: modes safe and all only, the
  ``tf.experimental.numpy`` functions of the operations' NumPy names
  (``tnp.add`` and so on). These do NOT promote as the policies do: the
  binary arithmetic, bitwise and maximum ones convert both operands to
  ``np_utils._result_type_binary`` (NumPy's ``result_type`` on the
  operands' dtypes and Python scalars, with tnp's int64 and float64
  defaults; ``flexible_dtypes`` only where NumPy raises ValueError) and
  call the TensorFlow function on two tensors of that dtype, so
  ``tnp.add(bool_array, 2)`` is an int64 tensor where ``tf.add`` answers a
  weak int32; the comparisons convert to ``np_utils.result_type`` (under
  NumPy behaviour ``flexible_dtypes.result_type``); sqrt, exp and floor
  first cast a non-float operand to a float. Its call lines carry the
  key ``"api": "tnp"`` (and its header ``"api"``) so that no reader
  takes them for ``tf``'s answers; the library now names these calls the
  policy ``tensorflow-numpy`` with ``tensorflow_numpy_behavior`` ``safe``
  or ``all``, and the golden readers map the recorded key to it. Its operands are those of
  ``ops_tensorflow.jsonl`` and the five ``WeakTensor`` forms below.

Operands (each file's header ``"operands"``), the notation of
``golden_io.py``:

* ``"int8"`` etc.: a tensor of shape ``(2,)`` holding ones,
  ``tf.constant(np.ones(2, tf.as_dtype(name).as_numpy_dtype))``, for each
  of the 32 dtypes TensorFlow has (``tf.as_dtype`` accepts the name): bool,
  uint2, uint4, uint8 to uint64, int2, int4, int8 to int64, float4_e2m1fn,
  float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2,
  float8_e5m2fnuz, bfloat16, float16, float32, float64, complex64,
  complex128 (25; TensorFlow lacks uint1, int1, the float6 types,
  float8_e3m4, float8_e4m3 and float8_e8m0fnu). TensorFlow has no
  zero-dimensional tier (``generate_tensorflow.py`` has no ``0d:`` forms),
  so there are none here.
* ``"py:bool"``, ``2``, ``-1``, ``300``, ``2.5``, ``{"complex": [0.0, 2.0]}``:
  the Python scalars of ``golden_ops.PY_SCALARS`` (``True``, ``2``, ``-1``,
  ``300``, ``2.5``, ``2j``).
* ``{"dtype": "int32", "weak": true}`` etc. (``ops_tensorflow_tnp.jsonl``
  only): ``WeakTensor.from_tensor`` of the tensor above, for the five dtypes
  it accepts (int32, int64, float32, float64, complex128).

Calls (``x``, ``y`` the operands; a binary operation takes every ordered pair,
a unary one every operand; the answer is ``result.dtype``, with `` (weak)``
when the result is a ``WeakTensor``):

    operation      ops_tensorflow (all modes)   ops_tensorflow_tnp
    add            tf.add(x, y)                 tnp.add(x, y)
    subtract       tf.subtract(x, y)            tnp.subtract(x, y)
    multiply       tf.multiply(x, y)            tnp.multiply(x, y)
    true_divide    tf.math.truediv(x, y)        tnp.true_divide(x, y)
    floor_divide   tf.math.floordiv(x, y)       tnp.floor_divide(x, y)
    remainder      tf.math.floormod(x, y)       tnp.remainder(x, y)
    power          tf.pow(x, y)                 tnp.power(x, y)
    maximum        tf.maximum(x, y)             tnp.maximum(x, y)
    equal          tf.equal(x, y)               tnp.equal(x, y)
    not_equal      tf.not_equal(x, y)           tnp.not_equal(x, y)
    less           tf.less(x, y)                tnp.less(x, y)
    less_equal     tf.less_equal(x, y)          tnp.less_equal(x, y)
    greater        tf.greater(x, y)             tnp.greater(x, y)
    greater_equal  tf.greater_equal(x, y)       tnp.greater_equal(x, y)
    bitwise_and    tf.bitwise.bitwise_and(x, y) tnp.bitwise_and(x, y)
    bitwise_or     tf.bitwise.bitwise_or(x, y)  tnp.bitwise_or(x, y)
    bitwise_xor    tf.bitwise.bitwise_xor(x, y) tnp.bitwise_xor(x, y)
    logical_and    tf.logical_and(x, y)         tnp.logical_and(x, y)
    negative       tf.negative(x)               tnp.negative(x)
    abs            tf.abs(x)                    tnp.abs(x)
    sign           tf.sign(x)                   tnp.sign(x)
    sqrt           tf.sqrt(x)                   tnp.sqrt(x)
    exp            tf.exp(x)                    tnp.exp(x)
    floor          tf.floor(x)                  tnp.floor(x)

(``tnp`` is ``tf.experimental.numpy``.) The functions, as
``generate_tensorflow.py`` calls ``tf.add``, never the operators. A result
that is not a tensor would be ``NotOurs`` with its Python type's name, a
dtype outside the 32 ``NotOurs`` with the dtype's name.

After the table of ``ops_tensorflow.jsonl`` come the call lines of
``generate_tensorflow.py``'s ``tf.add`` (``add_lines``: over tensors of
zeros in each mode, with no operand, one, dtypes TensorFlow lacks, values)
that the table does not make; on every ordered pair of forms both make
(``py:int`` there is ``2`` here, ``py:complex`` ``2j``, ``py:float``
``2.5``) the answers must agree (``golden_ops.write_op_table``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"  # must precede the import

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import weak_tensor  # noqa: E402

import generate_tensorflow  # noqa: E402
import golden_io  # noqa: E402
from golden_io import DTYPE_NAMES, NotOurs, ours, parse_args  # noqa: E402
from golden_ops import (OPS, PY_SCALARS, Table, typed,  # noqa: E402
                        write_op_table)

GENERATOR = "conformance/generate_ops_tensorflow.py"
MODES = {"tensorflow": "off", "tensorflow-safe": "safe",
         "tensorflow-all": "all"}
NUMPY_MODES = ["tensorflow-safe", "tensorflow-all"]
# The dtypes WeakTensor.from_tensor accepts.
WEAK_NAMES = ["int32", "int64", "float32", "float64", "complex128"]

tnp = tf.experimental.numpy
TF_FUNCTIONS = {
    "add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply,
    "true_divide": tf.math.truediv, "floor_divide": tf.math.floordiv,
    "remainder": tf.math.floormod, "power": tf.pow, "maximum": tf.maximum,
    "equal": tf.equal, "not_equal": tf.not_equal, "less": tf.less,
    "less_equal": tf.less_equal, "greater": tf.greater,
    "greater_equal": tf.greater_equal,
    "bitwise_and": tf.bitwise.bitwise_and,
    "bitwise_or": tf.bitwise.bitwise_or,
    "bitwise_xor": tf.bitwise.bitwise_xor, "logical_and": tf.logical_and,
    "negative": tf.negative, "abs": tf.abs, "sign": tf.sign,
    "sqrt": tf.sqrt, "exp": tf.exp, "floor": tf.floor,
}
TNP_FUNCTIONS = {op: getattr(tnp, op) for op in OPS}
assert list(TF_FUNCTIONS) == OPS
APIS = {"tf": TF_FUNCTIONS, "tnp": TNP_FUNCTIONS}


def tf_names() -> list[str]:
    """The 32 dtypes' names that TensorFlow has, in the 32's order."""
    names = []
    for name in DTYPE_NAMES:
        try:
            tf.as_dtype(name)
        except TypeError:
            continue
        names.append(name)
    return names


def ones(name: str) -> tf.Tensor:
    return tf.constant(np.ones(2, tf.as_dtype(name).as_numpy_dtype))


def operands(weak: bool) -> list[tuple[Any, Any]]:
    """``(make, form)``: tensors, [WeakTensors,] Python scalars."""
    weak_forms = [(lambda n=n: weak_tensor.WeakTensor.from_tensor(ones(n)),
                   {"dtype": n, "weak": True})
                  for n in (WEAK_NAMES if weak else [])]
    return ([(lambda n=n: ones(n), n) for n in tf_names()] + weak_forms
            + [(lambda v=v: v, form) for v, form in PY_SCALARS])


def dtype_of(result: Any) -> str:
    if not isinstance(result, (tf.Tensor, weak_tensor.WeakTensor)):
        raise NotOurs(type(result).__name__)
    return typed(ours(result.dtype.name),
                 isinstance(result, weak_tensor.WeakTensor))


def check_mode(mode: str) -> None:
    """The mode is on, arrays are strong unless made weak, and tnp's
    defaults are the ones its docstring assumes."""
    from tensorflow.python.framework import ops
    from tensorflow.python.ops.numpy_ops import np_dtypes
    assert ops.get_dtype_conversion_mode().name.lower() == mode, mode
    x = ones("int32")
    assert not isinstance(x, weak_tensor.WeakTensor)
    assert not isinstance(tf.add(x, x), weak_tensor.WeakTensor)
    assert np_dtypes.is_allow_float64() and not np_dtypes.is_prefer_float32()


def child(policy: str, api: str) -> None:
    """Runs one mode's calls with one API's functions and prints the table
    rows to stdout, each answer a dtype string or [type, message]."""
    mode = MODES[policy]
    if mode != "off":
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
    check_mode(mode)
    # "Falling back to old semantics" and the like, once a call: noise here.
    tf.get_logger().setLevel("ERROR")
    functions = APIS[api]
    table = Table()
    table.record(policy, operands(weak=api == "tnp"),
                 lambda op, values: dtype_of(functions[op](*values)))
    messages = {e["error"]: [e["type"], e["message"]]
                for e in table.lines if "error" in e}
    for entry in table.lines:
        if "answers" in entry:
            entry["answers"] = [messages[a] if isinstance(a, int) else a
                                for a in entry["answers"]]
            print(json.dumps(entry, separators=(",", ":")))


def mode_table(table: Table, policy: str, functions: str,
               **settings: Any) -> None:
    """Adds a child's rows to ``table``, numbering its errors there."""
    child_run = subprocess.run(
        [sys.executable, __file__, "--mode", policy, "--api", functions],
        capture_output=True, text=True)
    if child_run.returncode != 0:
        sys.exit(f"--mode {policy} --api {functions} failed "
                 f"({child_run.returncode}):\n{child_run.stderr[-3000:]}")
    output = child_run.stdout
    for text in output.splitlines():
        entry = json.loads(text)
        answers = [table.error(*a) if isinstance(a, list) else a
                   for a in entry["answers"]]
        table.row(entry["fn"], entry["policy"], answers, a=entry.get("a"),
                  x64=entry["x64"], promotion=entry["promotion"],
                  **settings)


def header(**extra: Any) -> dict:
    return golden_io.header(
        GENERATOR,
        {"tensorflow": tf.__version__, "numpy": np.__version__,
         "ml_dtypes": ml_dtypes.__version__},
        device="cpu", **extra)


def main(argv: list[str] | None = None) -> None:
    def extra(parser):
        parser.add_argument("--mode", choices=list(MODES),
                            help="run one mode, print its rows")
        parser.add_argument("--api", choices=list(APIS), default="tf",
                            help="with --mode: whose functions to call")
    args = parse_args(__doc__, argv, extra)
    if args.mode:
        child(args.mode, args.api)
        return
    table = Table()
    for policy in MODES:
        mode_table(table, policy, "tf")
    forms = [form for _, form in operands(weak=False)]
    adds = (generate_tensorflow.header(), generate_tensorflow.add_lines())
    compared = write_op_table(args.out / "ops_tensorflow.jsonl", header(),
                              forms, table, adds)
    assert compared == len(MODES) * len(forms) ** 2, compared

    table = Table()
    for policy in NUMPY_MODES:
        mode_table(table, policy, "tnp", api="tnp")
    forms = [form for _, form in operands(weak=True)]
    write_op_table(args.out / "ops_tensorflow_tnp.jsonl",
                   header(api="tf.experimental.numpy (tnp) functions; "
                          "every call line has \"api\": \"tnp\""),
                   forms, table)


if __name__ == "__main__":
    main()
