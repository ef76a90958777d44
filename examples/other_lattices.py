"""Checks the promotion lattices other projects write as JAX does, Keras 3's
and tinygrad's, and checks them against the real libraries' answers.

Both projects write their promotion rules as a dict of lists, each dtype
mapped to the dtypes it promotes to, after JEP 9407 and JAX's ``dtypes.py``,
and both compute a promotion as the least upper bound on that graph. The
dicts below are written out here from their sources (which dtype promotes to
which: facts, not their code) and passed straight to ``dl.Lattice``.

    python examples/other_lattices.py

prints what ``check`` and ``audit`` find and exits 1 if an expectation fails.
Expectations come from the projects' own sources (comments, priorities), from
a second computation here that does not use dtype_lattice (the upper bounds
of each node by plain Python, and value ranges from NumPy and ml_dtypes), and
from the real libraries: every answer that Keras 3.15.1 and tinygrad 0.14.0
gave for two dtypes or Python types, as ``conformance/generate_keras.py`` and
``conformance/generate_tinygrad.py`` and ``generate_ops_tinygrad.py`` recorded
them in ``conformance/golden/``,
must be the join the written graph gives (tinygrad: the smallest common upper
bound in its ``DType`` order; Keras: the join, its weak result given floatx's
precision and a 64-bit result cut to 32 bits as its ``result_type`` does).
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

import dtype_lattice as dl

# keras/src/backend/common/dtypes.py, _type_promotion_lattice(), as read at
# keras-team/keras commit 01a4a576bcf765dcce90b79e33297561982df460 (the same
# dict at 9dbbc72adef6332a1742742b3c4cb7b7ba2d47af). Its comment: "We
# adapted the type promotion lattice from JAX". "int" and "float" are its
# weak types (WEAK_TYPES); it has no weak complex.
KERAS = {
    "bool": ["int"],
    "uint8": ["int16", "uint16"],
    "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"],
    "uint64": ["float"],
    "int": ["uint8", "int8", "complex64"],
    "int8": ["int16"],
    "int16": ["int32"],
    "int32": ["int64"],
    "int64": ["float"],
    "float": ["bfloat16", "float16"],
    "bfloat16": ["float32"],
    "float16": ["float32"],
    "float32": ["float64", "complex64"],
    "float64": ["complex128"],
    "complex64": ["complex128"],
    "complex128": [],
}
# A weak result becomes a concrete dtype by _resolve_weak_type(dtype,
# precision=config.floatx()[-2:]); floatx defaults to "float32"
# (keras/src/backend/config.py), so weak int is int32 and weak float float32.
KERAS_WEAK = {"int": "int32", "float": "float32"}

# tinygrad/dtype.py, promo_lattice, as tinygrad 0.14.0 ships it (it cites
# JEP 9407). Labels are tinygrad's attribute names; "weakint" and
# "weakfloat" are its weak types, the dtypes of a Python int and float.
TINYGRAD = {
    "bool": ["weakint"],
    "weakint": ["int8", "uint8"],
    "int8": ["int16"],
    "int16": ["int32"],
    "int32": ["int64"],
    "int64": ["weakfloat"],
    "uint8": ["int16", "uint16"],
    "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"],
    "uint64": ["weakfloat"],
    "weakfloat": ["fp8e4m3", "fp8e5m2", "fp8e4m3fnuz", "fp8e5m2fnuz"],
    "fp8e4m3": ["float16", "bfloat16"],
    "fp8e5m2": ["float16", "bfloat16"],
    "fp8e4m3fnuz": ["float16", "bfloat16"],
    "fp8e5m2fnuz": ["float16", "bfloat16"],
    "float16": ["float32"],
    "bfloat16": ["float32"],
    "float32": ["float64"],
}
# A weak result is stored as tinygrad's DEFAULT_INT and DEFAULT_FLOAT.
TINYGRAD_WEAK = {"weakint": "int32", "weakfloat": "float32"}
# tinygrad's fp8e4m3 is the OCP format without infinities ("e4m3 don't
# support inf"; largest finite 0x7E, 448), which ml_dtypes calls
# float8_e4m3fn; its float8_e4m3 is another (IEEE-style) format.
TINYGRAD_FP8 = {
    "fp8e4m3": "float8_e4m3fn",
    "fp8e5m2": "float8_e5m2",
    "fp8e4m3fnuz": "float8_e4m3fnuz",
    "fp8e5m2fnuz": "float8_e5m2fnuz",
}
# The same file at the older commit c212f85ec25449f3bde51f1c0c247c3cbb34d19f:
# no weak type, no fp8, and 64-bit integers promote straight to the 16-bit
# floats. Its comment: "bfloat16 has higher priority than float16, so
# least_upper_dtype(dtypes.int64, dtypes.uint64) = dtypes.float16".
TINYGRAD_OLD = {
    "bool": ["int8", "uint8"],
    "int8": ["int16"],
    "int16": ["int32"],
    "int32": ["int64"],
    "int64": ["float16", "bfloat16"],
    "uint8": ["int16", "uint16"],
    "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"],
    "uint64": ["float16", "bfloat16"],
    "float16": ["float32"],
    "bfloat16": ["float32"],
    "float32": ["float64"],
}
# tinygrad's least_upper_dtype is min() of the common upper bounds, DTypes
# ordered by (priority, bitsize, name, ...) as dtype.py creates them with
# DType.new(priority, bitsize, name, fmt). Where the graph has one least
# upper bound the order agrees with it; where it has several, min() picks
# one. (The older commit numbers its dtypes 0 to 12 in the same order.)
TINYGRAD_ORDER = {
    "bool": (0, 1, "bool"), "weakint": (0, 800, "weakint"),
    "int8": (1, 8, "signed char"), "uint8": (2, 8, "unsigned char"),
    "int16": (3, 16, "short"), "uint16": (4, 16, "unsigned short"),
    "int32": (5, 32, "int"), "uint32": (6, 32, "unsigned int"),
    "int64": (7, 64, "long"), "uint64": (8, 64, "unsigned long"),
    "weakfloat": (9, 800, "weakfloat"),
    "fp8e4m3": (10, 8, "float8_e4m3"), "fp8e5m2": (11, 8, "float8_e5m2"),
    "fp8e4m3fnuz": (10, 8, "float8_e4m3fnuz"), "fp8e5m2fnuz": (11, 8, "float8_e5m2fnuz"),
    "float16": (12, 16, "half"), "bfloat16": (13, 16, "__bf16"),
    "float32": (14, 32, "float"), "float64": (15, 64, "double"),
}

FAILURES: list[str] = []


def expect(condition: bool, what: str) -> None:
    """Records an expectation (not assert: it must hold under python -O)."""
    if not condition:
        FAILURES.append(what)
        print(f"  EXPECTATION FAILED: {what}")


# --- A second computation of the order, in plain Python -------------------

def upper_bounds(edges: dict) -> dict[str, set[str]]:
    """Every node's upper bounds (itself included), by following edges."""
    nodes = set(edges) | {n for targets in edges.values() for n in targets}
    bounds = {}
    for node in nodes:
        seen, stack = {node}, [node]
        while stack:
            for up in edges.get(stack.pop(), []):
                if up not in seen:
                    seen.add(up)
                    stack.append(up)
        bounds[node] = seen
    return bounds


def minimal_common(bounds: dict, a: str, b: str) -> set[str]:
    """The minimal common upper bounds of a and b: one is their join, none
    means no upper bound, several mean no least one."""
    common = bounds[a] & bounds[b]
    return {c for c in common if not any(d != c and c in bounds[d] for d in common)}


def implied_edges(edges: dict) -> list[tuple[str, str]]:
    """Edges that other paths already imply (the Hasse diagram drops them)."""
    bounds = upper_bounds(edges)
    return [(a, b) for a, targets in edges.items() for b in targets
            if any(b in bounds[c] for c in targets if c != b)]


def tinygrad_picks_minimal(edges: dict) -> bool:
    """Whether tinygrad's min() always gives a minimal common upper bound:
    the join where there is one, one of the candidates where there are
    several."""
    bounds = upper_bounds(edges)
    return all(min(bounds[a] & bounds[b], key=TINYGRAD_ORDER.__getitem__)
               in minimal_common(bounds, a, b)
               for a, b in itertools.combinations(bounds, 2) if bounds[a] & bounds[b])


def tinygrad_groupings(edges: dict) -> dict[tuple, tuple[str, str]]:
    """Every (a, b, c) whose two groupings differ under tinygrad's rule
    (min() of the common upper bounds in TINYGRAD_ORDER), with
    ((a, b), c)'s result and (a, (b, c))'s."""
    bounds = upper_bounds(edges)
    promote = lambda a, b: min(bounds[a] & bounds[b], key=TINYGRAD_ORDER.__getitem__)
    out = {}
    for a, b, c in itertools.product(sorted(bounds), repeat=3):
        first, second = promote(promote(a, b), c), promote(a, promote(b, c))
        if first != second:
            out[a, b, c] = (first, second)
    return out


def print_groupings(triples: dict) -> None:
    """Prints how many triples group two ways, and the first two."""
    print(f"  under tinygrad's min(), {len(triples)} ordered triples group differently, e.g.")
    for (a, b, c), (first, second) in list(triples.items())[:2]:
        print(f"    ({a} + {b}) + {c} = {first} but {a} + ({b} + {c}) = {second}")


def value_range(dtype: str) -> tuple[float, float]:
    """A dtype's smallest and largest finite values (bool is 0 and 1)."""
    if dtype == "bool":
        return 0, 1
    np_dtype = np.dtype(getattr(ml_dtypes, dtype, None) or dtype)
    if np_dtype.kind in "iu":
        info = np.iinfo(np_dtype)
        return int(info.min), int(info.max)
    top = float(ml_dtypes.finfo(np_dtype).max)
    return -top, top


# --- Checking one project's dict ------------------------------------------

def examine(title: str, edges: dict, lattice: dl.Lattice, dtypes: dict[str, str],
            weak: set[str]) -> tuple[dl.CheckReport, dl.AuditReport]:
    """Prints what check and audit find, and holds them to the plain-Python
    order and NumPy's ranges. ``dtypes`` maps each label to its dtype name."""
    report, audit = lattice.check(max_examples=1000), lattice.audit()
    bounds = upper_bounds(edges)
    pairs = list(itertools.combinations(lattice.nodes, 2))
    minimal = {frozenset(p): minimal_common(bounds, *p) for p in pairs}

    print(f"{title}: {len(lattice.nodes)} nodes")
    print(f"  {'a lattice' if report.is_lattice else 'NOT a lattice'}; where the join is"
          f" defined it is {'' if report.commutative else 'not '}commutative and"
          f" {'' if report.associative else 'not '}associative")
    for ambiguity in report.ambiguous:
        print(f"  {' and '.join(ambiguity.pair)}: no least upper bound, "
              f"candidates {', '.join(ambiguity.candidates)}")
    if report.no_upper_bound:
        print(f"  {report.no_upper_bound_count} pairs with no upper bound")
    implied = implied_edges(edges)
    if implied:
        print("  edges other paths imply: " + ", ".join(f"{a} -> {b}" for a, b in implied))
    print(f"  audit of its {audit.pairs} pairs of dtypes:")
    for criterion, findings in audit.findings.items():
        shown = ", ".join(f"{a}+{b}->{j}" for a, b, j in findings[:4])
        more = " ..." if len(findings) > 4 else ""
        print(f"    {criterion}: {len(findings)}" + (f" ({shown}{more})" if findings else ""))

    # The library's verdicts, pair by pair, against the plain-Python order.
    expect({frozenset(a.pair): set(a.candidates) for a in report.ambiguous}
           == {p: m for p, m in minimal.items() if len(m) > 1},
           f"{title}: ambiguous pairs as the upper bounds say")
    expect({frozenset(p) for p in report.no_upper_bound}
           == {p for p, m in minimal.items() if not m},
           f"{title}: pairs with no upper bound as the upper bounds say")
    for a, b in pairs:
        if len(minimal[frozenset((a, b))]) == 1:
            expect({lattice.join(a, b)} == minimal[frozenset((a, b))], f"{title}: {a} v {b}")
    expect(report.is_lattice == all(len(m) <= 1 for m in minimal.values()),
           f"{title}: is_lattice as the upper bounds say")

    # Overflow, by NumPy's and ml_dtypes' ranges: a pair of strong dtypes
    # whose join cannot hold every value of an input.
    overflow = set()
    for a, b in pairs:
        join = minimal[frozenset((a, b))]
        if a in weak or b in weak or len(join) != 1 or next(iter(join)) not in dtypes:
            continue
        low, high = value_range(dtypes[next(iter(join))])
        if any(value_range(dtypes[t])[0] < low or value_range(dtypes[t])[1] > high for t in (a, b)):
            overflow.add(frozenset((a, b)))
    expect({frozenset(f[:2]) for f in audit["overflow"]} == overflow,
           f"{title}: overflows as NumPy's ranges say")
    print()
    return report, audit


# --- The real libraries' answers, as the generators recorded them --------

GOLDEN = Path(__file__).resolve().parents[1] / "conformance" / "golden"


def golden_pairs(name: str):
    """Every call line of two operands in a golden file."""
    with (GOLDEN / name).open(encoding="utf-8") as f:
        next(f)  # the header
        for text in f:
            call = json.loads(text)
            if len(call["args"]) == 2:
                yield call


def golden_adds(name: str):
    """Every ``add`` of two operands in a golden op table (the format of
    ``conformance/golden_ops.py``): the cells of its ``add`` rows, as call
    lines, and the call lines it carries after them."""
    with (GOLDEN / name).open(encoding="utf-8") as f:
        header = json.loads(next(f))["header"]
        errors = []
        for text in f:
            row = json.loads(text)
            if "answer" in row:
                if row["fn"] == "add" and len(row["args"]) == 2:
                    yield row
            elif "answers" not in row:
                errors.append({"type": row["type"], "message": row["message"]})
            elif row["fn"] == "add":
                settings = {k: v for k, v in row.items()
                            if k not in ("a", "answers", "deviations")}
                for b, answer in zip(row_operands(header, row), row["answers"]):
                    if isinstance(answer, int):
                        recorded = {"error": errors[answer]}
                    else:
                        recorded = {"ok": {"dtype": answer.removesuffix(" (weak)"),
                                           "weak": answer.endswith(" (weak)")}}
                    yield {**settings, "args": [row["a"], b], "answer": recorded}


def row_operands(header: dict, row: dict) -> list:
    """The operands a row's answers line up with: its settings' entry of
    ``operands_at``, else the header's ``operands``."""
    for entry in header.get("operands_at", []):
        if all(row.get(k) == v for k, v in entry.items() if k != "operands"):
            return entry["operands"]
    return header["operands"]


def tinygrad_label(arg, stored: dict[str, str]) -> str | None:
    """The graph's label for a recorded operand: a tensor of a dtype
    tinygrad has, a weak tensor (Tensor(2), Tensor(2.0), of the default
    dtypes ``stored``) or a Python scalar (dtypes.from_py); None for
    anything else."""
    if isinstance(arg, dict):
        weak = {v: k for k, v in stored.items()}
        return weak.get(arg["dtype"]) if arg.get("weak") else None
    if not isinstance(arg, str):
        return None
    scalars = {"py:int": "weakint", "py:float": "weakfloat", "py:bool": "bool"}
    label = scalars.get(arg) or {v: k for k, v in TINYGRAD_FP8.items()}.get(arg, arg)
    return label if label in TINYGRAD_ORDER else None


def check_tinygrad_answers() -> None:
    """tinygrad's `x + y` on every recorded pair the graph covers is the
    smallest common upper bound in its DType order, a weak one stored as
    the call's DEFAULT_INT or DEFAULT_FLOAT."""
    bounds = upper_bounds(TINYGRAD)
    checked, wrong = 0, []
    for call in golden_adds("ops_tinygrad.jsonl"):
        stored = {"weakint": call.get("tinygrad_default_int", TINYGRAD_WEAK["weakint"]),
                  "weakfloat": call.get("tinygrad_default_float", TINYGRAD_WEAK["weakfloat"])}
        labels = [tinygrad_label(arg, stored) for arg in call["args"]]
        if None in labels or all(isinstance(a, str) and a.startswith("py:")
                                 for a in call["args"]):
            continue  # a dtype tinygrad lacks, or Python adding two scalars
        join = min(bounds[labels[0]] & bounds[labels[1]], key=TINYGRAD_ORDER.__getitem__)
        ours = {"dtype": stored.get(join) or TINYGRAD_FP8.get(join, join),
                "weak": join in stored}
        checked += 1
        if call["answer"] != {"ok": ours}:
            wrong.append((call["args"], call["answer"], ours))
    print(f"tinygrad 0.14.0's x + y on {checked} recorded pairs: "
          f"{checked - len(wrong)} as the written graph and min() give")
    expect(checked > 0 and not wrong, f"tinygrad: the real answers, first {wrong[:2]}")


def keras_label(arg, backend: str) -> str | None:
    """The graph's label for a recorded argument of Keras's result_type: a
    dtype name in the graph, or Python's int, float (weak), bool, complex."""
    complex_ = "complex128" if backend == "tensorflow" else "complex64"
    scalars = {"py:int": "int", "py:float": "float", "py:bool": "bool", "py:complex": complex_}
    label = scalars.get(arg, arg) if isinstance(arg, str) else None
    return label if label in KERAS else None


def check_keras_answers() -> None:
    """Keras's result_type on every recorded pair the graph covers, in every
    backend and floatx, is the graph's join with a weak result given
    floatx's precision and a 64-bit one cut to 32 bits
    (BIT64_TO_BIT32_DTYPE: int64 and float64 except on TensorFlow, uint64
    and complex128 always)."""
    bounds = upper_bounds(KERAS)
    checked, wrong = 0, []
    for call in golden_pairs("keras_result_type.jsonl"):
        backend, floatx = call["keras_backend"], call["floatx"]
        labels = [keras_label(arg, backend) for arg in call["args"]]
        if None in labels:
            continue  # a dtype Keras lacks, float8, a value or None
        (join,) = minimal_common(bounds, *labels)
        if join in ("int", "float"):
            join += {"float16": "16", "bfloat16": "16"}.get(floatx, floatx[-2:])
        cut = {"uint64": "uint32", "complex128": "complex64"}
        if backend != "tensorflow":
            cut.update({"int64": "int32", "float64": "float32"})
        ours = {"dtype": cut.get(join, join), "weak": False}
        checked += 1
        if call["answer"] != {"ok": ours}:
            wrong.append((backend, floatx, call["args"], call["answer"], ours))
    print(f"Keras 3.15.1's result_type on {checked} recorded pairs (3 backends, 4 floatx):"
          f" {checked - len(wrong)} as the written graph gives")
    expect(checked > 0 and not wrong, f"Keras: the real answers, first {wrong[:2]}")


def main() -> int:
    names = lambda edges: {n: n for n in upper_bounds(edges)}

    # Keras 3.
    keras = dl.Lattice(KERAS, weak=list(KERAS_WEAK), dtypes=KERAS_WEAK, name="Keras 3")
    report, _ = examine("Keras 3", KERAS, keras, {**names(KERAS), **KERAS_WEAK}, set(KERAS_WEAK))
    expect(report.is_lattice and not report.no_upper_bound, "Keras: a full lattice")
    # "adapted ... from JAX": every join is JAX's (x64 on, every dtype), with
    # Keras's int and float for JAX's i* and f*.
    jax = dl.policy("jax", x64=True).lattice
    as_jax = {"int": "i*", "float": "f*"}
    differ = [(a, b) for a, b in itertools.combinations(keras.nodes, 2)
              if as_jax.get(keras.join(a, b), keras.join(a, b))
              != jax.join(as_jax.get(a, a), as_jax.get(b, b))]
    print(f"  joins that differ from JAX's lattice: {differ or 'none'}\n")
    expect(differ == [], "Keras: JAX's joins")
    # Its int -> complex64 edge stands in for JAX's c*: already implied.
    expect(implied_edges(KERAS) == [("int", "complex64")], "Keras: int -> complex64 implied")

    # tinygrad, now.
    weak = list(TINYGRAD_WEAK)
    tinygrad = dl.Lattice(TINYGRAD, weak=weak, dtypes={**TINYGRAD_FP8, **TINYGRAD_WEAK},
                          name="tinygrad")
    dtypes = {**{n: n for n in upper_bounds(TINYGRAD)}, **TINYGRAD_FP8, **TINYGRAD_WEAK}
    report, audit = examine("tinygrad", TINYGRAD, tinygrad, dtypes, set(weak))
    fp8_pairs = {frozenset(p) for p in itertools.combinations(TINYGRAD_FP8, 2)}
    expect({frozenset(a.pair) for a in report.ambiguous} == fp8_pairs
           and all(set(a.candidates) == {"float16", "bfloat16"} for a in report.ambiguous),
           "tinygrad: the fp8 pairs meet at float16 or bfloat16")
    # min() settles each on float16 (priority 12 against 13); then, by hand:
    # (fp8e4m3 + fp8e5m2) + bfloat16 = float16 v bfloat16 = float32, but
    # fp8e4m3 + (fp8e5m2 + bfloat16) = fp8e4m3 v bfloat16 = bfloat16.
    expect(tinygrad_picks_minimal(TINYGRAD), "tinygrad: min() picks a minimal bound")
    triples = tinygrad_groupings(TINYGRAD)
    print_groupings(triples)
    expect(triples.get(("fp8e4m3", "fp8e5m2", "bfloat16")) == ("float32", "bfloat16"),
           "tinygrad: min() makes (fp8e4m3, fp8e5m2, bfloat16) group two ways")
    # int64 and uint64 both promote to the weak float, so a signed integer
    # with uint64 meets there.
    expect(tinygrad.join("int8", "uint64") == "weakfloat",
           "tinygrad: int8 with uint64 meets at the weak float")
    print()
    check_tinygrad_answers()
    check_keras_answers()
    print()

    # tinygrad, at the older commit.
    old = dl.Lattice(TINYGRAD_OLD, name="tinygrad (older)")
    report, _ = examine("tinygrad (older)", TINYGRAD_OLD, old, names(TINYGRAD_OLD), set())
    signed = {"int8", "int16", "int32", "int64"}
    expect({frozenset(a.pair) for a in report.ambiguous}
           == {frozenset((s, "uint64")) for s in signed}
           and all(set(a.candidates) == {"float16", "bfloat16"} for a in report.ambiguous),
           "tinygrad (older): each signed integer with uint64 meets at float16 or bfloat16")
    # Its comment: least_upper_dtype(int64, uint64) = float16; so
    # (int64 + uint64) + bfloat16 = float32 but int64 + (uint64 + bfloat16) = bfloat16.
    expect(tinygrad_picks_minimal(TINYGRAD_OLD), "tinygrad (older): min() picks a minimal bound")
    triples = tinygrad_groupings(TINYGRAD_OLD)
    print_groupings(triples)
    expect(triples.get(("int64", "uint64", "bfloat16")) == ("float32", "bfloat16"),
           "tinygrad (older): min() makes (int64, uint64, bfloat16) group two ways")
    print()

    if FAILURES:
        print(f"{len(FAILURES)} expectations failed")
        return 1
    print("every expectation held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
