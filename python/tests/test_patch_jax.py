"""``dl.patch_jax()``: JAX itself answering through dtype-lattice.

Three parts:

* the patch itself: which names it replaces, that undoing it puts back
  JAX's very objects, the context manager, patching twice, unchecked
  releases, errors, configuration read at each call, fallbacks;
* the golden JAX files (``promote_types``, ``result_type``,
  ``lattice_result_type``, ``result_type_nary``, ``docs_table``) called
  through JAX's own, patched, functions - ``jnp.promote_types``,
  ``dtypes.result_type(..., return_weak_type_flag=True)``,
  ``jnp.result_type`` and ``dtypes.lattice_result_type`` - with the
  generator's operands (tracers of every dtype and weak flag);
* real ``jax.numpy`` programs under x64 on and off and both promotion
  modes, run by unpatched JAX and then patched JAX in the same test, with
  identical results (dtypes, weak flags, values), jaxprs, errors (class and
  message) and warnings.

``python/scripts/check_patch_jax.py`` runs this module under another JAX
release and prints ``STATS``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed; patch_jax needs it")
import dtype_lattice as dl  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from dtype_lattice import _jax  # noqa: E402
from jax import lax  # noqa: E402
from jax._src import dtypes  # noqa: E402
from test_golden import GOLDEN, matches, normalised, typed, value  # noqa: E402

if jax.__version__ not in _jax.CHECKED:
    pytest.skip(f"patch_jax was not checked against JAX {jax.__version__}",
                allow_module_level=True)

#: What the tests checked, for ``check_patch_jax.py``'s summary.
STATS: dict[str, Any] = {"golden": {}, "programs": 0, "program_configs": 0}

CONFIGS = [(False, "standard"), (True, "standard"), (False, "strict"), (True, "strict")]
ORIGINALS = {"promote_types": dtypes.promote_types,
             "lattice_result_type": dtypes.lattice_result_type}


def set_config(x64: bool, promotion: str, explicit_x64: str = "warn") -> None:
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", promotion)
    jax.config.update("jax_explicit_x64_dtypes", explicit_x64)


@contextlib.contextmanager
def left_as_found(active: Callable[[], Any], end: str, what: str) -> Iterator[None]:
    """JAX's configuration put back as it was found; then, if ``active()``
    names something the test left active, its method ``end`` ends it and the
    test fails naming ``what``."""
    saved = (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion,
             dtypes.config.explicit_x64_dtypes.value.name.lower())
    yield
    set_config(*saved)
    left = active()
    if left is not None:
        getattr(left, end)()
        pytest.fail(f"the test left {what}")


@pytest.fixture(autouse=True)
def restore_jax() -> Iterator[None]:
    """Each test starts unpatched and leaves JAX's configuration as found."""
    with left_as_found(_jax.active, "undo", "JAX patched"):
        yield


def answer_of(call: Callable[[], Any]) -> dict:
    """The answer, or the exception's class (by module and name, so JAX's
    TypePromotionError differs from the library's) and message."""
    try:
        return {"ok": call()}
    except Exception as e:  # noqa: BLE001 - compared as data
        return {"error": {"type": f"{type(e).__module__}.{type(e).__qualname__}",
                          "message": str(e)}}


def holders(objects: dict[str, Any]) -> dict[str, set[str]]:
    """Every loaded JAX module attribute that is one of ``objects``."""
    found: dict[str, set[str]] = {name: set() for name in objects}
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "jax" or module_name.startswith("jax.")):
            continue
        for attr, obj in list(vars(module).items()):
            for name, target in objects.items():
                if obj is target:
                    found[name].add(f"{module_name}.{attr}")
    return found


# ---------------------------------------------------------------------------
# The patch itself.

def test_patches_every_name_and_undo_restores_the_objects() -> None:
    before = holders(ORIGINALS)
    expected = {fn: {f"{m}.{fn}" for m in mods}
                for fn, mods in _jax.CHECKED[jax.__version__].items()}
    assert before == expected  # the table names every binding JAX has
    patch = dl.patch_jax()
    try:
        assert patch.active and _jax.active() is patch
        assert holders(ORIGINALS) == {fn: set() for fn in ORIGINALS}
        ours = {"promote_types": jnp.promote_types,
                "lattice_result_type": dtypes.lattice_result_type}
        assert holders(ours) == expected
        # help() and inspect still show JAX's documentation and signature.
        assert jnp.promote_types.__doc__ == ORIGINALS["promote_types"].__doc__
        assert getattr(jnp.promote_types, "__wrapped__") is ORIGINALS["promote_types"]
    finally:
        patch.undo()
    assert not patch.active and _jax.active() is None
    assert holders(ORIGINALS) == before
    assert dtypes.promote_types is ORIGINALS["promote_types"]
    assert jnp.promote_types is ORIGINALS["promote_types"]
    patch.undo()  # undoing again does nothing
    assert holders(ORIGINALS) == before


def test_context_manager() -> None:
    with dl.patch_jax() as patch:
        assert jnp.promote_types is not ORIGINALS["promote_types"]
        assert jnp.promote_types(np.int8, np.uint8) == np.dtype("int16")
        assert patch.answered == 1
    assert not patch.active
    assert jnp.promote_types is ORIGINALS["promote_types"]
    with pytest.raises(ValueError):
        with dl.patch_jax():
            raise ValueError("left by an exception")
    assert dtypes.lattice_result_type is ORIGINALS["lattice_result_type"]


def test_patching_twice_is_an_error() -> None:
    with dl.patch_jax() as patch:
        ours = jnp.promote_types
        with pytest.raises(RuntimeError, match="already patched"):
            dl.patch_jax()
        assert patch.active and jnp.promote_types is ours
    assert jnp.promote_types is ORIGINALS["promote_types"]


def test_unchecked_release_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jax, "__version__", "0.9.0")
    with pytest.raises(RuntimeError, match=r"checked against JAX 0\.10\.2 and "
                                           r"0\.12\.0\.1, not JAX 0\.9\.0"):
        dl.patch_jax()
    assert _jax.active() is None
    assert jnp.promote_types is ORIGINALS["promote_types"]


def test_refuses_names_replaced_by_something_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jnp, "promote_types", lambda a, b: None)
    with pytest.raises(RuntimeError, match="jax.numpy.promote_types is not"):
        dl.patch_jax()
    assert _jax.active() is None
    assert dtypes.promote_types is ORIGINALS["promote_types"]


# Undoing with a name replaced meanwhile: test_restore.py.


def test_errors_are_jax_classes() -> None:
    with dl.patch_jax():
        with pytest.raises(dtypes.TypePromotionError, match="8-bit floats") as info:
            jnp.promote_types("float8_e4m3fn", "float16")
        assert type(info.value) is jax.dtypes.TypePromotionError
        assert not isinstance(info.value, dl.TypePromotionError)
        with pytest.raises(jax.dtypes.TypePromotionError, match="1-bit, 2-bit and 4-bit"):
            jnp.ones(2, jnp.int4) + jnp.ones(2, jnp.int8)
        # JAX's own errors where JAX reads the operands.
        with pytest.raises(ValueError, match="Invalid argument to dtype: None."):
            dtypes.lattice_result_type(None)
        with pytest.raises(TypeError, match="data type 'int9' not understood"):
            jnp.promote_types("int9", "int8")


def test_configuration_is_read_at_each_call() -> None:
    set_config(False, "standard")
    with dl.patch_jax() as patch:
        assert jnp.promote_types(np.int8, np.uint8) == np.dtype("int16")
        with jax.numpy_dtype_promotion("strict"):
            with pytest.raises(dtypes.TypePromotionError, match="strict"):
                jnp.promote_types(np.int8, np.uint8)
        assert dtypes.result_type(int) == np.dtype("int32")
        with jax.enable_x64(True):
            assert dtypes.result_type(int) == np.dtype("int64")
        jax.config.update("jax_enable_x64", True)
        assert dtypes.result_type(1.5, return_weak_type_flag=True) == (np.dtype("float64"), True)
        assert patch.delegated == 0 and patch.answered == 5


@pytest.mark.parametrize("mode", ["allow", "error"])
def test_explicit_x64_modes_are_answered_by_the_library(mode: str) -> None:
    """Under every ``jax_explicit_x64_dtypes`` mode the library answers,
    with JAX's answers, warnings and errors."""
    set_config(False, "standard", mode)
    calls = [lambda: dtypes.result_type(np.int64, 2, return_weak_type_flag=True),
             lambda: jnp.promote_types("int64", "uint8"),
             lambda: repr(jnp.asarray(np.arange(3)) + 1)]
    unpatched = [answer_of(call) for call in calls]
    with dl.patch_jax() as patch:
        assert [answer_of(call) for call in calls] == unpatched
        assert patch.answered > 0 and patch.delegated == 0


def test_dtypes_the_library_lacks_go_to_jax() -> None:
    """PRNG keys, float0 and a non-native byte order: JAX's answers."""
    calls = [
        lambda: str(jnp.concatenate([jax.random.key(0)[None],
                                     jax.random.key(1)[None]]).dtype),
        lambda: jnp.promote_types(dtypes.float0, "int8"),
        lambda: jnp.promote_types(">i4", "int8"),
        lambda: dtypes.lattice_result_type(np.zeros(2, dtypes.float0), 1.0),
    ]
    unpatched = [answer_of(call) for call in calls]
    with dl.patch_jax() as patch:
        assert [answer_of(call) for call in calls] == unpatched
        assert patch.delegated >= len(calls)  # (making keys promotes ints)


def test_functions_traced_before_patching_are_traced_again() -> None:
    f = jax.jit(lambda x: x * 2.5 + 1)
    x = np.arange(3, dtype=np.int16)
    expected = repr(f(x))
    with dl.patch_jax() as patch:
        assert repr(f(x)) == expected
        assert patch.answered > 0  # not the jaxpr cached before patching


# ---------------------------------------------------------------------------
# The golden files, through JAX's patched functions.

GOLDEN_FILES = ["promote_types", "result_type", "lattice_result_type",
                "result_type_nary", "docs_table"]


def as_golden(answer: dict) -> dict:
    """An answer in the golden files' form (the class by name only) - after
    checking that a TypePromotionError is JAX's own class."""
    error = answer.get("error")
    if not error:
        return answer
    module, _, name = error["type"].rpartition(".")
    if name == "TypePromotionError":
        assert module == "jax.dtypes", error["type"]
    return {"error": {"type": name, "message": error["message"]}}


def traced_arrays(body: Callable[[dict], Any]) -> Any:
    """``body(arrays)``, arrays[name, weak] a tracer of that dtype and weak
    flag: the generator's operands (``conformance/generate_jax.py``)."""
    keys = [(name, weak) for name in dl._native.dtype_names() for weak in (False, True)]
    structs = [jax.ShapeDtypeStruct((), np.dtype(name), weak_type=weak)
               for name, weak in keys]
    result = []

    def traced(*tracers: Any) -> tuple:
        result.append(body(dict(zip(keys, tracers, strict=True))))
        return ()

    set_config(True, "standard")  # tracers of every dtype, kept as they are
    jax.make_jaxpr(traced)(*structs)
    return result[0]


def run_golden(cases: list[dict], arrays: dict) -> list[str]:
    """Each case through patched JAX: the failures."""
    failures = []
    config = None
    for case in cases:
        if (case["x64"], case["promotion"]) != config:
            config = (case["x64"], case["promotion"])
            set_config(*config)
        args = [arrays[a["dtype"], a["weak"]] if isinstance(a, dict) and "dtype" in a
                else value(a) for a in case["args"]]
        fn, expected = case["fn"], case["answer"]
        if fn == "promote_types":
            checks = [(answer_of(lambda: str(jnp.promote_types(*args))), expected)]
        elif fn == "result_type":
            jnp_expected = ({"ok": expected["ok"]["dtype"]} if "ok" in expected
                            else expected)
            checks = [
                (answer_of(lambda: typed(dtypes.result_type(
                    *args, return_weak_type_flag=True))), expected),
                (answer_of(lambda: str(jnp.result_type(*args))), jnp_expected)]
        else:  # lattice_result_type, docs_table_cell
            checks = [(answer_of(lambda: typed(dtypes.lattice_result_type(*args))),
                       expected)]
        for ours, wanted in checks:
            ours = as_golden(ours)
            if not matches({**case, "answer": wanted}, ours):
                failures.append(f"{fn}{case['args']} x64={case['x64']} "
                                f"{case['promotion']}:\n  expected {wanted}\n  ours     {ours}")
    return failures


@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")  # JAX's, as unpatched
@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_golden_through_patched_jax(name: str) -> None:
    lines = (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    cases = [json.loads(line) for line in lines[1:]]
    with dl.patch_jax() as patch:
        failures = traced_arrays(lambda arrays: run_golden(cases, arrays))
    STATS["golden"][name] = {"cases": len(cases), "answered": patch.answered,
                             "delegated": patch.delegated, "failures": len(failures)}
    assert not failures, (f"{len(failures)} of {len(cases)} differ:\n"
                          + "\n".join(failures[:15]))
    assert patch.delegated == 0 and patch.answered > 0


# ---------------------------------------------------------------------------
# jax.numpy programs: unpatched JAX, then patched, in the same test.

i8 = lambda: np.arange(-2, 3, dtype=np.int8)  # noqa: E731
u8 = lambda: np.arange(5, dtype=np.uint8)  # noqa: E731
i16 = lambda: np.arange(5, dtype=np.int16)  # noqa: E731
i32 = lambda: np.arange(5, dtype=np.int32)  # noqa: E731
u32 = lambda: np.arange(5, dtype=np.uint32)  # noqa: E731
i64 = lambda: np.arange(5, dtype=np.int64)  # noqa: E731
u64 = lambda: np.arange(5, dtype=np.uint64)  # noqa: E731
f16 = lambda: np.linspace(0, 1, 5, dtype=np.float16)  # noqa: E731
bf16 = lambda: np.linspace(0, 1, 5).astype(jnp.bfloat16)  # noqa: E731
f32 = lambda: np.linspace(0, 1, 5, dtype=np.float32)  # noqa: E731
f64 = lambda: np.linspace(0, 1, 5)  # noqa: E731
b = lambda: np.array([True, False, True, True, False])  # noqa: E731

#: name: (function, a maker of its arguments - NumPy arrays and Python
#: scalars, made anew for each run so that no JAX promotion happens before).
PROGRAMS: dict[str, tuple[Callable[..., Any], Callable[[], tuple]]] = {
    "int8 + Python int": (jnp.add, lambda: (i8(), 2)),
    "uint8 * int8": (jnp.multiply, lambda: (u8(), i8())),
    "float16 + Python float": (lambda x: x + 2.5, lambda: (f16(),)),
    "int32 + Python complex": (lambda x: x + 1j, lambda: (i32(),)),
    "bfloat16 + float16": (jnp.add, lambda: (bf16(), f16())),
    "uint32 - int32": (jnp.subtract, lambda: (u32(), i32())),
    "uint64 + int64": (jnp.add, lambda: (u64(), i64())),
    "int64 / Python int": (jnp.true_divide, lambda: (i64(), 3)),
    "float64 * int8": (jnp.multiply, lambda: (f64(), i8())),
    "bool + bool, bool * 2": (lambda p, q: (p + q, p * 2), lambda: (b(), b())),
    "where(bool, int32, 1.5)": (jnp.where, lambda: (b(), i32(), 1.5)),
    "where(bool, 0, float16)": (jnp.where, lambda: (b(), 0, f16())),
    "concatenate int8, uint8, float16": (
        lambda *xs: jnp.concatenate(xs), lambda: (i8(), u8(), f16())),
    "stack int16, Python scalars": (
        lambda x: jnp.stack([x, jnp.full_like(x, 3)]) * 0.5, lambda: (i16(),)),
    "arange(0, 5, 0.5) + int8": (
        lambda x: jnp.arange(0, 5, 0.5)[:5] + x, lambda: (i8(),)),
    "arange(int16 scalar)": (lambda n: jnp.arange(n), lambda: (np.int16(7),)),
    "sum(int16 * uint32)": (lambda x, y: jnp.sum(x * y), lambda: (i16(), u32())),
    "mean(int8), var(uint8)": (lambda x, y: (jnp.mean(x), jnp.var(y)), lambda: (i8(), u8())),
    "array([1, 2.5, 3j])": (lambda: jnp.array([1, 2.5, 3j]), lambda: ()),
    "array of mixed arrays": (lambda x, y: jnp.array([x, y]), lambda: (i8(), f16())),
    "asarray(3) + asarray(2.0)": (lambda: jnp.asarray(3) + jnp.asarray(2.0), lambda: ()),
    "NumPy float32 scalar * int32": (lambda x: np.float32(1.5) * jnp.asarray(x), lambda: (i32(),)),
    "power(int32, 2.0)": (jnp.power, lambda: (i32(), 2.0)),
    "dot(int8, float16)": (jnp.dot, lambda: (i8(), f16())),
    "matmul(uint8, bfloat16)": (
        lambda x, y: x.reshape(5, 1) @ y.reshape(1, 5), lambda: (u8(), bf16())),
    "clip(int8, 0, 300)": (jnp.clip, lambda: (i8(), 0, 300)),
    "int8 + 1000": (jnp.add, lambda: (i8(), 1000)),
    "isclose(int32, float32)": (jnp.isclose, lambda: (i32(), f32())),
    "float8_e4m3fn + float32": (
        jnp.add, lambda: (f32().astype(jnp.float8_e4m3fn), f32())),
    "int4 + int8": (jnp.add, lambda: (i8().astype(jnp.int4), i8())),
    "int4 + Python int": (jnp.add, lambda: (i8().astype(jnp.int4), 1)),
    "jit(x * y + 1)": (jax.jit(lambda x, y: x * y + 1), lambda: (i32(), f32())),
    "jit(x + 1.5) of int32": (jax.jit(lambda x: x + 1.5), lambda: (i32(),)),
    "vmap(a + b)": (jax.vmap(lambda a, c: a + c), lambda: (i8(), f32())),
    "grad(sum(x * 2 + int8(1)))": (
        jax.grad(lambda x: jnp.sum(x * 2 + jnp.int8(1))), lambda: (f32(),)),
    "lax.add(int8, 2)": (lax.add, lambda: (i8(), 2)),
    "jnp.result_type(int8, 2.5)": (
        lambda x: jnp.zeros(2, jnp.result_type(x, 2.5)), lambda: (i8(),)),
    "promote_types(int64, float16)": (
        lambda: jnp.zeros(2, jnp.promote_types("int64", "float16")), lambda: ()),
    "random.uniform + int8": (
        lambda x: jax.random.uniform(jax.random.key(0), (5,)) + x, lambda: (i8(),)),
}


def describe(out: Any) -> list:
    """Each output array's repr (values, dtype, weak_type), dtype and weak flag."""
    return [(repr(x), str(x.dtype), bool(dtypes.is_weakly_typed(x)))
            for x in jax.tree_util.tree_leaves(out)]


def outcome(f: Callable[..., Any], make_args: Callable[[], tuple]) -> dict:
    """What JAX does with the program: results, jaxpr, errors, warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = answer_of(lambda: describe(f(*make_args())))
        jaxpr = answer_of(lambda: str(jax.make_jaxpr(f)(*make_args())))
    return {"result": normalised(result), "jaxpr": normalised(jaxpr),
            "warnings": [(w.category.__name__, str(w.message)) for w in caught]}


def outcomes_around(program: str, config: tuple, around: Callable[[], Any]) -> tuple:
    """The program's :func:`outcome` under ``config``, then the same inside
    the context ``around()`` makes, and what that context gave."""
    f, make_args = PROGRAMS[program]
    set_config(*config)
    before = outcome(f, make_args)
    with around() as handle:
        inside = outcome(f, make_args)
    return before, inside, handle


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"x64={c[0]}-{c[1]}")
@pytest.mark.parametrize("program", list(PROGRAMS))
def test_program_same_as_unpatched_jax(program: str, config: tuple) -> None:
    unpatched, patched, patch = outcomes_around(program, config, dl.patch_jax)
    assert patched == unpatched
    if program != "lax.add(int8, 2)":  # lax does not promote
        assert patch.answered > 0
    STATS["programs"] = len(PROGRAMS)
    STATS["program_configs"] += 1


def _64_bit_arrays_under_x64_off() -> tuple[dict, dict]:
    """``jnp.add`` of int64 and int8 arrays made while x64 was on, with x64
    off: unpatched and patched outcomes."""
    set_config(True, "standard")
    x, y = jnp.arange(3, dtype=jnp.int64), jnp.arange(3, dtype=jnp.int8)
    set_config(False, "standard")
    unpatched = outcome(jnp.add, lambda: (x, y))
    with dl.patch_jax():
        patched = outcome(jnp.add, lambda: (x, y))
    return unpatched, patched


def test_64_bit_arrays_under_x64_off() -> None:
    unpatched, patched = _64_bit_arrays_under_x64_off()
    assert patched["result"] == unpatched["result"]  # int32, as JAX truncates
    assert patched["jaxpr"] == unpatched["jaxpr"]
    assert unpatched["warnings"]


def test_64_bit_arrays_under_x64_off_warn_as_in_jax() -> None:
    unpatched, patched = _64_bit_arrays_under_x64_off()
    assert patched["warnings"] == unpatched["warnings"]
