"""The documentation's examples run: the package's doctests, and the
Python blocks of the README and docs/python.md, whose `# value` comments
must be what the line before them gives."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np  # noqa: F401 - the README's blocks use it

import dtype_lattice as dl

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]


def test_doctests() -> None:
    failures, tried = doctest.testmod(dl, verbose=False)
    assert tried > 0 and failures == 0


def test_readme_python_blocks_run_and_say_what_they_give() -> None:
    blocks = [block for page in PAGES
              for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)]
    assert blocks
    for block in blocks:
        namespace: dict = {}
        exec(block, namespace)  # noqa: S102 - the README's own code
        # A line `EXPR  # VALUE` (at the top level) must give VALUE.
        for line in block.splitlines():
            code, _, comment = line.partition("  # ")
            shown = comment.split(";")[0].split(", JAX")[0].strip()
            if line[:1].isspace() or not shown.startswith(("dtype(", "(", "[")):
                continue
            stripped = code.strip()
            if "=" in stripped.split("(")[0]:
                continue
            value = eval(stripped, namespace)  # noqa: S307
            assert repr(value) == shown, f"{stripped}: {value!r}, the docs say {shown}"
