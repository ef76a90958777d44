#!/usr/bin/env python3
"""Side by side, on one machine in one run: what promotion costs in JAX,
NumPy, `dtype-lattice batch` and the dtype-lattice library.

Usage (from the repository root, Python 3.11):

    python -m venv .venv && .venv/bin/pip install -r bench/requirements.txt
    .venv/bin/python bench/compare.py [--sizes 64,256,1024] [--quick]

Part 1, promotion calls. The same inputs go to all four:

* ``promote_types`` on every ordered pair of 17 types: the 14 dtypes NumPy
  has natively and Python's ``int``, ``float``, ``complex``;
* ``result_type`` on seeded random lists of 1 to 8 operands drawn from those
  dtypes (as specifiers) and the Python values ``2``, ``2.0`` and the type
  ``complex``.

JAX 0.10.2 (``jnp.promote_types``, ``jax.dtypes.result_type``; x64 on, so
the 64-bit specifiers are taken as they are rather than truncated with a
warning, and standard promotion) and NumPy 2.4.6 (``np.promote_types``,
``np.result_type``) are timed call by call in a Python loop, beside a Python
floor: the same loop calling a function that looks the pair up in a dict.
``dtype-lattice batch`` (release build) gets the calls as JSON Lines on
stdin, repeated; its cost per call is the wall time less the time of a run
with no input. The library is timed by ``examples/side_by_side.rs`` beside its
own floor, a table load per operand. Every answer of the batch is checked
against JAX's.

Part 2, building a large lattice. For synthetic lattices from
``examples/scale.rs`` (the same graphs its table measures), JAX's own
algorithm runs on the graph: ``jax._src.dtypes._make_lattice_upper_bounds``
(upper-bound sets grown to a fixed point) and ``_least_upper_bound`` (set
intersections), called on the synthetic edge dict by swapping it in for
JAX's lattice for the duration. Those are JAX's private functions, pinned to
0.10.2. The least upper bound of every pair is timed for small graphs and
estimated from a sample of pairs for large ones (marked as an estimate).
Ours is ``Poset::new`` + ``Lattice::new`` on the same edges.

Numbers vary with the machine's load; compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax._src import config as jax_config  # noqa: E402
from jax._src import dtypes as jax_dtypes  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RELEASE = ROOT / "target" / "release"
DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
          "int32", "int64", "float16", "float32", "float64", "complex64",
          "complex128"]
PY_TYPES = {"int": int, "float": float, "complex": complex}
VALUES = {"2": 2, "2.0": 2.0}
SEED = 9407


# --------------------------------------------------------------------------
# Inputs, in the command-line notation, and as Python objects.

def python_value(word: str) -> Any:
    if word in PY_TYPES:
        return PY_TYPES[word]
    if word in VALUES:
        return VALUES[word]
    return np.dtype(word)


def json_value(word: str) -> Any:
    return VALUES.get(word, word)


def pairs() -> list[list[str]]:
    types = DTYPES + list(PY_TYPES)
    return [[a, b] for a in types for b in types]


def operand_lists(per_length: int) -> list[list[str]]:
    rng = random.Random(SEED)
    pool = DTYPES + list(VALUES) + ["complex"]
    return [[rng.choice(pool) for _ in range(length)]
            for length in range(1, 9) for _ in range(per_length)]


# --------------------------------------------------------------------------
# Timing.

def per_call(call: Callable, args: list[tuple], repeat: int = 5) -> float:
    """Nanoseconds per call of ``call(*a)`` over ``args``: best of
    ``repeat`` batches of about 0.2 s each."""
    def batch(loops: int) -> float:
        start = time.perf_counter()
        for _ in range(loops):
            for a in args:
                call(*a)
        return time.perf_counter() - start

    loops = 1
    while batch(loops) < 0.02:
        loops *= 2
    loops *= 10
    return min(batch(loops) for _ in range(repeat)) * 1e9 / (loops * len(args))


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, capture_output=True, text=True,
                          **kwargs)


def batch_ns(requests: list[dict], expected: list[str]) -> float:
    """Nanoseconds per request of ``dtype-lattice batch``, startup excluded;
    checks every answer's dtype against ``expected``."""
    binary = str(RELEASE / "dtype-lattice")
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    answers = [json.loads(a) for a in
               run([binary, "batch"], input=lines).stdout.splitlines()]
    got = [a["ok"]["dtype"] if isinstance(a["ok"], dict) else a["ok"]
           for a in answers]
    assert got == expected, "dtype-lattice batch disagrees with JAX"
    repeats = max(1, 200_000 // len(requests))
    with tempfile.TemporaryDirectory() as tmp:
        full, empty = Path(tmp, "full.jsonl"), Path(tmp, "empty.jsonl")
        full.write_text(lines * repeats)
        empty.write_text("")

        def wall(path: Path) -> float:
            with path.open() as stdin:
                start = time.perf_counter()
                subprocess.run([binary, "batch"], stdin=stdin, check=True,
                               stdout=subprocess.DEVNULL)
                return time.perf_counter() - start

        startup = min(wall(empty) for _ in range(5))
        total = min(wall(full) for _ in range(3))
    return (total - startup) * 1e9 / (repeats * len(requests))


def library_ns(calls: list[str]) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(calls) + "\n")
    try:
        out = run([str(RELEASE / "examples" / "side_by_side"), f.name]).stdout
    finally:
        os.unlink(f.name)
    return json.loads(out)


# --------------------------------------------------------------------------
# Part 1.

def promotion_calls(per_length: int) -> None:
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_numpy_dtype_promotion", "standard")
    pair_words = pairs()
    list_words = []
    for words in operand_lists(per_length):
        values = [python_value(w) for w in words]
        try:  # keep the lists every library answers
            jax_dtypes.result_type(*values)
            np.result_type(*values)
        except Exception:  # noqa: BLE001
            continue
        list_words.append(words)
    pair_args = [tuple(python_value(w) for w in p) for p in pair_words]
    list_args = [tuple(python_value(w) for w in ws) for ws in list_words]

    lookup = {a: None for a in pair_args + list_args}

    def floor(*values):
        return lookup.get(values)

    lib = library_ns([f"promote_types {a} {b}" for a, b in pair_words]
                     + [f"result_type {' '.join(ws)}" for ws in list_words])
    jax_promote = [str(jnp.promote_types(*a)) for a in pair_args]
    jax_result = [str(jax_dtypes.result_type(*a)) for a in list_args]
    rows = [
        ("promote_types", len(pair_args), {
            "Python floor (loop + dict lookup)": per_call(floor, pair_args),
            "JAX jnp.promote_types": per_call(jnp.promote_types, pair_args),
            "NumPy np.promote_types": per_call(np.promote_types, pair_args),
            "dtype-lattice batch (JSON Lines)": batch_ns(
                [{"fn": "promote_types", "args": p, "x64": True}
                 for p in pair_words],
                jax_promote),
            "library floor (table load)": lib["promote_types_floor"],
            "library Jax::promote_types": lib["promote_types"],
        }),
        ("result_type", len(list_args), {
            "Python floor (loop + dict lookup)": per_call(floor, list_args),
            "JAX jax.dtypes.result_type": per_call(jax_dtypes.result_type,
                                                   list_args),
            "NumPy np.result_type": per_call(np.result_type, list_args),
            "dtype-lattice batch (JSON Lines)": batch_ns(
                [{"fn": "result_type", "x64": True,
                  "args": [json_value(w) for w in ws]} for ws in list_words],
                jax_result),
            "library floor (table load per operand)": lib["result_type_floor"],
            "library Jax::result_type": lib["result_type"],
        }),
    ]
    print("## Promotion calls (x64 on, standard promotion)\n")
    for name, count, timings in rows:
        library = [v for k, v in timings.items() if k.startswith("library Jax")][0]
        print(f"### {name}: {count} calls, answers of the batch equal JAX's\n")
        print("| implementation | ns per call | x library |")
        print("| --- | ---: | ---: |")
        for label, ns in timings.items():
            print(f"| {label} | {ns:,.1f} | {ns / library:,.1f} |")
        print()


# --------------------------------------------------------------------------
# Part 2.

def emitted_graph(family: str, nodes: int) -> dict[str, list[str]]:
    out = run([str(RELEASE / "examples" / "scale"), "--emit", family,
               str(nodes)]).stdout.split("\n")
    count = int(out[0])
    lattice: dict[str, list[str]] = {str(i): [] for i in range(count)}
    for line in filter(None, out[1:]):
        a, b = line.split()
        lattice[a].append(b)
    return lattice


def jax_algorithm(lattice: dict[str, list[str]], sample: int) -> dict:
    """JAX's upper bounds and least upper bounds on ``lattice``."""
    nodes = list(lattice)
    saved = (jax_dtypes._type_promotion_lattice,
             jax_dtypes._standard_x64_lattice_ubs)
    try:
        jax_dtypes._type_promotion_lattice = lambda strict, x64: lattice
        start = time.perf_counter()
        upper_bounds = jax_dtypes._make_lattice_upper_bounds(False, True)
        ub_seconds = time.perf_counter() - start
        jax_dtypes._standard_x64_lattice_ubs = upper_bounds
        lub = jax_dtypes._least_upper_bound.__wrapped__
        standard = jax_config.NumpyDtypePromotion.STANDARD
        all_pairs = [(a, b) for i, a in enumerate(nodes) for b in nodes[i:]]
        exact = len(all_pairs) <= sample
        chosen = all_pairs if exact else random.Random(SEED).sample(
            all_pairs, sample)
        start = time.perf_counter()
        for a, b in chosen:
            lub(standard, True, a, b)
        per_pair = (time.perf_counter() - start) / len(chosen)
    finally:
        (jax_dtypes._type_promotion_lattice,
         jax_dtypes._standard_x64_lattice_ubs) = saved
    return {"upper_bounds_s": ub_seconds, "lub_us": per_pair * 1e6,
            "all_pairs_s": per_pair * len(all_pairs), "exact": exact}


def large_lattices(sizes: list[int], sample: int) -> None:
    print("## Building a large lattice: JAX's algorithm against ours\n")
    print("| graph | nodes | JAX upper bounds s | JAX LUB per pair µs "
          "| JAX all pairs s | ours: validate + all joins ms | x ours |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for family in ["grid", "layered"]:
        for nodes in sizes:
            lattice = emitted_graph(family, nodes)
            jax_run = jax_algorithm(lattice, sample)
            ours_ms = float(run([str(RELEASE / "examples" / "scale"),
                                 "--compile", family, str(nodes)]).stdout)
            total = jax_run["upper_bounds_s"] + jax_run["all_pairs_s"]
            estimate = "" if jax_run["exact"] else " (est.)"
            print(f"| {family} | {nodes} | {jax_run['upper_bounds_s']:.3f} "
                  f"| {jax_run['lub_us']:.1f} "
                  f"| {jax_run['all_pairs_s']:.2f}{estimate} | {ours_ms:.2f} "
                  f"| {total * 1e3 / ours_ms:,.0f}{estimate} |")
            sys.stdout.flush()
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="64,256,1024",
                        help="lattice sizes of the engine comparison (default: %(default)s)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer lists and pairs, for a smoke test")
    args = parser.parse_args()
    for package in ["dtype-lattice-cli", "dtype-lattice"]:
        extra = [] if package == "dtype-lattice-cli" else ["--examples"]
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p",
                        package, *extra], check=True, cwd=ROOT)
    print(f"# compare.py, {time.strftime('%Y-%m-%d %H:%M %Z')}\n")
    print(f"Python {platform.python_version()}, jax {jax.__version__}, "
          f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs\n")
    promotion_calls(per_length=10 if args.quick else 100)
    large_lattices([int(s) for s in args.sizes.split(",")],
                   sample=2_000 if args.quick else 50_000)


if __name__ == "__main__":
    main()
