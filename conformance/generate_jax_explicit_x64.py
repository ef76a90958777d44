#!/usr/bin/env python3
"""Golden data for ``jax_explicit_x64_dtypes``: ``warn``, ``error``, ``allow``.

Usage:
    python generate_jax_explicit_x64.py [--out DIR] [--per-length N]

Writes ``jax_explicit_x64.jsonl`` (DIR defaults to ``golden/`` next to this
script) from JAX 0.12.0.1 (``requirements-jax12.txt``, Python 3.12), in the
format ``generate_jax.py`` documents, with the operand encodings it
documents, and two additions:

* every call line has the key ``"explicit_x64_dtypes": MODE`` after
  ``"promotion"``;
* an answer has ``"warnings": [TEXT, ...]`` after ``"ok"`` or ``"error"``
  when the call warned (only then): ``str(w.message)`` of each warning in
  the order JAX issued it. Every warning is a ``UserWarning`` (checked), so
  only the text is recorded. The header says ``"records_warnings": true``.

What the mode does (``jax._src.dtypes._maybe_canonicalize_explicit_dtype``):
with x64 off, a 64-bit dtype that reaches ``dtypes.dtype()`` as a specifier
is truncated to 32 bits with a warning (``warn``), refused with a
``ValueError`` (``error``) or kept (``allow``). ``result_type`` and
``lattice_result_type`` pass each dtype specifier there, and the join of the
operands too (unless one operand, or one dtype, settles the answer), so a
join of 64-bit arrays is affected as well; ``safe_to_cast`` reads its input
twice and its output once. ``promote_types``, ``canonicalize_dtype`` and
``asarray`` of Python scalars never go there. With x64 on the mode does
nothing.

Which calls are recorded. Every call of ``generate_jax.py``'s
``result_type``, ``lattice_result_type`` (every single operand and ordered
pair of its 101 operand forms, Python values, a few triples) and
``safe_to_cast`` files, and ``generate_jax_nary.py``'s seeded lists of 3 to 8
operands (``--per-length`` of each length, 20 by default), is made in all
three modes, both x64 settings and both promotions. Of these the file keeps,
in all three modes, the calls whose answer (warnings included) differs
between the modes with x64 off:

* ``result_type`` and ``safe_to_cast``: all of them;
* ``lattice_result_type``: those where it answers otherwise than
  ``result_type`` in some mode (weak results, ``None``); the generator
  checks that the rest answer as ``result_type`` does;
* with x64 on, standard promotion, ``result_type`` on those that are pairs of
  dtype specifiers and Python types, or longer lists.

The generator checks that every call it leaves out answers alike in all
three modes, and that with x64 on no call depends on the mode. Whole sets
are kept to show what the mode does not touch: ``promote_types`` on pairs of
the documentation's types with a 64-bit dtype among them (x64 off, both
promotions), ``canonicalize_dtype`` of every dtype and ``asarray`` of
Python values (x64 off); each must answer alike in all three modes.

The selection keeps the file near 5 MB; every call's answer in the
default mode is also in the other golden files (from JAX 0.10.2, which has
the same ``dtypes.py`` code and texts for this), without its warnings.

Determinism: as ``generate_jax.py`` (``PYTHONHASHSEED=0``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate_jax as base  # noqa: E402
import generate_jax_nary as nary  # noqa: E402
from golden_io import DTYPE_NAMES  # noqa: E402

from jax._src import config as jax_config  # noqa: E402

jax = base.jax
jnp = base.jnp
np = base.np
jax_dtypes = base.jax_dtypes

GENERATOR = "conformance/generate_jax_explicit_x64.py"
MODES = ["warn", "error", "allow"]
WIDE = ["int64", "uint64", "float64", "complex128"]


# --------------------------------------------------------------------------
# Configuration.

def set_mode(mode: str) -> None:
    jax.config.update("jax_explicit_x64_dtypes", mode)
    check_mode(mode)


def check_mode(mode: str) -> None:
    """Check that the mode really is in effect in JAX's dtype code."""
    assert (jax_config.explicit_x64_dtypes.value
            == jax_config.ExplicitX64Mode(mode)), mode
    old_x64 = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    try:
        got = answer(lambda: str(jax_dtypes.dtype(np.dtype("int64"))))
    finally:
        jax.config.update("jax_enable_x64", old_x64)
    if mode == "warn":
        assert got["ok"] == "int32" and len(got["warnings"]) == 1, got
    elif mode == "error":
        assert got["error"]["type"] == "ValueError", got
    else:
        assert got == {"ok": "int64"}, got


@contextlib.contextmanager
def mode_set(mode: str) -> Iterator[None]:
    old = jax_config.explicit_x64_dtypes.value
    set_mode(mode)
    try:
        yield
    finally:
        jax.config.update("jax_explicit_x64_dtypes", old)


# --------------------------------------------------------------------------
# Answers with their warnings.

def answer(call: Callable[[], Any]) -> dict:
    """{"ok": call()} or {"error": ...}, with "warnings" if any were issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = {"ok": call()}
        except Exception as e:  # noqa: BLE001 - every exception is data here
            result = {"error": {"type": type(e).__name__, "message": str(e)}}
    for w in caught:
        assert w.category is UserWarning, (w.category, str(w.message))
    if caught:
        result["warnings"] = [str(w.message) for w in caught]
    return result


def line(fn: str, args: list, x64: bool, promotion: str, mode: str,
         result: dict) -> dict:
    return {"fn": fn, "args": args, "x64": x64, "promotion": promotion,
            "explicit_x64_dtypes": mode, "answer": result}


def answers(fn: str, call: Callable, calls: list[list], x64: bool,
            promotion: str) -> dict[str, list[dict]]:
    """The answer to each call in each mode, under one configuration."""
    out = {}
    with base.configured(x64, promotion):
        for mode in MODES:
            with mode_set(mode):
                out[mode] = [answer(lambda: call(*[op.value for op in ops]))
                             for ops in calls]
    return out


def alike(by_mode: dict[str, list[dict]], i: int) -> bool:
    """Whether call i got one answer in every mode."""
    return len({json.dumps(by_mode[m][i], sort_keys=True) for m in MODES}) == 1


# --------------------------------------------------------------------------
# The calls.

def differ(by_mode: dict[str, list[dict]]) -> list[int]:
    """The calls whose answer depends on the mode."""
    return [i for i in range(len(by_mode[MODES[0]])) if not alike(by_mode, i)]


def lines_for(fn: str, calls: list[list], by_mode: dict[str, list[dict]],
              indices: list[int], x64: bool, promotion: str) -> list[dict]:
    return [line(fn, [op.encoded for op in calls[i]], x64, promotion, mode,
                 by_mode[mode][i])
            for i in indices for mode in MODES]


def result_types(calls: list[list]) -> list[dict]:
    """result_type, and lattice_result_type where it answers otherwise than
    result_type, on the calls the mode changes (see the module docstring)."""
    lines = []
    for promotion in ("standard", "strict"):
        rt = answers("result_type", base.call_result_type, calls, False,
                     promotion)
        lrt = answers("lattice_result_type", base.call_lattice_result_type,
                      calls, False, promotion)
        keep = differ(rt)
        own = [i for i in differ(lrt)
               if any(lrt[m][i] != rt[m][i] for m in MODES)]
        # The rest of lattice_result_type's mode-dependent calls answer as
        # result_type's recorded ones.
        assert set(differ(lrt)) - set(own) <= set(keep)
        lines += lines_for("result_type", calls, rt, keep, False, promotion)
        lines += lines_for("lattice_result_type", calls, lrt, own, False,
                           promotion)
        for fn, call in (("result_type", base.call_result_type),
                         ("lattice_result_type",
                          base.call_lattice_result_type)):
            on = answers(fn, call, calls, True, promotion)
            assert not differ(on), (fn, promotion)
            if fn == "result_type" and promotion == "standard":
                lines += lines_for(fn, calls, on,
                                   [i for i in keep if shown_with_x64(calls[i])],
                                   True, promotion)
    return lines


def shown_with_x64(ops: list) -> bool:
    """Whether a call is recorded with x64 on too: lists of three or more,
    and pairs of dtype specifiers and Python types."""
    return len(ops) > 2 or all(isinstance(op.encoded, str) for op in ops)


def selected(fn: str, call: Callable, calls: list[list]) -> list[dict]:
    """The calls whose answer depends on the mode with x64 off, in every
    mode; with x64 on no call may depend on it."""
    lines = []
    for promotion in ("standard", "strict"):
        off = answers(fn, call, calls, False, promotion)
        lines += lines_for(fn, calls, off, differ(off), False, promotion)
        on = answers(fn, call, calls, True, promotion)
        assert not differ(on), (fn, promotion)
    return lines


def in_full(fn: str, call: Callable, calls: list[list],
            configs: list) -> list[dict]:
    """Every call in every mode; each must answer alike in all three."""
    lines = []
    for x64, promotion in configs:
        by_mode = answers(fn, call, calls, x64, promotion)
        assert not differ(by_mode), (fn, x64, promotion)
        lines += lines_for(fn, calls, by_mode, list(range(len(calls))), x64,
                           promotion)
    return lines


def safe_to_cast_calls(arrays: dict) -> list[list]:
    inputs = ([base.spec(n) for n in DTYPE_NAMES]
              + base.array_operands(arrays)
              + [base.pytype(n) for n in base.PYTHON_TYPES])
    outputs = [base.spec(n) for n in DTYPE_NAMES]
    return [[i, o] for i in inputs for o in outputs]


def promote_types_calls() -> list[list]:
    """Pairs of the documentation's types with a 64-bit dtype among them."""
    types = [base.node(n) for n in base.DOCS_TABLE_TYPES]
    return [[a, b] for a in types for b in types
            if a.encoded in WIDE or b.encoded in WIDE]


X32 = [(False, "standard"), (False, "strict")]
X32_STANDARD = [(False, "standard")]


def call_safe_to_cast(i: Any, o: Any) -> bool:
    return bool(jax_dtypes.safe_to_cast(i, o))


def call_promote_types(a: Any, b: Any) -> str:
    return base.dtype_name(jnp.promote_types(a, b))


def call_canonicalize_dtype(d: Any) -> str:
    return base.dtype_name(jax_dtypes.canonicalize_dtype(d))


def generate(arrays: dict, per_length: int) -> list[dict]:
    pairs = base.result_type_calls(arrays)
    lists = nary.operand_lists(arrays, per_length)
    return (result_types(pairs)
            + result_types(lists)
            + selected("safe_to_cast", call_safe_to_cast,
                       safe_to_cast_calls(arrays))
            + in_full("promote_types", call_promote_types,
                      promote_types_calls(), X32)
            + in_full("canonicalize_dtype", call_canonicalize_dtype,
                      [[base.spec(n)] for n in DTYPE_NAMES], X32_STANDARD)
            + in_full("asarray", base.call_asarray,
                      [[base.scalar(v)] for v in base.SINGLE_VALUES],
                      X32_STANDARD))


def dedupe(lines: list[dict]) -> list[dict]:
    """Drop repeated calls (a list drawn twice, the two spellings of
    "bool"); their answers must agree."""
    seen: dict[str, dict] = {}
    out = []
    for entry in lines:
        key = json.dumps([entry["fn"], entry["args"], entry["x64"],
                          entry["promotion"], entry["explicit_x64_dtypes"]])
        if key in seen:
            if seen[key] != entry["answer"]:
                raise RuntimeError(f"same call, different answers: {key}: "
                                   f"{seen[key]} vs {entry['answer']}")
            continue
        seen[key] = entry["answer"]
        out.append(entry)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "golden",
                        help="output directory (default: %(default)s)")
    parser.add_argument("--per-length", type=int, default=20,
                        help="lists per length 3..8 (default: %(default)s)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    base.check_dtypes_exist()
    head = base.header()
    head["header"]["generator"] = GENERATOR
    head["header"]["records_warnings"] = True
    assert head["header"]["platform"] == "cpu", head

    lines = dedupe(base.traced_arrays(
        lambda arrays: generate(arrays, args.per_length)))
    base.write_jsonl(args.out / "jax_explicit_x64.jsonl", head, lines)
    print(f"jax_explicit_x64.jsonl: {len(lines)} calls", file=sys.stderr)


if __name__ == "__main__":
    base.reexec_with_fixed_hash_seed()
    main()
