#!/usr/bin/env python3
"""Generate the op tables of the `jax` and `jax-lax` policies.

Usage:
    python generate_ops_jax.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-jax12.txt`` (JAX 0.12.0.1, Python 3.12). The file format is
the op table ``golden_ops.py`` describes; every answer is the dtype of
``jax.eval_shape`` of the call (nothing is compiled), with `` (weak)`` where
the result's ``weak_type`` is set.

Operands (the header's ``"operands"``), in the batch interface's notation:

* ``ops_jax``: ``{"dtype": "int8", "weak": false}`` etc., a strongly-typed
  array of each of the 32 dtypes, the notation of ``result_type.jsonl``;
  ``ops_jax_lax``: ``"int8"`` etc., the notation of ``generate_jax_lax.py``.
  For ``ops_jax`` the array is an abstract argument of ``jax.eval_shape``
  (``jax.ShapeDtypeStruct((2,), dtype)``), which keeps its dtype whatever
  x64 says, as the arrays of ``result_type.jsonl`` do (an ``int64`` array
  made while x64 was on); for ``ops_jax_lax`` it is ``jnp.ones(2, dtype)``,
  made inside the traced function under the line's x64 setting (with x64 off
  a 64-bit dtype's array is its 32-bit counterpart's), as
  ``generate_jax_lax.py``'s tracers have it. Weakly-typed arrays are not
  operands.
* the Python scalars of ``golden_ops.PY_SCALARS`` (``True``, ``2``, ``-1``,
  ``300``, ``2.5``, ``2j``), passed as they are.

Files:

* ``ops_jax``      the ``jax.numpy`` function of each operation's name
  (``jnp.add`` ... ``jnp.floor``) with x64 off and on, each with
  ``jax_numpy_dtype_promotion`` ``"standard"`` and ``"strict"``.
* ``ops_jax_lax``  the ``jax.lax`` function of each operation (the header's
  ``"functions"`` names them: ``true_divide`` is ``lax.div``, ``remainder``
  ``lax.rem``, ``power`` ``lax.pow``, ``maximum`` ``lax.max``, ``negative``
  ``lax.neg`` ...) with x64 off and on (x64 decides the Python scalars'
  dtypes and which arrays exist), promotion ``"standard"``: the generator
  checks that ``"strict"`` answers every call alike and leaves it out.
  ``floor_divide`` and ``logical_and`` have no ``jax.lax`` function
  (``lax.and_`` is gone; ``lax.bitwise_and`` on bools is the
  ``bitwise_and`` line already), so the file has no line for them; the
  header's ``"missing"`` says so. After the table come the call lines of
  ``generate_jax_lax.py``'s ``lax.add`` (no operand, one, weak arrays,
  values, ``None``) that the table does not make; on every pair of forms
  both make, the answers must agree (``golden_ops.write_op_table``).

Determinism: as in ``generate_jax.py``, the script re-executes itself with
PYTHONHASHSEED=0 so that messages naming a set of dtypes come out the same.
"""

from __future__ import annotations

import os
from typing import Any, Callable, NamedTuple

import golden_io

if __name__ == "__main__":
    golden_io.reexec_with_fixed_hash_seed()

os.environ["JAX_PLATFORMS"] = "cpu"  # must precede the jax import

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

import generate_jax_lax  # noqa: E402
from golden_io import DTYPE_NAMES, ours, parse_args  # noqa: E402
from golden_ops import (OPS, PY_SCALARS, Table, typed,  # noqa: E402
                        write_op_table)

GENERATOR = "conformance/generate_ops_jax.py"

# The jax.lax function of each operation that has one.
LAX_FUNCTIONS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div",
    "remainder": "rem", "power": "pow", "maximum": "max",
    "equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
    "greater": "gt", "greater_equal": "ge",
    "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor",
    "negative": "neg", "abs": "abs", "sign": "sign", "sqrt": "sqrt",
    "exp": "exp", "floor": "floor",
}
LAX_MISSING = {
    "floor_divide": "jax.lax has no floor division (jnp.floor_divide "
                    "composes lax.div, lax.rem and lax.select)",
    "logical_and": "jax.lax has no logical_and (lax.and_ is gone; "
                   "lax.bitwise_and on bools is the bitwise_and line)",
}
LAX_OPS = [op for op in OPS if op in LAX_FUNCTIONS]
assert set(LAX_OPS) | set(LAX_MISSING) == set(OPS)


class Ones(NamedTuple):
    """An array operand: ``jnp.ones(2, dtype)``, made inside the trace."""
    dtype: np.dtype


def operands(array_form: Callable[[str], Any]) -> list[tuple]:
    """``(make, form)`` for the 32 arrays and the Python scalars."""
    arrays = [(lambda name=name: Ones(np.dtype(name)), array_form(name))
              for name in DTYPE_NAMES]
    scalars = [(lambda value=value: value, form)
               for value, form in PY_SCALARS]
    return arrays + scalars


def jax_array_form(name: str) -> dict:
    return {"dtype": name, "weak": False}


def lax_array_form(name: str) -> str:
    return name


def caller(function_of: Callable[[str], Callable], abstract: bool) -> Callable:
    """``call(op, values)``: the answer of ``function_of(op)(*values)``,
    arrays given as abstract arguments (``abstract``) or made inside."""
    def call(op: str, values: list) -> str:
        fn = function_of(op)
        arrays = [jax.ShapeDtypeStruct((2,), v.dtype) for v in values
                  if isinstance(v, Ones)] if abstract else []

        def body(*given):
            given = iter(given)
            return fn(*[(next(given) if abstract else jnp.ones(2, v.dtype))
                        if isinstance(v, Ones) else v for v in values])

        out = jax.eval_shape(body, *arrays)
        return typed(ours(str(out.dtype)), bool(out.weak_type))
    return call


call_jnp = caller(lambda op: getattr(jnp, op), abstract=True)
call_lax = caller(lambda op: getattr(lax, LAX_FUNCTIONS[op]), abstract=False)


def configure(x64: bool, promotion: str) -> None:
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", promotion)
    default_int = jax.eval_shape(lambda: jnp.asarray(2)).dtype
    assert default_int == np.dtype("int64" if x64 else "int32"), default_int
    assert jax.config.jax_numpy_dtype_promotion == promotion


def gen_jax() -> tuple[list, Table]:
    forms = operands(jax_array_form)
    table = Table()
    for x64 in (False, True):
        for promotion in ("standard", "strict"):
            configure(x64, promotion)
            table.record("jax", forms, call_jnp, x64=x64,
                         promotion=promotion)
    configure(False, "standard")
    return [form for _, form in forms], table


def gen_jax_lax() -> tuple[list, Table]:
    forms = operands(lax_array_form)
    table = Table()
    for x64 in (False, True):
        configure(x64, "standard")
        table.record("jax-lax", forms, call_lax, LAX_OPS, x64=x64)
        configure(x64, "strict")
        strict = Table()
        strict.record("jax-lax", forms, call_lax, LAX_OPS, x64=x64)
        assert answers(strict) == answers(table, x64), \
            f"strict promotion changes jax.lax's answers (x64={x64})"
    configure(False, "standard")
    return [form for _, form in forms], table


def answers(table: Table, x64: bool | None = None) -> list:
    """Every answer of the table's lines (of one x64 setting), errors as
    their ``(type, message)``."""
    errors = {number: key for key, number in table.errors.items()}
    return [[errors[a] if isinstance(a, int) else a for a in line["answers"]]
            for line in table.lines
            if "answers" in line and x64 in (None, line["x64"])]


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    head = generate_jax_lax.header(GENERATOR)
    assert head["header"]["platform"] == "cpu", head
    forms, table = gen_jax()
    write_op_table(out_dir / "ops_jax.jsonl", head, forms, table)
    forms, table = gen_jax_lax()
    lax_head = {"header": {
        **head["header"],
        "functions": {op: f"lax.{LAX_FUNCTIONS[op]}" for op in LAX_OPS},
        "missing": LAX_MISSING}}
    adds = (generate_jax_lax.header(), generate_jax_lax.gen_add())
    compared = write_op_table(out_dir / "ops_jax_lax.jsonl", lax_head, forms,
                              table, adds)
    assert compared == 2 * len(forms) ** 2, compared  # x64 off and on


if __name__ == "__main__":
    main()
