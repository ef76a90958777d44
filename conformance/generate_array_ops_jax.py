#!/usr/bin/env python3
"""Generate the operations on whole arrays of the `jax` and `jax-lax`
policies.

Usage:
    python generate_array_ops_jax.py [--out DIR] [--every-row]
        [--quick | --lax-only]

DIR defaults to ``golden/`` next to this script. ``--quick`` writes
``array_ops_jax`` alone (x64 off, standard promotion, a few ``dtype=``),
``--lax-only`` ``array_ops_jax_lax`` alone. The pinned versions are in
``requirements-jax12.txt`` (JAX 0.12.0.1, Python 3.12). The format is the
one ``golden_array_ops.py`` describes; every answer is the dtype of
``jax.eval_shape`` of the call (nothing is compiled; ``argmax`` and
``argmin`` are lowered too, where JAX refuses a complex array), with
`` (weak)`` where the result's ``weak_type`` is set.

File ``array_ops_jax``: the ``jax.numpy`` function of each operation with
x64 off and on, each with ``jax_numpy_dtype_promotion`` ``"standard"`` and
``"strict"``, as ``ops_jax.jsonl`` records the elementwise ones:

* the reductions ``jnp.sum`` ... ``jnp.all`` (``jnp.max`` and ``jnp.min``
  for ``max``/``min``), without keywords, with ``dtype=`` each of the 32
  dtypes where the function takes one, and ``sum``, ``prod``, ``cumsum``,
  ``cumprod`` with ``promote_integers=False`` and ``True`` (``jnp.cumsum``
  and ``jnp.cumprod`` have no such keyword: their rows record the
  ``TypeError``);
* the contractions ``jnp.matmul``, ``jnp.dot``, ``jnp.tensordot`` (its
  default ``axes=2``) and ``jnp.einsum("ij,jk->ik", a, b)``, without
  keywords and with ``preferred_element_type=`` (the row's ``"dtype"``);
* ``jnp.where(c, x, y)``, ``jnp.clip(x, lo[, hi])``,
  ``jnp.concatenate([a, b])``, ``jnp.stack([a, b])``,
  ``jnp.full_like(a, fill[, dtype=])``.

Arrays (the header's ``"arrays"``) are abstract arguments of
``jax.eval_shape``, ``jax.ShapeDtypeStruct((2, 2), dtype)`` for each of
the 32 dtypes, in the notation of ``ops_jax.jsonl``
(``{"dtype": "int8", "weak": false}``): a 64-bit array keeps its dtype
whatever x64 says (one made while x64 was on), and JAX reads it as its
32-bit counterpart with x64 off. The Python scalars are those of
``golden_ops.PY_SCALARS``, operands of ``where``, ``clip`` and
``full_like``.

``"computes"`` (reductions): the dtype the call's reduction runs in,
read from ``jax.make_jaxpr`` of the call: the input dtype of the first
``reduce`` (which JAX emits where the identity is no value of the type:
``float8_e8m0fnu`` has no zero), ``reduce_sum``, ``reduce_prod``,
``reduce_max``, ``reduce_min``, ``reduce_or``, ``reduce_and``,
``argmax``, ``argmin``, ``cumsum``, ``cumprod``, ``cummax``, ``cummin``,
``cumlogsumexp`` in the program (nested jaxprs in order). A float16
``mean`` is a ``reduce_sum`` of float32; a complex ``var``'s first
reduction is its mean's, in the complex type; ``argmax`` compares in its
input's type. ``null`` where the call failed. A contraction computes in
the output type of its ``dot_general`` (the accumulator: JAX passes the
operands to it unconverted, with ``preferred_element_type`` the result's
type), which is always its result's: the generator checks it (with x64
off) and its rows carry no ``"computes"``.

Size: every operation, keyword and configuration is recorded, but for
the rows with ``dtype=`` of two kinds, which would make some 10 MB
(``--every-row`` writes them all, for study, in both files):

* the contractions' ``preferred_element_type``: the rows are
  ``jnp.matmul``'s under standard promotion (every first array, every
  ``dtype=``, x64 off and on). The generator checks, on every call it
  leaves out, that ``jnp.dot``, ``jnp.tensordot`` and
  ``jnp.einsum("ij,jk->ik", ...)`` answer as ``jnp.matmul`` (the
  ``dot_general`` they share decides, its operands in the same order),
  and strict promotion as standard (no contraction asks ``result_type``
  when given ``preferred_element_type``).
* ``full_like`` with ``dtype=``: the rows of the arrays of
  ``FULL_LIKE_FIRSTS`` (the header's ``"full_like_firsts"``); with x64 off
  and standard promotion the generator checks that every other array
  answers as ``bool``'s (``full_like`` reads only the array's shape then).

File ``array_ops_jax_lax``: the ``jax.lax`` function of each operation
that has one (the header's ``"functions"``: ``sum`` is
``lax.reduce_sum(x, (0, 1))``, ``any`` ``lax.reduce_or``, ``cumsum``
``lax.cumsum(x, 0)``, ``argmax`` ``lax.argmax(x, 0, int)``, ``dot``
``lax.dot``, ``tensordot`` ``lax.dot_general`` over both axes, ``where``
``lax.select(c, x, y)``, ``clip`` ``lax.clamp(lo, x, hi)``,
``concatenate`` ``lax.concatenate([a, b], 0)``, ``stack``
``lax.stack([a, b])``, ``full_like`` ``lax.full_like``), x64 off and on;
the generator checks that strict promotion answers every call alike and
leaves it out. ``mean``, ``var``, ``std``, ``matmul`` and ``einsum``
have none (the header's ``"missing"``). ``dtype=`` is recorded once where
the function takes none (with ``promote_integers=`` once), where Python
refuses the keyword; where it takes one, as in ``array_ops_jax`` (the
whole would make some 5 MB):

* ``preferred_element_type``: the rows are ``lax.dot``'s, every first
  array, every ``dtype=``, x64 off and on; the generator checks, on every
  call it leaves out, that ``lax.dot_general`` (over both axes) answers
  as ``lax.dot``, with the same computation type (``lax.dot`` is a
  ``dot_general`` over one axis each).
* ``lax.full_like``'s ``dtype=``: the rows of the arrays of
  ``FULL_LIKE_FIRSTS`` (the header's ``"full_like_firsts"``); the
  generator checks, x64 off and on, that every other array answers as
  ``bool``'s (given ``dtype=``, ``lax.full_like`` reads only the array's
  shape).

These checks run under standard promotion (``jax.lax`` does not promote,
and strict promotion answers every recorded call alike). Arrays are in
``ops_jax_lax.jsonl``'s notation (``"int8"``). ``where``'s rows are over
the arrays alone: ``lax.select`` takes cases of one shape, so a Python
scalar beside a 2-by-2 array is refused for its shape, which no policy
models. ``lax.full_like`` refuses an array fill value for its shape
(``lax.full`` takes a scalar), ``full must be called with scalar
fill_value, got fill_value.shape (2, 2).``: the policies answer with
``(...)`` for the shape, which the golden tests read as any shape.

Determinism: the script re-executes itself with PYTHONHASHSEED=0 (as
``generate_jax.py``), since JAX names sets of dtypes in set order.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable, NamedTuple

import golden_io

if __name__ == "__main__":
    golden_io.reexec_with_fixed_hash_seed()

os.environ["JAX_PLATFORMS"] = "cpu"  # must precede the jax import

# Reading a 64-bit array with x64 off warns; the answers record what JAX
# then does, not the warnings.
warnings.simplefilter("ignore", UserWarning)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

import generate_jax_lax  # noqa: E402
from golden_array_ops import (ARRAY_OPS, CONTRACTIONS,  # noqa: E402
                              REDUCTIONS, TAKES_DTYPE, default_keywords,
                              header_operands, record_array_ops)
from golden_io import DTYPE_NAMES, ours, parse_args  # noqa: E402
from golden_ops import PY_SCALARS, Table, typed, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_array_ops_jax.py"

# The primitives whose operand's dtype is the one a reduction runs in.
REDUCERS = {"reduce", "reduce_sum", "reduce_prod", "reduce_max", "reduce_min",
            "reduce_or", "reduce_and", "argmax", "argmin", "cumsum",
            "cumprod", "cummax", "cummin", "cumlogsumexp"}
# The arrays of ``full_like``'s rows with ``dtype=`` (the module
# docstring, "Size").
FULL_LIKE_FIRSTS = ["bool", "int8", "float32"]
# The ``dtype=`` of the contractions and ``full_like`` under ``--quick``.
QUICK_DTYPES = ["float32", "int8", "bool"]


class Ones(NamedTuple):
    """An array operand: an abstract argument of this dtype."""
    dtype: np.dtype


def arrays() -> list[tuple]:
    return [(lambda name=name: Ones(np.dtype(name)),
             {"dtype": name, "weak": False}) for name in DTYPE_NAMES]


def scalars() -> list[tuple]:
    return [(lambda value=value: value, form) for value, form in PY_SCALARS]


def jnp_function(op: str, kw: dict) -> Callable:
    """The ``jax.numpy`` call of ``op`` with keywords ``kw`` (our names:
    ``dtype`` is a contraction's ``preferred_element_type``)."""
    kw = {k: (np.dtype(v) if k == "dtype" else v) for k, v in kw.items()}
    if op in CONTRACTIONS:
        if "dtype" in kw:
            kw = {"preferred_element_type": kw.pop("dtype")}
        if op == "einsum":
            return lambda a, b: jnp.einsum("ij,jk->ik", a, b, **kw)
        return lambda a, b: getattr(jnp, op)(a, b, **kw)
    if op in ("concatenate", "stack"):
        return lambda *xs: getattr(jnp, op)(list(xs), **kw)
    return lambda *xs: getattr(jnp, op)(*xs, **kw)


def traced(fn: Callable, values: list) -> tuple[Callable, list]:
    """``fn`` on ``values`` as a function of the arrays among them, and
    those arrays' abstract arguments."""
    structs = [jax.ShapeDtypeStruct((2, 2), v.dtype) for v in values
               if isinstance(v, Ones)]

    def body(*given):
        given = iter(given)
        return fn(*[next(given) if isinstance(v, Ones) else v
                    for v in values])
    return body, structs


# The operations whose calls JAX checks further when it lowers them:
# ``argmax``/``argmin`` of a complex array trace (``eval_shape`` answers
# the index type) but their comparison refuses complex at lowering (``gt
# does not accept dtype complex64 ...``), the error a user sees. A survey
# lowering every operation of both files on arrays of each dtype (x64 off
# and on, 2,352 calls that trace) found no other type check at lowering:
# the other failures were StableHLO's verifier refusing 1-bit integers,
# as it refuses ``uint1 + uint1``, a backend's gap the elementwise files
# do not record either. Lowering only these keeps the run's time.
LOWERED = ("argmax", "argmin")


def caller(function_of: Callable[[str, dict], Callable]) -> tuple:
    """``(call, computes)`` of the functions ``function_of(op, kw)``
    gives: the answer of a call, and the dtype its reduction runs in;
    both raise what JAX raises, lowering the calls of ``LOWERED``."""
    def checked(op: str, values: list, kw: dict) -> tuple:
        body, structs = traced(function_of(op, kw), values)
        if op in LOWERED:
            try:
                jax.jit(body).lower(*structs)
            except TypeError:
                raise  # a primitive's dtype rule: the answer
            except ValueError as e:
                # StableHLO's verifier on 1-bit integers: the backend's
                # gap, not a type rule (see LOWERED).
                if "verifier errors" not in str(e):
                    raise
        return body, structs

    def call(op: str, values: list, kw: dict) -> str:
        body, structs = checked(op, values, kw)
        out = jax.eval_shape(body, *structs)
        return typed(ours(str(out.dtype)), bool(out.weak_type))

    def computes(op: str, values: list, kw: dict) -> str | None:
        body, structs = checked(op, values, kw)
        return first_reducer(jax.make_jaxpr(body)(*structs).jaxpr)
    return call, computes


call, computes = caller(jnp_function)


def first_reducer(jaxpr: Any) -> str | None:
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name in REDUCERS:
            return ours(str(eqn.invars[0].aval.dtype))
        if name == "dot_general":
            return ours(str(eqn.outvars[0].aval.dtype))
        for sub in nested(eqn.params):
            found = first_reducer(sub)
            if found is not None:
                return found
    return None


def nested(params: dict) -> list:
    """The jaxprs among an equation's parameters (``jit``'s ``jaxpr``)."""
    found = []
    for value in params.values():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            inner = getattr(item, "jaxpr", item)
            if hasattr(inner, "eqns"):
                found.append(inner)
    return found


def configure(x64: bool, promotion: str) -> None:
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", promotion)
    default_int = jax.eval_shape(lambda: jnp.asarray(2)).dtype
    assert default_int == np.dtype("int64" if x64 else "int32"), default_int


def keywords(op: str) -> list[dict]:
    kws = default_keywords(DTYPE_NAMES)(op)
    if op in ("sum", "prod", "cumsum", "cumprod"):
        kws += [{"promote_integers": False}, {"promote_integers": True}]
    return kws


def gen_jax(every_row: bool = False, quick: bool = False) -> Table:
    """Every operation in the four configurations; with ``dtype=``, the
    rows the module docstring ("Size") says, the rest checked. ``quick``:
    x64 off and standard promotion alone, the contractions and
    ``full_like`` with ``dtype=`` each of ``QUICK_DTYPES``, nothing
    checked."""
    table = Table()
    arrs, scals = arrays(), scalars()
    fill_firsts = [a for a in arrs if a[1]["dtype"] in FULL_LIKE_FIRSTS]
    no_keywords = lambda op: [{}]  # noqa: E731
    with_dtype = lambda op: default_keywords(DTYPE_NAMES)(op)[1:]  # noqa: E731
    quick_keywords = lambda op: [{}, *({"dtype": d} for d in QUICK_DTYPES)]  # noqa: E731
    configs = [(False, "standard")] if quick else [
        (x64, promotion) for x64 in (False, True)
        for promotion in ("standard", "strict")]
    for x64, promotion in configs:
        configure(x64, promotion)
        config = {"x64": x64, "promotion": promotion}
        for op in ARRAY_OPS:
            reporter = computes if op in REDUCTIONS else None
            if quick and op in CONTRACTIONS + ["full_like"]:
                record_array_ops(table, "jax", arrs, scals, call, [op],
                                 quick_keywords, reporter, **config)
                continue
            if every_row or op not in CONTRACTIONS + ["full_like"]:
                record_array_ops(table, "jax", arrs, scals, call, [op],
                                 keywords, reporter, **config)
                continue
            record_array_ops(table, "jax", arrs, scals, call, [op],
                             no_keywords, reporter, **config)
            if op == "full_like":
                full_like_rows(table, "jax", call, fill_firsts,
                               arrs + scals, with_dtype(op), **config)
            elif op == "matmul" and promotion == "standard":
                record_array_ops(table, "jax", arrs, scals, call, [op],
                                 with_dtype, **config)
        if not (every_row or quick):
            check_left_out(table, arrs, scals, x64, promotion)
    configure(False, "standard")
    return table


def full_like_rows(table: Table, policy: str, call: Callable,
                   firsts: list, operands: list, kws: list[dict],
                   **config: Any) -> None:
    """``full_like``'s rows with ``dtype=``: per keyword set, a row per
    array of ``firsts`` over every operand as the fill value (the
    header's operands, as the other rows)."""
    for kw in kws:
        for make_a, form_a in firsts:
            row = [table.answer(lambda m=m: call("full_like", [make_a(), m()], kw))
                   for m, _ in operands]
            table.row("full_like", policy, row, a=form_a, **config, **kw)


def answer_of(call: Callable, op: str, values: list, kw: dict) -> Any:
    """``call``'s answer, an error as ``(type, message)`` (the key of a
    ``Table``'s error)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # as Table.answer: not answers
            return call(op, values, kw)
    except Exception as e:  # noqa: BLE001 - an error is an answer
        return (golden_io.error_type(e), str(e))


def check_left_out(table: Table, arrs: list, scals: list, x64: bool,
                   promotion: str) -> None:
    """What the rows with ``dtype=`` leave out answers as those written
    (``jnp.matmul``'s under standard promotion, read back from
    ``table``): ``jnp.dot``, ``jnp.tensordot`` and ``jnp.einsum`` as
    ``jnp.matmul``, ``jnp.matmul`` under strict promotion as under
    standard; with x64 off, a contraction computes in
    its result's type and ``full_like`` on any array answers as on
    ``bool``'s. Run after the configuration's rows."""
    errors = {number: key for key, number in table.errors.items()}
    written = {(line["a"]["dtype"], line["dtype"]):
               [errors.get(a, a) if isinstance(a, int) else a
                for a in line["answers"]]
               for line in table.lines
               if line.get("fn") == "matmul" and "dtype" in line
               and line["x64"] == x64}

    for name in DTYPE_NAMES:
        kw = {"dtype": name}
        for make_a, form_a in arrs:
            for j, (make_b, _) in enumerate(arrs):
                a, b = make_a(), make_b()
                matmul = written[(form_a["dtype"], name)][j]
                if promotion == "strict":
                    assert answer_of(call, "matmul", [a, b], kw) == matmul, (a, b)
                    continue
                for op in ("dot", "tensordot", "einsum"):
                    assert answer_of(call, op, [a, b], kw) == matmul, (op, a, b)
                if isinstance(matmul, str) and not x64:
                    assert computes("matmul", [a, b], kw) == matmul, (a, b)
            if promotion == "standard" and not x64:
                for make_v, _ in arrs + scals:
                    assert (answer_of(call, "full_like", [make_a(), make_v()], kw)
                            == answer_of(call, "full_like",
                                         [arrs[0][0](), make_v()], kw))


# The ``jax.lax`` function of each operation that has one; ``dtype`` is
# ``dot``'s and ``dot_general``'s ``preferred_element_type``, ``full_like``'s
# ``dtype``. ``argmax``'s ``index_dtype`` is ``int``, as ``jnp.argmax``
# passes it (the default integer).
LAX_FUNCTIONS = {
    "sum": "reduce_sum", "prod": "reduce_prod", "max": "reduce_max",
    "min": "reduce_min", "any": "reduce_or", "all": "reduce_and",
    "cumsum": "cumsum", "cumprod": "cumprod", "argmax": "argmax",
    "argmin": "argmin", "dot": "dot", "tensordot": "dot_general",
    "where": "select", "clip": "clamp", "concatenate": "concatenate",
    "stack": "stack", "full_like": "full_like",
}
LAX_MISSING = {
    "mean": "jax.lax has no mean (jnp.mean composes reduce_sum and div)",
    "var": "jax.lax has no variance",
    "std": "jax.lax has no standard deviation",
    "matmul": "jax.lax has no matmul: lax.dot is the dot line",
    "einsum": "jax.lax has no einsum (jnp.einsum composes dot_general)",
}
LAX_OPS = [op for op in ARRAY_OPS if op in LAX_FUNCTIONS]
assert set(LAX_OPS) | set(LAX_MISSING) == set(ARRAY_OPS)
# Where each reduction reduces: every axis of the 2-by-2 arrays, or the
# first for those that take one axis.
ALL_AXES = (0, 1)


def lax_function(op: str, kw: dict) -> Callable:
    """``jax.lax``'s call of ``op``: keywords it does not take are passed
    as they are (and refused by Python), ``clip``'s bounds placed around
    the array as ``lax.clamp(min, x, max)`` takes them."""
    kw = {k: (np.dtype(v) if k == "dtype" else v) for k, v in kw.items()}
    fn = getattr(lax, LAX_FUNCTIONS[op])
    if op in ("dot", "tensordot"):
        if "dtype" in kw:
            kw = {"preferred_element_type": kw.pop("dtype")}
        if op == "tensordot":  # jnp.tensordot's default axes=2
            return lambda a, b: fn(a, b, ((ALL_AXES, ALL_AXES), ((), ())), **kw)
        return lambda a, b: fn(a, b, **kw)
    if op in ("cumsum", "cumprod"):
        return lambda x: fn(x, 0, **kw)
    if op in ("argmax", "argmin"):
        return lambda x: fn(x, 0, int, **kw)
    if op in REDUCTIONS:
        return lambda x: fn(x, ALL_AXES, **kw)
    if op == "clip":
        return lambda x, *bounds: fn(bounds[0], x, *bounds[1:], **kw)
    if op == "concatenate":
        return lambda *xs: fn(list(xs), 0, **kw)
    if op == "stack":
        return lambda *xs: fn(list(xs), **kw)
    return lambda *xs: fn(*xs, **kw)


call_lax, computes_lax = caller(lax_function)


def lax_keywords(op: str, every_row: bool = False) -> list[dict]:
    """``dtype=`` where the function takes it (``lax.dot``'s every one;
    ``lax.dot_general``'s and ``lax.full_like``'s with ``every_row``, else
    the module docstring's "Size" rows); one ``dtype=`` and one
    ``promote_integers=`` elsewhere, to record how Python refuses it."""
    if op == "dot" or (every_row and op in ("tensordot", "full_like")):
        return default_keywords(DTYPE_NAMES)(op)
    if op in ("tensordot", "full_like"):
        return [{}]
    kws = [{}]
    if op in TAKES_DTYPE:
        kws.append({"dtype": "float32"})
    if op in ("sum", "prod", "cumsum", "cumprod"):
        kws.append({"promote_integers": False})
    return kws


def gen_jax_lax(every_row: bool = False) -> Table:
    """x64 off and on, standard promotion: the generator checks that
    strict promotion answers every recorded call alike, and (but with
    ``every_row``) that the calls the rows with ``dtype=`` leave out
    answer as recorded ones."""
    table = Table()
    arrs = [(make, form["dtype"]) for make, form in arrays()]
    fill_firsts = [a for a in arrs if a[1] in FULL_LIKE_FIRSTS]
    for x64 in (False, True):
        tables = []
        for promotion in ("standard", "strict"):
            configure(x64, promotion)
            tables.append(Table())
            for op in LAX_OPS:
                reporter = computes_lax if (
                    op in REDUCTIONS or op in CONTRACTIONS) else None
                # lax.select takes cases of one shape: a Python scalar
                # beside a 2-by-2 array is refused for its shape.
                scals = [] if op == "where" else scalars()
                start = len(tables[-1].lines)
                record_array_ops(tables[-1], "jax-lax", arrs, scals,
                                 call_lax,
                                 [op], lambda op: lax_keywords(op, every_row),
                                 reporter, x64=x64, promotion="standard")
                if op == "where":
                    for line in tables[-1].lines[start:]:
                        if "answers" in line:
                            line["over"] = "arrays"
                if op == "full_like" and not every_row:
                    full_like_rows(tables[-1], "jax-lax", call_lax,
                                   fill_firsts, arrs + scals,
                                   default_keywords(DTYPE_NAMES)(op)[1:],
                                   x64=x64, promotion="standard")
            if promotion == "standard" and not every_row:
                check_lax_left_out(tables[-1], arrs, scalars())
        assert answers(tables[0]) == answers(tables[1]), \
            f"strict promotion changes jax.lax's answers (x64={x64})"
        for line in tables[0].lines:
            if "answers" in line:
                line["answers"] = [renumbered(table, tables[0], a)
                                   for a in line["answers"]]
                table.lines.append(line)
    configure(False, "standard")
    return table


def check_lax_left_out(table: Table, arrs: list, scals: list) -> None:
    """What the lax rows with ``dtype=`` leave out answers as those
    written (read back from ``table``, one configuration's): every
    ``lax.dot_general`` as ``lax.dot`` on the same operands (answer and
    computation type), and ``lax.full_like`` on every array as on
    ``bool``'s (with ``dtype=`` it reads only the array's shape)."""
    errors = {number: key for key, number in table.errors.items()}

    def read(answers: list) -> list:
        return [errors.get(a, a) if isinstance(a, int) else a
                for a in answers]

    def computed(values: list, kw: dict) -> str | None:
        try:
            return computes_lax("tensordot", values, kw)
        except Exception:  # noqa: BLE001 - a call that fails computes nothing
            return None

    dots = {(line["a"], line["dtype"]): line for line in table.lines
            if line.get("fn") == "dot" and "dtype" in line}
    fills = {line["dtype"]: read(line["answers"]) for line in table.lines
             if line.get("fn") == "full_like" and "dtype" in line
             and line["a"] == "bool"}
    for name in DTYPE_NAMES:
        kw = {"dtype": name}
        for make_a, form_a in arrs:
            dot = dots[(form_a, name)]
            for j, ((make_b, _), answer) in enumerate(
                    zip(arrs, read(dot["answers"]))):
                values = [make_a(), make_b()]
                assert answer_of(call_lax, "tensordot", values, kw) == answer, \
                    ("tensordot", values, kw)
                assert computed(values, kw) == dot["computes"][j], \
                    ("tensordot", values, kw)
            if form_a in FULL_LIKE_FIRSTS:
                continue
            for (make_v, _), answer in zip(arrs + scals, fills[name]):
                values = [make_a(), make_v()]
                assert answer_of(call_lax, "full_like", values, kw) == answer, \
                    ("full_like", values, kw)


def answers(table: Table) -> list:
    """Every answer of the table's lines, errors as ``(type, message)``."""
    errors = {number: key for key, number in table.errors.items()}
    return [[errors[a] if isinstance(a, int) else a for a in line["answers"]]
            for line in table.lines if "answers" in line]


def renumbered(into: Table, source: Table, answer: Any) -> Any:
    """An answer of ``source`` as ``into`` numbers its errors."""
    if not isinstance(answer, int):
        return answer
    errors = {number: key for key, number in source.errors.items()}
    return into.error(*errors[answer])


def main(argv: list[str] | None = None) -> None:
    def options(parser: Any) -> None:
        parser.add_argument(
            "--every-row", action="store_true",
            help="write the rows left out too (some 15 MB), for study")
        only = parser.add_mutually_exclusive_group()
        only.add_argument(
            "--quick", action="store_true",
            help="array_ops_jax alone, x64 off and standard promotion, "
                 "a few dtype= for the contractions and full_like")
        only.add_argument(
            "--lax-only", action="store_true",
            help="array_ops_jax_lax alone (array_ops_jax untouched)")
    args = parse_args(__doc__, argv, options)
    out_dir = args.out
    if not args.lax_only:
        head = generate_jax_lax.header(GENERATOR)
        assert head["header"]["platform"] == "cpu", head
        operands = header_operands(arrays(), scalars())
        head["header"]["arrays"] = operands["arrays"]
        if not (args.every_row or args.quick):
            head["header"]["full_like_firsts"] = FULL_LIKE_FIRSTS
        write_op_table(out_dir / "array_ops_jax.jsonl", head,
                       operands["operands"],
                       gen_jax(args.every_row, args.quick))
    if args.quick:
        return
    lax_head = generate_jax_lax.header(GENERATOR)
    assert lax_head["header"]["platform"] == "cpu", lax_head
    lax_operands = header_operands(
        [(m, f["dtype"]) for m, f in arrays()], scalars())
    lax_head["header"]["arrays"] = lax_operands["arrays"]
    if not args.every_row:
        lax_head["header"]["full_like_firsts"] = FULL_LIKE_FIRSTS
    lax_head["header"]["functions"] = {
        op: f"lax.{LAX_FUNCTIONS[op]}" for op in LAX_OPS}
    lax_head["header"]["missing"] = LAX_MISSING
    write_op_table(out_dir / "array_ops_jax_lax.jsonl", lax_head,
                   lax_operands["operands"], gen_jax_lax(args.every_row))


if __name__ == "__main__":
    main()
