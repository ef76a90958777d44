#!/usr/bin/env python3
"""Generate golden data for the `torch` policy by running real PyTorch (CPU).

Usage:
    python generate_torch.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-torch.txt``. The format is the one ``golden_io.py``
describes, with ``"policy": "torch"`` on every call line.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: a tensor of that dtype with one dimension
  (``torch.empty(2, dtype=torch.int8)``); in ``promote_types`` the dtype.
* ``"0d:int8"``: a zero-dimensional tensor of that dtype
  (``torch.empty((), dtype=...)``): PyTorch promotes these in a tier of their
  own, below tensors with dimensions.
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``; the
  lowest tier ("wrapped numbers").
* a JSON integer: that Python int (values at the edges of what PyTorch
  reads into a Scalar).
* ``{"complex": [RE, IM]}``: that Python complex (``1j``, ``2+3j``, ``-1.5j``),
  a wrapped number like ``py:complex``.
* ``null``: ``None``.
* in ``promote_types``, ``"int"``, ``"float"``, ``"complex"``: the Python type
  objects, which ``torch.promote_types`` refuses.

A dtype PyTorch lacks is looked up as ``getattr(torch, name)`` when the call
runs, so the answer is the AttributeError Python raises.

Files:

* ``torch_promote_types``  ``torch.promote_types(a, b)`` over our 33 dtypes
  (JAX's 32, then PyTorch's complex32) and Python's int, float, complex
* ``torch_result_type``    ``torch.result_type(*args)``: no operand, every
  single operand, every ordered pair
* ``torch_add``            (the call lines of ``ops_torch.jsonl``, which
  ``generate_ops_torch.py`` writes with ``gen_add``)
  ``torch.add(*args).dtype`` on the operands of
  ``torch_result_type``: no operand, every single operand, every ordered
  pair. It promotes as ``torch.result_type`` does, then casts each input to
  the result (``copy_``) and runs the CPU kernel (``add_stub``), either of
  which PyTorch lacks for some dtypes (NotImplementedError); its argument
  parser words its TypeErrors differently

Answers: a dtype name for ``promote_types``; ``{"dtype": NAME, "weak":
false}`` for ``result_type`` and ``add`` (PyTorch has no weakly-typed
results). The
script checks that every dtype answered is one of ours.
"""

from __future__ import annotations

import warnings
from typing import Any

# PyTorch warns once that NumPy is missing; it needs none here.
warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

import torch  # noqa: E402

import golden_io  # noqa: E402
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS,  # noqa: E402
                       PYTHON_TYPES, PYTORCH_ONLY, Lazy, Operand, ours, parse_args,
                       py_scalar, py_value, resolve, run, typed,
                       unary_and_binary, write_all)

GENERATOR = "conformance/generate_torch.py"
POLICY = "torch"
# Every dtype of ours, PyTorch's complex32 last.
NAMES = DTYPE_NAMES + PYTORCH_ONLY
# Python ints at the edges of a PyTorch Scalar: out of uint8's range,
# negative, beyond int64 (read as uint64), beyond uint64, below int64.
PY_INT_VALUES = [300, -1, 2**63, 2**64, -2**63 - 1]


def torch_dtype(name: str) -> Any:
    """PyTorch's dtype; raises AttributeError for one it lacks."""
    return getattr(torch, name)


def tensor(name: str, shape: tuple, encoded: str) -> Operand:
    return Operand(Lazy(lambda: torch.empty(shape, dtype=torch_dtype(name))),
                   encoded)


def torch_type(name: str) -> Operand:
    if name in PYTHON_TYPES:
        return Operand(PYTHON_TYPES[name], name)
    return Operand(Lazy(lambda: torch_dtype(name)), name)


def name_of(dtype: torch.dtype) -> str:
    return ours(str(dtype).removeprefix("torch."))


def call_promote_types(*values: Any) -> str:
    return name_of(torch.promote_types(*map(resolve, values)))


def call_result_type(*values: Any) -> dict:
    return typed(name_of(torch.result_type(*map(resolve, values))))


def gen_promote_types() -> list[dict]:
    types = [torch_type(n) for n in NAMES + list(PYTHON_TYPES)]
    return run("promote_types", POLICY, call_promote_types,
               ([a, b] for a in types for b in types))


def call_add(*values: Any) -> dict:
    return typed(name_of(torch.add(*map(resolve, values)).dtype))


def operands() -> list[Operand]:
    """Tensors with dimensions, zero-dimensional tensors, wrapped numbers
    and None."""
    return ([tensor(n, (2,), n) for n in NAMES]
            + [tensor(n, (), f"0d:{n}") for n in NAMES]
            + [py_scalar(s) for s in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def gen_result_type() -> list[dict]:
    return run("result_type", POLICY, call_result_type,
               unary_and_binary(operands()))


def gen_add() -> list[dict]:
    return run("add", POLICY, call_add, unary_and_binary(operands()))


GENERATORS = {
    "torch_promote_types": gen_promote_types,
    "torch_result_type": gen_result_type,
}


def check_environment() -> None:
    """Defaults the answers depend on: Python floats become float32 and
    complex numbers complex64."""
    assert torch.get_default_dtype() == torch.float32
    assert torch.result_type(torch.empty(2, dtype=torch.int8), 2j) \
        == torch.complex64


def header(generator: str = GENERATOR) -> dict:
    return golden_io.header(generator, {"torch": torch.__version__},
                            default_dtype=str(torch.get_default_dtype()),
                            device="cpu")


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    check_environment()
    write_all(out_dir, header(), GENERATORS)

if __name__ == "__main__":
    main()
