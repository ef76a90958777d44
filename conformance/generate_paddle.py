#!/usr/bin/env python3
"""Generate golden data for the `paddle` policy by running real PaddlePaddle
(the CPU wheel, dynamic mode, Paddle's default).

Usage:
    python generate_paddle.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-paddle.txt``. The format is the one ``golden_io.py``
describes, with ``"policy": "paddle"`` on every call line.

Paddle has no ``result_type`` or ``promote_types``: its promotion happens
inside the operations, by a 12 x 12 table (``phi::promoteTypes`` in
``paddle/phi/common/type_promotion.h``) and rules around it. Two tensors of
different dtypes promote only when both are floating-point or either is
complex; a zero-dimensional tensor beside a tensor of its own category
(integer, floating, complex) takes that tensor's dtype; a Python scalar is
added by ``Tensor.__add__`` in C++ (``eager_math_op_patch.cc``), which casts
an integer tensor to ``float32`` for a Python float and keeps the tensor's
dtype otherwise. This script measures ``x + y``, the operator, which takes
all of these; ``paddle.add`` takes tensors only, and the script checks that
it answers as ``x + y`` on every pair of tensors.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: a tensor of that dtype with one dimension. Tensors are
  made as ``paddle.zeros([2], dtype="float32").astype(dtype)``, because the
  CPU wheel has no ``full`` kernel for ``uint32`` and ``uint64``
  (``paddle.zeros(..., dtype=paddle.uint32)`` fails) but casts to them. In
  ``promote_types``, ``"int8"`` is a tensor of that dtype, and ``"int"``,
  ``"float"``, ``"complex"`` tensors of the dtypes Paddle reads Python's
  types as (``astype(int)`` is ``int64``, ``float`` ``float64``,
  ``complex`` ``complex128``).
* ``"0d:int8"``: a zero-dimensional tensor (``[]`` for the shape).
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``.
* a JSON integer: that Python int (``Tensor.__add__`` reads it as a C
  ``double``, so no int is out of range).
* ``{"complex": [RE, IM]}``: that Python complex.
* ``null``: ``None``.

A dtype Paddle lacks is looked up as ``getattr(paddle, name)`` when the call
runs, so the answer is the AttributeError Python raises. Paddle prints the
dtype of a ``uint16`` tensor as ``paddle.bfloat16`` (its old name for
bfloat16's storage), but the dtype is ``paddle.uint16`` and not
``paddle.bfloat16``: answers are named by comparing dtypes, not by ``str``.

Files:

* ``paddle_add``           (the call lines of ``ops_paddle.jsonl``, which
  ``generate_ops_paddle.py`` writes with ``gen_add``)
  ``(x + y).dtype`` on every ordered pair of
  operands, on the CPU: the promotion, then the casts and the kernel, which
  the CPU wheel lacks for ``float16``, ``bfloat16``, ``uint16``..``uint64``
  and the float8 types
  (``RuntimeError: (NotFound) The kernel with key ... is not registered``).
* ``paddle_result_type``   the same calls, kernels aside: where Paddle
  stops because the CPU has no kernel for the dtype it promoted to, its
  NotFound error names that dtype (``(CPU, Undefined(AnyLayout), float16)``
  of kernel ``add``, ``scale`` or ``full``), and the answer is that dtype.
  Every other answer is ``x + y``'s.
* ``paddle_promote_types`` ``paddle_result_type``'s answer for two tensors
  with dimensions, over the 32 dtypes and Python's int, float, complex.

Answers: a dtype name for ``promote_types``; ``{"dtype": NAME, "weak":
false}`` for ``result_type`` and ``add``. Where Python adds two Python
scalars itself, the answer is ``NotOurs`` with the Python type's name.

Paddle logs a warning through glog the first time it promotes ("Got
different data type, run type promotion automatically"), and warns at import
that ccache is missing: the script sets ``GLOG_minloglevel=2`` and filters
that warning, which changes no answer.
"""

from __future__ import annotations

import os
import re
import sys
import warnings

# Before Paddle loads: glog's warnings off (errors still raise as before).
os.environ["GLOG_minloglevel"] = "2"
warnings.filterwarnings("ignore", message="No ccache found")

from typing import Any  # noqa: E402

import paddle  # noqa: E402

import golden_io  # noqa: E402
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS,  # noqa: E402
                       PYTHON_TYPES, Lazy, NotOurs, Operand, answer, ours,
                       parse_args, py_scalar, py_value, resolve, typed,
                       write_jsonl, line)

GENERATOR = "conformance/generate_paddle.py"
POLICY = "paddle"
# Python ints: out of 8-bit range, negative, beyond int32, beyond 32 bits,
# beyond int64, beyond uint64, below int64 (Paddle reads them all).
PY_INT_VALUES = [300, -1, 2**31, 2**40, 2**63, 2**64, -2**63 - 1]
# Paddle's dtypes among the 32.
PADDLE_DTYPES = [n for n in DTYPE_NAMES if hasattr(paddle, n)]
# Where CPU Paddle has no kernel for the dtype it computes in.
NO_KERNEL = re.compile(
    r"\(NotFound\) The kernel with key \(CPU, Undefined\(AnyLayout\), (\w+)\) "
    r"of kernel `(add|scale|full)` is not registered")


def paddle_dtype(name: str) -> Any:
    """Paddle's dtype; raises AttributeError for one it lacks."""
    if name in PYTHON_TYPES:
        return PYTHON_TYPES[name]
    return getattr(paddle, name)


def tensor_of(name: str, shape: list) -> Any:
    return paddle.zeros(shape, dtype="float32").astype(paddle_dtype(name))


def tensor(name: str, shape: list, encoded: str) -> Operand:
    return Operand(Lazy(lambda: tensor_of(name, shape)), encoded)


def name_of(dtype: Any) -> str:
    for name in PADDLE_DTYPES:
        if getattr(paddle, name) == dtype:
            return ours(name)
    raise NotOurs(str(dtype))


def plus(x: Any, y: Any) -> dict:
    result = resolve(x) + resolve(y)
    if not isinstance(result, paddle.Tensor):
        raise NotOurs(type(result).__name__)
    return typed(name_of(result.dtype))


def kernels_aside(measured: dict) -> dict:
    """``x + y``'s answer, or the dtype its missing kernel names."""
    error = measured.get("error")
    if error and error["type"] == "RuntimeError":
        found = NO_KERNEL.match(error["message"])
        if found:
            return {"ok": typed(found.group(1))}
    return measured


def operands() -> list[Operand]:
    """Tensors with dimensions, zero-dimensional tensors, Python scalars and
    None."""
    return ([tensor(n, [2], n) for n in DTYPE_NAMES]
            + [tensor(n, [], f"0d:{n}") for n in DTYPE_NAMES]
            + [py_scalar(s) for s in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def pairs(ops: list[Operand]) -> list[list[Operand]]:
    return [[x, y] for x in ops for y in ops]


def measure_pairs() -> list[tuple[list, dict]]:
    return [([x.encoded, y.encoded], answer(lambda: plus(x.value, y.value)))
            for x, y in pairs(operands())]


def gen_add() -> list[dict]:
    return [line("add", POLICY, args, a) for args, a in measure_pairs()]


def check_paddle_add(ops: list[Operand]) -> None:
    """``paddle.add(x, y)`` answers as ``x + y`` on every pair of tensors,
    and refuses anything else with a ValueError (AttributeError for a dtype
    Paddle lacks)."""
    checked = 0
    for x, y in pairs(ops):
        via_add = answer(lambda: typed(name_of(
            paddle.add(resolve(x.value), resolve(y.value)).dtype)))
        if isinstance(x.value, Lazy) and isinstance(y.value, Lazy):
            assert via_add == answer(lambda: plus(x.value, y.value)), \
                (x.encoded, y.encoded)
            checked += 1
        elif "ok" in via_add or via_add["error"]["type"] not in (
                "ValueError", "AttributeError"):
            raise AssertionError((x.encoded, y.encoded, via_add))
    print(f"paddle.add: {checked} pairs of tensors answer as x + y",
          file=sys.stderr)


def dtype_answer(result: dict) -> dict:
    """A ``result_type`` answer as ``promote_types`` gives it: the name."""
    return {"ok": result["ok"]["dtype"]} if "ok" in result else result


def gen_promote_types() -> list[dict]:
    """Two tensors with dimensions, kernels aside."""
    names = DTYPE_NAMES + list(PYTHON_TYPES)
    return [line("promote_types", POLICY, [a, b], dtype_answer(kernels_aside(
        answer(lambda: plus(Lazy(lambda: tensor_of(a, [2])),
                            Lazy(lambda: tensor_of(b, [2])))))))
            for a in names for b in names]


def check_environment() -> None:
    """Dynamic mode on the CPU; errors without a C++ stack."""
    assert paddle.in_dynamic_mode()
    assert str(paddle.get_device()) == "cpu", paddle.get_device()
    assert paddle.get_flags(["FLAGS_call_stack_level"]) == \
        {"FLAGS_call_stack_level": 1}


def header() -> dict:
    return golden_io.header(GENERATOR, {"paddlepaddle": paddle.__version__},
                            device="cpu", mode="dynamic")


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    check_environment()
    check_paddle_add(operands())
    measured = measure_pairs()
    files = {
        "paddle_result_type": [line("result_type", POLICY, args,
                                    kernels_aside(a))
                               for args, a in measured],
        "paddle_promote_types": gen_promote_types(),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for stem, lines in files.items():
        write_jsonl(out_dir / f"{stem}.jsonl", header(), lines)
        print(f"{stem}.jsonl: {len(lines)} calls", file=sys.stderr)


if __name__ == "__main__":
    main()
