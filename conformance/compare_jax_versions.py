#!/usr/bin/env python3
"""Shows whether two JAX releases give the same answers on the golden calls.

Usage:
    python compare_jax_versions.py OLD_PYTHON NEW_PYTHON [--keep DIR]

Each PYTHON is the interpreter of a virtual environment holding one JAX
release, for example ``.venv/bin/python`` (``requirements.txt``, JAX 0.10.2
on Python 3.11) and ``.venv-jax12/bin/python`` (``requirements-jax12.txt``,
JAX 0.12.0.1 on Python 3.12). The script runs the JAX generators
(``generate_jax.py``, ``generate_jax_nary.py``, ``generate_jax_lax.py``)
under both, then compares the files call by call and prints a summary; the
exit status is 1 when any answer differs.

Two parts of a message are compared as sets, because Python builds them by
iterating a set, whose order changes with the interpreter and from process
to process: the input tuple of a ``TypePromotionError`` ("Input dtypes (...)
have no ...") and the list of kinds in a ``jax.lax`` dtype error ("are
subtypes of ..."). Answers that differ only because the two environments
pin different NumPy releases are reported apart: ``finfo`` messages and
``names`` (what ``np.dtype`` accepts) come from NumPy, not JAX.

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
GENERATORS = ["generate_jax.py", "generate_jax_nary.py", "generate_jax_lax.py"]
# Files whose answers come from NumPy, called through JAX.
NUMPY_FILES = {"finfo.jsonl", "names.jsonl"}

INPUTS = re.compile(r"Input dtypes \((.*)\) have no")
KINDS = re.compile(r"are subtypes of (.*)\.$")


def normalised(answer: dict) -> str:
    """The answer with set-ordered lists sorted, as comparable text."""
    error = answer.get("error")
    if error is not None:
        message = error["message"]
        message = INPUTS.sub(
            lambda m: "Input dtypes ({}) have no".format(
                ", ".join(sorted(m.group(1).split(", ")))), message)
        message = KINDS.sub(
            lambda m: "are subtypes of {}.".format(
                ", ".join(sorted(m.group(1).split(", ")))), message)
        answer = {"error": {"type": error["type"], "message": message}}
    return json.dumps(answer, sort_keys=True)


def calls(path: Path) -> tuple[dict, dict[str, str]]:
    """The header and {call: normalised answer} of a golden file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])["header"]
    out = {}
    for text in lines[1:]:
        entry = json.loads(text)
        answer = entry.pop("answer")
        out[json.dumps(entry, sort_keys=True)] = normalised(answer)
    return header, out


def generate(python: str, out: Path) -> None:
    for generator in GENERATORS:
        subprocess.run([python, str(HERE / generator), "--out", str(out)],
                       check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", help="Python of the older JAX")
    parser.add_argument("new", help="Python of the newer JAX")
    parser.add_argument("--keep", type=Path,
                        help="write both sets of files under this directory")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch)
        old_dir, new_dir = root / "old", root / "new"
        generate(args.old, old_dir)
        generate(args.new, new_dir)
        return compare(old_dir, new_dir)


def compare(old_dir: Path, new_dir: Path) -> int:
    jax_differences = 0
    for path in sorted(old_dir.glob("*.jsonl")):
        old_header, old = calls(path)
        new_header, new = calls(new_dir / path.name)
        if path.name == "promote_types.jsonl":
            print("old: {} (Python {})".format(old_header["versions"],
                                               old_header["python"]))
            print("new: {} (Python {})".format(new_header["versions"],
                                               new_header["python"]))
        shared = old.keys() & new.keys()
        differ = [call for call in shared if old[call] != new[call]]
        only = len(old.keys() ^ new.keys())
        verdict = "same" if not differ and not only else "DIFFERENT"
        if path.name in NUMPY_FILES and verdict != "same":
            verdict = "different (NumPy's answer, not JAX's)"
        elif verdict != "same":
            jax_differences += len(differ) + only
        print(f"{path.name}: {len(shared)} calls in both, {verdict}"
              + (f"; {len(differ)} answers differ" if differ else "")
              + (f"; {only} calls in one only" if only else ""))
        for call in sorted(differ)[:3]:
            print(f"    {call}\n      old: {old[call]}\n      new: {new[call]}")
        kinds = Counter(json.loads(call)["fn"] for call in differ)
        if len(kinds) > 1:
            print(f"    by function: {dict(kinds)}")
    print("JAX's answers are the same" if jax_differences == 0
          else f"{jax_differences} JAX answers differ")
    return 0 if jax_differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
