# `make test` runs every suite: the Rust workspace, then the Python package
# (its sdist, the wheel built from it, installed into a virtual environment
# of pinned requirements), then that wheel alone in a fresh environment with
# no Rust toolchain, then the explorer in headless Chromium. Needs the Rust
# toolchain, Python 3.11 with pip, and for the browser tests Node.js 20 with
# npm and Chromium (/usr/bin/chromium). `make package` checks the crates as
# crates.io would take them (docs/releasing.md).

PYTHON ?= python3
VENV := .venv-test
PIP := $(VENV)/bin/pip
CARGO_TARGET_DIR ?= target
# The Python package's sdist and wheel (dist/), the build of the wheel and
# the fresh environment that checks it.
PYPACKAGE := $(abspath $(CARGO_TARGET_DIR))/python-package

.PHONY: test test-rust test-python python-dist python-env python-bench-env \
	test-python-package package test-browser chromium

test: test-rust test-python test-python-package test-browser

# The no-std core: the consumer builds only if the core builds without std,
# and with std turned on it must fail on std's panic handler (so the build
# above proves something); then the core answers every golden case.
NOSTD := --manifest-path examples/no-std-consumer/Cargo.toml --target-dir $(abspath $(CARGO_TARGET_DIR))
NOSTD_GOLDEN := --manifest-path examples/no-std-consumer/golden/Cargo.toml --target-dir $(abspath $(CARGO_TARGET_DIR))

test-rust:
	cargo test --workspace
	cargo build $(NOSTD)
	cargo build $(NOSTD) --features dtype-lattice/json
	cargo check $(NOSTD) --features dtype-lattice/std 2>&1 | grep -q "duplicate lang item .panic_impl."
	cargo test $(NOSTD_GOLDEN)

# The environment is rebuilt when the pinned requirements change.
$(VENV)/.requirements: python/requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r python/requirements-test.txt
	cp python/requirements-test.txt $@

# The sdist, and the wheel pip builds from it (kept while the sdist is
# unchanged): the one compile of the package in `make test`.
python-dist: $(VENV)/.requirements
	.ci/python-package.sh build $(VENV) $(PYPACKAGE)

# The test environment gets that wheel; its dependencies are the pinned
# requirements, which `pip check` confirms satisfy it.
python-env: python-dist
	$(PIP) install --quiet --disable-pip-version-check --force-reinstall --no-deps $(PYPACKAGE)/dist/dtype_lattice-*.whl
	$(PIP) check --disable-pip-version-check >/dev/null

# The package built with the benchmark hook (`_native._call_floor`) that
# bench/python_compare.py measures as its floor; users' builds lack it.
python-bench-env: $(VENV)/.requirements
	MATURIN_PEP517_ARGS="--features bench" $(PIP) install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python

# NumPy 1.26, which the migration report's test runs to confirm what NumPy 1
# answers (test_record_numpy.py); the generator's pin, rebuilt when it changes.
NUMPY1_VENV := .venv-numpy1
$(NUMPY1_VENV)/.requirements: conformance/requirements-numpy1.txt
	$(PYTHON) -m venv $(NUMPY1_VENV)
	$(NUMPY1_VENV)/bin/pip install --quiet --disable-pip-version-check -r conformance/requirements-numpy1.txt
	cp conformance/requirements-numpy1.txt $@

test-python: python-env $(NUMPY1_VENV)/.requirements
	DTYPE_LATTICE_NUMPY1=$(abspath $(NUMPY1_VENV))/bin/python $(VENV)/bin/python -m pytest -q python/tests

# The wheel installed into a fresh environment whose PATH has no cargo or
# rustc, and python/tests/test_package.py run there.
test-python-package: python-dist
	.ci/python-package.sh check $(PYTHON) $(PYPACKAGE)

# Both crates packaged and built as crates.io would take them: the command
# against the packaged library, not the workspace's (the Python bindings, the
# testkit and examples/adopter are `publish = false`). Needs the crates' files
# committed, unless PACKAGE_FLAGS=--allow-dirty.
PACKAGE_FLAGS ?=
package:
	@# Cargo verifies the command against the packaged library by extracting
	@# it into $$CARGO_HOME/registry/src/-HASH/ (HASH of the temporary
	@# registry's path), and never extracts over an earlier extraction: a
	@# checkout packaged before at the same path would build against the
	@# library of that time. Local registries' dirs start with '-'.
	rm -rf "$${CARGO_HOME:-$$HOME/.cargo}"/registry/src/-*/dtype-lattice-[0-9]*
	cargo package --workspace --exclude dtype-lattice-python --exclude dtype-lattice-testkit --exclude dtype-lattice-adopter $(PACKAGE_FLAGS)
	cargo publish --dry-run --workspace $(PACKAGE_FLAGS)

# The explorer (`dtype-lattice serve` and the `site` export) in headless
# Chromium, driven by Playwright (web-tests/package-lock.json pins it). The
# release binary is what the timings are measured on.
test-browser: chromium
	cargo build --release -p dtype-lattice-cli
	cd web-tests && npm ci --no-audit --no-fund --loglevel=error
	DTYPE_LATTICE_BIN=$(abspath $(CARGO_TARGET_DIR))/release/dtype-lattice node web-tests/explorer.test.mjs

# Debian's chromium, which the browser tests drive: installed when missing
# if we may (root), else a stop naming the command to run.
chromium:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "the browser tests need Debian's chromium: sudo apt-get install -y chromium" >&2; exit 1; \
	  fi; }
