#!/usr/bin/env python3
"""Generate golden data for the `keras` policy by running real Keras 3.

Usage:
    python generate_keras.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-keras.txt`` (Keras with its JAX, NumPy and TensorFlow
backends). The format is the one ``golden_io.py`` describes, with
``"policy": "keras"`` and the settings ``"keras_backend"`` and ``"floatx"``
on every call line. Keras reads its backend once, at import
(``KERAS_BACKEND``), so each backend runs in a child process of this script
(``--backend``); ``floatx`` is set in the process with
``keras.config.set_floatx``. The PyTorch backend is not measured (PyPI's
Linux PyTorch is the CUDA build).

Files:

* ``keras_result_type``  ``keras.backend.result_type(*args)`` (Keras has no
  ``keras.ops.result_type``) in every backend and floatx: no operand, every
  single operand, every ordered pair. It returns a dtype name, so every
  answer is strongly typed.
* ``keras_add_jax``, ``keras_add_numpy``, ``keras_add_tensorflow`` (the
  call lines of ``ops_keras.jsonl``, which ``generate_ops_keras.py``
  writes from ``recorded``): ``keras.ops.add(a, b)``'s dtype (``standardize_dtype``) on that backend in
  every floatx, on every ordered pair of arrays of Keras's dtypes and
  Python scalars.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: in ``result_type`` the dtype name, as Keras takes it; in
  ``add`` an array of the backend, ``keras.ops.zeros((2,), dtype=name)``,
  for the 17 dtypes Keras has (``ALLOWED_DTYPES`` but ``string``). Arrays
  without dimensions promote alike; the script checks that rather than
  recording them.
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: in ``result_type``
  Python's types ``int``, ``float``, ``complex``, ``bool``; in ``add`` the
  Python scalars ``2``, ``2.0``, ``2j``, ``True``.
* a JSON number or boolean, ``{"complex": [RE, IM]}``: that Python value.

The header's ``"printed"`` records, per backend, ``str`` of each array
dtype the backend makes (what the Python package must read).
* ``null``: ``None``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable

import golden_io
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS, Lazy,
                       Operand, line, parse_args, py_scalar, py_value, resolve, typed,
                       unary_and_binary, write_all)

GENERATOR = "conformance/generate_keras.py"
POLICY = "keras"
BACKENDS = ["tensorflow", "jax", "numpy"]
FLOATX = ["float32", "float16", "bfloat16", "float64"]
# The dtypes Keras has (keras/src/backend/common/dtypes.py, ALLOWED_DTYPES
# without "string"), in our order.
KERAS_DTYPES = [n for n in DTYPE_NAMES if n in {
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32",
    "int64", "float8_e4m3fn", "float8_e5m2", "bfloat16", "float16",
    "float32", "float64", "complex64", "complex128"}]
PY_TYPES = {"py:int": int, "py:float": float, "py:complex": complex, "py:bool": bool}
PY_INT_VALUES = [300, -1, 2**63, 2**64, -2**63 - 1]


def result_type_operands() -> list[Operand]:
    return ([Operand(n, n) for n in DTYPE_NAMES]
            + [Operand(t, label) for label, t in PY_TYPES.items()]
            + [py_value(v) for v in [2, 2.5, True, 1j]]
            + [Operand(None, None)])


def add_operands() -> list[Operand]:
    from keras import ops

    def array(name: str) -> Operand:
        return Operand(Lazy(lambda: ops.zeros((2,), dtype=name)), name)

    return ([array(n) for n in KERAS_DTYPES]
            + [py_scalar(label) for label in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def name_of(dtype: Any) -> str:
    from keras.src.backend import standardize_dtype
    return golden_io.ours(standardize_dtype(dtype))


def call_result_type(*values: Any) -> dict:
    from keras import backend
    return typed(name_of(backend.result_type(*values)))


def call_add(a: Any, b: Any) -> dict:
    from keras import ops
    return typed(name_of(ops.add(resolve(a), resolve(b)).dtype))


def calls(backend: str, floatx: str, fn: str, call, operand_lists) -> list[dict]:
    lines = []
    for ops_ in operand_lists:
        values = [op.value for op in ops_]
        entry = line(fn, POLICY, [op.encoded for op in ops_],
                     golden_io.answer(lambda: call(*values)))
        lines.append({**entry, "keras_backend": backend, "floatx": floatx,
                      "answer": entry.pop("answer")})
    return lines


def check_zero_dim() -> None:
    """Arrays without dimensions add as arrays with dimensions do."""
    from keras import ops
    for a in KERAS_DTYPES:
        for b in KERAS_DTYPES:
            one = golden_io.answer(lambda: name_of(
                ops.add(ops.zeros((2,), dtype=a), ops.zeros((2,), dtype=b)).dtype))
            zero = golden_io.answer(lambda: name_of(
                ops.add(ops.zeros((2,), dtype=a), ops.zeros((), dtype=b)).dtype))
            assert one == zero, (a, b, one, zero)


def child(backend: str) -> None:
    """Prints this backend's lines, one JSON object a file, for the parent."""
    import keras
    from keras import ops
    assert keras.config.backend() == backend
    check_zero_dim()
    add = f"keras_add_{backend}"
    files: dict[str, list[dict]] = {"keras_result_type": [], add: []}
    for floatx in FLOATX:
        keras.config.set_floatx(floatx)
        files["keras_result_type"] += calls(
            backend, floatx, "result_type", call_result_type,
            unary_and_binary(result_type_operands()))
        ops_ = add_operands()
        files[add] += calls(backend, floatx, "add", call_add,
                                    ([a, b] for a in ops_ for b in ops_))
    files[f"printed_{backend}"] = [{n: str(ops.zeros((2,), dtype=n).dtype)
                                     for n in KERAS_DTYPES
                                     if golden_io.answer(lambda: ops.zeros((2,), dtype=n))
                                     .get("ok") is not None}]
    print(json.dumps(files))


def in_backend(script: str, backend: str) -> Any:
    """What ``script --backend BACKEND`` prints (JSON), in a child process
    for that backend: Keras reads ``KERAS_BACKEND`` once, at import."""
    # PYTHONHASHSEED: JAX names the inputs of a TypePromotionError in set
    # order.
    return json.loads(golden_io.child_output(
        script, ["--backend", backend], KERAS_BACKEND=backend,
        TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0"))


def computed(backend: str) -> dict[str, list[dict]]:
    return in_backend(__file__, backend)


def header(generator: str = GENERATOR) -> dict:
    from importlib.metadata import version
    libraries = ["keras", "jax", "jaxlib", "tensorflow-cpu", "numpy", "ml_dtypes"]
    return golden_io.header(generator, {lib: version(lib) for lib in libraries},
                            backends=BACKENDS, floatx=FLOATX, device="cpu")


def recorded() -> tuple[dict, dict[str, list[dict]]]:
    """The header and every file's lines, each backend in its child."""
    files: dict[str, list[dict]] = {}
    printed = {}
    for backend in BACKENDS:
        for stem, lines in computed(backend).items():
            if stem.startswith("printed_"):
                printed[backend] = lines[0]
            else:
                files.setdefault(stem, []).extend(lines)
    head = header()
    head["header"]["printed"] = printed
    return head, files


def parent_args(doc: str, argv: list[str] | None,
                child: Callable[[str], None]) -> argparse.Namespace | None:
    """The parent's arguments; None in a child (``--backend``, which
    ``in_backend`` passes), after ``child`` has printed that backend's
    lines."""
    args = parse_args(doc, argv, lambda parser: parser.add_argument(
        "--backend", choices=BACKENDS, help="run one backend, print its lines"))
    if args.backend:
        child(args.backend)
        return None
    return args


def main(argv: list[str] | None = None) -> None:
    args = parent_args(__doc__, argv, child)
    if args is None:
        return
    head, files = recorded()
    write_all(args.out, head,
              {"keras_result_type": lambda: files["keras_result_type"]})


if __name__ == "__main__":
    main()
