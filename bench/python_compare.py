#!/usr/bin/env python3
"""dtype_lattice from Python against NumPy and JAX, interleaved in one process.

Usage (from the repository root, after ``make python-env``; the floor needs
the extension built for benchmarks, which ``make python-bench-env`` installs):

    make python-bench-env
    .venv-test/bin/python bench/python_compare.py [--rounds 15] [--quick]

Two workloads, each timed for every contender on the same inputs:

* ``promote_types`` on every ordered pair of NumPy's 14 native dtypes, given
  as ``np.dtype`` objects: ``dl.promote_types``, ``np.promote_types``,
  ``jnp.promote_types``.
* ``result_type`` on seeded random lists of 1 to 6 operands drawn from NumPy
  arrays of the 14 dtypes and the Python values ``2``, ``2.0`` and ``1j``:
  ``dl.result_type``, ``np.result_type``, ``jax.dtypes.result_type``.

Each round runs every contender once over all inputs, in a rotating order, so
that drift in the machine's speed reaches all of them alike; the figure per
contender is the median over rounds of the time per call. Beside them, the
floor: for ``promote_types`` a Python call of a C function of two arguments
that returns a cached object (``operator.is_``), the least any call from
Python costs; for ``result_type`` a function of the extension with
``result_type``'s signature that reads nothing and returns a cached object,
the least a call through the binding costs with those arguments.

JAX runs with its defaults (x64 off). Its ``result_type`` warns when a 64-bit
array is truncated; warnings are silenced for the timing.
"""

from __future__ import annotations

import argparse
import operator
import platform
import random
import statistics
import sys
import time
import warnings

import numpy as np

import dtype_lattice as dl

NATIVE = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]


def pairs() -> list[tuple[np.dtype, np.dtype]]:
    dtypes = [np.dtype(n) for n in NATIVE]
    return [(a, b) for a in dtypes for b in dtypes]


def operand_lists(count: int, seed: int = 9407) -> list[list]:
    rng = random.Random(seed)
    arrays = [np.zeros(3, dtype=n) for n in NATIVE]
    pool = arrays + [2, 2.0, 1j]
    return [[rng.choice(pool) for _ in range(rng.randint(1, 6))]
            for _ in range(count)]


def time_binary(fn, inputs) -> float:
    start = time.perf_counter_ns()
    for a, b in inputs:
        fn(a, b)
    return (time.perf_counter_ns() - start) / len(inputs)


def time_nary(fn, inputs) -> float:
    start = time.perf_counter_ns()
    for args in inputs:
        fn(*args)
    return (time.perf_counter_ns() - start) / len(inputs)


def measure(contenders: dict, timer, inputs, rounds: int) -> dict[str, float]:
    """Median ns per call of each contender, over interleaved rounds."""
    names = list(contenders)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for name in names:  # warm up: caches, first-call imports
        timer(contenders[name], inputs)
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            samples[name].append(timer(contenders[name], inputs))
    return {n: statistics.median(s) for n, s in samples.items()}


def check_agreement(inputs_pairs, inputs_lists) -> None:
    """The contenders answer alike where they should, so the timing compares
    like with like: NumPy's promote_types on native dtypes is NumPy's and
    JAX's (they agree on these pairs only where JAX's lattice does)."""
    import jax.numpy as jnp
    for a, b in inputs_pairs:
        assert dl.promote_types(a, b) == jnp.promote_types(a, b), (a, b)
    for args in inputs_lists[:200]:
        import jax
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert dl.result_type(*args) == jax.dtypes.result_type(*args), args
            numpy_policy = dl.policy("numpy")
            assert numpy_policy.result_type(*args) == np.result_type(*args), args


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true",
                        help="3 rounds, fewer lists (a smoke test)")
    args = parser.parse_args()
    rounds = 3 if args.quick else args.rounds
    import jax
    import jax.numpy as jnp

    warnings.simplefilter("ignore")
    binary = pairs()
    lists = operand_lists(300 if args.quick else 3000)
    check_agreement(binary, lists)

    print(f"# Python {platform.python_version()}, NumPy {np.__version__}, "
          f"JAX {jax.__version__}, dtype_lattice {dl.__version__}; "
          f"{rounds} interleaved rounds, median ns per call")
    promote = measure({
        "floor (operator.is_)": operator.is_,
        "dl.promote_types": dl.promote_types,
        "np.promote_types": np.promote_types,
        "jnp.promote_types": jnp.promote_types,
    }, time_binary, binary, rounds)
    numpy_result = dl.policy("numpy").result_type
    floor = getattr(dl._native, "_call_floor", None)
    if floor is None:
        raise SystemExit("the floor needs the benchmark build: make python-bench-env")
    result = measure({
        "floor (a binding call reading nothing)": floor,
        "dl.result_type": dl.result_type,
        "dl.policy('numpy').result_type": numpy_result,
        "np.result_type": np.result_type,
        "jax.dtypes.result_type": jax.dtypes.result_type,
    }, time_nary, lists, rounds)

    for title, figures, ours, numpy_name, jax_name in [
        ("promote_types, 196 pairs of np.dtype", promote, "dl.promote_types",
         "np.promote_types", "jnp.promote_types"),
        (f"result_type, {len(lists)} lists of 1-6 operands", result,
         "dl.result_type", "np.result_type", "jax.dtypes.result_type"),
    ]:
        print(f"\n## {title}\n")
        print("| contender | ns/call | vs dl |")
        print("| --- | ---: | ---: |")
        for name, ns in figures.items():
            print(f"| {name} | {ns:.0f} | {ns / figures[ours]:.2f}x |")
        print(f"\n{ours}: {figures[ours] / figures[numpy_name]:.2f}x the time of "
              f"{numpy_name}, {figures[jax_name] / figures[ours]:.0f}x faster than "
              f"{jax_name}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
