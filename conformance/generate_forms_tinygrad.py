#!/usr/bin/env python3
"""Golden data for the operations of the `tinygrad` policy as programs
write them: operators, reflected methods, in-place operators, item
assignment, and the Tensor methods where the batch default is the
operator.

Usage:
    python generate_forms_tinygrad.py [--out DIR]

Runs in the environment of ``generate_ops_tinygrad.py``
(``requirements-tinygrad.txt``, Python 3.12) and writes
``forms_tinygrad.jsonl`` in the op-table format of ``golden_ops.py``, each
row with its ``"form"`` (read that docstring): ``operator``,
``reflected``, ``inplace`` and ``setitem``, by ``Table.record_forms``, and
``function``.

``ops_tinygrad.jsonl`` already records each operation's operator where it
has one (``a + b``, ``-x``: the policy's default form), so here
``operator`` differs from it only for ``abs`` (``abs(x)``: a Tensor has
no ``__abs__``). ``function`` is tinygrad's own function of each of those
operations, a method of the first operand: ``a.add(b)``, ``a.sub(b)``,
``a.mul(b)``, ``a.div(b)``, ``a.div(b, rounding_mode="floor")`` (what
``//`` calls; there is no ``floordiv`` method), ``a.mod(b)``,
``a.pow(b)``, ``a.eq(b)``, ``a.ne(b)``, ``a.bitwise_and(b)``,
``a.bitwise_or(b)``, ``a.bitwise_xor(b)``, ``x.neg()``; tinygrad 0.14
has no method for ``less``, ``less_equal``, ``greater``,
``greater_equal`` and ``logical_and``, so those rows call ``a.less(b)``
... ``a.logical_and(b)`` and record the ``AttributeError``. A Python
scalar first has no such method either.

``inplace`` is ``x OP= b``: tinygrad's ``__iadd__`` is
``self.assign(self.add(b))``, which refuses a result of another dtype; it
has no ``__imod__``, so ``x %= b`` is Python's ``x = x % b``.

Operands are those of ``generate_ops_tinygrad.py`` at tinygrad's defaults
(``DEFAULT_FLOAT`` float32, ``DEFAULT_INT`` int32): ``Tensor.ones(2,
dtype)`` of tinygrad's 17 dtypes, the weak tensors ``Tensor(2)`` and
``Tensor(2.0)``, and the Python scalars of ``golden_ops.PY_SCALARS``. The
first operand of ``inplace`` is each of the 17 tensors of a dtype: a weak
tensor is zero-dimensional, and ``Tensor(2) += Tensor.ones(2)`` is a
broadcasting ``ValueError``, whatever the dtypes (the unit tests of
``frameworks/tinygrad/forms.rs`` hold what it does with a Python number).
The target of ``setitem`` is each tensor, weak ones included (those
refuse any value). Each call is made under ``DEV=PYTHON`` and
``DEV=CPU`` (child processes), and the script checks that they agree.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable

import golden_io
from generate_ops_tinygrad import answer_of, operands
from generate_tinygrad import DEVICES
from golden_io import parse_args
from golden_ops import FORMS, PY_SCALARS, Table, resolved, write_op_table

GENERATOR = "conformance/generate_forms_tinygrad.py"
POLICY = "tinygrad"
# Each operation whose batch default is its operator, as tinygrad's method
# (name, keyword arguments); an operation missing here calls the method of
# its own name, which tinygrad lacks.
METHODS: dict[str, tuple[str, dict]] = {
    "add": ("add", {}), "subtract": ("sub", {}), "multiply": ("mul", {}),
    "true_divide": ("div", {}),
    "floor_divide": ("div", {"rounding_mode": "floor"}),
    "remainder": ("mod", {}), "power": ("pow", {}),
    "equal": ("eq", {}), "not_equal": ("ne", {}),
    "bitwise_and": ("bitwise_and", {}), "bitwise_or": ("bitwise_or", {}),
    "bitwise_xor": ("bitwise_xor", {}), "negative": ("neg", {}),
}
FUNCTION_OPS = list(METHODS) + ["less", "less_equal", "greater",
                                "greater_equal", "logical_and"]


def function_form(op: str, values: list) -> Any:
    """``a.method(b)`` (``x.method()``): tinygrad's function of ``op``."""
    name, kwargs = METHODS.get(op, (op, {}))
    return getattr(values[0], name)(*values[1:], **kwargs)


def call(run: Callable[[list], Any], values: list) -> str:
    return answer_of(run(values))


def child() -> None:
    """Prints the operands' forms and the table's lines under this
    process's DEV, as one JSON object."""
    from tinygrad import Device
    assert Device.DEFAULT == os.environ["DEV"], Device.DEFAULT
    ops = operands()
    tensors = ops[:-len(PY_SCALARS)]
    strong = [(make, form) for make, form in tensors if isinstance(form, str)]
    table = Table()
    forms = {"function": (function_form, FUNCTION_OPS), **FORMS}
    setitem = forms.pop("setitem")
    table.record_forms(POLICY, ops, strong, call, forms=forms)
    table.record_forms(POLICY, ops, tensors, call, forms={"setitem": setitem})
    print(json.dumps({"operands": [form for _, form in ops],
                      "lines": table.lines}))


def main(argv: list[str] | None = None) -> None:
    args = parse_args(__doc__, argv, lambda parser: parser.add_argument(
        "--child", action="store_true",
        help="compute under $DEV, print the table"))
    if args.child:
        child()
        return
    results = [json.loads(golden_io.child_output(
        __file__, ["--child"], DEV=device, DEFAULT_FLOAT="float32",
        DEFAULT_INT="int32")) for device in DEVICES]
    for device, other in zip(DEVICES[1:], results[1:]):
        assert resolved(other["lines"]) == resolved(results[0]["lines"]), \
            f"DEV={device} answers otherwise than DEV={DEVICES[0]}"
    table = Table(results[0]["lines"])
    from importlib.metadata import version
    head = golden_io.header(GENERATOR, {"tinygrad": version("tinygrad")},
                            devices=DEVICES)
    write_op_table(args.out / "forms_tinygrad.jsonl", head,
                   results[0]["operands"], table)


if __name__ == "__main__":
    sys.exit(main())
