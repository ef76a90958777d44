#!/usr/bin/env python3
"""Golden data for the `numpy1` policy: NumPy 1.26's value-based casting.

Usage:
    python generate_numpy1.py [--out DIR]

Runs under Python 3.11 with ``requirements-numpy1.txt`` (NumPy 1.26.4, the
last NumPy 1; no ml_dtypes, so NumPy has its own 14 numeric dtypes and no
others). NumPy 2's generators
(``generate_numpy.py``, ``generate_ops_numpy.py``) import ml_dtypes and
array-api-strict, which need NumPy 2, so this one shares their modules
(``golden_io``, ``golden_ops``) rather than their scripts. It writes:

* ``numpy1_promote_types``  ``np.promote_types(a, b)`` over NumPy's 14
  dtypes and Python's int, float, complex (read as ``np.dtype(int)``...)
* ``numpy1_result_type``    ``np.result_type(*args)``: no operand, every
  single operand (the 18 dtypes NumPy 1 lacks too: its ``TypeError``),
  every ordered pair of ``OPERANDS`` and every ordered triple of
  ``TRIPLE_OPERANDS`` (the order in which NumPy 1 folds the "small
  unsigned" flag of a non-negative int into the result)
* ``numpy1_can_cast``       ``np.can_cast(a, b, casting="safe")`` over the
  14 dtypes
* ``ops_numpy1``            the 24 operations (``golden_ops.OPS``, each
  NumPy's ufunc of that name, ``np.absolute`` for ``abs``) on every operand
  and ordered pair of ``OP_OPERANDS``, in the op-table format of
  ``golden_ops.py``
* ``forms_numpy1``          the operations as programs write them
  (``golden_ops.Table.record_forms``: operators, reflected methods,
  in-place operators, item assignment) on the operands of ``ops_numpy1``;
  the first operand of ``inplace`` and the target of ``setitem`` a fresh
  array with one dimension of each dtype (a 0-d target of ``x OP= y``
  takes no array with dimensions: NumPy's shape error)
* ``array_ops_numpy1``      the operations on whole arrays
  (``golden_array_ops.py``), called as ``generate_array_ops_numpy.py``
  calls NumPy 2's (``numpy_array_calls.py``), on 2 by 2 arrays of the 14
  dtypes, ``dtype=`` each of them, the Python scalars of
  ``golden_ops.PY_SCALARS`` and ``ARRAY_OP_VALUES`` (values each side of
  ``np.min_scalar_type``'s bounds, which decide ``where``, ``clip`` and
  ``full_like`` in NumPy 1), ``initial=`` also each of ``INITIAL_VALUES``

Operands, in ``golden_io``'s notation: ``"int8"`` an array with one
dimension (``np.zeros(2)``; in the op table ``np.ones(2)``, so that no
answer depends on an array's values), ``"0d:int8"`` a zero-dimensional
array (holding 0, in the op table 1: NumPy 1 reads a 0-d array's value, and
both give the smallest type of the array's kind), ``"0d:int64=300"`` one
holding a value of ``HELD_VALUES`` (in ``result_type`` and the op table), ``"py:int"`` etc. Python
scalars of ``golden_io.PY_SCALARS``, JSON numbers and ``{"complex": [RE,
IM]}`` Python scalars of those values (their value decides, through
``np.min_scalar_type``), ``null`` for ``None``.

A Python int beyond uint64 makes an object array; the answer is then
``NotOurs`` with ``object`` (``golden_io.ours``). It is in the
``result_type`` lines only: NumPy 1 runs the ufuncs on objects, whose
results are Python objects rather than NumPy dtypes.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

import numpy as np

import golden_io
import golden_ops
from golden_array_ops import header_operands, record_array_ops
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS,
                       PYTHON_TYPES, Lazy, Operand, ours, parse_args,
                       py_scalar, py_value, resolve, run, typed,
                       unary_and_binary, write_all)
from numpy_array_calls import INITIALS, np_array, np_call, numpy_keywords

GENERATOR = "conformance/generate_numpy1.py"


def understood(name: str) -> bool:
    try:
        return str(np.dtype(name)) == name
    except TypeError:
        return False


# NumPy 1.26's own numeric dtypes; the others are ml_dtypes' (not installed).
NUMPY_NAMES = [n for n in DTYPE_NAMES if understood(n)]
OTHER_NAMES = [n for n in DTYPE_NAMES if n not in NUMPY_NAMES]
# Python scalars whose value NumPy 1 reads: each side of every integer
# bound that np.min_scalar_type has (the "small unsigned" ones that fit the
# signed type of their size too), floats each side of float16's and
# float32's ranges, and complex numbers each side of complex64's.
INT_VALUES = [0, 1, -1, 127, 128, 255, 256, 300, -129, 2**15, 65536,
              2**31, 2**32, -2**31 - 1, 2**63 - 1, 2**63]
FLOAT_VALUES = [1.5, 1e300, 1e-300, 65000.0, -70000.0, 3e38]
COMPLEX_VALUES = PY_COMPLEX_VALUES + [1e300j, complex(3.5e38, 0.0)]
OBJECT_VALUES = [2**64, -2**63 - 1]
# 0-d arrays holding values NumPy 1 reads as it reads a Python scalar's
# (np.min_scalar_type), each side of its bounds, in a dtype of their own.
HELD_VALUES = [("int64", 300), ("int64", -129), ("int16", 128), ("uint16", 300),
               ("uint64", 2**64 - 1), ("int32", 70000), ("float64", 70000.0),
               ("float64", 1e300), ("float32", 1e5), ("float16", 2.5),
               ("complex128", complex(1e300, 0.0)), ("complex64", 2j)]
TRIPLE_OPERANDS = ["bool", "uint8", "int8", "int16", "uint64", "float16",
                   "0d:int8", "0d:float64", 127, 128, -1, 300, 1e300,
                   {"complex": [0.0, 2.0]}]


def numpy_name(dt: Any) -> str:
    return ours(str(np.dtype(dt)))


def array(name: str, fill: Any = np.zeros) -> Operand:
    return Operand(Lazy(lambda: fill(2, np.dtype(name))), name)


def zero_dim(name: str, fill: Any = np.zeros) -> Operand:
    return Operand(fill((), np.dtype(name)), f"0d:{name}")


def held(name: str, value: Any) -> Operand:
    """A 0-d array of ``name`` holding ``value``: ``"0d:int64=300"``."""
    return Operand(np.array(value, dtype=name), f"0d:{name}={value!r}")


def values() -> list[Operand]:
    return [py_value(v) for v in INT_VALUES + FLOAT_VALUES + COMPLEX_VALUES]


def operands() -> list[Operand]:
    return ([array(n) for n in NUMPY_NAMES] + [zero_dim(n) for n in NUMPY_NAMES]
            + [held(n, v) for n, v in HELD_VALUES]
            + [py_scalar(s) for s in PY_SCALARS] + values()
            + [py_value(v) for v in OBJECT_VALUES] + [Operand(None, None)])


def operand(form: Any) -> Operand:
    if isinstance(form, str) and form.startswith("0d:"):
        return zero_dim(form[3:])
    if isinstance(form, str):
        return array(form)
    if isinstance(form, dict):
        return py_value(complex(*form["complex"]))
    return py_value(form)


def np_type(name: str) -> Operand:
    if name in PYTHON_TYPES:
        return Operand(PYTHON_TYPES[name], name)
    return Operand(np.dtype(name), name)


def gen_promote_types() -> list[dict]:
    types = [np_type(n) for n in NUMPY_NAMES + list(PYTHON_TYPES)]
    return run("promote_types", "numpy1",
               lambda a, b: numpy_name(np.promote_types(a, b)),
               ([a, b] for a in types for b in types))


def result_type(*args: Any) -> dict:
    return typed(numpy_name(np.result_type(*map(resolve, args))))


def gen_result_type() -> list[dict]:
    triples = [list(t) for t in itertools.product(
        [operand(f) for f in TRIPLE_OPERANDS], repeat=3)]
    missing = [[array(n)] for n in OTHER_NAMES]
    return run("result_type", "numpy1", result_type,
               unary_and_binary(operands()) + missing + triples)


def gen_can_cast() -> list[dict]:
    types = [np_type(n) for n in NUMPY_NAMES]
    return run("can_cast", "numpy1",
               lambda a, b: bool(np.can_cast(a, b, casting="safe")),
               ([a, b] for a in types for b in types))


UFUNCS = {op: getattr(np, "absolute" if op == "abs" else op)
          for op in golden_ops.OPS}


# The forms table's Python ints are those of ``INT_VALUES`` within this
# bound: Python computes ``a ** b`` of two Python ints itself, and
# ``65536 ** 2**31`` would take it hours.
FORMS_INT_BOUND = 2**16


def op_operands(int_bound: int | None = None, *, held_values: bool = True
                ) -> list[tuple[Any, Any]]:
    """``(make, form)`` pairs for ``golden_ops.Table.record``: Python ints
    within ``int_bound`` only, where given; 0-d arrays holding
    ``HELD_VALUES`` where ``held_values``."""
    made = ([array(n, np.ones) for n in NUMPY_NAMES]
            + [zero_dim(n, np.ones) for n in NUMPY_NAMES]
            + ([held(n, v) for n, v in HELD_VALUES] if held_values else []))
    scalars = [(lambda v=v: v, form) for v, form in golden_ops.PY_SCALARS]
    def kept(o: Operand) -> bool:
        return (o.encoded not in [f for _, f in golden_ops.PY_SCALARS]
                and not (int_bound is not None and isinstance(o.value, int)
                         and abs(o.value) > int_bound))
    return ([(lambda o=o: resolve(o.value), o.encoded) for o in made]
            + scalars + [(lambda o=o: o.value, o.encoded) for o in values()
                         if kept(o)])


def op_call(op: str, args: list) -> str:
    return golden_ops.typed(numpy_name(UFUNCS[op](*args).dtype))


def forms_call(run: Any, values: list) -> str:
    return golden_ops.typed(numpy_name(run(values).dtype))


# Python scalars of the array operations beyond ``golden_ops.PY_SCALARS``,
# and ``initial=``'s beyond ``numpy_array_calls.INITIALS``: past a C long
# (NumPy 1 reads an int as one, then wraps it) and just inside uint64.
ARRAY_OP_VALUES = [127, 128, -129, 65536, 1e300, 70000.0]
INITIAL_VALUES = INITIALS + [1e300, 9.3e18, 2**63]


def gen_array_ops(out: Any) -> None:
    arrays = [(lambda n=n: np_array(n), n) for n in NUMPY_NAMES]
    scalars = [(lambda v=v: v, form) for v, form in golden_ops.PY_SCALARS]
    scalars += [(lambda v=v: v, v) for v in ARRAY_OP_VALUES]
    table = golden_ops.Table()
    record_array_ops(table, "numpy1", arrays, scalars, np_call,
                     keywords=numpy_keywords(NUMPY_NAMES, NUMPY_NAMES,
                                             INITIAL_VALUES))
    forms = header_operands(arrays, scalars)
    head = header()
    head["header"]["arrays"] = forms["arrays"]
    golden_ops.write_op_table(out / "array_ops_numpy1.jsonl", head,
                              forms["operands"], table)


def check_environment() -> None:
    assert np.__version__.startswith("1."), np.__version__
    assert np.dtype(int) == np.dtype("int64"), "a 64-bit C long is assumed"
    assert len(NUMPY_NAMES) == 14, NUMPY_NAMES


def header() -> dict:
    return golden_io.header(GENERATOR, {"numpy": np.__version__},
                            byteorder=sys.byteorder)


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    check_environment()
    write_all(out, header(), {
        "numpy1_promote_types": gen_promote_types,
        "numpy1_result_type": gen_result_type,
        "numpy1_can_cast": gen_can_cast,
    })
    table, ops_operands = golden_ops.Table(), op_operands()
    table.record("numpy1", ops_operands, op_call)
    golden_ops.write_op_table(out / "ops_numpy1.jsonl", header(),
                              [f for _, f in ops_operands], table)
    # (The operators as written read values as the ufuncs do: no 0-d
    # arrays holding values there, which would add a third to the file.)
    forms, forms_operands = golden_ops.Table(), op_operands(FORMS_INT_BOUND,
                                                            held_values=False)
    targets = forms_operands[:len(NUMPY_NAMES)]
    assert [form for _, form in targets] == NUMPY_NAMES
    forms.record_forms("numpy1", forms_operands, targets, forms_call)
    golden_ops.write_op_table(out / "forms_numpy1.jsonl", header(),
                              [f for _, f in forms_operands], forms)
    gen_array_ops(out)


if __name__ == "__main__":
    main()
