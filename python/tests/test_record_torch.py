"""``dl.record()`` on PyTorch programs, checked against PyTorch itself.

* Every entry's result is what PyTorch returns for the recorded operands,
  each rebuilt as PyTorch held it (a tensor, a 0-d tensor, a Python
  scalar), at the line of this file that made the call (in-place ``+=`` and
  reflected ``2 - x`` included).
* Each compared answer is what ``dl.policy(...)`` answers for the operands
  as a port hands them over (a 0-d tensor as a 0-d array, a Python scalar
  as a Python scalar), and, for NumPy and JAX, what they compute on the
  same values.
* Recording changes no result (PyTorch's fused fast paths included), and
  leaves every name of ``torch`` and ``torch.Tensor`` holding what it held,
  whatever ended the block; a name something else replaced meanwhile is
  left to it and named.
"""

from __future__ import annotations

import json
import operator
import subprocess
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed; its recording needs it")
import torch._dynamo  # noqa: E402  (replaces torch.manual_seed when first imported)
import dtype_lattice as dl  # noqa: E402
from dtype_lattice import _record_torch  # noqa: E402

HERE = Path(__file__).resolve()
COMPARE = ("numpy", "jax", "jax:x64=true")


def line_of(marker: str) -> int:
    """The line of this file that ends with ``# <marker>``."""
    lines = HERE.read_text(encoding="utf-8").splitlines()
    found = [i + 1 for i, line in enumerate(lines) if line.rstrip().endswith(f"# {marker}")]
    assert len(found) == 1, (marker, found)
    return found[0]


def names() -> dict[str, dict[str, Any]]:
    """Every name of ``torch`` and ``torch.Tensor`` with what it holds
    (``Tensor``'s own, not what it inherits from PyTorch's C base class),
    but submodules, which appear as a test imports them (``torch._dynamo``)."""
    return {"torch": {name: value for name, value in vars(torch).items()
                      if not isinstance(value, types.ModuleType)},
            "Tensor": dict(vars(torch.Tensor))}


NONE = object()


def changed(before: dict[str, dict[str, Any]]) -> list[str]:
    """The names that no longer hold the object they held (or appeared)."""
    now = names()
    return sorted(f"{owner}.{name}" for owner in before
                  for name in before[owner].keys() | now[owner].keys()
                  if before[owner].get(name, NONE) is not now[owner].get(name, NONE))


@pytest.fixture(autouse=True)
def no_recording_left() -> Iterator[None]:
    """Each test starts and ends with no PyTorch recording and every name
    of PyTorch's as found."""
    before = names()
    yield
    left = _record_torch.active()
    if left is not None:
        left.stop()
        pytest.fail("the test left a PyTorch recording active")
    assert changed(before) == []


def program() -> dict[str, Any]:
    """Calls whose promotions PyTorch decides, one a line."""
    x8 = torch.arange(3, dtype=torch.int8)
    u8 = torch.arange(3, dtype=torch.uint8)
    i32 = torch.arange(1, 4, dtype=torch.int32)
    f16 = torch.linspace(0, 1, 3, dtype=torch.float16)
    f32 = torch.linspace(0, 1, 3)
    flags = torch.tensor([True, False, True])
    big = torch.tensor(1000)
    one = torch.tensor(1.0, dtype=torch.float64)
    out: dict[str, Any] = {}
    out["mixed"] = x8 + u8  # mixed signs
    out["zero_dim"] = x8 * big  # zero-dim int
    out["zero_dim_float"] = f16 + one  # zero-dim float
    out["scalar"] = x8 + 2.5  # python float
    out["reflected"] = 2 - x8  # reflected
    out["reflected_divide"] = 2 / i32  # reflected divide
    y = i32.clone()
    y += 1  # in place
    out["in_place"] = y
    out["divide"] = i32 / i32  # true divide
    out["floor"] = torch.div(i32, 2, rounding_mode="floor")  # floor divide
    out["compare"] = x8 < 2.5  # comparison
    out["maximum"] = torch.maximum(x8, i32)  # maximum
    out["sum_bool"] = flags.sum()  # sum of bools
    out["sum_dtype"] = x8.sum(dtype=torch.int16)  # sum with dtype
    out["mean"] = f16.mean()  # mean
    out["matmul"] = f32 @ f32  # matmul
    out["where"] = torch.where(flags, x8, 2.5)  # where
    out["where_method"] = x8.where(flags, i32)  # where method
    out["clamp"] = torch.clamp(i32, min=0.5)  # clamp
    out["cat"] = torch.cat([x8, i32])  # cat
    out["unmodelled"] = torch.nn.functional.relu(f32)
    return out


MARKERS = ("mixed signs", "zero-dim int", "zero-dim float", "python float", "reflected",
           "reflected divide",
           "in place", "true divide", "floor divide", "comparison", "maximum", "sum of bools",
           "sum with dtype", "mean", "matmul", "where", "where method", "clamp", "cat")

# Python's scalars as the library stands them in (`py:float` is 2.0).
PYTHON = {"b": True, "i": 2, "u": 2, "f": 2.0, "c": 2j}
OPERATORS: dict[str, Callable[..., Any]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "true_divide": operator.truediv, "floor_divide": operator.floordiv,
    "less": operator.lt, "maximum": torch.maximum,
}


COMPARISONS = ("less",)


def kind(dtype: str) -> str:
    return "b" if dtype == "bool" else ("c" if "complex" in dtype else
                                        "f" if "float" in dtype else dtype[0])


def torch_values(entry: dict) -> list[Any]:
    """The operands as PyTorch held them: tensors with a dimension, 0-d
    tensors, Python scalars."""
    values = []
    for i, o in enumerate(entry["operands"]):
        if o["weak"]:
            values.append(PYTHON[kind(o["dtype"])])
        else:
            dtype = getattr(torch, o["dtype"])
            values.append(torch.ones((), dtype=dtype) if i in entry["zero_dim"]
                          else torch.ones(2, dtype=dtype))
    return values


def torch_computes(entry: dict) -> str:
    """PyTorch's dtype for the entry's operation on its operands (for a
    comparison, the type it compares in)."""
    name, values = entry["operation"], torch_values(entry)
    dtype = entry["keywords"]["dtype"]
    if name in COMPARISONS:
        assert OPERATORS[name](*values).dtype == torch.bool
        out = torch.zeros((), dtype=torch.result_type(*values))
    elif name in OPERATORS:
        out = OPERATORS[name](*values)
    elif name in ("sum", "mean"):
        out = getattr(torch, name)(*values, **({"dtype": getattr(torch, dtype)} if dtype else {}))
    elif name == "where":
        out = torch.where(torch.ones(2, dtype=torch.bool), *values)
    elif name == "clip":
        out = torch.clamp(*values)
    elif name == "concatenate":
        out = torch.cat(values)
    elif name == "matmul":
        out = torch.matmul(*values)
    else:
        raise AssertionError(f"no PyTorch function for {name}")
    return str(out.dtype).removeprefix("torch.")


def ported(entry: dict, array: Callable[[str, bool], Any]) -> list[Any]:
    """The operands as a port hands them to another framework: ``array(dtype,
    zero_dim)`` for a tensor, the Python scalar for one."""
    return [PYTHON[kind(o["dtype"])] if o["weak"] else array(o["dtype"], i in entry["zero_dim"])
            for i, o in enumerate(entry["operands"])]


def library_answer(spec: str, question: str, entry: dict) -> dict:
    policy = {"numpy": lambda: dl.policy("numpy"), "jax": lambda: dl.policy("jax"),
              "jax:x64=true": lambda: dl.policy("jax", x64=True)}[spec]()
    # A 0-d NumPy array is what the library reads as a 0-d operand.
    args = ported(entry, lambda d, zero: np.zeros((), np.dtype(d)) if zero
                  else dl.Operand(np.dtype(d)))
    dtype = entry["keywords"]["dtype"]
    try:
        if question == "result_type":
            answer = policy.result_type(*args)
        else:
            answer = policy.operation(question, *args,
                                      **({"dtype": np.dtype(dtype)} if dtype else {}))
        return {"dtype": str(np.dtype(answer))}
    except Exception as err:  # noqa: BLE001 - compared as data
        return {"error": type(err).__name__}


def framework_computes(spec: str, question: str, entry: dict) -> dict:
    """What NumPy or JAX (x64 as the spec says) computes on the ported
    values."""
    if spec == "numpy":
        lib: Any = np
        args = ported(entry, lambda d, zero: np.ones((), d) if zero else np.ones(2, d))
    else:
        jax = pytest.importorskip("jax")
        import jax.numpy as jnp

        lib = jnp
        x64 = spec.endswith("x64=true")
    dtype = entry["keywords"]["dtype"]
    function = {"result_type": lambda *a: lib.zeros((), lib.result_type(*a))}.get(
        question, getattr(lib, question, None))
    assert function is not None, question
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if lib is np:
                out = function(*args, **({"dtype": dtype} if dtype else {}))
            else:
                with jax.enable_x64(x64):
                    args = ported(entry, lambda d, zero: jnp.ones((), d) if zero
                                  else jnp.ones(2, d))
                    out = function(*args, **({"dtype": dtype} if dtype else {}))
            return {"dtype": str(np.asarray(out).dtype)}
        except Exception as err:  # noqa: BLE001 - compared as data
            return {"error": type(err).__name__}


# ---------------------------------------------------------------------------
# The entries against PyTorch, NumPy and JAX.

def recorded(compare: tuple[str, ...] = COMPARE) -> tuple[dl.Promotions, dict[str, Any]]:
    with dl.record(compare) as report:
        out = program()
    return report, out


def test_records_every_modelled_call_at_its_line() -> None:
    report, _ = recorded()
    entries = list(report.filter(noops=True))
    lines = {e["site"]["line"]: e for e in entries if e["site"]["file"] == str(HERE)}
    assert set(lines) == {line_of(m) for m in MARKERS}
    assert all(e["framework"] == "torch" for e in entries)
    assert report.data["frameworks"] == ["torch"]
    reflected = lines[line_of("reflected")]
    assert (reflected["operation"], [o["weak"] for o in reflected["operands"]]) == \
        ("subtract", [True, False])  # in the order written: 2 - x
    assert lines[line_of("in place")]["operation"] == "add"
    assert lines[line_of("in place")]["site"]["code"] == "y += 1  # in place"
    assert lines[line_of("zero-dim int")]["zero_dim"] == [1]
    assert lines[line_of("sum with dtype")]["keywords"]["dtype"] == "int16"
    assert not any(e["implicit"] for e in entries)  # PyTorch has no strict mode


def test_each_result_is_what_pytorch_returns() -> None:
    report, out = recorded()
    checked = 0
    for entry in report.filter(noops=True):
        where = f"{entry['site']['line']}: {entry['operation']}"
        assert entry["result"]["dtype"] == torch_computes(entry), where
        returned = "bool" if entry["operation"] in COMPARISONS else entry["result"]["dtype"]
        if entry["gives"] is not None:  # where the library models the operation
            assert entry["gives"]["dtype"] == returned, where
        for answer in entry["compared"]:
            # The reference is PyTorch's policy, which answers as PyTorch ran.
            assert answer["reference"].get("dtype") == returned, where
        checked += 1
    assert checked == len(MARKERS)
    # And what the program itself got.
    assert str(out["zero_dim"].dtype) == "torch.int8"
    assert str(out["scalar"].dtype) == "torch.float32"


def test_compared_answers_are_the_policies_and_the_frameworks() -> None:
    report, _ = recorded()
    compared = 0
    for entry in report.filter(noops=True):
        for answer in entry["compared"]:
            where = f"{entry['site']['line']}: {entry['operation']} under {answer['spec']}"
            ours = answer["answer"]
            ours = {"error": ours["error"]["type"]} if "error" in ours else \
                {"dtype": ours["dtype"]}
            library = library_answer(answer["spec"], answer["question"], entry)
            assert ("error" in ours) == ("error" in library), where
            if "dtype" in ours:
                assert ours == library, where
            theirs = framework_computes(answer["spec"], answer["question"], entry)
            assert ("error" in ours) == ("error" in theirs), (where, theirs)
            if "dtype" in ours:
                assert ours == theirs, where
            compared += 1
    assert compared == len(MARKERS) * len(COMPARE)


def test_a_port_to_jax_lists_what_changes() -> None:
    report, _ = recorded(("jax:x64=true",))
    changed = {e["site"]["line"] for e in report.filter(differences=True)}
    # int8 * a 0-d int64 is int8 in PyTorch, int64 in JAX; int8 + 2.5 float32
    # and float64; int8 + uint8 int16 in both.
    assert line_of("zero-dim int") in changed and line_of("python float") in changed
    assert line_of("mixed signs") not in changed
    text = str(report.filter(differences=True))
    assert "under torch, compared with jax:x64=true" in text
    assert "multiply(int8, 0d:int64) -> int8" in text
    assert "differs (torch: int8)" in text
    assert "0d:int64" in report.filter(differences=True)._repr_html_()


# ---------------------------------------------------------------------------
# Nothing changes; everything is put back.

def test_results_are_unchanged() -> None:
    plain = program()
    _, during = recorded()
    assert plain.keys() == during.keys()
    for key in plain:
        assert plain[key].dtype == during[key].dtype, key
        assert torch.equal(plain[key], during[key]), key


class Stop(BaseException):
    """Not an Exception, as KeyboardInterrupt is not."""


@pytest.mark.parametrize("error", [ValueError, KeyboardInterrupt, Stop])
def test_restored_after_an_exception(error: type[BaseException]) -> None:
    before = names()
    with pytest.raises(error):
        with dl.record() as report:
            assert "Tensor.__add__" in changed(before)  # recording is on
            torch.ones(2, dtype=torch.int8) + torch.ones(2, dtype=torch.uint8)
            raise error("left by an exception")
    assert changed(before) == [] and _record_torch.active() is None
    assert len(report) == 1  # what was recorded before the exception
    torch.ones(2, dtype=torch.int8) * 2.5  # not recorded any more
    assert report.calls == 1


def test_what_recording_replaces_is_only_modelled_names() -> None:
    before = names()
    with dl.record():
        replaced = changed(before)
    # Operators inherited from PyTorch's C base class are shadowed while
    # recording (and deleted again after: the fixture checks).
    assert {"torch.add", "torch.matmul", "Tensor.__add__", "Tensor.__radd__",
            "Tensor.__iadd__", "Tensor.__rsub__", "Tensor.sum"} <= set(replaced)
    assert "torch.relu" not in replaced and "Tensor.to" not in replaced
    assert len(replaced) == len(_record_torch.operations(torch))


def test_a_name_replaced_meanwhile_is_left_and_named() -> None:
    original = torch.add
    message = (r"dtype_lattice\.record\(\) restored PyTorch's own functions except under "
               r"torch\.add, which something else replaced while it was active and still "
               r"holds; .* Undo that replacement to put PyTorch's function back")
    with pytest.warns(RuntimeWarning, match=message):
        with dl.record() as report:
            ours = torch.add
            # A replacement that calls what it replaced, as a wrapper would.
            torch.add = lambda *args, **kwargs: ours(*args, **kwargs)  # the replacement
            torch.add(torch.ones(2, dtype=torch.int8), 2.5)
    try:
        # Called by the replacement: its line is the first outside PyTorch.
        assert [e["site"]["line"] for e in report] == [line_of("the replacement")]
        assert torch.add is not ours and torch.Tensor.__add__ is torch._C.TensorBase.__add__
        # Ours, still called by the replacement, hands each call to PyTorch's.
        assert torch.add(torch.ones(2, dtype=torch.int8), 2.5).dtype == torch.float32
    finally:
        # What monkeypatch's undo does: puts back what it found, ours.
        torch.add = ours
    # A later recording takes ours, no longer in force, as PyTorch's own,
    # and puts PyTorch's back when it ends.
    with dl.record() as later:
        torch.add(torch.ones(2, dtype=torch.int8), 2.5)
    assert [e["operation"] for e in later] == ["add"]
    assert torch.add is original


def test_recording_is_process_wide() -> None:
    def other_thread() -> None:
        torch.ones(2, dtype=torch.int8) * 2.5  # other thread

    with dl.record() as report:
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
    assert [(e["operation"], e["site"]["line"]) for e in report] == \
        [("multiply", line_of("other thread"))]


def scaled_sum(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.add(x, y) * 2 + torch.sum(x)


def test_torchscript_compiles_while_recording() -> None:
    """TorchScript reads ``torch.add`` as PyTorch's operator, replaced or
    not: a function scripted inside the block gives what it gives outside."""
    x, y = torch.arange(3.0), torch.ones(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # torch.jit.script is deprecated
        plain = torch.jit.script(scaled_sum)(x, y)
        with dl.record():
            during = torch.jit.script(scaled_sum)(x, y)
    assert torch.equal(plain, during)


class PassThrough(torch.overrides.TorchFunctionMode):
    """A torch function mode that only passes each call on."""

    def __torch_function__(self, func: Any, types: Any, args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        return func(*args, **(kwargs or {}))


def test_pytorchs_fused_paths_are_kept() -> None:
    """A transformer layer in eval mode runs PyTorch's fused kernel whether
    or not the block records (a torch function mode would make it leave
    that path), so its output is the same to the bit."""
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32,
                                             batch_first=True, dropout=0.0).eval()
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        plain = layer(x)
        with dl.record() as report:
            during = layer(x)
        with PassThrough():  # the unfused path
            unfused = layer(x)
    assert torch.equal(plain, during) and not torch.equal(plain, unfused)
    assert report.calls == 0  # the fused kernel is one call the library does not model


def test_a_refusal_is_recorded_with_pytorchs_error() -> None:
    y = torch.ones(2, dtype=torch.int32)
    with dl.record() as report:
        with pytest.raises(RuntimeError, match="can't be cast"):
            y += 0.5  # refused in place
    (entry,) = report.entries
    assert entry["site"]["line"] == line_of("refused in place")
    assert entry["result"]["error"]["type"] == "RuntimeError"


def test_recordings_do_not_nest() -> None:
    with dl.record():
        with pytest.raises(RuntimeError, match="recordings do not nest"):
            with dl.record():
                pass


def test_torch_compile_is_named_not_guessed() -> None:
    double = torch.compile(lambda a: a * 2.5 + 1, backend="eager")
    with dl.record() as report:
        double(torch.ones(3, dtype=torch.int32))
    assert report.data["compiled"] > 0
    # No entry at the graph's generated code, none at the lambda's line.
    assert not list(report.filter(noops=True))
    assert "made under torch.compile were not recorded" in str(report)
    torch._dynamo.reset()


# ---------------------------------------------------------------------------
# The command line.

SCRIPT = """\
import torch
x = torch.ones(3, dtype=torch.int8)
y = x * torch.tensor(1000)
z = x + 2.5
"""


def test_command_line_records_a_pytorch_script(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "dtype_lattice", "promotions", "model.py",
                           "--compare", "jax", "--format", "json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["frameworks"] == ["torch"]
    lines = {e["site"]["line"]: e for e in report["entries"]}
    assert lines[3]["zero_dim"] == [1] and lines[3]["result"]["dtype"] == "int8"
    assert lines[4]["compared"][0]["answer"]["dtype"] == "float32"


def test_a_program_mixing_jax_and_pytorch_gets_one_report() -> None:
    jnp = pytest.importorskip("jax.numpy")
    with dl.record() as report:
        torch.ones(2, dtype=torch.int8) + torch.ones(2, dtype=torch.uint8)  # torch half
        jnp.ones(2, jnp.int8) + jnp.ones(2, jnp.uint8)  # jax half
    assert sorted(report.data["frameworks"]) == ["jax", "torch"]
    by_line = {e["site"]["line"]: e["framework"] for e in report}
    assert by_line == {line_of("torch half"): "torch", line_of("jax half"): "jax"}


def test_an_installed_framework_that_cannot_be_recorded_is_named(tmp_path: Path) -> None:
    """The command starts each framework's recorder as the script imports
    it; one that cannot start (a JAX release recording was not checked
    against) is named in a warning, and the others record."""
    (tmp_path / "model.py").write_text("import jax\n" + SCRIPT, encoding="utf-8")
    unchecked_jax = ("import sys; from dtype_lattice import _record; _record.CHECKED.clear(); "
                     "from dtype_lattice.__main__ import main; "
                     "sys.exit(main(['promotions', 'model.py', '--format', 'json']))")
    done = subprocess.run([sys.executable, "-c", unchecked_jax], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "RuntimeWarning: dtype_lattice.record() does not record jax:" in done.stderr
    assert json.loads(done.stdout)["frameworks"] == ["torch"]
