"""The settings are the registry's, by the names every surface uses, and
the reports are the library's JSON, as the command line prints them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import dtype_lattice as dl

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_LATTICES = ROOT / "examples" / "lattices"


def test_settings_are_the_registrys_table():
    table = dl.settings()
    # JAX's first; the other frameworks' follow (Keras's among them).
    assert [s["name"] for s in table][:3] == ["x64", "strict", "explicit_x64_dtypes"]
    assert [s["values"][0] for s in table][:3] == ["false", "false", "warn"]
    assert {s["name"]: s["policies"] for s in table}["floatx"] == ["keras"]
    assert {s["name"]: s["policies"] for s in table}["x64"] == ["jax", "jax-lax"]
    jax = dl.policy("jax").settings
    assert {k: jax[k] for k in ("x64", "strict", "explicit_x64_dtypes")} == {
        "x64": False, "strict": False, "explicit_x64_dtypes": "warn"}
    assert dl.policy("jax", x64=True, explicit_x64_dtypes="allow").settings["x64"] is True


def test_a_bad_setting_names_itself_and_a_fix():
    with pytest.raises(TypeError, match="unknown setting 'x46': did you mean 'x64'"):
        dl.policy("jax", x46=True)
    with pytest.raises(TypeError, match="x64 takes True or False"):
        dl.policy("jax", x64=1)
    with pytest.raises(ValueError, match="did you mean 'allow'"):
        dl.policy("jax", explicit_x64_dtypes="alow")
    with pytest.raises(ValueError, match="unknown policy 'jaxx': did you mean 'jax'"):
        dl.policy("jaxx")


def test_a_string_where_a_list_of_labels_belongs_is_a_type_error():
    with pytest.raises(TypeError, match=r"'int8' is the string 'int16', not a list"):
        dl.Lattice({"int8": "int16", "uint8": ["int16"]})


def test_a_lattice_reports_as_the_library_does():
    lattice = dl.Lattice({"A": ["C", "D"], "B": ["C", "D"]}, name="two tops")
    report = lattice.check()
    assert not report.is_lattice
    assert report.data["ambiguous"] == [{"pair": ["A", "B"], "candidates": ["C", "D"], "candidate_count": 2}]
    explanation = lattice.explain("A", "B")
    assert explanation.data["outcome"] == "ambiguous"
    assert explanation.join is None and explanation.common == ["C", "D"]
    assert set(lattice.audit().findings) == {
        "dropped_component", "overflow", "precision_loss", "wider_than_inputs"}


def cli(*args: str) -> str:
    binary = ROOT / "target" / "debug" / "dtype-lattice"
    if not binary.exists():
        pytest.skip("the command-line tool is not built (cargo build)")
    return subprocess.run([str(binary), *args], capture_output=True, text=True).stdout


@pytest.mark.parametrize("name", ["option-3", "option-0"])
def test_the_check_is_the_command_lines(name):
    path = NOTEBOOK_LATTICES / f"{name}.toml"
    ours = dl.Lattice.from_toml(path).check(max_examples=10).data
    assert ours == json.loads(cli("check", str(path), "--format", "json"))


def test_the_table_is_the_command_lines():
    ours = dl.policy("jax", x64=True).table().data
    theirs = json.loads(cli("table", "--x64", "--format", "json"))
    assert ours == theirs


def test_a_check_lists_at_most_a_thousand_examples():
    lattice = dl.Lattice({"A": ["C", "D"], "B": ["C", "D"]})
    with pytest.raises(ValueError, match="more than 1000, the most a check lists"):
        lattice.check(max_examples=10**6)
    assert lattice.check(max_examples=1000).ambiguous_count == 1
