#!/usr/bin/env python3
"""Generate golden data for the `tinygrad` policy by running real tinygrad.

Usage:
    python generate_tinygrad.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements-tinygrad.txt``. The format is the one ``golden_io.py``
describes, with ``"policy": "tinygrad"`` on every call line.

tinygrad has no ``promote_types`` or ``result_type`` of its own. It promotes
with ``tinygrad.dtype.least_upper_dtype(*dtypes)``: the smallest, in its
``DType`` order, of the dtypes above all of them in ``promo_lattice``. A
Python scalar counts as ``dtypes.from_py(value)``, which is ``weakint`` for
an int and ``weakfloat`` for a float; a result of a weak type stays weak
until it is stored, as ``strong_dtype`` of it (``DEFAULT_INT``, int32, and
``DEFAULT_FLOAT``, float32). So the files record:

* ``tinygrad_promote_types``  ``strong_dtype(least_upper_dtype(a, b))``: the
  dtype a result of the two dtypes is stored as, over the 32 dtypes and
  Python's bool, int, float, complex (a type standing for
  ``dtypes.from_py`` of its scalar, ``True``, ``2``, ``2.0``, ``2j``)
* ``tinygrad_result_type``    ``least_upper_dtype`` of the operands' dtypes
  (no operand, every single operand, every ordered pair), as tinygrad's
  binary operators compute it (``ElementwiseMixin._broadcasted``)
* ``tinygrad_add``            (the call lines of ``ops_tinygrad.jsonl``,
  which ``generate_ops_tinygrad.py`` writes from ``recorded``) ``(a + b).dtype`` on every ordered pair of the
  same operands: the operator

Answers of ``result_type`` and ``add`` are ``{"dtype": strong_dtype(d),
"weak": d in dtypes.weaks}``. Every call is made at every ``DEFAULT_FLOAT``
in ``DEFAULT_FLOATS`` and ``DEFAULT_INT`` in ``DEFAULT_INTS`` (environment
variables, read at import, so each pair runs in child processes of its
own): the lines at the defaults (float32, int32) carry no setting, the
others, with ``"tinygrad_default_float"`` and ``"tinygrad_default_int"``,
only where their arguments or answer differ from every line at the
defaults. A dtype tinygrad has and the 32 lack would be
``NotOurs`` (none is answered: ``void``, ``_uint128`` and ``_uint256`` are
internal). The script checks that every dtype answered is one of the 32.

Operands (``args``), the notation of the batch interface:

* ``"int8"`` etc.: a tensor of that dtype with one dimension
  (``Tensor.empty(2, dtype=...)``); in ``promote_types`` the dtype. tinygrad
  spells four dtypes its own way (``TINYGRAD_NAMES``): its ``fp8e4m3`` is
  the OCP format without infinities (largest finite value 448), which
  ml_dtypes calls ``float8_e4m3fn``. Any other name is looked up as
  ``tinygrad.dtype.to_dtype(name)`` when the call runs, so a dtype tinygrad
  lacks answers the AttributeError that raises.
* ``{"dtype": "int32", "weak": true}``, ``{"dtype": "float32", "weak":
  true}`` (the default dtypes): ``Tensor(2)`` and ``Tensor(2.0)``, whose
  dtypes are ``weakint`` and ``weakfloat``.
* ``"py:int"``, ``"py:float"``, ``"py:complex"``, ``"py:bool"``: a Python
  scalar of that type, passed as ``2``, ``2.0``, ``2j`` and ``True``.
* a JSON integer: that Python int (tinygrad does not check its range).
* ``{"complex": [RE, IM]}``: that Python complex.
* ``null``: ``None``.

The header's ``"printed"`` records how tinygrad prints each dtype it has
(``str(dtypes.int8)`` is ``dtypes.char``), which the Python package reads.

Zero-dimensional tensors promote as tensors with dimensions do; the script
checks that (every ordered pair of dtypes) rather than recording them.
Nothing here runs a kernel, so the device does not matter; the script
computes every file under ``DEV=PYTHON`` and ``DEV=CPU`` in child processes
and checks that the two agree (float8 dtypes included: tinygrad 0.14 checks
no device support when it builds a tensor).
"""

from __future__ import annotations

import json
import os
from typing import Any

import golden_io
from golden_io import (DTYPE_NAMES, PY_COMPLEX_VALUES, PY_SCALARS,
                       PYTHON_TYPES, Lazy, Operand, parse_args, py_scalar,
                       py_value, resolve, run, typed, unary_and_binary,
                       write_all)

GENERATOR = "conformance/generate_tinygrad.py"
POLICY = "tinygrad"
DEVICES = ["PYTHON", "CPU"]
# The values of DEFAULT_FLOAT and DEFAULT_INT measured, tinygrad's first.
DEFAULT_FLOATS = ["float32", "float16", "bfloat16", "float64"]
DEFAULT_INTS = ["int32", "int64"]
# Our names for the dtypes tinygrad spells otherwise.
TINYGRAD_NAMES = {
    "float8_e4m3fn": "fp8e4m3",
    "float8_e5m2": "fp8e5m2",
    "float8_e4m3fnuz": "fp8e4m3fnuz",
    "float8_e5m2fnuz": "fp8e5m2fnuz",
}
PY_INT_VALUES = [300, -1, 2**63, 2**64, -2**63 - 1]


def tinygrad_dtype(name: str) -> Any:
    """tinygrad's dtype for one of our names; AttributeError if it lacks it."""
    from tinygrad.dtype import to_dtype
    return to_dtype(TINYGRAD_NAMES.get(name, name))


def our_name(dtype: Any) -> str:
    """Our name of a strong tinygrad dtype (NotOurs for one we lack)."""
    from tinygrad import dtypes
    for name in DTYPE_NAMES:
        if getattr(dtypes, TINYGRAD_NAMES.get(name, name), None) is dtype:
            return name
    return golden_io.ours(repr(dtype).removeprefix("dtypes."))


def strong_name(weak: str) -> str:
    """Our name of the dtype a weak type is stored as."""
    from tinygrad import dtypes
    from tinygrad.dtype import strong_dtype
    return our_name(strong_dtype(getattr(dtypes, weak)))


def answer_of(dtype: Any) -> dict:
    from tinygrad import dtypes
    from tinygrad.dtype import strong_dtype
    return typed(our_name(strong_dtype(dtype)), dtype in dtypes.weaks)


def dtype_of(value: Any) -> Any:
    """The dtype tinygrad promotes an operand as."""
    from tinygrad import Tensor, dtypes
    return value.dtype if isinstance(value, Tensor) else dtypes.from_py(value)


def operands() -> list[Operand]:
    from tinygrad import Tensor

    def tensor(name: str) -> Operand:
        return Operand(Lazy(lambda: Tensor.empty(2, dtype=tinygrad_dtype(name))), name)

    defaults = [(2, strong_name("weakint")), (2.0, strong_name("weakfloat"))]
    weak = [Operand(Lazy(lambda v=v: Tensor(v)), {"dtype": d, "weak": True})
            for v, d in defaults]
    return ([tensor(n) for n in DTYPE_NAMES] + weak
            + [py_scalar(s) for s in PY_SCALARS]
            + [py_value(v) for v in PY_INT_VALUES + PY_COMPLEX_VALUES]
            + [Operand(None, None)])


def call_promote_types(a: Any, b: Any) -> str:
    from tinygrad.dtype import least_upper_dtype, strong_dtype
    return our_name(strong_dtype(least_upper_dtype(resolve(a), resolve(b))))


def call_result_type(*values: Any) -> dict:
    from tinygrad.dtype import least_upper_dtype
    return answer_of(least_upper_dtype(*(dtype_of(resolve(v)) for v in values)))


def call_add(a: Any, b: Any) -> dict:
    result = resolve(a) + resolve(b)
    if isinstance(result, (int, float, complex)):
        raise golden_io.NotOurs(type(result).__name__)
    return answer_of(result.dtype)


def gen_promote_types() -> list[dict]:
    from tinygrad import dtypes

    def spec(name: str) -> Operand:
        if name in PYTHON_TYPES:
            return Operand(Lazy(lambda: dtypes.from_py(PY_SCALARS[f"py:{name}"])), name)
        return Operand(Lazy(lambda: tinygrad_dtype(name)), name)

    types = [spec(n) for n in DTYPE_NAMES + list(PYTHON_TYPES)]
    return run("promote_types", POLICY, call_promote_types,
               ([a, b] for a in types for b in types))


def gen_result_type() -> list[dict]:
    return run("result_type", POLICY, call_result_type,
               unary_and_binary(operands()))


def gen_add() -> list[dict]:
    ops = operands()
    return run("add", POLICY, call_add, ([a, b] for a in ops for b in ops))


GENERATORS = {
    "tinygrad_promote_types": gen_promote_types,
    "tinygrad_result_type": gen_result_type,
    "tinygrad_add": gen_add,
}


def check_environment() -> None:
    """The defaults the answers depend on are the ones asked for, and
    zero-dimensional tensors promote as tensors with dimensions do."""
    from tinygrad import Tensor, dtypes
    assert dtypes.default_float is tinygrad_dtype(os.environ["DEFAULT_FLOAT"])
    assert dtypes.default_int is tinygrad_dtype(os.environ["DEFAULT_INT"])
    for a in DTYPE_NAMES:
        for b in DTYPE_NAMES:
            try:
                x = Tensor.empty(2, dtype=tinygrad_dtype(a))
                y, y0 = (Tensor.empty(s, dtype=tinygrad_dtype(b)) for s in [(2,), ()])
            except AttributeError:
                continue
            assert (x + y).dtype is (x + y0).dtype is (y0 + x).dtype, (a, b)


def child() -> None:
    """Prints every file's lines, one JSON object a file, for the parent."""
    check_environment()
    for stem, generate in GENERATORS.items():
        print(json.dumps({stem: generate()}))


def computed(device: str, default_float: str, default_int: str) -> dict[str, list[dict]]:
    output = golden_io.child_output(
        __file__, ["--child"], DEV=device, DEFAULT_FLOAT=default_float,
        DEFAULT_INT=default_int)
    files: dict[str, list[dict]] = {}
    for text in output.splitlines():
        files.update(json.loads(text))
    return files


def printed() -> dict[str, list[str]]:
    """How tinygrad prints each of its dtypes, by our name: ``str`` of the
    dtype object under each of its attribute names (the Python package's
    test reads these)."""
    from tinygrad import dtypes
    from tinygrad.dtype import DType
    out: dict[str, list[str]] = {}
    for attribute, dtype in vars(type(dtypes)).items():
        if isinstance(dtype, DType) and dtype in dtypes.all:
            out.setdefault(our_name(dtype), [])
            if str(dtype) not in out[our_name(dtype)]:
                out[our_name(dtype)].append(str(dtype))
    return out


def header() -> dict:
    from importlib.metadata import version
    return golden_io.header(GENERATOR, {"tinygrad": version("tinygrad")},
                            devices=DEVICES, default_float=DEFAULT_FLOATS,
                            default_int=DEFAULT_INTS, printed=printed())


def recorded() -> dict[str, list[dict]]:
    """Every file's lines: each setting's, where they differ from the
    defaults', after those."""
    files: dict[str, list[dict]] = {}
    seen: dict[str, set[str]] = {}
    for default_float in DEFAULT_FLOATS:
        for default_int in DEFAULT_INTS:
            results = [computed(device, default_float, default_int) for device in DEVICES]
            for device, other in zip(DEVICES[1:], results[1:]):
                assert other == results[0], \
                    f"DEV={device} answers otherwise than DEV={DEVICES[0]}"
            default = (default_float, default_int) == (DEFAULT_FLOATS[0], DEFAULT_INTS[0])
            for stem, lines in results[0].items():
                known = seen.setdefault(stem, set())
                for entry in lines:
                    key = json.dumps([entry["args"], entry["answer"]])
                    if default:
                        known.add(key)
                    elif key in known:
                        continue  # answered as at the defaults
                    else:
                        entry = {**entry, "tinygrad_default_float": default_float,
                                 "tinygrad_default_int": default_int}
                        entry["answer"] = entry.pop("answer")
                    files.setdefault(stem, []).append(entry)
    return files


def main(argv: list[str] | None = None) -> None:
    args = parse_args(__doc__, argv, lambda parser: parser.add_argument(
        "--child", action="store_true", help="compute under $DEV, print the lines"))
    if args.child:
        child()
        return
    write_all(args.out, header(), {stem: (lambda lines=lines: lines)
                                   for stem, lines in recorded().items()
                                   if stem != "tinygrad_add"})


if __name__ == "__main__":
    main()
