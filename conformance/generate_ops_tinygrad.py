#!/usr/bin/env python3
"""Generate the op-table golden data of the `tinygrad` policy by
running real tinygrad.

Usage:
    python generate_ops_tinygrad.py [--out DIR]

Writes ``DIR/ops_tinygrad.jsonl`` (DIR defaults to ``golden/`` next to this
script) in the op-table format that ``golden_ops.py`` describes, with
``"policy": "tinygrad"``, ``"x64": false`` and ``"promotion": "standard"``
on every line. The pinned versions are in ``requirements-tinygrad.txt``.

Every operation is the Tensor's operator where ``generate_tinygrad.py``'s
``a + b`` has one, and its method otherwise; the answer is the result's
``dtype`` (tinygrad is lazy: the dtype is known when the operation returns,
and nothing is realized, as in ``generate_tinygrad.py``), named as
``generate_tinygrad.py`` names it: ``strong_dtype`` of it, with `` (weak)``
where it is ``weakint`` or ``weakfloat``:

============== ==================
op             call
============== ==================
add            ``a + b``
subtract       ``a - b``
multiply       ``a * b``
true_divide    ``a / b``
floor_divide   ``a // b``
remainder      ``a % b``
power          ``a ** b``
maximum        ``a.maximum(b)``
equal          ``a == b``
not_equal      ``a != b``
less           ``a < b``
less_equal     ``a <= b``
greater        ``a > b``
greater_equal  ``a >= b``
bitwise_and    ``a & b``
bitwise_or     ``a | b``
bitwise_xor    ``a ^ b``
negative       ``-x``
abs            ``x.abs()``
sign           ``x.sign()``
sqrt           ``x.sqrt()``
exp            ``x.exp()``
floor          ``x.floor()``
============== ==================

``logical_and`` is left out: tinygrad 0.14 has no such operation (no
``Tensor.logical_and``; ``&`` is ``bitwise_and``). ``abs(x)`` would raise
(``Tensor`` has no ``__abs__``), so ``abs`` is the method. A method on a
Python scalar (``(2).maximum(t)``, ``(2).sqrt()``) answers Python's
AttributeError; where Python computes the result itself (two Python
scalars, ``-True``), the answer is ``NotOurs`` with the Python type's name
(``int``, ``float``, ``complex``, ``bool``).

Operands (the header's ``"operands"``, the notation of
``generate_tinygrad.py``): a tensor with shape ``(2,)`` of each of
tinygrad's 17 dtypes among the 32 (``"int8"``; ``Tensor.ones(2,
dtype=...)``; tinygrad's ``fp8e4m3`` is our ``float8_e4m3fn``, see
``generate_tinygrad.py``), the weakly-typed tensors ``Tensor(2)`` and
``Tensor(2.0)`` (``{"dtype": DEFAULT_INT, "weak": true}`` and
``{"dtype": DEFAULT_FLOAT, "weak": true}``), and the Python scalars of
``golden_ops.PY_SCALARS`` (``"py:bool"`` is ``True``, ``2``, ``-1``,
``300``, ``2.5``, ``{"complex": [0.0, 2.0]}`` is ``2j``). Zero-dimensional
tensors promote as tensors with dimensions do (``generate_tinygrad.py``
checks it), so they are not recorded.

Settings: every call is made at every ``DEFAULT_FLOAT`` in
``DEFAULT_FLOATS`` and ``DEFAULT_INT`` in ``DEFAULT_INTS`` (environment
variables read at import, so each runs in child processes of its own),
under ``DEV=PYTHON`` and ``DEV=CPU``, and the script checks that the two
devices agree. The lines at the defaults (float32, int32) carry no setting
and cover every call; a line of another setting, with
``"tinygrad_default_float"`` and ``"tinygrad_default_int"``, is written
only where its ``a`` or answers differ from the line at the defaults. The
weak tensors' forms depend on the setting, so the header's own key
``"operands_at"`` lists, for each other setting, the operands its lines'
answers line up with (the header's ``"operands"`` are the defaults').

After the table come the call lines of ``generate_tinygrad.py``'s
``x + y`` (``recorded``: dtypes tinygrad lacks, weak tensors, in every
setting) that the table does not make; on every pair of forms both make in
one setting (there ``True`` is ``"py:bool"``, ``2`` ``"py:int"``, ``2j``
``"py:complex"``; ``2.5`` is compared with ``"py:float"``, which is
``2.0``: tinygrad reads a float's type, not its value) the answers must
agree (``golden_ops.write_op_table``). About a minute in all.
"""

from __future__ import annotations

import json
import operator
import os
from typing import Any, Callable

import generate_tinygrad
import golden_io
from generate_tinygrad import (DEFAULT_FLOATS, DEFAULT_INTS, DEVICES,
                               TINYGRAD_NAMES)
from golden_io import DTYPE_NAMES, parse_args
from golden_ops import OPS, PY_SCALARS, Table, resolved, typed, write_op_table

GENERATOR = "conformance/generate_ops_tinygrad.py"
POLICY = "tinygrad"
# tinygrad has no logical_and.
TINYGRAD_OPS = [op for op in OPS if op != "logical_and"]
CALLS: dict[str, Callable] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "true_divide": operator.truediv, "floor_divide": operator.floordiv,
    "remainder": operator.mod, "power": operator.pow,
    "maximum": lambda a, b: a.maximum(b),
    "equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
    "less_equal": operator.le, "greater": operator.gt,
    "greater_equal": operator.ge,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor,
    "negative": operator.neg, "abs": lambda x: x.abs(),
    "sign": lambda x: x.sign(), "sqrt": lambda x: x.sqrt(),
    "exp": lambda x: x.exp(), "floor": lambda x: x.floor(),
}


def tinygrad_dtype(name: str) -> Any:
    from tinygrad.dtype import to_dtype
    return to_dtype(TINYGRAD_NAMES.get(name, name))


def has_dtype(name: str) -> bool:
    try:
        tinygrad_dtype(name)
    except AttributeError:
        return False
    return True


def our_name(dtype: Any) -> str:
    """Our name of a strong tinygrad dtype (NotOurs for one we lack)."""
    from tinygrad import dtypes
    for name in DTYPE_NAMES:
        if getattr(dtypes, TINYGRAD_NAMES.get(name, name), None) is dtype:
            return name
    return golden_io.ours(repr(dtype).removeprefix("dtypes."))


def answer_of(result: Any) -> str:
    from tinygrad import Tensor, dtypes
    from tinygrad.dtype import strong_dtype
    if not isinstance(result, Tensor):
        raise golden_io.NotOurs(type(result).__name__)
    return typed(our_name(strong_dtype(result.dtype)),
                 result.dtype in dtypes.weaks)


def operands() -> list[tuple[Any, Any]]:
    """``(make, form)`` for every operand form, under this process's
    defaults."""
    from tinygrad import Tensor, dtypes
    from tinygrad.dtype import strong_dtype

    def tensor(name: str) -> Any:
        return lambda: Tensor.ones(2, dtype=tinygrad_dtype(name))

    weak = [((lambda v=v: Tensor(v)),
             {"dtype": our_name(strong_dtype(Tensor(v).dtype)), "weak": True})
            for v in (2, 2.0)]
    assert [Tensor(v).dtype for v in (2, 2.0)] == [dtypes.weakint,
                                                   dtypes.weakfloat]
    return ([(tensor(n), n) for n in DTYPE_NAMES if has_dtype(n)] + weak
            + [((lambda v=v: v), form) for v, form in PY_SCALARS])


def call(op: str, values: list) -> str:
    return answer_of(CALLS[op](*values))


def child() -> None:
    """Prints the operands' forms and the table's lines under this
    process's DEV, DEFAULT_FLOAT and DEFAULT_INT, as one JSON object."""
    from tinygrad import Device, dtypes
    assert Device.DEFAULT == os.environ["DEV"], Device.DEFAULT
    assert dtypes.default_float is tinygrad_dtype(os.environ["DEFAULT_FLOAT"])
    assert dtypes.default_int is tinygrad_dtype(os.environ["DEFAULT_INT"])
    ops = operands()
    table = Table()
    table.record(POLICY, ops, call, TINYGRAD_OPS)
    print(json.dumps({"operands": [form for _, form in ops],
                      "lines": table.lines}))


def computed(device: str, default_float: str, default_int: str) -> dict:
    return json.loads(golden_io.child_output(
        __file__, ["--child"], DEV=device, DEFAULT_FLOAT=default_float,
        DEFAULT_INT=default_int))


SETTINGS = ("tinygrad_default_float", "tinygrad_default_int")


def header(operands_at: list[dict]) -> dict:
    from importlib.metadata import version
    return golden_io.header(GENERATOR, {"tinygrad": version("tinygrad")},
                            devices=DEVICES, default_float=DEFAULT_FLOATS,
                            default_int=DEFAULT_INTS, operands_at=operands_at)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(__doc__, argv, lambda parser: parser.add_argument(
        "--child", action="store_true",
        help="compute under $DEV, print the table"))
    if args.child:
        child()
        return
    table = Table()
    forms: list = []
    defaults: list[dict] = []
    operands_at: list[dict] = []
    for default_float in DEFAULT_FLOATS:
        for default_int in DEFAULT_INTS:
            results = [computed(device, default_float, default_int)
                       for device in DEVICES]
            for device, other in zip(DEVICES[1:], results[1:]):
                assert resolved(other["lines"]) == resolved(
                    results[0]["lines"]), \
                    f"DEV={device} answers otherwise than DEV={DEVICES[0]}"
            rows = resolved(results[0]["lines"])
            is_default = (default_float, default_int) == (
                DEFAULT_FLOATS[0], DEFAULT_INTS[0])
            if is_default:
                forms, defaults = results[0]["operands"], rows
                settings = {}
            else:
                operands_at.append({SETTINGS[0]: default_float,
                                    SETTINGS[1]: default_int,
                                    "operands": results[0]["operands"]})
                settings = dict(zip(SETTINGS, (default_float, default_int)))
            for row, at_defaults in zip(rows, defaults):
                assert row["fn"] == at_defaults["fn"]
                if not is_default and row == at_defaults:
                    continue
                answers = [table.error(*a) if isinstance(a, list) else a
                           for a in row["answers"]]
                table.row(row["fn"], POLICY, answers, a=row.get("a"),
                          **settings)
    adds = (generate_tinygrad.header(), generate_tinygrad.recorded()["tinygrad_add"])
    compared = write_op_table(args.out / "ops_tinygrad.jsonl",
                              header(operands_at), forms, table, adds)
    assert compared >= len(forms) ** 2, compared  # the defaults' at least


if __name__ == "__main__":
    main()
