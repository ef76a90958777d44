#!/usr/bin/env python3
"""Golden data for the operations of the `torch` policy as programs write
them: operators, reflected methods, in-place operators and item assignment.

Usage:
    python generate_forms_torch.py [--out DIR]

Runs in the environment of ``generate_ops_torch.py``
(``requirements-torch.txt``, PyTorch 2.15.0 on the CPU, Python 3.12) and
writes ``forms_torch.jsonl`` in the op-table format of ``golden_ops.py``,
each row with its ``"form"`` (read that docstring): ``operator``,
``reflected``, ``inplace`` and ``setitem``, by ``Table.record_forms``.

Operands are those of ``generate_ops_torch.py``: a tensor of shape ``(2,)``
of each of the 27 dtypes PyTorch has, a zero-dimensional tensor of each,
and the Python scalars of ``golden_ops.PY_SCALARS``. The first operand of
``inplace`` and the target of ``setitem`` is each tensor and each
zero-dimensional tensor, made fresh. ``x OP= y`` of a zero-dimensional
``x`` and a tensor with dimensions is PyTorch's shape error (the result
cannot be written into ``x``), which it raises after the operation's own
checks and before promotion; that is data too. A zero-dimensional target
of ``setitem`` (``x[()] = v``) is given a tensor value of shape ``(1,)``,
which it takes (one of shape ``(2,)`` could not be expanded to ``[]``):
assignment casts the value, whatever its tier, so the shape is no part of
the answer. The answer is the result's dtype, or the target's after the
statement.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any, Callable

# PyTorch warns once that NumPy is missing; it needs none here.
warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

import torch  # noqa: E402

import generate_torch  # noqa: E402
from generate_ops_torch import SUB_BYTE, operands, torch_names  # noqa: E402
from golden_io import NotOurs, ours, parse_args  # noqa: E402
from golden_ops import Table, setitem_form, typed, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_forms_torch.py"


def answer(result: Any) -> str:
    if not isinstance(result, torch.Tensor):
        raise NotOurs(type(result).__name__)
    return typed(ours(str(result.dtype).removeprefix("torch.")))


def one_element(value: Any) -> Any:
    """A tensor with dimensions as a zero-dimensional target takes it: of
    shape ``(1,)``, the same dtype and values."""
    if not isinstance(value, torch.Tensor) or value.ndim == 0:
        return value
    if value.dtype in {getattr(torch, n) for n in SUB_BYTE}:
        return torch.ones(1, dtype=torch.uint8).view(value.dtype)
    return torch.ones(1, dtype=value.dtype)


def call(run: Callable[[list], Any], values: list) -> str:
    if run is setitem_form and values[0].ndim == 0:
        values = [values[0], one_element(values[1])]
    return answer(run(values))


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    generate_torch.check_environment()
    forms = operands()
    names = torch_names()
    targets = forms[:2 * len(names)]
    assert [form for _, form in targets] == names + [f"0d:{n}" for n in names]
    table = Table()
    table.record_forms("torch", forms, targets, call)
    write_op_table(out / "forms_torch.jsonl",
                   generate_torch.header(GENERATOR),
                   [form for _, form in forms], table)


if __name__ == "__main__":
    sys.exit(main())
