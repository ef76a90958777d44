#!/usr/bin/env python3
"""Golden data for result_type and lattice_result_type on 3 to 8 operands.

Usage:
    python generate_jax_nary.py [--out DIR] [--per-length N]

Writes ``result_type_nary.jsonl`` (DIR defaults to ``golden/`` next to this
script), in the format ``generate_jax.py`` documents, from the same pinned
libraries (``requirements.txt``) and with the same operand encodings: real
JAX answers ``jax._src.dtypes.lattice_result_type`` and
``jax._src.dtypes.result_type(..., return_weak_type_flag=True)`` on seeded
random lists of operands, in all four configurations.

``generate_jax.py`` covers every single operand and every pair; these lists
check the library's n-ary path, which folds many operands in one pass. Most
operands (85%) come from the dtypes every framework has, so many lists
promote under standard promotion; the rest are drawn from all operand forms
(all 32 dtypes as weak and strong arrays and as specifiers, Python types,
Python values, None), so failures and their messages are covered too.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate_jax as base  # noqa: E402

COMMON = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
          "int32", "int64", "bfloat16", "float16", "float32", "float64",
          "complex64", "complex128"]
VALUES = [0, 2, 2**31, 1.5, True]
SEED = 20261123


def operand_pool(arrays: dict) -> tuple[list, list]:
    """(common operands, every operand form)."""
    common = ([base.array(arrays, n, w) for n in COMMON for w in (False, True)]
              + [base.spec(n) for n in COMMON]
              + [base.pytype(n) for n in base.WEAK_TYPE_NAMES]
              + [base.scalar(v) for v in VALUES])
    every = (base.result_type_operands(arrays)
             + [base.scalar(v) for v in VALUES])
    return common, every


def operand_lists(arrays: dict, per_length: int) -> list[list]:
    rng = random.Random(SEED)
    common, every = operand_pool(arrays)
    return [[rng.choice(common if rng.random() < 0.85 else every)
             for _ in range(length)]
            for length in range(3, 9) for _ in range(per_length)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "golden",
                        help="output directory (default: %(default)s)")
    parser.add_argument("--per-length", type=int, default=80,
                        help="lists per length 3..8 (default: %(default)s)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    base.check_dtypes_exist()
    head = base.header()
    head["header"]["generator"] = "conformance/generate_jax_nary.py"

    def generate(arrays: dict) -> list[dict]:
        lists = operand_lists(arrays, args.per_length)
        return (base.run("lattice_result_type", base.call_lattice_result_type,
                         lists, base.ALL_CONFIGS)
                + base.run("result_type", base.call_result_type, lists,
                           base.ALL_CONFIGS))

    lines = base.dedupe(base.traced_arrays(generate))
    base.write_jsonl(args.out / "result_type_nary.jsonl", head, lines)
    print(f"result_type_nary.jsonl: {len(lines)} calls", file=sys.stderr)


if __name__ == "__main__":
    base.reexec_with_fixed_hash_seed()
    main()
