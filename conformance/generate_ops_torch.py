#!/usr/bin/env python3
"""Generate the operation table of the `torch` policy by running real
PyTorch (CPU): ``golden/ops_torch.jsonl``.

Usage:
    python generate_ops_torch.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-torch.txt`` (the environment of ``generate_torch.py``). The
format is the op-table one that ``golden_ops.py`` describes; every call line
has ``"policy": "torch"``, ``"x64": false``, ``"promotion": "standard"``, as
``generate_torch.py``'s lines do. PyTorch has no weakly-typed results, so no
answer carries `` (weak)``.

Operands (the header's ``"operands"``), the notation of ``golden_io.py``:

* ``"int8"`` etc.: a tensor of shape ``(2,)`` holding ones, for each of our
  dtypes that PyTorch has (``getattr(torch, name)``): bool, uint1,
  uint2, uint4, uint8 to uint64, int1, int2, int4, int8 to int64,
  float8_e8m0fnu, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2,
  float8_e5m2fnuz, bfloat16, float16, float32, float64, complex64,
  complex128, complex32 (27; PyTorch lacks float4_e2m1fn, the float6 types,
  float8_e3m4, float8_e4m3 and float8_e4m3b11fnuz). ``torch.ones(shape,
  dtype=...)``, except for the sub-byte shell dtypes (uint1, uint2, uint4,
  int1, int2, int4), which cannot be filled ("fill_cpu" not implemented):
  those are ``torch.ones(shape, dtype=torch.uint8).view(dtype)``, one byte
  holding 1 per element.
* ``"0d:int8"`` etc.: the same with shape ``()``, a zero-dimensional tensor,
  which PyTorch promotes in a tier of its own below tensors with dimensions.
* ``"py:bool"``, ``2``, ``-1``, ``300``, ``2.5``, ``{"complex": [0.0, 2.0]}``:
  the Python scalars of ``golden_ops.PY_SCALARS`` (``True``, ``2``, ``-1``,
  ``300``, ``2.5``, ``2j``), PyTorch's "wrapped numbers".

Calls (``x``, ``y`` the operands; a binary operation takes every ordered pair,
a unary one every operand; the answer is ``result.dtype``):

    add            torch.add(x, y)
    subtract       torch.sub(x, y)
    multiply       torch.mul(x, y)
    true_divide    torch.true_divide(x, y)
    floor_divide   torch.floor_divide(x, y)
    remainder      torch.remainder(x, y)
    power          torch.pow(x, y)
    maximum        torch.maximum(x, y)
    equal          torch.eq(x, y)
    not_equal      torch.ne(x, y)
    less           torch.lt(x, y)
    less_equal     torch.le(x, y)
    greater        torch.gt(x, y)
    greater_equal  torch.ge(x, y)
    bitwise_and    torch.bitwise_and(x, y)
    bitwise_or     torch.bitwise_or(x, y)
    bitwise_xor    torch.bitwise_xor(x, y)
    logical_and    torch.logical_and(x, y)
    negative       torch.neg(x)
    abs            torch.abs(x)
    sign           torch.sign(x)
    sqrt           torch.sqrt(x)
    exp            torch.exp(x)
    floor          torch.floor(x)

the functions, as ``generate_torch.py`` calls ``torch.add``, never the
operators (``torch.add(2, 2)`` is then a TypeError from the argument parser,
where ``2 + 2`` would be Python's). A result that is not a tensor would be
``NotOurs`` with its Python type's name, a dtype none of ours (PyTorch's
``bcomplex32``) ``NotOurs`` with the dtype's name.

After the table come the call lines of ``generate_torch.py``'s ``add``
(``torch.add`` over ``torch.empty`` tensors: no operand, one, dtypes
PyTorch lacks, values) that the table does not make; on every ordered pair
of forms both make (``py:int`` there is ``2`` here, ``py:complex`` ``2j``,
``py:float`` ``2.5``) the answers must agree (``golden_ops.write_op_table``).
"""

from __future__ import annotations

import warnings
from typing import Any

# PyTorch warns once that NumPy is missing; it needs none here.
warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

import torch  # noqa: E402

import generate_torch  # noqa: E402
from golden_io import (DTYPE_NAMES, PYTORCH_ONLY, NotOurs, ours,  # noqa: E402
                       parse_args)
from golden_ops import (OPS, PY_SCALARS, Table, typed,  # noqa: E402
                        write_op_table)

GENERATOR = "conformance/generate_ops_torch.py"
POLICY = "torch"
OUT_FILE = "ops_torch.jsonl"

FUNCTIONS = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul,
    "true_divide": torch.true_divide, "floor_divide": torch.floor_divide,
    "remainder": torch.remainder, "power": torch.pow,
    "maximum": torch.maximum,
    "equal": torch.eq, "not_equal": torch.ne, "less": torch.lt,
    "less_equal": torch.le, "greater": torch.gt, "greater_equal": torch.ge,
    "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor, "logical_and": torch.logical_and,
    "negative": torch.neg, "abs": torch.abs, "sign": torch.sign,
    "sqrt": torch.sqrt, "exp": torch.exp, "floor": torch.floor,
}
assert list(FUNCTIONS) == OPS
# Dtypes PyTorch has but cannot fill (no "fill_cpu" kernel).
SUB_BYTE = {"uint1", "uint2", "uint4", "int1", "int2", "int4"}


def torch_names() -> list[str]:
    """The names of our dtypes that PyTorch has, in our order."""
    return [n for n in DTYPE_NAMES + PYTORCH_ONLY
            if isinstance(getattr(torch, n, None), torch.dtype)]


def ones(name: str, shape: tuple) -> torch.Tensor:
    dtype = getattr(torch, name)
    if name in SUB_BYTE:
        return torch.ones(shape, dtype=torch.uint8).view(dtype)
    return torch.ones(shape, dtype=dtype)


def operands() -> list[tuple[Any, Any]]:
    """``(make, form)``: tensors, zero-dimensional tensors, Python
    scalars."""
    names = torch_names()
    return ([(lambda n=n: ones(n, (2,)), n) for n in names]
            + [(lambda n=n: ones(n, ()), f"0d:{n}") for n in names]
            + [(lambda v=v: v, form) for v, form in PY_SCALARS])


def call(op: str, values: list) -> str:
    result = FUNCTIONS[op](*values)
    if not isinstance(result, torch.Tensor):
        raise NotOurs(type(result).__name__)
    return typed(ours(str(result.dtype).removeprefix("torch.")))


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    generate_torch.check_environment()
    forms_made = operands()
    forms = [form for _, form in forms_made]
    table = Table()
    table.record(POLICY, forms_made, call)
    adds = (generate_torch.header(), generate_torch.gen_add())
    compared = write_op_table(out_dir / OUT_FILE,
                              generate_torch.header(GENERATOR), forms, table,
                              adds)
    assert compared == len(forms) ** 2, compared


if __name__ == "__main__":
    main()
