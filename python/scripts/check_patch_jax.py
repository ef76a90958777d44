#!/usr/bin/env python3
"""Run the ``dl.patch_jax()`` checks under the installed JAX and summarise.

``make test`` runs ``python/tests/test_patch_jax.py`` under JAX 0.10.2 (the
newest JAX for Python 3.11); JAX 0.12.0.1 needs Python 3.12, so this script
runs the same tests, in-process, under whichever JAX its interpreter has,
and prints what they checked. With pyenv's Python 3.12::

    python3.12 -m venv .venv-jax12
    .venv-jax12/bin/pip install -r conformance/requirements-jax12.txt pytest ./python
    .venv-jax12/bin/python python/scripts/check_patch_jax.py

Exits with pytest's status (0 when every check passed).
"""

from __future__ import annotations

import platform
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parents[1] / "tests" / "test_patch_jax.py"


class Outcomes:
    """A pytest plugin counting each test function's outcomes."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter] = {}

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when != "call" and report.passed:
            return  # setup and teardown count only when they fail or skip
        if hasattr(report, "wasxfail"):
            outcome = "xfailed"
        elif report.when != "call" and report.failed:
            outcome = "errors"
        else:
            outcome = report.outcome
        function = report.nodeid.split("::")[-1].split("[")[0]
        self.counts.setdefault(function, Counter())[outcome] += 1


def run(tests: Path, *pytest_args: str) -> tuple[int, Any, Outcomes]:
    """Runs a test module in process: pytest's status, the module (None if
    it was not imported: no JAX) and the outcomes per test function."""
    outcomes = Outcomes()
    status = pytest.main(["-q", "-p", "no:cacheprovider", *pytest_args, str(tests)],
                         plugins=[outcomes])
    module = sys.modules.get(tests.stem)
    if module is None:
        print(f"{tests.name} was not imported (is JAX installed?)")
    return int(status), module, outcomes


def print_outcomes(outcomes: Outcomes) -> None:
    """Each test function's outcomes, and the totals."""
    total = sum(outcomes.counts.values(), Counter())
    for function, counts in sorted(outcomes.counts.items()):
        print(f"  {function}: " + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    print("total: " + ", ".join(f"{n} {o}" for o, n in sorted(total.items())))


def main() -> int:
    status, module, outcomes = run(TESTS, "-W", "ignore:Explicitly requested dtype")
    if module is None:
        return status or 1
    import jax
    import ml_dtypes
    import numpy as np
    from dtype_lattice import _jax

    stats = module.STATS
    print()
    print(f"dl.patch_jax() under JAX {jax.__version__}, Python "
          f"{platform.python_version()}, NumPy {np.__version__}, ml_dtypes "
          f"{ml_dtypes.__version__}")
    print("patched names: " + ", ".join(
        f"{m}.{fn}" for fn, mods in _jax.CHECKED.get(jax.__version__, {}).items()
        for m in mods))
    print("golden files through patched jnp.promote_types / dtypes.result_type / "
          "jnp.result_type / dtypes.lattice_result_type:")
    for name, g in stats["golden"].items():
        print(f"  {name:20} {g['cases']:6} cases, {g['failures']} differ; "
              f"{g['answered']} calls answered by dtype-lattice, {g['delegated']} by JAX")
    print(f"jax.numpy programs: {stats['programs']} programs x x64 on/off x "
          f"standard/strict = {stats['program_configs']} runs identical to unpatched "
          "JAX (results, dtypes, weak flags, jaxprs, errors, warnings)")
    print_outcomes(outcomes)
    return status


if __name__ == "__main__":
    sys.exit(main())
