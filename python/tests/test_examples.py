"""The scripts in ``examples/``: they run, and their expectations hold."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_other_lattices_runs_and_every_expectation_holds():
    # As the README runs it: a script, its exit status the verdict.
    run = subprocess.run([sys.executable, str(EXAMPLES / "other_lattices.py")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "every expectation held" in run.stdout
    for title in ["Keras 3", "tinygrad", "tinygrad (older)"]:
        assert f"\n{title}: " in "\n" + run.stdout


def test_other_lattices_exits_nonzero_when_an_expectation_fails(capsys):
    # A Keras lattice without float32 -> complex64 no longer joins as JAX's
    # (float32 and complex64 would meet at complex128): the script must say
    # so through its exit status.
    spec = importlib.util.spec_from_file_location("other_lattices", EXAMPLES / "other_lattices.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.KERAS = {**module.KERAS, "float32": ["float64"]}
    assert module.main() == 1
    assert "EXPECTATION FAILED: Keras: JAX's joins" in capsys.readouterr().out
