"""The public API's types are a contract: its `Literal`s are the registry's
names and settings, the documentation's examples type-check under mypy
against the installed package, the package type-checks itself, and mypy
reads the return types the functions have and refuses the calls that fail.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

import dtype_lattice as dl
from dtype_lattice import _types

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]
TYPES = "python/dtype_lattice/_types.py"


def test_the_policy_names_are_the_registrys():
    names, aliases = dl.policy_names()
    every = [*names, *(alias for alias, _ in aliases)]
    typed = get_args(_types.PolicyName)
    missing = [name for name in every if name not in typed]
    assert not missing, (
        f"the registry has the policy names {missing}, which PolicyName lacks: add each to "
        f"LatticePolicyName, RulesPolicyName or SettingsPolicyName in {TYPES} (the first "
        "where its Policy.lattice is always a Lattice, the second where never, the third "
        "where its settings decide)")
    gone = [name for name in typed if name not in every]
    assert not gone, f"the registry has no policy {gone}: remove them from {TYPES}"
    assert len(typed) == len(set(typed)), f"a policy name is listed twice in {TYPES}"


def test_the_form_names_are_the_librarys():
    from dtype_lattice import _native
    assert get_args(_types.FormName) == tuple(_native.FORMS), (
        f"FormName in {TYPES} must list the library's forms, in order: {_native.FORMS}")


def settings_read_by(name: str) -> list[dict[str, Any]]:
    """Every combination of the settings the policy `name` reads, as keywords."""
    canonical = dict(dl.policy_names()[1]).get(name, name)
    read = [s for s in dl.settings() if canonical in s["policies"]]
    return [{s["name"]: value == "true" if s["flag"] else value for s, value in zip(read, combo)}
            for combo in itertools.product(*(s["values"] for s in read))]


@pytest.mark.parametrize("name", get_args(_types.PolicyName))
def test_the_policy_name_says_whether_a_lattice_defines_it(name):
    # `policy(name)` is a Policy[Lattice] to checkers for the lattice
    # names, a Policy[None] for the rules' names, either for the names
    # whose settings decide.
    kinds = {"LatticePolicyName": get_args(_types.LatticePolicyName),
             "RulesPolicyName": get_args(_types.RulesPolicyName),
             "SettingsPolicyName": get_args(_types.SettingsPolicyName)}
    typed = next(kind for kind, names in kinds.items() if name in names)
    has = {dl.policy(name, **settings).lattice is not None for settings in settings_read_by(name)}
    right = ("SettingsPolicyName" if len(has) == 2
             else "LatticePolicyName" if has == {True} else "RulesPolicyName")
    assert typed == right, (
        f"dl.policy({name!r}).lattice is {'a Lattice' if has == {True} else 'None' if has == {False} else 'a Lattice under some settings'}: "
        f"move {name!r} from {typed} to {right} in {TYPES}")


def test_presets_build_their_entry_and_refuse_a_contradiction():
    listed = dl.presets()
    names = dl.policy_names()[0]
    for preset in listed:
        # Listed under its entry, and the same policy as the entry with its settings.
        assert names.index(preset["name"]) > names.index(preset["entry"])
        assert dl.policy(preset["name"]).name == dl.policy(preset["entry"], **preset["settings"]).name
        assert dl.policy(preset["name"]).settings == dl.policy(preset["entry"], **preset["settings"]).settings
    with pytest.raises(ValueError, match="tensorflow-all is tensorflow with tensorflow_numpy_behavior=all, "
                       "which tensorflow_numpy_behavior=safe contradicts"):
        dl.policy("tensorflow-all", tensorflow_numpy_behavior="safe")


def test_tensorflow_numpy_refuses_with_numpy_behaviour_off():
    with pytest.raises(NotImplementedError, match="set tensorflow_numpy_behavior=legacy, tensorflow_numpy_behavior=safe or tensorflow_numpy_behavior=all"):
        dl.policy("tensorflow-numpy").promote_types("int8", "int8")
    assert str(dl.policy("tnp", tensorflow_numpy_behavior="safe").promote_types("int8", "int8")) == "int8"


def test_the_settings_are_the_registrys():
    table = dl.settings()
    typed = get_type_hints(_types.PolicySettings)
    names = [s["name"] for s in table]
    assert list(typed) == names, (
        f"PolicySettings in {TYPES} has {list(typed)}, the registry {names}: add "
        f"{[n for n in names if n not in typed]}, remove {[n for n in typed if n not in names]}"
        ", in the registry's order")
    for setting in table:
        hint = typed[setting["name"]]
        if setting["flag"]:
            assert hint is bool, f"{setting['name']} is a flag: write `{setting['name']}: bool`"
            continue
        values = ", ".join(repr(v) for v in setting["values"])
        assert list(get_args(hint)) == setting["values"], (
            f"{setting['name']} takes {values}; PolicySettings in {TYPES} says "
            f"{list(get_args(hint))}: write its Literal as Literal[{values}]")
    assert list(dl.policy().settings) == names


def test_the_rows_of_settings_are_typed():
    assert [list(row) for row in dl.settings()] == \
        [list(get_type_hints(_types.SettingInfo))] * len(dl.settings())


# mypy must read these types (`assert_type` fails the check otherwise).
CONTRACT = """\
from typing import Any, Literal, assert_type

import jax.numpy as jnp
import numpy as np

import dtype_lattice as dl

dt = np.dtype[Any]
assert_type(dl.promote_types(np.int8, "uint8"), dt)
assert_type(dl.result_type(np.float16, 2.5, 1j, None, int), dt)
assert_type(dl.result_type("int8", return_weak_type_flag=False), dt)
assert_type(dl.result_type(jnp.ones(3), jnp.int8, return_weak_type_flag=True), tuple[dt, bool])
flag: bool = bool(len("x"))
assert_type(dl.result_type(dl.operand("weak:int32"), return_weak_type_flag=flag),
            dt | tuple[dt, bool])
assert_type(dl.lattice_result_type(np.int8, 2), tuple[dt, bool])
assert_type(dl.canonicalize_dtype("int64"), dt)
assert_type(dl.policy(), dl.Policy[dl.Lattice])
assert_type(dl.policy("jax", x64=True, strict=False, explicit_x64_dtypes="allow"),
            dl.Policy[dl.Lattice])
assert_type(dl.policy("np").lattice, None)
assert_type(dl.policy("keras", keras_backend="jax", floatx="bfloat16").lattice, dl.Lattice)
numpy = dl.policy("numpy")
assert_type(numpy.operation("true_divide", "int32", "int32"), dt)
assert_type(numpy.operation("less", "int8", 2.5, return_weak_type_flag=True), tuple[dt, bool])
assert_type(numpy.add(np.int8, np.uint8), tuple[dt, bool])
assert_type(numpy.can_cast("int8", np.int16), bool)
assert_type(dl.policy().safe_to_cast(2.5, "float16"), bool)
assert_type(numpy.settings["explicit_x64_dtypes"], Literal["warn", "error", "allow"])
assert_type(dl.policy_names()[0][0], dl.PolicyName)
for name in dl.policy_names()[0]:
    dl.policy(name)
assert_type(dl.finfo(np.float16).eps, float)
assert_type(dl.isdtype("int8", ("integral", np.float16)), bool)
assert_type(dl.Lattice({"a": ["b"], "b": []}, dtypes={"a": np.int8, "b": "int16"}).join("a", "b"),
            str | None)
assert_type(dl.policy().diff(numpy)[0].ours, str | None)
assert_type(dl.policy().table(["int8", np.uint8])["int8", "uint8"], tuple[str, bool] | str)
assert_type(dl.policy().lattice.audit()["overflow"], list[tuple[str, str, str]])
assert_type(dl.policy().lattice.explain("int8", "uint8").paths, tuple[list[str], list[str]] | None)
"""

# Each line fails at run time; mypy must say so, with the error code after
# `# E:`.
REFUSED = """\
import dtype_lattice as dl

dl.policy("jaxx")  # E: call-overload
dl.policy("jax", x46=True)  # E: call-overload
dl.policy("jax", x64=1)  # E: call-overload
dl.policy("jax", explicit_x64_dtypes="alow")  # E: call-overload
dl.promote_types([1], "int8")  # E: arg-type
dl.result_type({})  # E: call-overload
dl.policy("numpy").lattice.explain("a", "b")  # E: attr-defined
dl.Lattice({"a": "b"})  # E: dict-item
dl.Lattice({"a": []}, weak="a")  # E: arg-type
dl.policy().table(types="int8")  # E: arg-type
"""


def python_blocks() -> dict[str, str]:
    """The ```python blocks of the README and docs/python.md, by a module
    name saying where each is."""
    blocks = {}
    for page in PAGES:
        found = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
        for number, block in enumerate(found, 1):
            blocks[f"{page.stem.lower()}_block_{number}"] = block
    assert blocks, "no ```python blocks found in the README or docs/python.md"
    return blocks


@pytest.fixture(scope="module")
def mypy(request, tmp_path_factory) -> dict[str, list[str]]:
    """mypy's errors, by file's stem: the installed package's, and the
    documentation's blocks', the contract's and the refused calls'."""
    pytest.importorskip("mypy", reason="mypy is pinned in python/requirements-test.txt: "
                        "make python-env")
    work = tmp_path_factory.mktemp("mypy")
    files = {**python_blocks(), "contract": CONTRACT, "refused": REFUSED}
    for name, text in files.items():
        (work / f"{name}.py").write_text(text)
    # pytest's cache directory keeps mypy's between runs (a first run takes
    # about 30 s, numpy's and JAX's stubs included); git ignores it.
    cache = (request.config.cache.mkdir("mypy") if hasattr(request.config, "cache")
             else work / ".mypy_cache")
    # From the temporary directory, with no MYPYPATH: dtype_lattice is the
    # installed package, not the source tree.
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    errors: dict[str, list[str]] = {}
    # mypy takes files or a package, not both: two runs, sharing the cache.
    for targets in (["-p", "dtype_lattice"], [f"{name}.py" for name in files]):
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--check-untyped-defs",
             "--warn-unused-ignores", "--no-color-output", "--no-error-summary",
             "--hide-error-context", "--show-error-codes", *targets],
            cwd=work, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode in (0, 1), f"mypy failed to run:\n{run.stdout}{run.stderr}"
        for line in run.stdout.splitlines():
            if ": error: " in line:
                errors.setdefault(Path(line.split(":", 1)[0]).stem, []).append(line)
    return errors


@pytest.mark.parametrize("block", list(python_blocks()))
def test_the_documentations_examples_type_check(mypy, block):
    errors = mypy.get(block, [])
    assert not errors, (
        f"{block} (README.md or docs/python.md, counting its ```python blocks) does not "
        "type-check against the installed package: fix the annotations in "
        "python/dtype_lattice/, or the example where it is wrong:\n" + "\n".join(errors))


def test_the_package_type_checks(mypy):
    ours = {stem: lines for stem, lines in mypy.items()
            if stem not in python_blocks() and stem not in ("contract", "refused")}
    assert not ours, "\n".join(line for lines in ours.values() for line in lines)


def test_mypy_reads_the_return_types(mypy):
    errors = mypy.get("contract", [])
    assert not errors, "\n".join(errors)


def test_the_refused_calls_fail_at_run_time():
    for line in REFUSED.splitlines()[2:]:
        with pytest.raises((TypeError, ValueError, AttributeError)):
            exec(line.split("  #")[0], {"dl": dl})  # noqa: S102 - the lines above


@pytest.mark.parametrize("number, line", [
    (number, line) for number, line in enumerate(REFUSED.splitlines(), 1) if "# E: " in line])
def test_mypy_refuses_a_call_that_fails_at_run_time(mypy, number, line):
    code = line.rsplit("# E: ", 1)[1]
    flagged = [e for e in mypy.get("refused", []) if e.split(":")[1] == str(number)]
    assert any(e.endswith(f"[{code}]") for e in flagged), (
        f"mypy accepts {line.split('  #')[0]!r} (expected [{code}]): {flagged}")
