"""Recording a NumPy program through its rewritten source
(``dtype_lattice._record_numpy``): what it notes is what NumPy did, at the
user's lines, and the rewritten program computes what the original does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dtype_lattice as dl
from dtype_lattice import _record_numpy as recording

PROGRAM = """\
import numpy as np
import helper

class Holder:
    def __init__(self, values):
        super().__init__()
        self.values = values

calls = []
def index():
    calls.append(1)
    return 0

x = np.arange(4, dtype=np.int8)
y = x + 1
z = 2 - x
mask = x < 3
holder = Holder(np.ones(3, np.int16))
holder.values += 2
holder.values[index()] += 1
out = np.add(x, np.float32(1.5))
total = x.sum()
mean = np.mean(x.astype(np.float16))
joined = np.concatenate([x, y])
try:
    x + 300
except OverflowError as error:
    refusal = str(error)
scaled = helper.scale(x)
results = [y, z, mask, holder.values, out, total, mean, joined, scaled, len(calls)]
"""

HELPER = """\
def scale(x):
    y = x * 2.5
    y /= 2
    return y.max()
"""

# The line of each operation in PROGRAM and HELPER that completes (the
# refused x + 300, line 26, is checked apart).
LINES = {
    ("program", "add", "operator"): 15,
    ("program", "subtract", "operator"): 16,
    ("program", "less", "operator"): 17,
    ("program", "add", "inplace"): 19,
    ("program", "add", "function"): 21,
    ("program", "sum", "method"): 22,
    ("program", "mean", "function"): 23,
    ("program", "concatenate", "function"): 24,
    ("helper", "multiply", "operator"): 2,
    ("helper", "true_divide", "inplace"): 3,
    ("helper", "max", "method"): 4,
}


@pytest.fixture
def program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "program.py").write_text(PROGRAM)
    (tmp_path / "helper.py").write_text(HELPER)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("helper", None)


def run_plain(path: Path) -> dict:
    namespace: dict = {"__name__": "__main__"}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def same(a: object, b: object) -> bool:
    if isinstance(a, (np.ndarray, np.generic)):
        return isinstance(b, type(a)) and a.dtype == b.dtype \
            and np.array_equal(a, b)  # type: ignore[arg-type]
    return a == b


def test_the_rewritten_program_computes_what_the_original_does(program: Path) -> None:
    recorder = recording.start([str(program)])
    try:
        recorded = recording.run_script(str(program / "program.py"))
    finally:
        recorder.stop()
    sys.modules.pop("helper", None)
    plain = run_plain(program / "program.py")
    assert len(recorded["results"]) == len(plain["results"])
    for got, want in zip(recorded["results"], plain["results"]):
        assert same(got, want), (got, want)
    # a[index()] += 1 evaluates index() once, as Python does.
    assert recorded["results"][-1] == plain["results"][-1] == 1
    assert recorded["refusal"] == plain["refusal"]


def test_each_call_is_noted_at_the_users_line_with_what_numpy_returned(
        program: Path) -> None:
    recorder = recording.start([str(program)])
    try:
        namespace = recording.run_script(str(program / "program.py"))
    finally:
        recorder.stop()
    seen = [s for s, _ in recorder.seen().values()]
    where = {(Path(s.site[0]).stem, s.operation, s.form): s for s in seen if s.error is None}
    lines = {(Path(s.site[0]).stem, s.operation, s.form, s.site[1]) for s in seen}
    for (stem, operation, form), line in LINES.items():
        assert (stem, operation, form, line) in lines, f"{stem}:{line} {operation}: {seen}"
    # holder.values[index()] += 1, on the line after holder.values += 2.
    assert ("program", "add", "inplace", 20) in lines
    # The results are NumPy's own, read from what it returned.
    y, z, mask = namespace["y"], namespace["z"], namespace["mask"]
    assert where[("program", "add", "operator")].result == y.dtype.name
    assert where[("program", "subtract", "operator")].result == z.dtype.name
    assert where[("program", "subtract", "operator")].operands[0] == ("python", "int", 2)
    assert where[("program", "less", "operator")].result == mask.dtype.name
    assert where[("program", "add", "function")].operands[1] == ("scalar", "float32", 1.5)
    assert where[("program", "add", "function")].result == namespace["out"].dtype.name
    assert where[("program", "sum", "method")].result == namespace["total"].dtype.name
    assert where[("program", "mean", "function")].result == namespace["mean"].dtype.name
    assert where[("program", "concatenate", "function")].operands == [
        ("array", "int8", None), ("array", "int8", None)]
    # The refusal is NumPy's, with its message.
    refused = [s for s in seen if s.error is not None]
    assert [(s.operation, s.error) for s in refused] == [
        ("add", ("OverflowError", namespace["refusal"]))]
    assert refused[0].operands[1] == ("python", "int", 300)


def test_recording_ends_with_the_block_errors_included(program: Path) -> None:
    (program / "failing.py").write_text("import numpy as np\nnp.arange(3) + 1\nraise ValueError('x')\n")
    before = list(sys.meta_path)
    recorder = recording.start([str(program)])
    with pytest.raises(ValueError):
        try:
            recording.run_script(str(program / "failing.py"))
        finally:
            recorder.stop()
    assert sys.meta_path == before
    assert recording._state.active is None
    assert len(recorder.seen()) == 1
    # A second recording may start; calls made now are not noted by the first.
    again = recording.start([str(program)])
    again.stop()
    assert len(recorder.seen()) == 1


def test_code_outside_the_roots_is_not_rewritten(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    (outside / "library.py").write_text("def twice(x):\n    return x * 2\n")
    (inside / "main.py").write_text(textwrap.dedent("""\
        import numpy as np
        import library
        result = library.twice(np.ones(2, np.int8)) + 1
    """))
    monkeypatch.syspath_prepend(str(outside))
    recorder = recording.start([str(inside)])
    try:
        recording.run_script(str(inside / "main.py"))
    finally:
        recorder.stop()
        sys.modules.pop("library", None)
    operations = sorted((s.operation, Path(s.site[0]).name) for s, _ in recorder.seen().values())
    assert operations == [("add", "main.py")]


# -- the report of a NumPy program ---------------------------------------------

REPORTED = """\
import numpy as np

x8 = np.arange(3, dtype=np.int8)
u8 = np.arange(3, dtype=np.uint8)
f16 = np.linspace(0, 1, 3).astype(np.float16)
mixed = x8 + u8
scaled = x8 * 2.5
shifted = 2 - f16
summed = x8.sum()
joined = np.concatenate([x8, f16])
"""


def report_of(directory: Path, source: str, *options: str) -> dict:
    """The JSON report of ``python -m dtype_lattice promotions`` on a
    script of ``source``, as a user runs it."""
    script = directory / "script.py"
    script.write_text(source)
    run = subprocess.run([sys.executable, "-m", "dtype_lattice", "promotions", str(script),
                          "--all", "--format", "json", *options],
                         capture_output=True, text=True, timeout=300, cwd=directory)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def rebuilt(operand: dict) -> Any:
    """An operand as NumPy held it: an array of its dtype, or (weak) a
    Python scalar of its kind."""
    dtype = np.dtype(operand["dtype"])
    if operand["weak"]:
        return {"b": True, "i": 2, "u": 2, "f": 2.0, "c": 2j}[dtype.kind]
    return np.ones(2, dtype)


def test_a_numpy_programs_report_is_what_numpy_returned(tmp_path: Path) -> None:
    report = report_of(tmp_path, REPORTED, "--compare", "torch")
    assert "numpy" in report["frameworks"]
    entries = {entry["site"]["line"]: entry for entry in report["entries"]}
    lines = {6: "add", 7: "multiply", 8: "subtract", 9: "sum", 10: "concatenate"}
    assert {line: entries[line]["operation"] for line in lines} == lines
    functions = {"add": np.add, "multiply": np.multiply, "subtract": np.subtract,
                 "sum": np.sum, "concatenate": lambda *a: np.concatenate(a)}
    for line, name in lines.items():
        entry = entries[line]
        assert entry["framework"] == "numpy"
        result = functions[name](*(rebuilt(o) for o in entry["operands"]))
        assert entry["result"]["dtype"] == result.dtype.name, entry
        # The compared answer is the torch policy's for the operands as a
        # port hands them over, and what PyTorch computes on them.
        (compared,) = entry["compared"]
        args = [rebuilt(o) if o["weak"] else dl.Operand(np.dtype(o["dtype"]))
                for o in entry["operands"]]
        torch_policy = dl.policy("torch")
        library = (torch_policy.result_type(*args) if compared["question"] == "result_type"
                   else torch_policy.operation(compared["question"], *args))
        assert compared["answer"]["dtype"] == np.dtype(library).name, entry
        torch = pytest.importorskip("torch")
        values = [rebuilt(o) if o["weak"] else torch.ones(2, dtype=getattr(torch, o["dtype"]))
                  for o in entry["operands"]]
        computed = {"add": torch.add, "multiply": torch.mul, "subtract": torch.sub,
                    "sum": torch.sum, "concatenate": lambda *a: torch.cat(a),
                    "result_type": torch.result_type}[compared["question"]](*values)
        computed_dtype = computed if isinstance(computed, torch.dtype) else computed.dtype
        assert compared["answer"]["dtype"] == str(computed_dtype).removeprefix("torch."), entry
    # 2 - f16 as written: the Python int first.
    assert [o["weak"] for o in entries[8]["operands"]] == [True, False]


# -- NumPy 2's migration: the lines whose result changed since NumPy 1 ---------

MIGRATED = """\
import numpy as np

x8 = np.arange(3, dtype=np.int8)
f32 = np.ones(3, dtype=np.float32)
results = {}
try:
    results["overflow"] = x8 + 300
except OverflowError as error:
    results["overflow"] = error
results["small"] = x8 + 100
results["huge_float"] = f32 * 1e300
results["numpy_scalar"] = x8 + np.int64(5)
results["scalars"] = np.float32(3) + 3.0
results["float_int"] = x8 * 2.5
f16 = np.ones(3, dtype=np.float16)
results["big_numpy_scalar"] = x8 + np.int64(300)
results["zero_dim"] = f16 * np.array(1e5)
"""

#: The line of each result in MIGRATED.
MIGRATED_LINES = {"overflow": 7, "small": 10, "huge_float": 11, "numpy_scalar": 12,
                  "scalars": 13, "float_int": 14, "big_numpy_scalar": 16, "zero_dim": 17}

RUN_AND_TELL = """
import json, sys, warnings
warnings.simplefilter("ignore")
namespace = {}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), namespace)
print(json.dumps({key: type(value).__name__ if isinstance(value, Exception)
                  else value.dtype.name for key, value in namespace["results"].items()}))
"""


def told(python: str, script: Path) -> dict[str, str]:
    """Each result's dtype (or exception class) as ``python``'s NumPy gives
    it, the script run as it is."""
    run = subprocess.run([python, "-c", RUN_AND_TELL, str(script)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_migration_report_lists_what_numpy_1_answered(tmp_path: Path) -> None:
    """``--compare numpy1 --only-differences`` lists the lines whose result
    NumPy 1.26 gave otherwise, each with what NumPy 1.26 gave (run here, in
    its own environment: ``make test`` builds it)."""
    import os

    numpy1 = os.environ.get("DTYPE_LATTICE_NUMPY1")
    if not numpy1:
        pytest.skip("DTYPE_LATTICE_NUMPY1 names NumPy 1.26's Python (make test-python sets it)")
    report = report_of(tmp_path, MIGRATED, "--compare", "numpy1", "--only-differences")
    script = tmp_path / "script.py"
    old, new = told(numpy1, script), told(sys.executable, script)
    assert old != new
    changed = {key for key in old if old[key] != new[key]}
    by_line = {line: key for key, line in MIGRATED_LINES.items()}
    listed = {}
    for entry in report["entries"]:
        key = by_line.get(entry["site"]["line"])
        assert key is not None, entry
        (answer,) = entry["compared"]
        assert answer["spec"] == "numpy1" and answer["differs"], entry
        said = answer["answer"]
        listed[key] = said["error"]["type"] if "error" in said else said["dtype"]
        # What NumPy 2 returned, beside it.
        reference = answer["reference"]
        now = reference["error"]["type"] if "error" in reference else reference["dtype"]
        assert now == new[key], (key, entry)
    # Every line listed is one NumPy 1.26 answers otherwise, with its answer.
    assert {key: old[key] for key in listed} == listed
    # And every line NumPy 1.26 answers otherwise is listed.
    assert set(listed) == changed, (changed, listed)


def test_a_framework_is_imported_by_the_script_not_before(tmp_path: Path) -> None:
    """The command starts JAX's and PyTorch's recorders when the script
    imports them: an environment variable the script sets before its own
    ``import jax`` is the one JAX reads, and a framework the script never
    imports is not imported."""
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""\
        import os
        import sys
        assert "jax" not in sys.modules and "torch" not in sys.modules
        os.environ["JAX_ENABLE_X64"] = "1"
        import jax.numpy as jnp
        y = jnp.ones(2, jnp.int8) + jnp.ones(2, jnp.uint8)
        print(jnp.arange(2).dtype, "torch" in sys.modules)
    """))
    run = subprocess.run([sys.executable, "-m", "dtype_lattice", "promotions", str(script),
                          "--format", "json", "--output", str(tmp_path / "report.json")],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["int64", "False"]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["frameworks"] == ["jax"]
    assert report["configurations"] == ["jax (x64 on, standard)"]
