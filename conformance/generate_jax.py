#!/usr/bin/env python3
"""Generate golden data for dtype-lattice by running real JAX (on CPU).

Usage:
    python generate_jax.py [--out DIR]

DIR defaults to ``golden/`` next to this script. The pinned versions are in
``requirements.txt``; every answer recorded here is what those libraries did.

Output format
=============
Each ``*.jsonl`` file is JSON Lines. Line 1 is a header::

    {"header": {"generator": "conformance/generate_jax.py", "python": "3.11.7",
                "versions": {"jax": ..., "jaxlib": ..., "numpy": ...,
                             "ml_dtypes": ...},
                "platform": "cpu"}}

Every other line is one call and its answer, keys in this order::

    {"fn": F, "args": [...], "x64": BOOL, "promotion": "standard"|"strict",
     "answer": A}

``A`` is ``{"ok": V}`` or ``{"error": {"type": T, "message": M}}`` where T is
``type(e).__name__`` and M is ``str(e)`` verbatim, for any exception raised
by that single call.

Argument encodings (``args``):

* ``"int8"`` etc.: a dtype specifier, passed as ``np.dtype("int8")``.
* ``"int"``, ``"float"``, ``"complex"``, ``"bool"``: the Python type object.
  ``"bool"`` is also the name of the bool dtype specifier; JAX treats the two
  identically, so such calls appear once (the generator checks that both
  spellings give the same answer before dropping the duplicate).
* ``{"dtype": "int16", "weak": true}``: an array of that dtype and weak flag.
  Arrays are JAX tracers (see ``traced_arrays``): ``isinstance(x, jax.Array)``
  holds, and JAX reads their dtype and ``aval.weak_type`` exactly as for
  concrete arrays, without canonicalizing the dtype.
* a JSON integer / float / true / false: that Python scalar value.
* ``{"complex": [REAL, IMAG]}``: the Python complex value ``REAL + IMAG*1j``.
* ``null``: ``None``.

Files and the JAX functions behind them (``jax._src.dtypes`` is ``dtypes``):

* ``promote_types``        ``jax.numpy.promote_types(a, b)``, 35 x 35 nodes
  (and Python's ``bool``, checked to answer as the ``bool`` dtype)
* ``lattice_result_type``  ``dtypes.lattice_result_type(*args)``
* ``result_type``          ``dtypes.result_type(*args, return_weak_type_flag=True)``
* ``asarray``              ``jax.numpy.asarray(value)`` for Python scalar values:
  its dtype and weak flag, or the OverflowError for an int out of range
* ``canonicalize_dtype``   ``dtypes.canonicalize_dtype(d)``
* ``safe_to_cast``         ``dtypes.safe_to_cast(input, output)``
* ``isdtype``              ``jax.numpy.isdtype(d, kind)``; kinds are passed as
  the strings themselves, a JSON list is a tuple of kinds
* ``issubdtype``           ``jax.numpy.issubdtype(a, b)``; "generic", "number",
  ... "complexfloating" are ``np.generic`` ... ``np.complexfloating``
* ``finfo`` / ``iinfo``    ``jax.numpy.finfo`` / ``jax.numpy.iinfo`` (these are
  ``ml_dtypes.finfo`` / ``ml_dtypes.iinfo``)
* ``itemsize_bits``        ``dtypes.itemsize_bits(d)``
* ``names``                ``np.dtype(s)`` (with ml_dtypes imported): ok with the
  name when it equals one of our dtypes, else error type "NotOurs" with
  ``str(np.dtype(s))``, or numpy's own exception
* ``docs_table``           ``dtypes.lattice_result_type(a, b)`` over the 18 types of
  the "Type promotion semantics" docs table

Answer encodings (``V``): a dtype name for ``promote_types`` and
``canonicalize_dtype``; ``{"dtype": NAME, "weak": BOOL}`` for
``lattice_result_type``, ``result_type`` and ``docs_table_cell``; a bool for
``safe_to_cast``, ``isdtype``, ``issubdtype``; an integer for
``itemsize_bits``; objects for ``finfo`` / ``iinfo``; a dtype name for
``dtype`` (``names.jsonl``).

Determinism: n-ary TypePromotionError messages name the dtypes in the
iteration order of a Python set, which depends on string hashing. Messages are
recorded verbatim, so the script re-executes itself with PYTHONHASHSEED=0
when that is not already set; compare n-ary messages as sets of names anyway.
The ``"ok"`` answers of ``names.jsonl`` for byte-order prefixes assume a
little-endian host.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple

import golden_io

if __name__ == "__main__":
    golden_io.reexec_with_fixed_hash_seed()

os.environ["JAX_PLATFORMS"] = "cpu"  # must precede the jax import

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax._src import dtypes as jax_dtypes  # noqa: E402
from jax._src.lax import lax as lax_internal  # noqa: E402

from golden_io import (DTYPE_NAMES, PYTORCH_ONLY, answer,  # noqa: E402
                       write_jsonl)

GENERATOR = "conformance/generate_jax.py"

WEAK_TYPE_NAMES = ["int", "float", "complex"]
PYTHON_TYPES = {"int": int, "float": float, "complex": complex, "bool": bool}

# (x64, promotion) in the order the files list them.
ALL_CONFIGS = [(False, "standard"), (False, "strict"),
               (True, "standard"), (True, "strict")]
X32_STANDARD = [(False, "standard")]
STANDARD_ONLY = [(False, "standard"), (True, "standard")]

SINGLE_VALUES = [
    0, 1, -1, 127, 255, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**32, 2**40,
    2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64, 2**100, 1.5, 1e300, True, False,
    1j, 2 + 3j, -1.5j, 1e300j,
]
PAIRED_VALUES = [0, 2, 2**31, -2**31 - 1, 2**63, 1.5, True, 1j, 2 + 3j]

ISDTYPE_KINDS = ["bool", "signed integer", "unsigned integer", "integral",
                 "real floating", "complex floating", "numeric"]
ISDTYPE_TUPLES = [("bool", "real floating"), ("int8", "complex floating"),
                  ("signed integer", "unsigned integer"),
                  ("float32", "float64"), ("numeric",), ()]
# Strings that are not kind names; some are numpy dtype spellings ("float").
ISDTYPE_ODD_KINDS = ["float", "integer", "", "signed", "complex"]

ISSUBDTYPE_CATEGORIES = {
    "generic": np.generic, "number": np.number, "integer": np.integer,
    "signedinteger": np.signedinteger, "unsignedinteger": np.unsignedinteger,
    "inexact": np.inexact, "floating": np.floating,
    "complexfloating": np.complexfloating,
}

FINFO_INT_FIELDS = ["bits", "nmant", "nexp", "iexp", "maxexp", "minexp",
                    "precision"]
FINFO_FLOAT_FIELDS = ["eps", "epsneg", "max", "min", "tiny",
                      "smallest_subnormal", "resolution"]
FINFO_FIELDS = ["bits", "eps", "epsneg", "max", "min", "tiny",
                "smallest_subnormal", "resolution", "nmant", "nexp", "iexp",
                "maxexp", "minexp", "precision", "dtype"]

DOCS_TABLE_TYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8",
                    "int16", "int32", "int64", "bfloat16", "float16",
                    "float32", "float64", "complex64", "complex128",
                    "int", "float", "complex"]

# Spellings numpy 1.x accepted or that look like dtype names; numpy 2.4 is
# asked about each of them in names.jsonl.
LEGACY_TYPE_NAMES = [
    "bool_", "bool8", "int_", "int0", "uint0", "float_", "complex_",
    "longfloat", "singlecomplex", "cfloat", "longcomplex", "clongfloat",
    "unicode_", "string_", "object0", "str0", "bytes0", "void0",
    "half", "single", "double", "longdouble", "csingle", "cdouble",
    "clongdouble", "byte", "ubyte", "short", "ushort", "intc", "uintc",
    "long", "ulong", "longlong", "ulonglong", "intp", "uintp",
]
SHORT_CODES = ["b1", "?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8",
               "f2", "f4", "f8", "c8", "c16"]
BYTE_ORDER_PREFIXES = ["<", "=", "|", ">"]
# Bit-counting spellings (the notebook's i16, c64, bf16...) and dtype kinds.
NEAR_MISSES = ["i16", "i32", "i64", "u16", "u32", "u64", "f16", "f32", "f64",
               "c32", "c64", "c128", "bf16", "bf", "u", "c", "int128",
               "float8", "float4", "uint128", "Int8", "INT8", "int8 "]


# --------------------------------------------------------------------------
# Operands: a Python object for JAX plus its JSON encoding.

class Operand(NamedTuple):
    value: Any
    encoded: Any


def spec(name: str) -> Operand:
    """A dtype specifier, handed to JAX as a numpy dtype object."""
    return Operand(np.dtype(name), name)


def pytype(name: str) -> Operand:
    """A Python scalar type (int, float, complex, bool)."""
    return Operand(PYTHON_TYPES[name], name)


def node(name: str) -> Operand:
    """A lattice node: a dtype specifier or one of the weak Python types."""
    return pytype(name) if name in WEAK_TYPE_NAMES else spec(name)


def scalar(value: Any) -> Operand:
    """A Python scalar value (int, float, complex or bool); JSON has no
    complex numbers, so a complex is written ``{"complex": [REAL, IMAG]}``."""
    if isinstance(value, complex):
        return Operand(value, {"complex": [value.real, value.imag]})
    return Operand(value, value)


def array(arrays: dict, name: str, weak: bool) -> Operand:
    return Operand(arrays[name, weak], {"dtype": name, "weak": weak})


NONE = Operand(None, None)


# --------------------------------------------------------------------------
# Configuration.

def set_config(x64: bool, promotion: str) -> None:
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", promotion)
    check_config(x64, promotion)


@contextlib.contextmanager
def configured(x64: bool, promotion: str) -> Iterator[None]:
    """Run a block under the given configuration, then restore the old one."""
    old = (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion)
    set_config(x64, promotion)
    try:
        yield
    finally:
        set_config(*old)


def check_config(x64: bool, promotion: str) -> None:
    """Check that the configuration really is in effect in JAX's dtype code."""
    default_int = jax_dtypes.default_int_dtype()
    assert default_int == np.dtype("int64" if x64 else "int32"), default_int
    assert jax_dtypes.result_type(int) == default_int
    assert jax.config.jax_numpy_dtype_promotion == promotion
    try:
        promoted = jnp.promote_types(np.dtype("int8"), np.dtype("uint8"))
    except jax_dtypes.TypePromotionError:
        promoted = None
    assert promoted == (None if promotion == "strict" else np.dtype("int16"))


# --------------------------------------------------------------------------
# Arrays of every dtype and weak flag.

def traced_arrays(body: Callable[[dict], Any]) -> Any:
    """Call ``body(arrays)`` where arrays[name, weak] is a JAX array.

    Concrete arrays cannot be made for every dtype (XLA's CPU runtime has no
    float6 buffers, and weak uint1 fails to lower), so the arrays are tracers:
    ``body`` runs inside ``jax.make_jaxpr``, whose arguments are abstract
    arrays with exactly the requested dtype and ``weak_type``. Tracers are
    ``jax.Array`` instances, so ``jax._src.dtypes`` takes their dtype as is
    and their weak flag from ``x.aval.weak_type``, as for concrete arrays.
    Tracing happens with x64 enabled so 64-bit dtypes are kept; ``body`` may
    change the configuration, it is restored afterwards.

    (``jax.ShapeDtypeStruct`` and ``core.ShapedArray`` would not do: they have
    no ``.aval``, so ``dtypes`` ignores their weak_type, and their dtype is
    canonicalized like a specifier's.)
    """
    keys = [(name, weak) for name in DTYPE_NAMES for weak in (False, True)]
    structs = [jax.ShapeDtypeStruct((), np.dtype(name), weak_type=weak)
               for name, weak in keys]
    result = []

    def traced(*tracers):
        arrays = dict(zip(keys, tracers))
        check_arrays(arrays)
        result.append(body(arrays))
        return ()

    with configured(True, "standard"):
        jax.make_jaxpr(traced)(*structs)
    return result[0]


def check_arrays(arrays: dict) -> None:
    """Prove that JAX sees each array's dtype and weak flag as requested."""
    for (name, weak), x in arrays.items():
        assert isinstance(x, jax.Array)
        assert x.dtype == np.dtype(name), (name, x.dtype)
        assert jax_dtypes.is_weakly_typed(x) is weak, (name, weak)
    with configured(False, "standard"):
        weak_int16 = jax_dtypes.result_type(arrays["int16", True],
                                            return_weak_type_flag=True)
        strong_int16 = jax_dtypes.result_type(arrays["int16", False],
                                              return_weak_type_flag=True)
        strong_int64 = jax_dtypes.lattice_result_type(arrays["int64", False])
    assert weak_int16 == (np.dtype("int32"), True), weak_int16
    assert strong_int16 == (np.dtype("int16"), False), strong_int16
    assert strong_int64 == (np.dtype("int64"), False), strong_int64


def concrete_arrays() -> dict:
    """Concrete jax.Arrays for every (dtype, weak) that the CPU runtime allows."""
    arrays = {}
    with configured(True, "standard"):
        for name in DTYPE_NAMES:
            for weak in (False, True):
                try:
                    x = jnp.zeros((), np.dtype(name))
                    x = lax_internal._convert_element_type(
                        x, np.dtype(name), weak_type=weak)
                    jax.block_until_ready(x)
                except Exception:  # noqa: BLE001 - unsupported on CPU
                    continue
                arrays[name, weak] = x
    return arrays


def cross_check(traced: dict, concrete: dict) -> None:
    """Tracers and concrete arrays must get identical answers from JAX."""
    keys = sorted(concrete, key=lambda k: (DTYPE_NAMES.index(k[0]), k[1]))
    funcs = [call_lattice_result_type, call_result_type]
    calls = [(a,) for a in keys] + [(a, b) for a in keys for b in keys]
    for x64, promotion in ALL_CONFIGS:
        with configured(x64, promotion):
            for ks in calls:
                for fn in funcs:
                    got_t = answer(lambda: fn(*(traced[k] for k in ks)))
                    got_c = answer(lambda: fn(*(concrete[k] for k in ks)))
                    assert got_t == got_c, (fn, ks, got_t, got_c)
    missing = sorted(set(traced) - set(concrete),
                     key=lambda k: (DTYPE_NAMES.index(k[0]), k[1]))
    print(f"cross-checked tracers against {len(concrete)} concrete arrays; "
          f"no concrete array possible for {missing}", file=sys.stderr)


# --------------------------------------------------------------------------
# Calling JAX and encoding answers.

def dtype_name(dt: Any) -> str:
    return str(np.dtype(dt))


def dtype_and_weak(pair: tuple) -> dict:
    dt, weak = pair
    return {"dtype": dtype_name(dt), "weak": bool(weak)}


def call_lattice_result_type(*values: Any) -> dict:
    return dtype_and_weak(jax_dtypes.lattice_result_type(*values))


def call_result_type(*values: Any) -> dict:
    return dtype_and_weak(
        jax_dtypes.result_type(*values, return_weak_type_flag=True))


def call_asarray(value: Any) -> dict:
    """The dtype and weak flag of ``jnp.asarray(value)`` for a Python scalar.

    This is where JAX checks that a Python int fits its default integer
    dtype (``result_type`` does not)."""
    x = jnp.asarray(value)
    return {"dtype": dtype_name(x.dtype),
            "weak": bool(jax_dtypes.is_weakly_typed(x))}


def json_float(x: Any) -> float | str:
    """float(x), with NaN and infinities as strings."""
    f = float(x)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


def call_finfo(dt: np.dtype) -> dict:
    info = jnp.finfo(dt)
    out = {}
    for field in FINFO_FIELDS:
        value = getattr(info, field)
        if field in FINFO_INT_FIELDS:
            out[field] = int(value)
        elif field in FINFO_FLOAT_FIELDS:
            out[field] = json_float(value)
        else:
            out[field] = dtype_name(value)
    return out


def call_iinfo(dt: np.dtype) -> dict:
    info = jnp.iinfo(dt)
    return {"bits": int(info.bits), "min": int(info.min), "max": int(info.max)}


def line(fn: str, args: list, config: tuple, result: dict) -> dict:
    x64, promotion = config
    return {"fn": fn, "args": args, "x64": x64, "promotion": promotion,
            "answer": result}


def run(fn: str, call: Callable, operand_lists: Iterable[list],
        configs: list) -> list[dict]:
    """Call ``call(*values)`` for each operand list in each configuration."""
    operand_lists = list(operand_lists)
    lines = []
    for config in configs:
        with configured(*config):
            for ops in operand_lists:
                values = [op.value for op in ops]
                result = answer(lambda: call(*values))
                lines.append(line(fn, [op.encoded for op in ops], config,
                                  result))
    return lines


# --------------------------------------------------------------------------
# The files.

def promotion_nodes() -> list[Operand]:
    return [node(name) for name in DTYPE_NAMES + WEAK_TYPE_NAMES]


def gen_promote_types(arrays: dict) -> list[dict]:
    # Python's bool too, which the library gives a table row of its own:
    # its calls encode as the bool dtype's, so `dedupe` checks that JAX
    # answers them alike (errors included) and keeps one of each.
    nodes = promotion_nodes() + [pytype("bool")]
    pairs = ([a, b] for a in nodes for b in nodes)
    return run("promote_types",
               lambda a, b: dtype_name(jnp.promote_types(a, b)),
               pairs, ALL_CONFIGS)


def array_operands(arrays: dict) -> list[Operand]:
    return [array(arrays, name, weak)
            for name in DTYPE_NAMES for weak in (False, True)]


def result_type_operands(arrays: dict) -> list[Operand]:
    """S: 64 arrays, 32 specifiers, 4 Python types and None."""
    return (array_operands(arrays) + [spec(n) for n in DTYPE_NAMES]
            + [pytype(n) for n in PYTHON_TYPES] + [NONE])


def result_type_calls(arrays: dict) -> list[list[Operand]]:
    S = result_type_operands(arrays)
    A = array_operands(arrays)
    a = lambda name, weak: array(arrays, name, weak)  # noqa: E731
    triples = [
        [a("int8", True), a("int16", True), a("uint8", False)],
        [spec("int8"), spec("uint8"), spec("float16")],
        [pytype("int"), pytype("float"), a("int4", False)],
        [spec("bfloat16"), spec("float16"), pytype("complex")],
        [spec("float8_e4m3fn"), pytype("int"), pytype("float")],
    ]
    return ([[]]
            + [[x] for x in S]
            + [[x, y] for x in S for y in S]
            + [[scalar(v)] for v in SINGLE_VALUES]
            + [pair for v in PAIRED_VALUES for x in A
               for pair in ([scalar(v), x], [x, scalar(v)])]
            + triples)


def gen_lattice_result_type(arrays: dict) -> list[dict]:
    return run("lattice_result_type", call_lattice_result_type,
               result_type_calls(arrays), ALL_CONFIGS)


def gen_result_type(arrays: dict) -> list[dict]:
    return run("result_type", call_result_type,
               result_type_calls(arrays), ALL_CONFIGS)


def gen_asarray(arrays: dict) -> list[dict]:
    return run("asarray", call_asarray,
               ([scalar(v)] for v in SINGLE_VALUES), STANDARD_ONLY)


def gen_canonicalize_dtype(arrays: dict) -> list[dict]:
    return run("canonicalize_dtype",
               lambda d: dtype_name(jax_dtypes.canonicalize_dtype(d)),
               ([spec(n)] for n in DTYPE_NAMES), STANDARD_ONLY)


def gen_safe_to_cast(arrays: dict) -> list[dict]:
    inputs = ([spec(n) for n in DTYPE_NAMES] + array_operands(arrays)
              + [pytype(n) for n in PYTHON_TYPES])
    outputs = [spec(n) for n in DTYPE_NAMES]
    return run("safe_to_cast",
               lambda i, o: bool(jax_dtypes.safe_to_cast(i, o)),
               ([i, o] for i in inputs for o in outputs), ALL_CONFIGS)


def isdtype_kind(kind: str | tuple) -> Operand:
    """A kind is passed as the string itself; a tuple is a JSON list."""
    return Operand(kind, list(kind) if isinstance(kind, tuple) else kind)


def gen_isdtype(arrays: dict) -> list[dict]:
    kinds = [isdtype_kind(k) for k in
             ISDTYPE_KINDS + DTYPE_NAMES + ISDTYPE_TUPLES + ISDTYPE_ODD_KINDS]
    return run("isdtype", lambda d, k: bool(jnp.isdtype(d, k)),
               ([spec(n), k] for n in DTYPE_NAMES for k in kinds),
               X32_STANDARD)


def gen_issubdtype(arrays: dict) -> list[dict]:
    items = ([spec(n) for n in DTYPE_NAMES]
             + [Operand(t, n) for n, t in ISSUBDTYPE_CATEGORIES.items()])
    return run("issubdtype", lambda a, b: bool(jnp.issubdtype(a, b)),
               ([a, b] for a in items for b in items), X32_STANDARD)


def gen_finfo(arrays: dict) -> list[dict]:
    return run("finfo", call_finfo, ([spec(n)] for n in DTYPE_NAMES),
               X32_STANDARD)


def gen_iinfo(arrays: dict) -> list[dict]:
    return run("iinfo", call_iinfo, ([spec(n)] for n in DTYPE_NAMES),
               X32_STANDARD)


def gen_itemsize_bits(arrays: dict) -> list[dict]:
    return run("itemsize_bits", lambda d: int(jax_dtypes.itemsize_bits(d)),
               ([spec(n)] for n in DTYPE_NAMES), X32_STANDARD)


def dtype_strings() -> list[str]:
    """Strings to ask np.dtype() about: the 32 names' spellings and near misses."""
    strings = {k for k in np.sctypeDict if isinstance(k, str)}
    strings.update(np.typecodes["All"])
    strings.update(SHORT_CODES)
    strings.update(p + c for p in BYTE_ORDER_PREFIXES for c in SHORT_CODES)
    strings.update(DTYPE_NAMES)
    strings.update(LEGACY_TYPE_NAMES)
    strings.update(NEAR_MISSES)
    for attr in dir(ml_dtypes):
        obj = getattr(ml_dtypes, attr)
        if isinstance(obj, type) and issubclass(obj, np.generic):
            strings.update((attr, obj.__name__))
    for name in DTYPE_NAMES:
        strings.add(np.dtype(name).type.__name__)
    return sorted(strings)


def call_dtype(s: str) -> str:
    """The canonical name if np.dtype(s) is one of our dtypes (ml_dtypes'
    complex32 is PyTorch's, complex with float16 parts)."""
    dt = np.dtype(s)
    matches = [n for n in DTYPE_NAMES + PYTORCH_ONLY if dt == np.dtype(n)]
    assert len(matches) <= 1, (s, matches)
    if not matches:
        raise NotOurs(str(dt))
    return matches[0]


class NotOurs(Exception):
    """np.dtype() accepted the string, but it is none of the 32 dtypes."""


def gen_names(arrays: dict) -> list[dict]:
    return run("dtype", call_dtype,
               ([Operand(s, s)] for s in dtype_strings()), X32_STANDARD)


def gen_docs_table(arrays: dict) -> list[dict]:
    types = [node(n) for n in DOCS_TABLE_TYPES]
    return run("docs_table_cell", call_lattice_result_type,
               ([a, b] for a in types for b in types), ALL_CONFIGS)


GENERATORS = {
    "promote_types": gen_promote_types,
    "lattice_result_type": gen_lattice_result_type,
    "result_type": gen_result_type,
    "asarray": gen_asarray,
    "canonicalize_dtype": gen_canonicalize_dtype,
    "safe_to_cast": gen_safe_to_cast,
    "isdtype": gen_isdtype,
    "issubdtype": gen_issubdtype,
    "finfo": gen_finfo,
    "iinfo": gen_iinfo,
    "itemsize_bits": gen_itemsize_bits,
    "names": gen_names,
    "docs_table": gen_docs_table,
}


# --------------------------------------------------------------------------
# Writing.

def dedupe(lines: list[dict]) -> list[dict]:
    """Drop repeated calls (the two spellings of "bool"); answers must agree."""
    seen: dict[str, dict] = {}
    out = []
    for entry in lines:
        key = json.dumps([entry["fn"], entry["args"], entry["x64"],
                          entry["promotion"]])
        if key in seen:
            if seen[key] != entry["answer"]:
                raise RuntimeError(f"same call, different answers: {key}: "
                                   f"{seen[key]} vs {entry['answer']}")
            continue
        seen[key] = entry["answer"]
        out.append(entry)
    return out


def header() -> dict:
    return {"header": {
        "generator": GENERATOR,
        "python": platform.python_version(),
        "versions": {"jax": jax.__version__, "jaxlib": jaxlib.__version__,
                     "numpy": np.__version__,
                     "ml_dtypes": ml_dtypes.__version__},
        "platform": jax.default_backend(),
    }}


def check_dtypes_exist() -> None:
    for name in DTYPE_NAMES:
        source = ml_dtypes if hasattr(ml_dtypes, name) else np
        dt = np.dtype(getattr(source, name))
        assert str(dt) == name == str(np.dtype(name)), (name, dt)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "golden",
                        help="output directory (default: %(default)s)")
    out_dir = parser.parse_args(argv).out
    out_dir.mkdir(parents=True, exist_ok=True)

    check_dtypes_exist()
    head = header()
    assert head["header"]["platform"] == "cpu", head
    concrete = concrete_arrays()

    def generate_all(arrays: dict) -> None:
        cross_check(arrays, concrete)
        for file_stem, generate in GENERATORS.items():
            lines = dedupe(generate(arrays))
            write_jsonl(out_dir / f"{file_stem}.jsonl", head, lines)
            print(f"{file_stem}.jsonl: {len(lines)} calls", file=sys.stderr)

    traced_arrays(generate_all)


if __name__ == "__main__":
    main()
