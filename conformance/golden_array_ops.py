"""The operations on whole arrays every framework's generator records, and
their file format: reductions, contractions, and the functions that
combine arrays or pin the result (the library's ``ArrayOp``).

Each ``generate_array_ops_*.py`` runs in its framework's environment
(standard library only here) and writes ``golden/array_ops_<policy>.jsonl``
with :func:`record_array_ops` and ``golden_ops.write_op_table``: the
op-table format of ``golden_ops.py`` (read its docstring first), with
these additions:

``"arrays"`` (header)  the forms of the framework's arrays alone, a prefix
                       of ``"operands"`` (which adds its Python scalars).
``"over": "arrays"``   a row whose answers line up with the header's
                       ``"arrays"``, not its ``"operands"``: reductions and
                       contractions are asked of arrays only.
``"before": [FORM]``   operands placed before the row's ``"a"``
                       (``where``'s condition, a ``bool`` array).
``"after": [FORM]``    operands placed after the answer's own (``clip``'s
                       upper bound).
``"dtype": NAME``      the call's ``dtype=`` keyword (JAX's
                       ``preferred_element_type`` for a contraction).
``"promote_integers": B``  JAX's keyword of ``sum``/``prod``/``cumsum``/``cumprod``.
``"initial": V``       NumPy's keyword of ``sum``/``prod``/``max``/``min``, a
                       Python number written as an operand is (``300``,
                       ``2.5``, ``true``, ``{"complex": [0.0, 2.0]}``).
``"computes": [T]``    lined up with ``"answers"``: the dtype the framework
                       computes each call in, as it reports it (PyTorch's
                       ``torch._prims_common`` helpers, the dtype of the
                       input of JAX's reduction or ``dot_general`` in the
                       jaxpr), ``null`` where the call failed. Only in the
                       files of frameworks that report one.

Rows, per operation (``record_array_ops``; ``call(op, values, kw)``
answers the result's dtype string, ``kw`` the keywords as Python's):

- a reduction (``REDUCTIONS``): one row over the arrays per keyword set of
  ``keywords(op)`` (by default none, then each ``dtype=`` of ``dtypes``
  for those that take one).
- a contraction (``CONTRACTIONS``): a row per first array over the arrays,
  per keyword set.
- ``where``: the condition a ``bool`` array (``before``), a row per
  operand ``x`` over every operand as ``y``.
- ``clip``: a row per array ``x`` over every operand as the lower bound;
  then the same with each of ``CLIP_UPPER`` as the upper bound
  (``after``).
- ``concatenate``, ``stack``: a row per first array over the arrays as
  the second (``[a, b]``, the sequence of two).
- ``full_like``: a row per array over every operand as the fill value,
  per keyword set.

Arrays are ``ones`` of two dimensions (2 by 2), so that every operation
takes them; a contraction's are square.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from golden_ops import Table

REDUCTIONS = ["sum", "prod", "cumsum", "cumprod", "mean", "var", "std",
              "max", "min", "argmax", "argmin", "any", "all"]
CONTRACTIONS = ["matmul", "dot", "tensordot", "einsum"]
COMBINATIONS = ["where", "clip", "concatenate", "stack", "full_like"]
ARRAY_OPS = REDUCTIONS + CONTRACTIONS + COMBINATIONS
# The operations that take ``dtype=`` (the library's ``ArrayOp::takes_dtype``).
TAKES_DTYPE = {"sum", "prod", "cumsum", "cumprod", "mean", "var", "std",
               "matmul", "dot", "tensordot", "einsum", "full_like"}
# ``clip``'s upper bounds beside the lower bound of each answer.
CLIP_UPPER: list[Any] = [3, 3.5]

Make = Callable[[], Any]


def default_keywords(dtypes: list[str]) -> Callable[[str], list[dict]]:
    """No keywords, then each ``dtype=`` of ``dtypes`` where the operation
    takes one."""
    def keywords(op: str) -> list[dict]:
        extra = [{"dtype": d} for d in dtypes] if op in TAKES_DTYPE else []
        return [{}, *extra]
    return keywords


def record_array_ops(table: Table, policy: str,
                     arrays: list[tuple[Make, Any]],
                     scalars: list[tuple[Make, Any]],
                     call: Callable[[str, list, dict], str],
                     ops: Iterable[str] = ARRAY_OPS,
                     keywords: Callable[[str], list[dict]] = lambda op: [{}],
                     computes: Callable[[str, list, dict], str] | None = None,
                     bool_array: Make | None = None,
                     **config: Any) -> None:
    """Every operation of ``ops`` as the module docstring lays out.
    ``arrays`` and ``scalars`` are ``(make, form)`` pairs, ``make()``
    building the value when the call runs; ``bool_array`` makes
    ``where``'s condition (the first of ``arrays`` by default, which must
    then be ``bool``). ``computes(op, values, kw)``, where the framework
    reports one, answers the dtype the call computes in."""
    operands = arrays + scalars
    condition = bool_array or arrays[0][0]

    def one(op: str, makes: list[Make], kw: dict) -> Any:
        return table.answer(lambda: call(op, [m() for m in makes], kw))

    def computed(op: str, makes: list[Make], kw: dict) -> Any:
        assert computes is not None
        try:
            return computes(op, [m() for m in makes], kw)
        except Exception:  # noqa: BLE001 - a call that fails computes nothing
            return None

    def row(op: str, kw: dict, over: list[tuple[Make, Any]],
            lead: list[Make], a: Any = None, trail: list = (),
            **extra: Any) -> None:
        makes = [lead + [m] + [lambda v=v: v for v in trail] for m, _ in over]
        entry: dict[str, Any] = dict(extra)
        if over is arrays:
            entry["over"] = "arrays"
        answers = [one(op, ms, kw) for ms in makes]
        settings = {**config, **entry,
                    **{k: keyword_form(v) for k, v in kw.items()}}
        if computes is not None:
            settings["computes"] = [computed(op, ms, kw) for ms in makes]
        table.row(op, policy, answers, a=a, **settings)
        # ``computes`` must follow ``answers`` in the line: moved last.
        line = table.lines[-1]
        if "computes" in line:
            line["computes"] = line.pop("computes")

    for op in ops:
        for kw in keywords(op):
            if op in REDUCTIONS:
                row(op, kw, arrays, [])
            elif op in CONTRACTIONS or op in ("concatenate", "stack"):
                for make_a, form_a in arrays:
                    row(op, kw, arrays, [make_a], a=form_a)
            elif op == "where":
                for make_a, form_a in operands:
                    row(op, kw, operands, [condition, make_a], a=form_a,
                        before=["bool"])
            elif op == "clip":
                for upper in [None, *CLIP_UPPER]:
                    trail = [] if upper is None else [upper]
                    extra = {} if upper is None else {"after": [upper]}
                    for make_a, form_a in arrays:
                        row(op, kw, operands, [make_a], a=form_a,
                            trail=trail, **extra)
            elif op == "full_like":
                for make_a, form_a in arrays:
                    row(op, kw, operands, [make_a], a=form_a)
            else:
                raise ValueError(f"unknown array operation {op!r}")


def keyword_form(value: Any) -> Any:
    """A keyword's value as a row writes it: a Python complex as
    ``{"complex": [REAL, IMAG]}`` (JSON has none), the rest as it is."""
    if isinstance(value, complex):
        return {"complex": [value.real, value.imag]}
    return value


def header_operands(arrays: list[tuple[Make, Any]],
                    scalars: list[tuple[Make, Any]]) -> dict:
    """The header's ``"operands"`` and ``"arrays"``, for
    ``golden_ops.write_op_table``'s ``operands`` and the head's extra
    fields."""
    return {"operands": [f for _, f in arrays + scalars],
            "arrays": [f for _, f in arrays]}
