"""What the policy generators share: operands, answers, and the file format.

``generate_numpy.py``, ``generate_torch.py``, ``generate_tensorflow.py`` and
``generate_jax_lax.py`` each run in their own virtual environment, so this
module uses the standard library only. The file format is the one
``generate_jax.py`` documents, with a ``"policy"`` key on every call line::

    {"fn": F, "args": [...], "x64": BOOL, "promotion": "standard",
     "policy": NAME, "answer": A}

``A`` is ``{"ok": V}`` or ``{"error": {"type": T, "message": M}}``, T being
``type(e).__name__`` and M ``str(e)`` of whatever the call raised. Where a
library answers a dtype that is none of ours (PyTorch's ``bcomplex32``),
the answer is ``{"error": {"type": "NotOurs", "message": NAME}}``; where an
operator's result is no array at all (Python adds two Python scalars itself),
NAME is the result's Python type, ``int``, ``float`` or ``complex``.

Where we answer otherwise than the library on purpose, the line records it
as ``"deviation": {"name", "ours", "why"}`` (``with_deviations``, which
``write_jsonl`` applies): the recorded answer stays the library's.

A Python complex value is encoded in ``args`` as ``{"complex": [RE, IM]}``,
its parts as JSON floats (``1j`` is ``{"complex": [0.0, 1.0]}``), since JSON
has no complex numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

# The 32 dtypes of dtype-lattice, in JAX's order.
DTYPE_NAMES = [
    "bool",
    "uint1", "uint2", "uint4", "uint8", "uint16", "uint32", "uint64",
    "int1", "int2", "int4", "int8", "int16", "int32", "int64",
    "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn",
    "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float8_e4m3b11fnuz",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
    "bfloat16", "float16", "float32", "float64",
    "complex64", "complex128",
]
# The dtype dtype-lattice has beyond JAX's 32, which only PyTorch has: its
# generators add it to their operands.
PYTORCH_ONLY = ["complex32"]
PYTHON_TYPES = {"int": int, "float": float, "complex": complex}
# A Python scalar of each type, as the batch notation `py:TYPE` stands for.
PY_SCALARS = {"py:int": 2, "py:float": 2.0, "py:complex": 2j, "py:bool": True}
# Python complex values, for the generators that take Python scalars: a
# purely imaginary one, one with both parts, and one whose real part is -0.0
# (Python reads ``-1.5j`` as ``-(1.5j)``).
PY_COMPLEX_VALUES = [1j, 2 + 3j, -1.5j]


class Operand(NamedTuple):
    """A Python object for the library, and its JSON encoding in ``args``."""
    value: Any
    encoded: Any


class Lazy(NamedTuple):
    """An operand built only when the call runs, so that looking up a dtype
    the library lacks raises inside the call, where it becomes the answer."""
    make: Callable[[], Any]


def resolve(value: Any) -> Any:
    return value.make() if isinstance(value, Lazy) else value


def py_scalar(label: str) -> Operand:
    return Operand(PY_SCALARS[label], label)


def py_value(value: Any) -> Operand:
    if isinstance(value, complex):
        return Operand(value, {"complex": [value.real, value.imag]})
    return Operand(value, value)


def answer(call: Callable[[], Any]) -> dict:
    """{"ok": call()} or {"error": ...} for the exception it raised."""
    try:
        with warnings.catch_warnings():
            # e.g. "overflow encountered in cast" for a big int into float16.
            warnings.simplefilter("ignore")
            return {"ok": call()}
    except Exception as e:  # noqa: BLE001 - every exception is data here
        return {"error": {"type": error_type(e), "message": str(e)}}


def error_type(e: Exception) -> str:
    """The type an exception is recorded as: ``type(e).__name__``, or the
    ``recorded_type`` of ours that stand for something no exception
    (``ReturnedNotImplemented``)."""
    return getattr(type(e), "recorded_type", type(e).__name__)


class ReturnedNotImplemented(Exception):
    """A reflected method (``int.__radd__``) called directly returned
    ``NotImplemented``: recorded as an error of type ``NotImplemented``
    whose message names the method, ``int.__radd__ returned
    NotImplemented``."""
    recorded_type = "NotImplemented"


class NotOurs(Exception):
    """A library answered a dtype that is none of ours; the answer is
    recorded as an error of this type whose message is the dtype's name."""


def ours(name: str) -> str:
    """The name of a dtype, which must be one of ours."""
    if name not in DTYPE_NAMES + PYTORCH_ONLY:
        raise NotOurs(name)
    return name


def typed(name: str, weak: bool = False) -> dict:
    return {"dtype": ours(name), "weak": weak}


def line(fn: str, policy: str, args: list, result: dict,
         x64: bool = False) -> dict:
    return {"fn": fn, "args": args, "x64": x64, "promotion": "standard",
            "policy": policy, "answer": result}


def run(fn: str, policy: str, call: Callable, operand_lists: Iterable[list],
        x64: bool = False) -> list[dict]:
    """``call(*values)`` for each list of operands, as call lines."""
    lines = []
    for ops in operand_lists:
        values = [op.value for op in ops]
        lines.append(line(fn, policy, [op.encoded for op in ops],
                          answer(lambda: call(*values)), x64))
    return lines


def unary_and_binary(operands: list[Operand]) -> list[list[Operand]]:
    """No operand, every single operand, every ordered pair."""
    return ([[]] + [[x] for x in operands]
            + [[x, y] for x in operands for y in operands])


def header(generator: str, versions: dict, **extra: Any) -> dict:
    """Line 1 of a golden file: who wrote it, with which library versions,
    and what else the answers depend on."""
    return {"header": {"generator": generator,
                       "python": platform.python_version(),
                       "versions": versions, **extra}}


# Where we answer otherwise than the library, on purpose (docs/policies.md
# and docs/supported.md, "deliberate differences"): the name a golden case
# records, with why. The judges read the record, so a deviation is data on
# the case it concerns rather than a pattern re-coded in each judge.
DEVIATIONS = {
    "weak-subbyte-keyerror":
        "JAX's result_type raises KeyError (a bug) for a weak sub-byte "
        "integer result; we answer the weak default integer of its "
        "signedness (docs/supported.md, deliberate differences)",
    "does-not-return":
        "the call never returned (recorded as Hang); we raise "
        "DoesNotReturnError, whatever its message (docs/policies.md, "
        "deliberate difference)",
    "aborts":
        "the call ended the process (recorded as Abort: PaddlePaddle's "
        "SIGABRT); we raise DoesNotReturnError, whatever its message "
        "(docs/policies.md, deliberate difference)",
    "array-repr-in-message":
        "array-api-strict's clip names a bound it refuses by its repr, values "
        "included (`Array([[1, 1], ...], dtype=array_api_strict.int8) must be "
        "floating-point when x is floating-point`); dtype-lattice knows no "
        "values and writes `Array(..., dtype=array_api_strict.int8)`",
}
SUB_BYTE_INTS = {"int1", "int2", "int4", "uint1", "uint2", "uint4"}


def deviation(fn: str | None, args: list, x64: bool, recorded: dict) -> dict | None:
    """The documented deviation of one call from its recorded answer:
    ``{"name", "ours", "why"}``, ``ours`` being the answer we give instead
    (an error without a message stands for any message); None where we
    answer as the library did."""
    error = recorded.get("error", {})
    if fn == "result_type" and error.get("type") == "KeyError":
        signed = {a["dtype"] for a in args if isinstance(a, dict)
                  and a.get("weak") and a["dtype"] in SUB_BYTE_INTS}
        assert len({name.startswith("u") for name in signed}) == 1, args
        unsigned = next(iter(signed)).startswith("u")
        default = ("uint" if unsigned else "int") + ("64" if x64 else "32")
        ours = {"ok": {"dtype": default, "weak": True}}
        if "warnings" in recorded:
            ours["warnings"] = recorded["warnings"]
        return record("weak-subbyte-keyerror", ours)
    if (fn == "clip" and error.get("type") == "TypeError"
            and error.get("message", "").startswith("Array(")):
        return record("array-repr-in-message", {"error": {"type": "TypeError"}})
    if error.get("type") == "Hang":
        return record("does-not-return",
                      {"error": {"type": "DoesNotReturnError"}})
    if error.get("type") == "Abort":
        return record("aborts", {"error": {"type": "DoesNotReturnError"}})
    return None


def record(name: str, ours: dict) -> dict:
    return {"name": name, "ours": ours, "why": DEVIATIONS[name]}


def with_deviations(head: dict, lines: list[dict]) -> list[dict]:
    """``lines`` with each documented deviation recorded where it occurs:
    ``"deviation"`` on a call line, ``"deviations"`` (each with ``"at"``,
    the index of its answer) on an op-table row. Whatever was recorded
    before is dropped first, so applying this twice changes nothing."""
    out, errors = [], []
    for entry in lines:
        entry = {k: v for k, v in entry.items()
                 if k not in ("deviation", "deviations")}
        if "answer" in entry:
            found = deviation(entry["fn"], entry["args"], entry["x64"],
                              entry["answer"])
            if found:
                entry["deviation"] = found
        elif "answers" in entry:
            found_at = []
            for at, (args, recorded) in enumerate(
                    row_calls(head, entry, errors)):
                # A ``setitem`` row of a forms table has no operation.
                found = deviation(entry.get("fn"), args, entry["x64"],
                                  recorded)
                if found:
                    found_at.append({"at": at, **found})
            if found_at:
                entry["deviations"] = found_at
        elif "error" in entry:
            errors.append({"type": entry["type"], "message": entry["message"]})
        out.append(entry)
    return out


def row_operands(head: dict, row: dict) -> list:
    """The operands an op-table row's answers line up with: the entry of
    the header's ``operands_at`` whose settings are the row's, else the
    header's ``operands`` (tinygrad's weak tensors depend on its
    settings)."""
    for entry in head["header"].get("operands_at", []):
        if all(row.get(k) == v for k, v in entry.items() if k != "operands"):
            return entry["operands"]
    return head["header"]["operands"]


def row_calls(head: dict, row: dict, errors: list[dict]) -> list[tuple]:
    """``(args, answer)`` of each call of an op-table row, the answer as a
    call line records it."""
    calls = []
    for operand, answer in zip(row_operands(head, row), row["answers"]):
        args = [operand] if "a" not in row else [row["a"], operand]
        if isinstance(answer, int):
            recorded = {"error": errors[answer]}
        else:
            recorded = {"ok": {"dtype": answer.removesuffix(" (weak)"),
                               "weak": answer.endswith(" (weak)")}}
        calls.append((args, recorded))
    return calls


def write_jsonl(path: Path, head: dict, lines: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for entry in [head, *with_deviations(head, lines)]:
            f.write(json.dumps(entry, separators=(",", ":")) + "\n")


def write_all(out_dir: Path, head: dict,
              generators: dict[str, Callable[[], list[dict]]]) -> None:
    """Writes ``out_dir/STEM.jsonl`` for each generator, header first."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for file_stem, generate in generators.items():
        lines = generate()
        write_jsonl(out_dir / f"{file_stem}.jsonl", head, lines)
        print(f"{file_stem}.jsonl: {len(lines)} calls", file=sys.stderr)


def child_output(script: str, args: list[str], **env: str) -> str:
    """What ``script`` prints, run with ``args`` in a child process with
    ``env`` added: a framework that reads its settings from the
    environment at import, or cannot undo one, gets a fresh process."""
    return subprocess.run(
        [sys.executable, script, *args], check=True, capture_output=True,
        text=True, env={**os.environ, **env}).stdout


def reexec_with_fixed_hash_seed() -> None:
    """Re-runs the script with PYTHONHASHSEED=0, since JAX names the
    dtypes of some messages in Python set order."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def parse_args(doc: str, argv: list[str] | None,
               extra: Callable[[argparse.ArgumentParser], None] | None = None
               ) -> argparse.Namespace:
    """``--out DIR`` (default: ``golden/`` next to the generators), and
    whatever ``extra`` adds."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "golden",
                        help="output directory (default: %(default)s)")
    if extra:
        extra(parser)
    return parser.parse_args(argv)
