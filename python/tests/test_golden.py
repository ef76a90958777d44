"""Every golden case, through the Python API.

The golden files (``conformance/golden/*.jsonl``) hold the real libraries'
answers, written by the generators in ``conformance/``; the Rust tests read
the same files through the batch protocol. Here each call's arguments are
made into the Python objects a user would pass - NumPy dtypes for dtype
names, NumPy arrays for strong arrays (JAX's files: stand-ins for JAX
arrays, :class:`dl.Operand`), :class:`dl.Operand` for weak ones,
Python numbers, types and ``None`` - and the answer, or the exception's
class name and message, compared.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import dtype_lattice as dl

GOLDEN = Path(__file__).resolve().parents[2] / "conformance" / "golden"
FILES = sorted(p.name for p in GOLDEN.glob("*.jsonl"))
# Functions the Python API has; the others (`itemsize_bits`, `names`, ...)
# are the batch protocol's and checked by the Rust tests.
# dtype-lattice's exceptions for what is no exception in Python, by the
# name the golden files record (`ErrorKind::python_type`).
PYTHON_TYPE = {dl.ReturnedNotImplemented: "NotImplemented"}
PYTHON_FUNCTIONS = {
    "promote_types", "result_type", "lattice_result_type", "docs_table_cell",
    "safe_to_cast", "canonicalize_dtype", "isdtype", "issubdtype", "finfo",
    "iinfo", "add", "can_cast", "asarray",
}
PYTHON_TYPES = {"int": int, "float": float, "complex": complex,
                "py:int": int, "py:float": float, "py:complex": complex,
                "py:bool": bool}
ABSTRACT = {"generic", "number", "integer", "signedinteger", "unsignedinteger",
            "inexact", "floating", "complexfloating"}


@lru_cache(maxsize=None)
def policy(name: str, settings: tuple) -> dl.Policy:
    return dl.policy(name, **dict(settings))


def settings_of(case: dict) -> tuple:
    """A call line's settings as keywords: JAX's from its fixed keys,
    any other setting (``keras_backend``, ``floatx``) by its own name."""
    settings = {"x64": case["x64"], "strict": case["promotion"] == "strict",
                "explicit_x64_dtypes": case.get("explicit_x64_dtypes", "warn")}
    for setting in dl.settings():
        if setting["name"] in case and setting["name"] not in settings:
            settings[setting["name"]] = case[setting["name"]]
    return tuple(sorted(settings.items()))


def policy_of(case: dict) -> dl.Policy:
    """The policy a call line asks for, in the names the library takes
    today. The TensorFlow files predate ``tensorflow-numpy`` and are never
    rewritten: they spell a ``tf.experimental.numpy`` call as
    ``"api": "tnp"`` beside the preset of its NumPy behaviour
    (``tensorflow-safe``, ``tensorflow-all``), which is ``tensorflow-numpy``
    with ``tensorflow_numpy_behavior`` ``safe`` or ``all``."""
    name, settings = case.get("policy", "jax"), settings_of(case)
    if "api" in case:
        assert case["api"] == "tnp", case
        # The preset's settings, as the library's table has them.
        preset = next(p for p in dl.presets() if p["name"] == name)
        name = "tensorflow-numpy"
        settings = tuple(sorted({**dict(settings), **preset["settings"]}.items()))
    return policy(name, settings)


def dtype(name: str) -> np.dtype:
    return np.dtype(name)


def value(arg, jax_arrays: bool = False):
    """The Python object a user would pass for a golden argument. JAX's
    files record JAX arrays (which keep their dtype whatever x64 says), so
    for them an array is a stand-in with ``dtype`` and ``weak_type``; for the
    other frameworks a NumPy array."""
    if arg is None or isinstance(arg, (bool, int, float, list)):
        return arg
    if isinstance(arg, dict):
        if "complex" in arg:
            real, imag = arg["complex"]
            return complex(real, imag)
        if arg.get("weak") or jax_arrays:
            return dl.Operand(dtype(arg["dtype"]), bool(arg.get("weak")))
        return np.empty(0, dtype=dtype(arg["dtype"]))
    if arg in PYTHON_TYPES:
        return PYTHON_TYPES[arg]
    if arg in ABSTRACT:
        return getattr(np, arg)
    if arg.startswith("0d:") and "=" in arg:
        # A 0-d array holding a value (NumPy 1's files): the NumPy array
        # itself, which the API reads holding its value.
        name, held = arg[3:].split("=", 1)
        return np.array(ast.literal_eval(held), dtype=dtype(name))
    if ":" in arg:
        # `0d:int8` and `weak:...`: the command line's notation, which the
        # API reads from strings too.
        return arg
    try:
        return dtype(arg)
    except TypeError:
        return arg  # a name NumPy lacks: the library reports it


def answer_of(call):
    """``{"ok": ...}`` or ``{"error": ...}``, with ``"warnings"`` (their
    texts) where the call warned, as the golden files record them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = {"ok": call()}
        except Exception as e:  # noqa: BLE001 - compared as data
            out = {"error": {"type": PYTHON_TYPE.get(type(e), type(e).__name__),
                             "message": str(e)}}
    if caught:
        out["warnings"] = [str(w.message) for w in caught]
    return out


def typed(pair):
    dt, weak = pair
    return {"dtype": str(np.dtype(dt)), "weak": bool(weak)}


def run(case: dict):
    name = case.get("policy", "jax")
    fn, args = case.get("fn"), [value(a, name.startswith("jax")) for a in case["args"]]
    p = policy_of(case)
    if "form" in case:
        return answer_of(lambda: typed(p.operation(fn, *args, form=case["form"],
                                                   return_weak_type_flag=True)))
    if fn == "promote_types":
        return answer_of(lambda: str(p.promote_types(*args)))
    if fn == "result_type":
        return answer_of(lambda: typed(p.result_type(*args, return_weak_type_flag=True)))
    if fn in ("lattice_result_type", "docs_table_cell"):
        return answer_of(lambda: typed(p.lattice_result_type(*args)))
    if case.get("op_table"):
        convert = {"dtype": dtype, "promote_integers": lambda flag: flag,
                   "initial": lambda number: value(number, False)}
        keywords = {k: convert[k](case[k]) for k in convert if k in case}
        answer = answer_of(lambda: typed(p.operation(fn, *args, return_weak_type_flag=True,
                                                     **keywords)))
        if fn == "add":
            # `.add` is the same call for every policy, JAX's included.
            assert answer_of(lambda: typed(p.add(*args))) == answer, (name, case["args"])
        if "computes" in case and "ok" in answer:
            # Written where it differs from the result, as the Rust judge's.
            computes = p.computes_in(fn, *args, **keywords)
            apart = str(computes) if computes is not None else None
            answer["ok"]["computes_in"] = None if apart == answer["ok"]["dtype"] else apart
        return answer
    if fn == "add":
        return answer_of(lambda: typed(p.add(*args)))
    if fn == "can_cast":
        return answer_of(lambda: p.can_cast(*args))
    if fn == "safe_to_cast":
        return answer_of(lambda: p.safe_to_cast(*args))
    if fn == "asarray":
        return answer_of(lambda: typed(p._native.asarray_dtype(*args)))
    if fn == "canonicalize_dtype":
        return answer_of(lambda: str(p.canonicalize_dtype(*args)))
    if fn == "isdtype":
        kind = case["args"][1]
        kind = tuple(kind) if isinstance(kind, list) else kind
        return answer_of(lambda: dl.isdtype(args[0], kind))
    if fn == "issubdtype":
        return answer_of(lambda: dl.issubdtype(*args))
    if fn == "finfo":
        return answer_of(lambda: finfo_fields(dl.finfo(*args), case))
    if fn == "iinfo":
        return answer_of(lambda: {k: v for k, v in vars(dl.iinfo(*args)).items()
                                  if k != "dtype"})
    raise AssertionError(fn)


def finfo_fields(info, case) -> dict:
    wanted = case["answer"].get("ok", {})
    out = {}
    for field in wanted:
        v = getattr(info, field)
        if field == "dtype":
            v = str(v)
        elif isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            v = "nan" if v != v else ("inf" if v > 0 else "-inf")
        out[field] = v
    return out


INPUTS = re.compile(r"Input dtypes \((.*)\) have no")
# An array's shape in JAX's messages (`int8[2]`) and a Python tuple's
# (`fill_value.shape (2, 2)`): the library knows no shapes and writes
# `int8[...]`, `(...)` (the Rust judge's allowance too). Scalars' `[]`
# and `()` keep theirs.
SHAPES = re.compile(r"\[\d+(,\d+)*\]")
TUPLE_SHAPES = re.compile(r"\(\d+(, ?\d+)*,?\)")
KINDS = re.compile(r"are subtypes of (.*)\.$")


def normalised(answer: dict) -> dict:
    """Set-ordered parts of messages sorted (Python set order varies)."""
    error = answer.get("error")
    if not error:
        return answer
    message = INPUTS.sub(lambda m: "Input dtypes ({}) have no".format(
        ", ".join(sorted(m.group(1).split(", ")))), error["message"])
    message = KINDS.sub(lambda m: "are subtypes of {}.".format(
        ", ".join(sorted(m.group(1).split(", ")))), message)
    message = TUPLE_SHAPES.sub("(...)", SHAPES.sub("[...]", message))
    return {**answer, "error": {"type": error["type"], "message": message}}


def recorded_deviation(case: dict, ours: dict) -> bool:
    """Whether ours is the answer the case's recorded deviation says we
    give (``conformance/golden_io.py``, ``with_deviations``; docs/policies.md,
    "deliberate differences"). An error recorded without a message stands
    for any message of its type: a call that never returned has no
    exception to copy."""
    instead = case.get("deviation", {}).get("ours")
    if instead is None:
        return False
    if "error" in instead and "message" not in instead["error"]:
        return ours.get("error", {}).get("type") == instead["error"]["type"]
    return ours == instead


def verdict(case: dict, ours: dict) -> str:
    """``"same"``, ``"deviation"`` (a documented one) or ``"differs"``."""
    expected = case["answer"]
    if ours == expected or normalised(ours) == normalised(expected):
        return "same"
    if expected.get("error", {}).get("type") == "NotOurs":
        name = expected["error"]["message"]
        return "same" if f" {name} " in ours.get("error", {}).get("message", "") else "differs"
    if recorded_deviation(case, ours):
        return "deviation"
    return "differs"


def matches(case: dict, ours: dict) -> bool:
    """Whether ours is the recorded answer or a documented deviation."""
    return verdict(case, ours) != "differs"


def operands_of(header: dict, row: dict) -> list:
    """The operands a row's answers line up with: the entry of the header's
    ``operands_at`` whose settings are the row's, else the header's
    ``operands`` (tinygrad's weak tensors depend on its settings)."""
    for entry in header.get("operands_at", []):
        if all(row.get(k) == v for k, v in entry.items() if k != "operands"):
            return entry["operands"]
    return header["operands"]


def op_table_cases(header: dict, lines: list[str]) -> list[dict]:
    """The calls of an op-table file (``conformance/golden_ops.py``) as
    call lines: each row's answers lined up with its operands, and the
    call lines the file carries after its rows."""
    errors, cases = [], []
    for line in lines:
        row = json.loads(line)
        if "answer" in row:
            # A call line of an operation (``sum`` with ``dtype``, off the
            # table's grid) is asked as the table's calls are.
            if row.get("fn") not in PYTHON_FUNCTIONS:
                row["op_table"] = True
            cases.append(row)
            continue
        if "answers" not in row:
            errors.append({"type": row["type"], "message": row["message"]})
            continue
        answers, first = row.pop("answers"), row.pop("a", None)
        deviations = {d["at"]: d for d in row.pop("deviations", [])}
        # The operations on whole arrays (``conformance/golden_array_ops.py``):
        # answers over the header's arrays alone, operands before the
        # first and after the answer's own, the type each call computes in.
        over = header[row.pop("over")] if "over" in row else operands_of(header, row)
        before, after = row.pop("before", []), row.pop("after", [])
        computes = row.pop("computes", None)
        for at, (operand, answer) in enumerate(zip(over, answers)):
            args = [*before, *([] if first is None else [first]), operand, *after]
            case = dict(row, args=args, op_table=True)
            if at in deviations:
                case["deviation"] = deviations.pop(at)
            if isinstance(answer, int):
                case["answer"] = {"error": errors[answer]}
            else:
                weak = answer.endswith(" (weak)")
                case["answer"] = {"ok": {"dtype": answer.removesuffix(" (weak)"),
                                         "weak": weak}}
                if computes is not None:
                    recorded = computes[at]
                    case["computes"] = recorded
                    case["answer"]["ok"]["computes_in"] = (
                        None if recorded in (None, case["answer"]["ok"]["dtype"]) else recorded)
            cases.append(case)
        assert not deviations, (row, deviations)
    return cases


def models_operations(case: dict) -> bool:
    """Whether the case's policy answers operations beyond ``add`` yet."""
    p = policy_of(case)
    try:
        p.operation("multiply", "int8", "int8")
    except Exception as e:  # noqa: BLE001 - a framework may refuse int8 (Paddle's CPU kernels)
        return "does not model" not in str(e)
    return True


@pytest.mark.parametrize("name", FILES)
def test_golden_file(name: str) -> None:
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])["header"]
    records_warnings = header.get("records_warnings", False)
    if header.get("format") == "op-table":
        cases = op_table_cases(header, lines[1:])
        if not models_operations(cases[0]):
            # Its call lines (``add``) are checked all the same.
            cases = [case for case in cases if not case.get("op_table")]
    else:
        cases = [json.loads(line) for line in lines[1:]]
    checked, failures, deviations, documented = 0, [], 0, 0
    for case in cases:
        if case.get("fn") not in PYTHON_FUNCTIONS and not case.get("op_table"):
            continue
        ours = run(case)
        if not records_warnings:
            # The file was written with warnings ignored.
            ours.pop("warnings", None)
        checked += 1
        documented += "deviation" in case
        outcome = verdict(case, ours)
        deviations += outcome == "deviation"
        if outcome == "differs":
            failures.append(f"{case.get('form', '')} {case.get('fn')}{case['args']} x64={case['x64']} "
                            f"{case.get('policy', 'jax')}:\n  expected {case['answer']}"
                            f"\n  ours     {ours}")
    if checked == 0:
        pytest.skip(f"{name}: no function of the Python API")
    assert not failures, f"{len(failures)} of {checked} differ:\n" + "\n".join(failures[:15])
    # Every recorded deviation, and only those, deviates: one not recorded
    # differs above, one that no longer deviates fails the count.
    assert deviations == documented, (name, deviations, documented)
