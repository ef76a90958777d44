#!/usr/bin/env python3
"""Generate the table of PyTorch's operations on whole arrays by running
real PyTorch (CPU): ``golden/array_ops_torch.jsonl``.

Usage:
    python generate_array_ops_torch.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-torch.txt`` (the environment of ``generate_torch.py``). The
format is the op-table one of ``golden_ops.py`` with the additions of
``golden_array_ops.py`` (read both docstrings); every row has ``"policy":
"torch"``, ``"x64": false``, ``"promotion": "standard"``.

Arrays (the header's ``"arrays"``): ``ones((2, 2))`` of each of our dtypes
that PyTorch has (27, as ``generate_ops_torch.py`` makes them: the sub-byte
ones as views of ``uint8`` ones). Python scalars: ``golden_ops.PY_SCALARS``.

Calls (``x``, ``a``, ``b`` arrays, ``s`` an operand, ``kw`` the row's
``dtype=`` as ``torch.<name>``; the answer is ``result.dtype``):

    sum, prod             torch.sum(x, **kw), torch.prod(x, **kw)
    cumsum, cumprod       torch.cumsum(x, 0, **kw), torch.cumprod(x, 0, **kw)
    mean, var, std        torch.mean(x, **kw), torch.var(x, **kw), torch.std(x, **kw)
    max, min              torch.amax(x), torch.amin(x)
    argmax, argmin        torch.argmax(x), torch.argmin(x)
    any, all              torch.any(x), torch.all(x)
    matmul                torch.matmul(a, b, **kw)
    dot                   torch.dot(a.reshape(-1), b.reshape(-1), **kw)
                          (torch.dot takes vectors only)
    tensordot             torch.tensordot(a, b, dims=1, **kw)
    einsum                torch.einsum("ij,jk->ik", a, b, **kw)
    where                 torch.where(cond, s1, s2), cond a bool array
    clip                  torch.clamp(x, s) and torch.clamp(x, s, upper)
    concatenate, stack    torch.cat([a, b]), torch.stack([a, b])
    full_like             torch.full_like(x, s, **kw)

``dtype=``: every dtype for the functions that take it (``sum``, ``prod``,
``cumsum``, ``cumprod``, ``mean``, ``full_like``); ``dtype=torch.float32``
alone for those the library's ``ArrayOp`` gives one but PyTorch does not
(``var``, ``std`` and the contractions), recording the refusal; and JAX's
``promote_integers=False`` for ``sum``, ``prod``, ``cumsum``, ``cumprod``,
which PyTorch refuses too.

``"computes"`` (the type each call computes in), as ``torch._refs``, the
Python references of PyTorch's operations, decide it:

* reductions: the computation dtype that ``torch._prims_common
  .reduction_dtypes`` returns when the reference (``torch._refs.sum``,
  ``prod``, ``cumsum``, ``cumprod``, ``mean``, ``var``, ``std``,
  ``amax``, ``amin``) runs on the call's array and ``dtype=`` (its first
  call, captured; the reference may fail later in a primitive, which does
  not change the dtype it chose). ``argmax``, ``argmin``, ``any`` and
  ``all`` have no reference that says one: ``null``.
* the 24 elementwise operations of ``generate_ops_torch.py``, a row per
  operation (binary: per first operand) over every operand, answers as
  that file's: the first dtype of ``torch._prims_common.elementwise_dtypes``
  of the operands, with the ``ELEMENTWISE_TYPE_PROMOTION_KIND`` that the
  operation's reference in ``torch._refs`` is declared with (read from its
  ``elementwise_type_promotion_wrapper``).
* contractions and the combinations: none recorded (no ``"computes"``).

After the table come call lines (``golden_io.py``'s format, answers
without a computation type) of calls off its grid: zero-dimensional
tensors (``"0d:int8"``), which ``where`` and ``clamp`` promote in a tier of
their own and ``cat`` refuses; Python numbers where a tensor belongs;
conditions other than bool; sequences of one and three; numbers at the
edges of a dtype's range; ``clamp``'s bounds ``None`` (``EXTRA_CALLS``).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

# PyTorch warns once that NumPy is missing; it needs none here.
warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

import torch  # noqa: E402
import torch._prims_common as prims_common  # noqa: E402
import torch._refs as refs  # noqa: E402
from torch._prims_common.wrappers import \
    elementwise_type_promotion_wrapper  # noqa: E402

import generate_ops_torch  # noqa: E402
import generate_torch  # noqa: E402
from golden_array_ops import (CONTRACTIONS, REDUCTIONS,  # noqa: E402
                              TAKES_DTYPE, header_operands, record_array_ops)
from golden_io import NotOurs, answer, line, ours, parse_args  # noqa: E402
from golden_ops import (OPS, PY_SCALARS, UNARY, Table, typed,  # noqa: E402
                        write_op_table)

GENERATOR = "conformance/generate_array_ops_torch.py"
POLICY = "torch"
OUT_FILE = "array_ops_torch.jsonl"
# The functions JAX gives ``promote_integers=``, which PyTorch refuses.
PROMOTE_INTEGERS = {"sum", "prod", "cumsum", "cumprod"}
# The functions that take ``dtype=``.
TORCH_TAKES_DTYPE = {"sum", "prod", "cumsum", "cumprod", "mean", "full_like"}
EINSUM = "ij,jk->ik"


def dtype_of(kw: dict) -> dict:
    """The keywords as PyTorch takes them: ``dtype`` a ``torch.dtype``."""
    return {k: getattr(torch, v) if k == "dtype" else v
            for k, v in kw.items()}


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sum": torch.sum, "prod": torch.prod,
    "cumsum": lambda x, **kw: torch.cumsum(x, 0, **kw),
    "cumprod": lambda x, **kw: torch.cumprod(x, 0, **kw),
    "mean": torch.mean, "var": torch.var, "std": torch.std,
    "max": torch.amax, "min": torch.amin,
    "argmax": torch.argmax, "argmin": torch.argmin,
    "any": torch.any, "all": torch.all,
    "matmul": torch.matmul,
    "dot": lambda a, b, **kw: torch.dot(a.reshape(-1), b.reshape(-1), **kw),
    "tensordot": lambda a, b, **kw: torch.tensordot(a, b, dims=1, **kw),
    "einsum": lambda a, b, **kw: torch.einsum(EINSUM, a, b, **kw),
    "where": torch.where,
    "clip": torch.clamp,
    "concatenate": lambda a, b: torch.cat([a, b]),
    "stack": lambda a, b: torch.stack([a, b]),
    "full_like": torch.full_like,
}

# The references whose reduction_dtypes call says the computation dtype.
REFERENCES: dict[str, Callable[..., Any]] = {
    "sum": refs.sum, "prod": refs.prod,
    "cumsum": lambda x, **kw: refs.cumsum(x, 0, **kw),
    "cumprod": lambda x, **kw: refs.cumprod(x, 0, **kw),
    "mean": refs.mean, "var": refs.var, "std": refs.std,
    "max": refs.amax, "min": refs.amin,
}

# Our elementwise operations' references in torch._refs.
ELEMENTWISE_REFS = {
    "add": refs.add, "subtract": refs.sub, "multiply": refs.mul,
    "true_divide": refs.true_divide, "floor_divide": refs.floor_divide,
    "remainder": refs.remainder, "power": refs.pow,
    "maximum": refs.maximum,
    "equal": refs.eq, "not_equal": refs.ne, "less": refs.lt,
    "less_equal": refs.le, "greater": refs.gt, "greater_equal": refs.ge,
    "bitwise_and": refs.bitwise_and, "bitwise_or": refs.bitwise_or,
    "bitwise_xor": refs.bitwise_xor, "logical_and": refs.logical_and,
    "negative": refs.neg, "abs": refs.abs, "sign": refs.sign,
    "sqrt": refs.sqrt, "exp": refs.exp, "floor": refs.floor,
}
assert list(ELEMENTWISE_REFS) == OPS


def declared_kind(fn: Any, seen: set[int] | None = None) -> Any:
    """The ELEMENTWISE_TYPE_PROMOTION_KIND a reference's
    ``elementwise_type_promotion_wrapper`` holds, found through the
    closures and ``__wrapped__`` of its decorators."""
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return None
    seen.add(id(fn))
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if isinstance(value, elementwise_type_promotion_wrapper):
            return value.type_promotion_kind
        if callable(value):
            kind = declared_kind(value, seen)
            if kind is not None:
                return kind
    wrapped = getattr(fn, "__wrapped__", None)
    return None if wrapped is None else declared_kind(wrapped, seen)


KINDS = {op: declared_kind(ref) for op, ref in ELEMENTWISE_REFS.items()}
assert all(kind is not None for kind in KINDS.values()), KINDS


def name_of(dtype: torch.dtype) -> str:
    return ours(str(dtype).removeprefix("torch."))


def call(op: str, values: list, kw: dict) -> str:
    result = FUNCTIONS[op](*values, **dtype_of(kw))
    if not isinstance(result, torch.Tensor):
        raise NotOurs(type(result).__name__)
    return typed(name_of(result.dtype))


def reduction_computes(op: str, values: list, kw: dict) -> str | None:
    """The computation dtype of the reference's first reduction_dtypes
    call, or None where the reference says none."""
    reference = REFERENCES.get(op)
    if reference is None:
        return None
    seen: list[torch.dtype] = []
    original = prims_common.reduction_dtypes

    def capture(*args: Any, **kwargs: Any) -> Any:
        answer = original(*args, **kwargs)
        seen.append(answer[0])
        return answer

    prims_common.reduction_dtypes = capture
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference(*values, **dtype_of(kw))
    except Exception:  # noqa: BLE001 - a primitive may lack the dtype
        pass
    finally:
        prims_common.reduction_dtypes = original
    return name_of(seen[0]) if seen else None


def elementwise_computes(op: str, values: list) -> str:
    computation, _ = prims_common.elementwise_dtypes(
        *values, type_promotion_kind=KINDS[op])
    return name_of(computation)


def keywords(dtypes: list[str]) -> Callable[[str], list[dict]]:
    def of(op: str) -> list[dict]:
        if op in TORCH_TAKES_DTYPE:
            jax_only = ([{"promote_integers": False}]
                        if op in PROMOTE_INTEGERS else [])
            return [{}, *({"dtype": d} for d in dtypes), *jax_only]
        if op in TAKES_DTYPE:
            return [{}, {"dtype": "float32"}]
        return [{}]
    return of


def record_elementwise(table: Table, operands: list[tuple[Any, Any]]) -> None:
    """The elementwise operations with the dtype each computes in, where
    the call succeeds."""
    for op in OPS:
        function = generate_ops_torch.FUNCTIONS[op]
        firsts = [(None, None)] if op in UNARY else operands

        for make_a, form_a in firsts:
            lead = [] if make_a is None else [make_a]
            answers, computes = [], []
            for make, _ in operands:
                values = lambda m=make: [f() for f in lead] + [m()]  # noqa: E731
                answer = table.answer(
                    lambda: typed(name_of(function(*values()).dtype)))
                answers.append(answer)
                computed = None
                if isinstance(answer, str):
                    try:
                        computed = elementwise_computes(op, values())
                    except Exception:  # noqa: BLE001
                        computed = None
                computes.append(computed)
            table.row(op, POLICY, answers, a=form_a)
            table.lines[-1]["computes"] = computes


COMPLEX_2J = {"complex": [0.0, 2.0]}
# Calls off the table's grid, as (fn, operand forms).
EXTRA_CALLS: list[tuple[str, list]] = [
    ("where", ["bool", "0d:float16", "int8"]),
    ("where", ["bool", "int8", "0d:float16"]),
    ("where", ["bool", "float16", "0d:float64"]),
    ("where", ["py:bool", "int8", "int8"]),
    ("where", ["int8", "int8", "int8"]),
    ("where", ["uint8", "int8", "int16"]),
    ("where", ["0d:bool", "int8", 2.5]),
    ("where", ["bool", 2.5, 2]),
    ("where", ["bool", 2, COMPLEX_2J]),
    ("where", ["bool", "float16", 100000]),
    ("where", ["bool", "float32", 1e300]),
    ("where", ["bool", "int64", 2**63]),
    ("where", ["bool", "uint64", 2**63]),
    ("where", ["bool", "uint8", -255]),
    ("where", ["bool", "uint8", -256]),
    ("clip", ["float16", "0d:float64"]),
    ("clip", ["int8", "0d:float64"]),
    ("clip", ["int8", "0d:int64", "0d:float32"]),
    ("clip", ["uint8", 2, -300]),
    ("clip", ["int8", 2, -129]),
    ("clip", ["int8", -200, -300]),
    ("clip", ["int64", 2**63]),
    ("clip", ["float16", 10**10]),
    ("clip", ["float16", 2, 10**10]),
    ("clip", ["bool", "py:bool", "py:bool"]),
    ("clip", [2, 3]),
    ("clip", ["uint8", -256]),
    ("clip", ["int8", None]),
    ("clip", ["int8", None, None]),
    ("clip", ["int8", None, 3]),
    ("clip", ["int8", None, 3.5]),
    ("clip", ["int8", None, -300]),
    ("clip", ["bool", None, "py:bool"]),
    ("clip", ["int8", None, "float16"]),
    ("clip", ["bool", None, "bool"]),
    ("clip", ["int8", 2, None]),
    ("clip", ["int8", "float16", None]),
    ("clip", ["float8_e5m2", "float8_e5m2", None]),
    ("clip", ["float8_e5m2", None, 3]),
    ("clip", ["int8", None, "complex64"]),
    ("concatenate", ["int8", "uint8", "float16"]),
    ("concatenate", ["int8"]),
    ("concatenate", ["int8", 2]),
    ("concatenate", ["float32", "0d:float64"]),
    ("stack", ["0d:float16", "0d:float64"]),
    ("stack", ["int8", 2.5]),
    ("stack", ["uint1", "float32", "int8"]),
    ("sum", ["0d:int8"]),
    ("sum", [2]),
    ("mean", [2.5]),
    ("any", ["py:bool"]),
    ("var", [2.5]),
    ("argmax", ["0d:bool"]),
    ("cumsum", ["0d:float16"]),
    ("matmul", ["float32", 2]),
    ("matmul", [2, "float32"]),
    ("dot", ["float32", 2]),
    ("tensordot", ["float32", 2]),
    ("tensordot", [2, "float32"]),
    ("einsum", ["float32", 2]),
    ("einsum", [2, "float32"]),
    ("full_like", ["float16", 100000]),
    ("full_like", ["int64", 2**63]),
    ("full_like", ["uint8", -255]),
    ("full_like", ["uint8", -256]),
    ("full_like", ["float32", 1e39]),
    ("full_like", ["uint8", 2500.0]),
    ("full_like", [2, 2]),
    ("full_like", ["0d:uint8", 300]),
    ("full_like", ["float8_e4m3fn", 449]),
    ("full_like", ["float8_e8m0fnu", -1]),
]


def value_of(form: Any) -> Any:
    """The value a form stands for: a tensor of ones, 2 by 2 or
    zero-dimensional, or a Python number."""
    if form == "py:bool":
        return True
    if isinstance(form, dict):
        return complex(*form["complex"])
    if isinstance(form, str):
        name = form.removeprefix("0d:")
        shape = () if form.startswith("0d:") else (2, 2)
        return generate_ops_torch.ones(name, shape)
    return form


def extra_calls() -> list[dict]:
    """``EXTRA_CALLS`` as call lines, run on PyTorch; ``dot`` of 2 by 2
    tensors flattened as the table's."""
    lines = []
    for fn, forms in EXTRA_CALLS:
        def run(fn: str = fn, forms: list = forms) -> dict:
            values = [value_of(f) for f in forms]
            function = FUNCTIONS[fn]
            if fn in ("concatenate", "stack"):
                result = (torch.cat if fn == "concatenate"
                          else torch.stack)(values)
            elif fn == "dot":
                result = torch.dot(*values)
            else:
                result = function(*values)
            return {"dtype": name_of(result.dtype), "weak": False}
        lines.append(line(fn, POLICY, forms, answer(run)))
    return lines


def main(argv: list[str] | None = None) -> None:
    out_dir = parse_args(__doc__, argv).out
    generate_torch.check_environment()
    names = generate_ops_torch.torch_names()
    arrays = [(lambda n=n: generate_ops_torch.ones(n, (2, 2)), n)
              for n in names]
    scalars = [(lambda v=v: v, form) for v, form in PY_SCALARS]
    table = Table()
    keyword_sets = keywords(names)
    bool_array = arrays[names.index("bool")][0]
    record_array_ops(table, POLICY, arrays, scalars, call, ops=REDUCTIONS,
                     keywords=keyword_sets, computes=reduction_computes,
                     bool_array=bool_array)
    others = [op for op in FUNCTIONS if op not in REDUCTIONS]
    assert set(others) >= set(CONTRACTIONS)
    record_array_ops(table, POLICY, arrays, scalars, call, ops=others,
                     keywords=keyword_sets, bool_array=bool_array)
    record_elementwise(table, arrays + scalars)
    head = generate_torch.header(GENERATOR)
    operands = header_operands(arrays, scalars)
    head["header"]["arrays"] = operands["arrays"]
    write_op_table(out_dir / OUT_FILE, head, operands["operands"], table,
                   (head, extra_calls()))


if __name__ == "__main__":
    main()
