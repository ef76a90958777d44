#!/usr/bin/env python3
"""Folds each framework's ``<framework>_add.jsonl`` into its op table.

Usage:
    python fold_add_files.py [--out DIR]

A one-off for files written before the op-table generators recorded
``add``'s call lines themselves: each ``*_add`` file's calls
that the op table already makes must answer alike there and are dropped;
the others (operands the framework lacks, values, fewer operands) are
copied verbatim after the table's lines, and the add file's header becomes
the op table's ``"calls_from"``. It writes through
``golden_ops.write_op_table``, as the ``generate_ops_*.py`` generators do,
so the file is the one they write. An add file already folded (absent) is
skipped. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from golden_io import parse_args
from golden_ops import Table, write_op_table

# The op table each add file folds into; several add files (Keras's, one
# per backend, in the order its generators run them) fold in that order.
FOLDS = {
    "ops_numpy.jsonl": ["numpy_add.jsonl"],
    "ops_array_api.jsonl": ["array_api_add.jsonl"],
    "ops_torch.jsonl": ["torch_add.jsonl"],
    "ops_tensorflow.jsonl": ["tensorflow_add.jsonl"],
    "ops_jax_lax.jsonl": ["jax_lax_add.jsonl"],
    "ops_keras.jsonl": ["keras_add_tensorflow.jsonl", "keras_add_jax.jsonl",
                        "keras_add_numpy.jsonl"],
    "ops_tinygrad.jsonl": ["tinygrad_add.jsonl"],
    "ops_mlx.jsonl": ["mlx_add.jsonl"],
    "ops_paddle.jsonl": ["paddle_add.jsonl"],
}


def read(path: Path) -> tuple[dict, list[dict]]:
    head, *lines = map(json.loads, path.read_text(encoding="utf-8").splitlines())
    return head, lines


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    for ops_name, add_names in FOLDS.items():
        paths = [out / name for name in add_names]
        if not all(path.exists() for path in paths):
            assert not any(path.exists() for path in paths), add_names
            print(f"{ops_name}: folded already", file=sys.stderr)
            continue
        head, lines = read(out / ops_name)
        assert "calls_from" not in head["header"], ops_name
        operands = head["header"].pop("operands")
        assert head["header"].pop("format") == "op-table"
        calls_heads, calls = [], []
        for path in paths:
            calls_head, call_lines = read(path)
            calls_heads.append(calls_head)
            calls += call_lines
        # One header: the add files of one generator run share it.
        assert all(h == calls_heads[0] for h in calls_heads), add_names
        before = sum(map(len, [calls]))
        compared = write_op_table(out / ops_name, head, operands,
                                  Table(lines), (calls_heads[0], calls))
        print(f"{ops_name}: {before} add calls, {compared} compared",
              file=sys.stderr)
        for path in paths:
            path.unlink()


if __name__ == "__main__":
    sys.exit(main())
