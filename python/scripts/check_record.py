#!/usr/bin/env python3
"""Run the ``dl.record()`` checks under the installed JAX and summarise, or,
with ``--scan``, list the names a JAX release binds the replaced functions
to (the table ``dtype_lattice._record.CHECKED`` holds per release).

``make test`` runs ``python/tests/test_promotions.py`` under JAX 0.10.2;
JAX 0.12.0.1 needs Python 3.12, so this script runs the same tests, in
process, under whichever JAX its interpreter has (set up as
``check_patch_jax.py`` says)::

    .venv-jax12/bin/python python/scripts/check_record.py
    .venv-jax12/bin/python python/scripts/check_record.py --scan

Exits with pytest's status (0 when every check passed).
"""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import warnings
from pathlib import Path

from check_patch_jax import print_outcomes, run

TESTS = Path(__file__).resolve().parents[1] / "tests" / "test_promotions.py"


def scan() -> int:
    """Every module of the installed JAX imported, then each replaced
    object's holders printed as ``CHECKED``'s entry for this release."""
    import jax

    from dtype_lattice import _record

    warnings.simplefilter("ignore")
    for module in pkgutil.walk_packages(jax.__path__, "jax."):
        try:
            importlib.import_module(module.name)
        except Exception:  # noqa: BLE001 - optional parts (GPU plugins, ...)
            pass
    known = next(iter(_record.CHECKED.values()))
    print(f"JAX {jax.__version__}:")
    for home, name in known:
        target = getattr(sys.modules[home], name)
        holders = sorted(module_name for module_name, module in list(sys.modules.items())
                         if module is not None and module_name.split(".")[0] == "jax"
                         and getattr(module, name, None) is target)
        print(f"  ({home!r}, {name!r}): {tuple(holders)!r},")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--scan"]:
        return scan()
    status, module, outcomes = run(TESTS)
    if module is None:
        return status or 1
    import jax
    import numpy as np

    from dtype_lattice import _record

    stats = module.STATS
    names = _record.CHECKED.get(jax.__version__, {})
    print(f"\ndl.record() under JAX {jax.__version__}, Python {platform.python_version()}, "
          f"NumPy {np.__version__}")
    print(f"replaced: {sum(len(m) for m in names.values())} names of {len(names)} objects")
    print(f"entries checked against jnp.result_type and strict JAX: {stats['entries']}; "
          f"compared answers against dl.policy: {stats['compared']}, of which against "
          f"NumPy itself: {stats['numpy']}; programs identical with and without "
          f"recording: {stats['programs']}")
    print_outcomes(outcomes)
    return status


if __name__ == "__main__":
    sys.exit(main())
