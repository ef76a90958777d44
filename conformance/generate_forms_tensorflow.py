#!/usr/bin/env python3
"""Golden data for TensorFlow's operations as programs write them (tensor
operators, reflected methods, in-place operators, item assignment), and for
NumPy behaviour in the configurations ``generate_ops_tensorflow.py`` does
not run: ``dtype_conversion_mode="legacy"`` (the default of
``tnp.experimental_enable_numpy_behavior``), and ``prefer_float32=True``.

Usage:
    python generate_forms_tensorflow.py [--out DIR]

Runs in the environment of ``generate_ops_tensorflow.py``
(``requirements-tensorflow.txt``, TensorFlow 2.21.0 CPU, Python 3.11). NumPy
behaviour is global and cannot be switched off once on, so each
configuration runs in a child process of this script (``--config``):

* ``off``: TensorFlow as it starts;
* ``legacy``, ``safe``, ``all``, each with ``prefer_float32`` False and
  True: after ``tf.experimental.numpy.experimental_enable_numpy_behavior(
  prefer_float32=..., dtype_conversion_mode=...)``.

Rows carry the settings by their names in the library:
``"tensorflow_numpy_behavior"`` (``off``, ``legacy``, ``safe``, ``all``) and
``"tensorflow_prefer_float32"`` (a bool; absent with NumPy behaviour off,
where TensorFlow has no such state). The policy is ``tensorflow`` for
TensorFlow's own functions and the tensor operators, ``tensorflow-numpy``
for the ``tf.experimental.numpy`` (tnp) functions.

Files (the op-table format of ``golden_ops.py``):

* ``forms_tensorflow.jsonl``: NumPy behaviour off; ``forms_tensorflow_legacy.jsonl``:
  mode legacy; ``forms_tensorflow_numpy.jsonl``: modes safe and all. The
  forms of ``golden_ops.FORMS`` (``Table.record_forms``): ``operator``
  (``a OP b``, ``-x``, ``abs(x)``: ``tf.Tensor``'s operators, which
  TensorFlow defines in ``tensor_math_operator_overrides.py``, not the
  functions of ``generate_ops_tensorflow.py``), ``reflected``
  (``type(b).__radd__(b, a)`` ...), ``inplace`` (``x += b``: a tensor is
  immutable and has no ``__iadd__``, so Python rebinds ``x`` to ``x + b``)
  and ``setitem`` (``x[...] = v``: TensorFlow's ``TypeError``, an
  ``EagerTensor`` does not support item assignment).
* ``ops_tensorflow_legacy.jsonl``: the functions of ``ops_tensorflow.jsonl``
  and ``ops_tensorflow_tnp.jsonl`` (``tf.add`` ..., ``tnp.add`` ...) in mode
  legacy; ``ops_tensorflow_tnp_float32.jsonl``: the tnp functions in modes
  safe and all with ``prefer_float32`` True.
* ``tensorflow_legacy_promote_types.jsonl`` (call lines, the format of
  ``golden_io.py``): ``tnp.result_type(a, b)`` (policy
  ``tensorflow-numpy``, ``fn`` ``promote_types``) over TensorFlow's dtypes
  and Python's ``int``, ``float``, ``complex``, in mode legacy.

Operands: those of ``generate_ops_tensorflow.py`` (a tensor of ones of each
of TensorFlow's 25 dtypes of the 32, the Python scalars of
``golden_ops.PY_SCALARS``), and in modes safe and all the five
``WeakTensor`` forms. The first operand of ``inplace`` and the target of
``setitem`` is each tensor (and ``WeakTensor``). The answer is the result's
dtype, `` (weak)`` for a ``WeakTensor``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"  # must precede the import

import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import weak_tensor  # noqa: E402

from generate_ops_tensorflow import (APIS, dtype_of, header,  # noqa: E402
                                     operands, tf_names)
from golden_io import ours, parse_args, write_jsonl  # noqa: E402
from golden_ops import Table, write_op_table  # noqa: E402

GENERATOR = "conformance/generate_forms_tensorflow.py"
tnp = tf.experimental.numpy
# Each configuration: NumPy behaviour and prefer_float32 (None: off).
CONFIGS: dict[str, tuple[str, bool | None]] = {
    "off": ("off", None),
    "legacy": ("legacy", False), "legacy-float32": ("legacy", True),
    "safe": ("safe", False), "safe-float32": ("safe", True),
    "all": ("all", False), "all-float32": ("all", True),
}


def settings(config: str) -> dict[str, Any]:
    mode, prefer = CONFIGS[config]
    out: dict[str, Any] = {"tensorflow_numpy_behavior": mode}
    if prefer is not None:
        out["tensorflow_prefer_float32"] = prefer
    return out


def check_config(config: str) -> None:
    """The mode and prefer_float32 are what the configuration says."""
    from tensorflow.python.framework import ops
    from tensorflow.python.ops.numpy_ops import np_dtypes
    mode, prefer = CONFIGS[config]
    assert ops.is_numpy_style_type_promotion() == (mode == "legacy"), config
    if mode != "off":
        name = ops.get_dtype_conversion_mode().name.lower()
        assert name == mode, (name, mode)
    assert np_dtypes.is_prefer_float32() == bool(prefer), config
    x = tf.constant([1, 1], tf.int32)
    assert not isinstance(x, weak_tensor.WeakTensor)


def rows(table: Table) -> list[dict]:
    """The table's rows, each error answer its [type, message]."""
    messages = {e["error"]: [e["type"], e["message"]]
                for e in table.lines if "error" in e}
    return [{**e, "answers": [messages[a] if isinstance(a, int) else a
                              for a in e["answers"]]}
            for e in table.lines if "answers" in e]


# What each configuration records, each part in a process of its own: the
# forms always; the functions of tf and of tnp where ``ops_tensorflow*.jsonl``
# has no table of them; tnp.result_type in mode legacy.
PARTS = {
    "off": ["forms"],
    "legacy": ["forms", "tf", "tnp", "promote_types"],
    "legacy-float32": ["forms", "tf", "tnp", "promote_types"],
    "safe": ["forms"], "all": ["forms"],
    "safe-float32": ["forms", "tnp"], "all-float32": ["forms", "tnp"],
}


def child(config: str, part: str) -> None:
    """Runs one part of one configuration; prints its rows, each tagged
    with the file it belongs to."""
    mode, prefer = CONFIGS[config]
    if mode != "off":
        tnp.experimental_enable_numpy_behavior(
            prefer_float32=prefer, dtype_conversion_mode=mode)
    check_config(config)
    tf.get_logger().setLevel("ERROR")
    extra = settings(config)
    weak = mode in ("safe", "all")
    table = Table()
    if part == "forms":
        # The first conversion of a negative Python int to uint64 in a
        # process fails (``generate_ops_tensorflow.py`` records it for
        # tf.add, the first function it calls), later ones take a cached
        # tensor: made to fail here, so that no form records it.
        try:
            tf.add(tf.constant([1, 1], tf.uint64), -1)
        except SystemError:
            pass
        else:
            raise AssertionError("the first -1 to uint64 converted")
        forms = operands(weak=weak)
        targets = [(make, form) for make, form in forms
                   if isinstance(form, str) and form in tf_names()
                   or isinstance(form, dict) and "dtype" in form]
        table.record_forms("tensorflow", forms, targets,
                           lambda run, values: dtype_of(run(values)), **extra)
        file = {"off": "forms_tensorflow",
                "legacy": "forms_tensorflow_legacy"}.get(
                    mode, "forms_tensorflow_numpy")
    elif part in APIS:
        table.record("tensorflow" if part == "tf" else "tensorflow-numpy",
                     operands(weak=weak and part == "tnp"),
                     lambda op, values: dtype_of(APIS[part][op](*values)),
                     **extra)
        file = ("ops_tensorflow_legacy" if mode == "legacy"
                else "ops_tensorflow_tnp_float32")
    else:
        types = tf_names() + ["int", "float", "complex"]
        python = {"int": int, "float": float, "complex": complex}
        for a in types:
            table.row("promote_types", "tensorflow-numpy", [
                table.answer(lambda: ours(tnp.result_type(
                    python.get(a) or tf.as_dtype(a),
                    python.get(b) or tf.as_dtype(b)).name))
                for b in types], a=a, **extra)
        file = "tensorflow_legacy_promote_types"
    for row in rows(table):
        print(json.dumps([file, row], separators=(",", ":")))


def config_rows(config: str, part: str) -> list[tuple[str, dict]]:
    """A child's rows. TensorFlow 2.21 now and then aborts a process in a
    C++ check after the failed conversion of a negative Python int to
    uint64 has left Python's error set (``convert.rs`` of the library
    tells that story); a child that aborts so is run again, up to twice."""
    for _ in range(3):
        run = subprocess.run(
            [sys.executable, __file__, "--config", config, "--part", part],
            capture_output=True, text=True)
        if "Check failed: !PyErr_Occurred()" not in run.stderr:
            break
    if run.returncode != 0:
        sys.exit(f"--config {config} --part {part} failed "
                 f"({run.returncode}):\n{run.stderr[-3000:]}")
    return [tuple(json.loads(text)) for text in run.stdout.splitlines()]


def main(argv: list[str] | None = None) -> None:
    def extra(parser):
        parser.add_argument("--config", choices=list(CONFIGS),
                            help="run one configuration's --part")
        parser.add_argument("--part", default="forms",
                            choices=["forms", *APIS, "promote_types"])
    args = parse_args(__doc__, argv, extra)
    if args.config:
        child(args.config, args.part)
        return
    tables: dict[str, Table] = {}
    for config, part in [(c, p) for c, ps in PARTS.items() for p in ps]:
        print(f"configuration {config}: {part}", file=sys.stderr)
        for file, row in config_rows(config, part):
            table = tables.setdefault(file, Table())
            answers = [table.error(*a) if isinstance(a, list) else a
                       for a in row.pop("answers")]
            a = row.pop("a", None)
            form = row.pop("form", None)
            fn = row.pop("fn", None)
            policy = row.pop("policy")
            table.row(fn, policy, answers, a=a, form=form, **row)
    head = header()
    head["header"]["generator"] = GENERATOR
    promote_types = tables.pop("tensorflow_legacy_promote_types")
    write_jsonl(args.out / "tensorflow_legacy_promote_types.jsonl", head,
                call_lines(promote_types))
    weak_forms = [form for _, form in operands(weak=True)]
    strong_forms = [form for _, form in operands(weak=False)]
    for file, table in sorted(tables.items()):
        forms = {"forms_tensorflow_numpy": weak_forms,
                 "ops_tensorflow_tnp_float32": weak_forms}
        write_op_table(args.out / f"{file}.jsonl", head,
                       forms.get(file, strong_forms), table)


def call_lines(table: Table) -> list[dict]:
    """``promote_types`` as the call lines of ``golden_io.py``, as
    ``generate_tensorflow.py`` writes it (an answer is a dtype name, not
    the op table's typed result)."""
    types = tf_names() + ["int", "float", "complex"]
    errors = {e["error"]: {"type": e["type"], "message": e["message"]}
              for e in table.lines if "error" in e}
    lines = []
    for row in table.lines:
        if "answers" not in row:
            continue
        settings = {k: v for k, v in row.items()
                    if k not in ("fn", "a", "answers")}
        for b, answer in zip(types, row["answers"]):
            result = ({"error": errors[answer]} if isinstance(answer, int)
                      else {"ok": answer})
            lines.append({"fn": row["fn"], "args": [row["a"], b],
                          **settings, "answer": result})
    return lines


if __name__ == "__main__":
    main()
