"""The package as it is installed: the abi3 wheel pip builds from the sdist,
at the workspace's version, working with no Rust toolchain in reach.

`make test-python-package` (.ci/python-package.sh) runs this file in a fresh
virtual environment whose PATH has no cargo or rustc; `make test-python`
runs it with the rest of the suite, in an environment holding the same
wheel.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

import dtype_lattice as dl

ROOT = Path(__file__).resolve().parents[2]

# A lattice file, written out so that reading one is tested without the
# repository's examples: two categories joined through a weak integer.
LATTICE_FILE = """\
name = "small"
[dtypes]
u8 = "uint8"
i8 = "int8"
i16 = "int16"
[edges]
"i*" = ["u8", "i8"]
u8 = ["i16"]
i8 = ["i16"]
"""


def workspace_version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as manifest:
        return tomllib.load(manifest)["workspace"]["package"]["version"]


def test_the_package_is_installed_not_read_from_the_source_tree():
    source = ROOT / "python" / "dtype_lattice"
    installed = Path(dl.__file__).resolve().parent
    assert installed != source.resolve(), (
        "dtype_lattice is imported from python/ (an editable install?); these "
        "tests check the wheel: make python-env")


def test_the_version_is_the_workspaces():
    # One version for the crates and the package: maturin reads it from
    # Cargo.toml, and the extension compiles it in.
    version = workspace_version()
    assert importlib.metadata.version("dtype-lattice") == version
    assert dl.__version__ == version


def test_the_wheel_is_abi3_for_cpython_3_10_and_later():
    wheel = importlib.metadata.distribution("dtype-lattice").read_text("WHEEL")
    tags = [line.removeprefix("Tag: ") for line in wheel.splitlines()
            if line.startswith("Tag: ")]
    assert tags and all(tag.startswith("cp310-abi3-") for tag in tags), wheel
    assert "Root-Is-Purelib: false" in wheel


def test_the_metadata_carries_the_license_and_the_dependencies():
    meta = importlib.metadata.metadata("dtype-lattice")
    assert meta["License-Expression"] == "MIT OR Apache-2.0"
    assert sorted(meta.get_all("License-File")) == ["LICENSE-APACHE", "LICENSE-MIT"]
    assert meta["Requires-Python"] == ">=3.10"
    requires = importlib.metadata.requires("dtype-lattice")
    assert "numpy>=2" in requires and "ml-dtypes>=0.5" in requires


def test_no_rust_toolchain_is_in_reach():
    if os.environ.get("DTYPE_LATTICE_NO_TOOLCHAIN") != "1":
        pytest.skip("the fresh environment of `make test-python-package` checks this")
    assert shutil.which("cargo") is None and shutil.which("rustc") is None


def test_promotion_works():
    assert dl.promote_types(np.int8, np.uint8) == np.dtype("int16")
    assert dl.result_type(np.float16, 2.5) == np.dtype("float16")
    assert dl.policy("numpy").result_type(np.int8, 2.5) == np.dtype("float64")
    assert dl.policy("jax", x64=True).promote_types("int64", "uint64") == np.dtype("float64")
    with pytest.raises(dl.TypePromotionError):
        dl.policy("jax", strict=True).promote_types("int8", "uint8")


def test_lattices_are_checked_read_and_drawn(tmp_path):
    two_tops = dl.Lattice({"A": ["C", "D"], "B": ["C", "D"]})
    assert not two_tops.check().is_lattice
    path = tmp_path / "small.toml"
    path.write_text(LATTICE_FILE)
    small = dl.Lattice.from_toml(path)
    assert small.check().is_lattice
    assert small.join("u8", "i8") == "i16"
    assert small.to_svg().lstrip().startswith("<svg")
