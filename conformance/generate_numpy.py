#!/usr/bin/env python3
"""Generate golden data for the `numpy` and `array-api` policies.

Usage:
    python generate_numpy.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-numpy.txt``; every answer recorded here is what those libraries
did. The format is that of ``generate_jax.py`` (read its docstring), with one
more key: every call line names the policy it is a case of::

    {"fn": F, "args": [...], "x64": false, "promotion": "standard",
     "policy": "numpy" | "array-api", "answer": A}

``x64`` and ``promotion`` are JAX's settings; they are recorded with their
default values so that every golden line has the same shape, and no library
here reads them.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: an array of that dtype with one dimension
  (``np.zeros(2, dtype)``; for array-api-strict ``xp.zeros(2, dtype=...)``);
  in ``promote_types`` the dtype itself.
* ``"0d:int8"``: a zero-dimensional array of that dtype (NumPy only: NEP 50
  says they promote like any array, and this proves it).
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``.
* a JSON integer: that Python int (``300``, ``-1``, ``2**63``).
* ``{"complex": [RE, IM]}``: that Python complex (``1j``, ``2+3j``, ``-1.5j``).
* ``null``: ``None``.
* in ``promote_types``, ``"int"``, ``"float"``, ``"complex"``: the Python type
  objects themselves.

Files:

* ``numpy_promote_types``  ``np.promote_types(a, b)`` over the 32 dtypes and
  Python's int, float, complex (NumPy reads the types as ``np.dtype(int)``...)
* ``numpy_result_type``    ``np.result_type(*args)``: no operand, every single
  operand, every ordered pair of operands, and every ordered triple of a
  dozen operands that exercise NumPy's n-ary reduction
* ``numpy_can_cast``       ``np.can_cast(a, b, casting="safe")`` over the 32
  dtypes: the safe casts NumPy's promotion of ml_dtypes types rests on
* ``numpy_add``            (the call lines of ``ops_numpy.jsonl``, which
  ``generate_ops_numpy.py`` writes with these functions) ``np.add(a, b).dtype`` for arrays of NumPy's own 14
  numeric dtypes and Python ints around the integer bounds (and Python
  complex values), both orders: the OverflowError NumPy raises when a Python
  int does not fit the array's dtype (``np.result_type`` does not check
  values)
* ``array_api_promote_types``  array-api-strict has no ``promote_types``;
  these lines call ``xp.result_type(a, b)`` with two dtypes, or with Python
  type objects, which it refuses
* ``array_api_result_type``    ``xp.result_type(*args)``: no operand, every
  single operand and every ordered pair; a dtype array-api-strict does not
  have is looked up as ``getattr(xp, name)``, which raises AttributeError
* ``array_api_add``            (the call lines of ``ops_array_api.jsonl``,
  which ``generate_ops_numpy.py`` writes) ``a + b``, the operator (``Array.__add__``, or
  ``__radd__`` when a Python scalar comes first), on every ordered pair of
  arrays, Python scalars around the integer bounds and ``None``: it refuses
  bool arrays, Python scalars of a kind the array does not hold and ints
  beyond its dtype's bounds, which ``xp.result_type`` lets through. Two
  Python scalars are added by Python itself; the answer is then ``NotOurs``
  with the result's Python type (``golden_io.py``). Zero-dimensional arrays
  are left out: array-api-strict gives them one dimension before adding,
  and they were measured to answer as arrays with dimensions do

Answers: ``{"ok": V}`` or ``{"error": {"type": T, "message": M}}`` (T is
``type(e).__name__``, M is ``str(e)``). V is a dtype name for
``promote_types``, ``{"dtype": NAME, "weak": false}`` for ``result_type`` and
``add`` (neither library has weakly-typed results), a bool for ``can_cast``.
The script checks that every dtype answered is one of the 32 dtypes.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

import array_api_strict as xp
import ml_dtypes
import numpy as np

import golden_io
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS,
                       PYTHON_TYPES, Lazy, NotOurs, Operand, ours, parse_args,
                       py_scalar, py_value, resolve, run, typed,
                       unary_and_binary, write_all)

GENERATOR = "conformance/generate_numpy.py"

# NumPy's own numeric dtypes (the others come from ml_dtypes).
NUMPY_NAMES = [n for n in DTYPE_NAMES if not hasattr(ml_dtypes, n)]
# Python ints whose value matters: out of uint8's range, negative, and the
# first value NumPy reads as uint64 rather than int64.
PY_INT_VALUES = [300, -1, 2**63]
# Python ints around every integer bound, for np.add's range check.
BOUND_VALUES = [0, 127, 128, 255, 256, 300, -1, -129, 2**15, 2**31, 2**32,
                2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1]
TRIPLE_OPERANDS = ["bool", "uint8", "int8", "uint64", "float16", "bfloat16",
                   "int4", "uint4", "float8_e5m2", "py:int", "py:float",
                   "py:complex"]


# --------------------------------------------------------------------------
# NumPy.

def numpy_name(dt: Any) -> str:
    return ours(str(np.dtype(dt)))


def np_array(name: str) -> Operand:
    return Operand(np.zeros(2, np.dtype(name)), name)


def np_zero_dim(name: str) -> Operand:
    return Operand(np.zeros((), np.dtype(name)), f"0d:{name}")


def np_operands() -> list[Operand]:
    return ([np_array(n) for n in DTYPE_NAMES]
            + [np_zero_dim(n) for n in DTYPE_NAMES]
            + [py_scalar(s) for s in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def np_operand(label: str) -> Operand:
    return py_scalar(label) if label in PY_SCALARS else np_array(label)


def np_type(name: str) -> Operand:
    """A dtype, or one of Python's types, for promote_types."""
    if name in PYTHON_TYPES:
        return Operand(PYTHON_TYPES[name], name)
    return Operand(np.dtype(name), name)


def gen_numpy_promote_types() -> list[dict]:
    types = [np_type(n) for n in DTYPE_NAMES + list(PYTHON_TYPES)]
    return run("promote_types", "numpy",
               lambda a, b: numpy_name(np.promote_types(a, b)),
               ([a, b] for a in types for b in types))


def gen_numpy_result_type() -> list[dict]:
    S = np_operands()
    T = [np_operand(label) for label in TRIPLE_OPERANDS]
    calls = (unary_and_binary(S)
             + [list(t) for t in itertools.product(T, repeat=3)])
    return run("result_type", "numpy",
               lambda *v: typed(numpy_name(np.result_type(*v))), calls)


def gen_numpy_can_cast() -> list[dict]:
    types = [np_type(n) for n in DTYPE_NAMES]
    return run("can_cast", "numpy",
               lambda a, b: bool(np.can_cast(a, b, casting="safe")),
               ([a, b] for a in types for b in types))


def gen_numpy_add() -> list[dict]:
    arrays = [np_array(n) for n in NUMPY_NAMES]
    values = [py_value(v) for v in BOUND_VALUES + PY_COMPLEX_VALUES]
    pairs = [pair for x in arrays for v in values for pair in ([x, v], [v, x])]
    return run("add", "numpy",
               lambda a, b: typed(numpy_name(np.add(a, b).dtype)), pairs)


# --------------------------------------------------------------------------
# array-api-strict.

def xp_dtype(name: str) -> Any:
    """The library's dtype object; raises AttributeError for one it lacks."""
    return getattr(xp, name)


def xp_array(name: str) -> Operand:
    return Operand(Lazy(lambda: xp.zeros(2, dtype=xp_dtype(name))), name)


def xp_type(name: str) -> Operand:
    if name in PYTHON_TYPES:
        return Operand(PYTHON_TYPES[name], name)
    return Operand(Lazy(lambda: xp_dtype(name)), name)


def xp_call(*values: Any) -> str:
    result = xp.result_type(*map(resolve, values))
    return ours(str(result).removeprefix("array_api_strict."))


def gen_array_api_promote_types() -> list[dict]:
    types = [xp_type(n) for n in DTYPE_NAMES + list(PYTHON_TYPES)]
    return run("promote_types", "array-api", xp_call,
               ([a, b] for a in types for b in types))


def gen_array_api_result_type() -> list[dict]:
    S = ([xp_array(n) for n in DTYPE_NAMES]
         + [py_scalar(s) for s in PY_SCALARS]
         + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
         + [Operand(None, None)])
    return run("result_type", "array-api",
               lambda *v: typed(xp_call(*v)), unary_and_binary(S))


def xp_add(a: Any, b: Any) -> dict:
    # Python evaluates the left operand first, so a dtype the library lacks
    # fails on the left before the right is looked at.
    left = resolve(a)
    result = left + resolve(b)
    if isinstance(result, (bool, int, float, complex)):
        raise NotOurs(type(result).__name__)
    return typed(ours(str(result.dtype).removeprefix("array_api_strict.")))


def gen_array_api_add() -> list[dict]:
    S = ([xp_array(n) for n in DTYPE_NAMES]
         + [py_scalar(s) for s in PY_SCALARS]
         + [py_value(v) for v in BOUND_VALUES + PY_COMPLEX_VALUES]
         + [Operand(None, None)])
    return run("add", "array-api", xp_add, ([a, b] for a in S for b in S))


GENERATORS = {
    "numpy_promote_types": gen_numpy_promote_types,
    "numpy_result_type": gen_numpy_result_type,
    "numpy_can_cast": gen_numpy_can_cast,
    "array_api_promote_types": gen_array_api_promote_types,
    "array_api_result_type": gen_array_api_result_type,
}


# --------------------------------------------------------------------------
# Checks and writing.

def check_environment() -> None:
    """The dtypes exist as named, and array-api-strict runs its default
    API version, under which result_type accepts Python scalars."""
    for name in DTYPE_NAMES:
        assert str(np.dtype(name)) == name, name
    assert np.dtype(int) == np.dtype("int64"), "a 64-bit C long is assumed"
    flags = xp.get_array_api_strict_flags()
    assert flags["api_version"] == "2025.12", flags


def header() -> dict:
    flags = xp.get_array_api_strict_flags()
    return golden_io.header(
        GENERATOR,
        {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__,
         "array_api_strict": xp.__version__},
        array_api_strict_flags={"api_version": flags["api_version"]},
        byteorder=sys.byteorder)


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    check_environment()
    write_all(out_dir, header(), GENERATORS)

if __name__ == "__main__":
    main()
