"""``dl.record()`` and ``dl.promotions()``: a program's promotions, checked
against JAX itself.

* Every entry's result is JAX's own ``jnp.result_type`` of the recorded
  operands (Python scalars for the weak ones), and under
  ``jax_numpy_dtype_promotion="strict"`` JAX refuses, each call alone,
  exactly the entries marked implicit.
* Each compared policy's answer is what ``dl.policy(...)`` answers for the
  operation (or ``result_type``), and NumPy's is what NumPy computes on the
  same values.
* Recording changes nothing: results, jaxprs, errors and warnings of the
  programs of ``test_patch_jax`` are the same with and without it, under
  x64 on and off and both promotion modes; JAX's objects are back after the
  block, whatever ended it.
* Counts and sites survive JAX's caches: a jitted helper, a scan body and a
  loop count every call, at the right line.

``python/scripts/check_record.py`` runs this module under another JAX.
"""

from __future__ import annotations

import functools
import importlib
import json
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed; recording needs it")
import dtype_lattice as dl  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from dtype_lattice import _jax, _record  # noqa: E402
from jax import lax  # noqa: E402
from jax._src import dtypes  # noqa: E402
from test_patch_jax import (  # noqa: E402
    CONFIGS, PROGRAMS, holders, left_as_found, outcomes_around, set_config)

if jax.__version__ not in _record.CHECKED:
    pytest.skip(f"recording was not checked against JAX {jax.__version__}",
                allow_module_level=True)

#: What the tests checked, for ``check_record.py``'s summary.
STATS: dict[str, int] = {"entries": 0, "compared": 0, "numpy": 0, "programs": 0,
                         "reductions": 0}

HERE = Path(__file__).resolve()
VERSION = jax.__version__
COMPARE = ("numpy", "torch", "strict", "x64")


def originals() -> dict[str, Any]:
    """JAX's objects recording replaces, by ``module.name`` (the modules
    binding them loaded, as recording loads them)."""
    for modules in _record.CHECKED[VERSION].values():
        for module in modules:
            importlib.import_module(module)
    return {f"{home}.{name}": getattr(sys.modules[home], name)
            for home, name in _record.CHECKED[VERSION]}


ORIGINALS = originals()


@pytest.fixture(autouse=True)
def restore_jax() -> Iterator[None]:
    """Each test starts without a recording and leaves JAX's configuration
    as found."""
    with left_as_found(_record.active, "stop", "a recording active"):
        yield


def line_of(marker: str) -> int:
    """The line of this file that ends with ``# <marker>``."""
    lines = HERE.read_text(encoding="utf-8").splitlines()
    found = [i + 1 for i, line in enumerate(lines) if line.rstrip().endswith(f"# {marker}")]
    assert len(found) == 1, (marker, found)
    return found[0]


# ---------------------------------------------------------------------------
# The replaced names.

def test_replaces_every_name_and_restores_the_objects() -> None:
    before = holders(ORIGINALS)
    expected = {f"{home}.{name}": {f"{m}.{name}" for m in modules}
                for (home, name), modules in _record.CHECKED[VERSION].items()}
    # The table names every binding JAX has, but for result_type, replaced
    # only where the contractions look it up.
    result_type = f"{_record._DTYPES}.result_type"
    assert {k: v for k, v in before.items() if k != result_type} == \
        {k: v for k, v in expected.items() if k != result_type}
    for module in _record.CONTRACTIONS:
        assert not hasattr(sys.modules[module], "result_type"), module
    with dl.record():
        during = holders(ORIGINALS)
        assert during.pop(result_type) == before[result_type] - {result_type}
        assert all(not names for names in during.values())
        assert jnp.add(1, 2) == 3
    assert holders(ORIGINALS) == before
    assert originals() == ORIGINALS


class Stop(BaseException):
    """Not an Exception, as KeyboardInterrupt is not."""


@pytest.mark.parametrize("error", [ValueError, KeyboardInterrupt, Stop])
def test_restored_after_an_exception(error: type[BaseException]) -> None:
    with pytest.raises(error):
        with dl.record() as report:
            jnp.ones(2, jnp.int8) + jnp.ones(2, jnp.uint8)
            raise error("left by an exception")
    assert originals() == ORIGINALS and _record.active() is None
    assert len(report) == 1  # what was recorded before the exception


def test_recordings_do_not_nest() -> None:
    with dl.record() as outer:
        with pytest.raises(RuntimeError, match="already recording; recordings do not nest"):
            with dl.record():
                pass
        jnp.ones(2, jnp.int8) * 2.5
    assert originals() == ORIGINALS and len(outer) == 1


def test_unchecked_release_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jax, "__version__", "0.9.0")
    with pytest.raises(RuntimeError, match=r"record\(\) was checked against JAX 0\.10\.2 "
                                           r"and 0\.12\.0\.1, not JAX 0\.9\.0"):
        with dl.record():
            pass
    assert originals() == ORIGINALS


def test_refuses_names_replaced_by_something_else(monkeypatch: pytest.MonkeyPatch) -> None:
    from jax._src.numpy import ufuncs

    monkeypatch.setattr(ufuncs, "promote_args", lambda *args: None)
    with pytest.raises(RuntimeError, match="jax._src.numpy.ufuncs.promote_args is not"):
        dl.record().__enter__()
    assert _record.active() is None


def test_patch_jax_and_record_together() -> None:
    x, y = np.arange(3, dtype=np.int8), np.arange(3, dtype=np.uint8)
    with dl.record() as alone:
        expected = repr(jnp.add(x, y))
    with dl.patch_jax(), dl.record() as both:
        assert repr(jnp.add(x, y)) == expected
    unsited = lambda report: [{**e, "site": None} for e in report]  # noqa: E731
    assert unsited(both) == unsited(alone) and len(both) == 1
    assert originals() == ORIGINALS


def test_a_report_is_read_after_the_block() -> None:
    with dl.record() as report:
        with pytest.raises(RuntimeError, match="read it after the with block ends"):
            len(report)
    assert len(report) == 0 and report.calls == 0
    with pytest.raises(ValueError, match="unknown policy 'nump'"):
        dl.record(compare="nump")
    with pytest.raises(ValueError, match="unknown criterion 'overflw': did you mean "
                                         "'overflow'?"):
        report.filter(criterion="overflw")


# ---------------------------------------------------------------------------
# Entries against JAX and the compared policies.

#: Array operands (shape (2,)) and Python scalars every operation meets.
DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "float16", "bfloat16",
          "float32", "complex64", "int4", "float8_e4m3fn"]
SCALARS = [2, 2.5, 2j, True]
OPS = ["add", "multiply", "true_divide", "less", "maximum", "floor_divide", "power",
       "bitwise_and", "matmul"]
#: The Python scalar standing for a weak operand of each kind.
PYTHON = {"bool": True, "int": 2, "float": 2.0, "complex": 2j}


def every_pair(*arrays: Any) -> None:
    """Each operation on every two of ``arrays`` and :data:`SCALARS`."""
    for op in OPS:
        for a in [*arrays, *SCALARS]:
            for b in [*arrays, *SCALARS]:
                try:
                    getattr(jnp, op)(a, b)  # every pair
                except (TypeError, ValueError):
                    pass  # JAX refuses some: reported as refused


def kind_of(dtype: str) -> str:
    return {"b": "bool", "i": "int", "f": "float", "c": "complex"}[np.dtype(dtype).kind]


def stand_in(operand: dict, x64: bool) -> Any:
    """The recorded operand as a value: an array of its dtype, or, weak, the
    Python scalar JAX reads as it."""
    if operand["weak"]:
        kind = kind_of(operand["dtype"])
        # The dtype JAX reads a Python scalar of that kind as.
        assert operand["dtype"] == str(dtypes.dtype(PYTHON[kind])), operand
        return PYTHON[kind]
    return np.ones(2, dtype=jnp.dtype(operand["dtype"]))


#: The reductions recording sees: their entries' results are what JAX
#: returned, not a promotion.
REDUCTIONS = {"sum", "prod", "cumsum", "cumprod", "mean", "var", "std", "max", "min",
              "argmax", "argmin", "any", "all"}


def keywords(entry: dict, jax: bool = True) -> dict[str, Any]:
    """A reduction's keywords as given (none for the other entries), as a
    program asks JAX (``jax``) or another framework, which has no
    ``promote_integers``."""
    given = entry["keywords"]
    out: dict[str, Any] = {}
    if given["dtype"] is not None:
        out["dtype"] = np.dtype(given["dtype"])
    if given["promote_integers"] is not None and jax:
        out["promote_integers"] = given["promote_integers"]
    return out


def traced(operation: str, values: list, **kwargs: Any) -> Any:
    """``operation`` on ``values`` alone (with a reduction's keywords),
    traced (the arrays as arguments): the output's shape and dtype. An
    operation that is not a ``jax.numpy`` function (a helper of JAX's own,
    ``cast_to_numeric``) is its promotion alone: ``result_type``, which
    refuses as the promotion functions do."""
    arrays = [i for i, v in enumerate(values) if isinstance(v, np.ndarray)]
    function = getattr(jnp, operation, None) or dtypes.result_type

    def alone(*traced: Any) -> Any:
        args = list(values)
        for i, t in zip(arrays, traced):
            args[i] = t
        out = function(*args, **kwargs)
        return jnp.zeros((), out) if function is dtypes.result_type else out

    return jax.eval_shape(alone, *[values[i] for i in arrays])


def strict_refuses(operation: str, values: list) -> bool:
    """Whether JAX refuses ``operation`` on ``values`` alone under strict
    promotion."""
    with jax.numpy_dtype_promotion("strict"):
        try:
            traced(operation, values)
        except dtypes.TypePromotionError:
            return True
        except (TypeError, ValueError):
            return False  # refused, but not as a promotion
    return False


@functools.cache
def spec_policy(spec: str, x64: bool) -> dl.Policy:
    """``dl.policy`` for a compared spec of :data:`COMPARE`."""
    return {"numpy": lambda: dl.policy("numpy"), "torch": lambda: dl.policy("torch"),
            "strict=true": lambda: dl.policy("jax", x64=x64, strict=True),
            "x64=true": lambda: dl.policy("jax", x64=True)}[spec]()


def library_answer(policy: dl.Policy, question: str, entry: dict) -> Any:
    args = [dl.Operand(np.dtype(o["dtype"])) if not o["weak"]
            else PYTHON[kind_of(o["dtype"])] for o in entry["operands"]]
    try:
        if question == "result_type":
            dtype, weak = policy.result_type(*args, return_weak_type_flag=True)
        else:
            dtype, weak = policy.operation(question, *args, return_weak_type_flag=True,
                                           **keywords(entry, policy.name.startswith("jax")))
        return {"dtype": str(dtype), "weak": weak}
    except Exception as err:  # noqa: BLE001 - compared as data
        return {"error": type(err).__name__}


def numpy_computes(question: str, entry: dict) -> Any:
    """NumPy's dtype for the operation on the same values (with a
    reduction's keywords), or its error."""
    args = [np.ones(2, dtype=np.dtype(o["dtype"])) if not o["weak"]
            else PYTHON[kind_of(o["dtype"])] for o in entry["operands"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            answer = getattr(np, question)(*args, **keywords(entry, jax=False))
            return {"dtype": str(np.asarray(answer).dtype)}
        except Exception as err:  # noqa: BLE001 - compared as data
            return {"error": type(err).__name__}


def check_entries(report: dl.Promotions, x64: bool) -> None:
    """The module docstring's checks, on every entry."""
    assert report.entries
    for entry in report.filter(noops=True):
        values = [stand_in(o, x64) for o in entry["operands"]]
        where = f"{entry['operation']}{tuple(o['dtype'] for o in entry['operands'])}"
        result = entry["result"]
        reduction = entry["operation"] in REDUCTIONS
        if reduction:
            # A reduction's result is what JAX returned for the array (with
            # the keywords given), the type it computes in JAX's too.
            out = traced(entry["operation"], values, **keywords(entry))
            assert str(out.dtype) == result["dtype"], where
            assert entry["gives"] is not None and entry["gives"]["dtype"] == result["dtype"], where
            STATS["reductions"] += 1
        elif "error" in result:
            with pytest.raises(dtypes.TypePromotionError):
                jnp.result_type(*values)
        else:
            dtype, weak = dtypes.result_type(*values, return_weak_type_flag=True)
            assert (str(dtype), weak) == (result["dtype"], result["weak"]), where
        assert strict_refuses(entry["operation"], values) == entry["implicit"], where
        if not reduction and entry["gives"] is not None and "dtype" in entry["gives"]:
            # What the operation gives: JAX's own, on the same values.
            assert str(traced(entry["operation"], values).dtype) == \
                entry["gives"]["dtype"], where
        for answer in entry["compared"]:
            policy = spec_policy(answer["spec"], x64)
            assert policy.name == answer["policy"]
            ours = library_answer(policy, answer["question"], entry)
            theirs = answer["answer"]
            assert ours == ({"error": theirs["error"]["type"]} if "error" in theirs
                            else theirs), (where, answer)
            STATS["compared"] += 1
            if answer["spec"] == "numpy" and answer["question"] != "result_type":
                numpy = numpy_computes(answer["question"], entry)
                assert numpy == ({"error": theirs["error"]["type"]} if "error" in theirs
                                 else {"dtype": theirs["dtype"]}), (where, numpy, answer)
                STATS["numpy"] += 1
        STATS["entries"] += 1


@pytest.mark.filterwarnings("ignore")  # JAX's own, for some pairs
@pytest.mark.parametrize("x64", [False, True], ids=["x64-off", "x64-on"])
def test_every_pair_is_jaxs_result_and_strict_refuses_the_implicit(x64: bool) -> None:
    set_config(x64, "standard")
    with dl.record(compare=COMPARE) as report:
        jax.make_jaxpr(every_pair)(*[np.ones(2, jnp.dtype(name)) for name in DTYPES])
    sites = {(e["site"]["file"], e["site"]["line"]) for e in report.filter(noops=True)}
    assert sites == {(str(HERE), line_of("every pair"))}
    check_entries(report, x64)
    # JAX's own functions call others (floor_divide calls where): at the
    # user's line too.
    names = {e["operation"] for e in report.filter(noops=True)}
    assert set(OPS) <= names
    assert any(e["implicit"] for e in report) and any(
        not e["implicit"] for e in report.filter(noops=True))


def block(x: Any, w_qkv: Any, w_out: Any, scale: Any, positions: Any) -> Any:
    """A small attention block in bfloat16 with float32 parameters."""
    q, k, v = jnp.split(x @ w_qkv, 3, axis=-1)  # silent upcast
    logits = q @ k.T * scale
    weights = jax.nn.softmax(logits + positions * 0.1)  # int32 * 0.1
    out = (weights @ v).astype(jnp.bfloat16)
    return out @ w_out + x  # bf16 @ f32, then + bf16


def block_args() -> tuple:
    return (jnp.ones((4, 8), jnp.bfloat16), jnp.ones((8, 24), jnp.float32),
            jnp.ones((8, 8), jnp.float32), jnp.float32(0.5), jnp.arange(4))


def test_a_model_traced_and_each_promotion_alone() -> None:
    report = dl.promotions(block, *block_args(), compare=COMPARE)
    check_entries(report, x64=False)
    at = {(e["site"]["line"], e["operation"]): e for e in report}
    first = block.__code__.co_firstlineno
    upcast = at[line_of("silent upcast"), "matmul"]
    assert upcast["operation"] == "matmul" and upcast["implicit"]
    assert upcast["site"]["function"] == "block" and upcast["site"]["line"] > first
    assert upcast["site"]["code"] == "q, k, v = jnp.split(x @ w_qkv, 3, axis=-1)  " \
                                     "# silent upcast"
    scaled = at[line_of("int32 * 0.1"), "multiply"]
    assert "precision_loss" in scaled["criteria"]


def test_numpy_lists_the_lines_that_change_dtype() -> None:
    def port(i: Any, x: Any) -> Any:
        mean = x.sum() / 10  # float32 / int
        index = i / 2  # true_divide of int32
        return mean + index

    report = dl.promotions(port, jnp.arange(3), jnp.ones(3, jnp.float32),
                           compare="numpy").filter(differences=True)
    assert [e["site"]["line"] for e in report] == [line_of("true_divide of int32")]
    numpy = report.entries[0]["compared"][0]
    assert (numpy["answer"]["dtype"], numpy["reference"]["dtype"]) == ("float64", "float32")


# ---------------------------------------------------------------------------
# Counts and sites through JAX's caches.

@jax.jit
def helper(x: Any, y: Any) -> Any:
    return x * y  # in helper


def scan_body(carry: Any, x: Any) -> tuple:
    return carry + (x * 2).astype(carry.dtype), None  # scan body


def program(x: Any, y: Any) -> Any:
    a = x + y  # first add
    b = x + y  # second add
    c = helper(x, y) + helper(x, y)  # two helpers
    for _ in range(3):
        a = a + y  # three times
    s1, _ = lax.scan(scan_body, x, jnp.stack([y, y]))  # first scan
    s2, _ = lax.scan(scan_body, x, jnp.stack([y, y]))  # second scan
    return a + b + c + s1.astype(a.dtype) + s2.astype(a.dtype)  # the sum


def counts(report: dl.Promotions) -> dict[tuple[int, str], int]:
    """The calls per line and operation, of arrays: run eagerly, JAX's scan
    does its own counting with Python ints at the scan's line."""
    out: dict[tuple[int, str], int] = {}
    for e in report.filter(noops=True):
        if e["site"]["file"] == str(HERE) and not all(o["weak"] for o in e["operands"]):
            key = (e["site"]["line"], e["operation"])
            out[key] = out.get(key, 0) + e["count"]
    return out


def expected_counts(times: int) -> dict[tuple[int, str], int]:
    """What ``program`` calls, from its text: each line once per run, the
    loop three times, the helper twice, the scan body once per scan."""
    once = {(line_of("first add"), "add"): 1, (line_of("second add"), "add"): 1,
            (line_of("in helper"), "multiply"): 2, (line_of("two helpers"), "add"): 1,
            (line_of("three times"), "add"): 3, (line_of("scan body"), "multiply"): 2,
            (line_of("scan body"), "add"): 2, (line_of("first scan"), "stack"): 1,
            (line_of("second scan"), "stack"): 1, (line_of("the sum"), "add"): 4}
    return {key: count * times for key, count in once.items()}


@pytest.mark.parametrize("how", ["traced", "traced twice", "eager", "jit"])
def test_every_call_counts_at_its_line(how: str) -> None:
    x, y = jnp.ones(3, jnp.int8), jnp.ones(3, jnp.float16)
    runs = {"traced": lambda: jax.make_jaxpr(program)(x, y),
            "traced twice": lambda: (jax.make_jaxpr(program)(x, y),
                                     jax.make_jaxpr(program)(x, y)),
            "eager": lambda: program(x, y), "jit": lambda: jax.jit(program)(x, y)}
    with dl.record() as report:
        runs[how]()
    found = counts(report)
    expected = expected_counts(2 if how == "traced twice" else 1)
    assert found == expected


def test_functions_jitted_before_recording_are_seen() -> None:
    x, y = jnp.ones(3, jnp.int8), jnp.ones(3, jnp.float16)
    helper(x, y)  # cached before the recording
    with dl.record() as report:
        helper(x, y)
    assert counts(report) == {(line_of("in helper"), "multiply"): 1}


# ---------------------------------------------------------------------------
# Nothing changes.

@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"x64={c[0]}-{c[1]}")
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_programs_same_with_and_without_recording(name: str, config: tuple) -> None:
    without, recorded, _ = outcomes_around(name, config, dl.record)
    assert recorded == without
    STATS["programs"] += 1


def test_the_models_jaxpr_is_the_same() -> None:
    without = str(jax.make_jaxpr(block)(*block_args()))
    with dl.record():
        assert str(jax.make_jaxpr(block)(*block_args())) == without
    assert str(jax.make_jaxpr(block)(*block_args())) == without


def test_a_refused_promotion_is_reported_and_raised() -> None:
    set_config(False, "strict")
    with pytest.raises(dtypes.TypePromotionError):
        with dl.record() as report:
            jnp.ones(2, jnp.int8) + jnp.ones(2, jnp.uint8)  # refused
    entry, = report.entries
    assert entry["result"]["error"]["type"] == "TypePromotionError"
    assert entry["implicit"] and entry["site"]["line"] == line_of("refused")


# ---------------------------------------------------------------------------
# Renderings and the command line.

def test_text_json_and_html() -> None:
    report = dl.promotions(block, *block_args(), compare=("numpy", "strict"))
    text = str(report)
    assert text.startswith(f"{len(report)} entries, {report.calls} calls, under jax "
                           "(x64 off, standard), compared with numpy, strict=true")
    assert json.loads(report.to_json()) == report.data
    html = report._repr_html_()
    assert "<th>numpy</th><th>strict=true</th>" in html and html.count("<tr>") == \
        len(report) + 1
    assert "silent upcast" in html
    loss = report.filter(criterion="precision_loss")
    assert all("precision_loss" in e["criteria"] for e in loss) and len(loss) >= 1
    assert len(report.filter(under=HERE.parent / "elsewhere")) == 0
    assert len(report.filter(under=HERE)) == len(report)


SCRIPT = """\
import sys
import jax.numpy as jnp
x = jnp.arange(4)
for _ in range(int(sys.argv[1])):
    y = x / 2
z = jnp.ones(3, jnp.bfloat16) * jnp.float32(2)
sys.exit(int(sys.argv[2]))
"""


def run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "dtype_lattice", "promotions", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_command_line(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "script.py", "3", "0", "--compare", "numpy", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    lines = {e["site"]["line"]: e for e in report["entries"]}
    assert lines[5]["count"] == 3 and lines[5]["operation"] == "true_divide"
    assert lines[6]["implicit"] and lines[6]["site"]["file"] == str(tmp_path / "script.py")
    only = run_cli(tmp_path, "--only-differences", "--compare=numpy", "script.py", "1", "7")
    assert only.returncode == 7, only.stderr  # the script's status
    assert "script.py:5 in <module>" in only.stdout
    assert "true_divide(int32, weak:int32) -> int32" in only.stdout
    html = run_cli(tmp_path, "script.py", "1", "0", "--format", "html", "-o", "r.html")
    assert html.returncode == 0 and (tmp_path / "r.html").read_text().startswith("<!DOCTYPE")
    bad = run_cli(tmp_path, "script.py", "--compare", "nump")
    assert bad.returncode == 2 and "unknown policy 'nump'" in bad.stderr
    helped = run_cli(tmp_path, "--help")
    assert helped.returncode == 0 and "--only-differences" in helped.stdout


def test_command_line_without_jax_says_so_before_running_the_script(tmp_path: Path) -> None:
    """Where no framework can be recorded (JAX and PyTorch missing, and
    NumPy's recorder, which is always there, made to fail), the command
    stops with the fix (exit 2), and the script does not run: no report
    read before it was made."""
    script = tmp_path / "script.py"
    script.write_text("open('ran', 'w').close()\n", encoding="utf-8")
    without_jax = ("import sys; sys.modules['jax'] = sys.modules['torch'] = None; "  # now fail
                   "import dtype_lattice._promotions as p; "
                   "p.RECORDABLE['numpy'] = ('_no_such_recorder', 'pip install numpy'); "
                   "from dtype_lattice.__main__ import main; "
                   "sys.exit(main(['promotions', 'script.py']))")
    done = subprocess.run([sys.executable, "-c", without_jax], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "cannot record script.py" in done.stderr and "pip install" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "ran").exists()


# ---------------------------------------------------------------------------
# Reductions: what they accumulate in.

def reduce_sum_inputs(jaxpr: Any) -> list[str]:
    """The dtypes JAX's ``reduce_sum`` primitives run in, nested jaxprs
    included: what a reduction computes in."""
    found = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "reduce_sum":
            found.append(str(eqn.invars[0].aval.dtype))
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", value)
            if hasattr(inner, "eqns"):
                found += reduce_sum_inputs(inner)
    return found


def test_reductions_are_recorded_with_what_they_accumulate_in() -> None:
    set_config(False, "standard")
    x, h = jnp.ones(3, jnp.int8), jnp.ones(3, jnp.float16)
    with dl.record(compare=("numpy",)) as report:
        total = x.sum()  # sum of int8
        narrow = jnp.sum(x, promote_integers=False)  # kept narrow
        average = jnp.mean(h)  # half mean
        running = jnp.cumsum(x, dtype=jnp.int16)  # cumsum with dtype
    check_entries(report, x64=False)
    at: dict[int, list[dict]] = {}
    for e in report.filter(noops=True):
        at.setdefault(e["site"]["line"], []).append(e)
    # One entry a line: what JAX does inside a reduction is not the user's.
    assert all(len(entries) == 1 for entries in at.values()), at
    for marker, out in [("sum of int8", total), ("kept narrow", narrow),
                        ("half mean", average), ("cumsum with dtype", running)]:
        entry, = at[line_of(marker)]
        assert entry["result"]["dtype"] == str(out.dtype), marker
    entry, = at[line_of("sum of int8")]
    assert entry["promotes"] and "wider_than_inputs" in entry["criteria"]
    numpy = entry["compared"][0]
    assert numpy["question"] == "sum"
    assert numpy["answer"]["dtype"] == str(np.sum(np.ones(3, np.int8)).dtype)
    assert numpy["differs"] == (numpy["answer"]["dtype"] != str(total.dtype))
    narrowed, = at[line_of("kept narrow")]
    assert narrowed["keywords"]["promote_integers"] is False and not narrowed["promotes"]
    mean, = at[line_of("half mean")]
    assert mean["computes_in"] == reduce_sum_inputs(jax.make_jaxpr(jnp.mean)(h).jaxpr)[0]
    assert mean["computes_in"] != mean["result"]["dtype"]
    assert f"(computes in {mean['computes_in']})" in str(report)
    keyed, = at[line_of("cumsum with dtype")]
    assert keyed["keywords"]["dtype"] == "int16"
    assert "cumsum(int8, dtype=int16)" in str(report)
    assert "computes in" in report._repr_html_()
