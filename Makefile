# `make test` runs every suite: the Rust workspace, then the Python package
# built from ./python into a virtual environment of pinned requirements,
# then the explorer in headless Chromium. Needs the Rust toolchain, Python
# 3.11 with pip, and for the browser tests Node.js 20 with npm and Chromium
# (/usr/bin/chromium).

PYTHON ?= python3
VENV := .venv-test
PIP := $(VENV)/bin/pip

.PHONY: test test-rust test-python python-env python-bench-env test-browser chromium

test: test-rust test-python test-browser

test-rust:
	cargo test --workspace

# The environment is rebuilt when the pinned requirements change.
$(VENV)/.requirements: python/requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r python/requirements-test.txt
	cp python/requirements-test.txt $@

python-env: $(VENV)/.requirements
	$(PIP) install --quiet --disable-pip-version-check ./python

# The package built with the benchmark hook (`_native._call_floor`) that
# bench/python_compare.py measures as its floor; users' builds lack it.
python-bench-env: $(VENV)/.requirements
	MATURIN_PEP517_ARGS="--features bench" $(PIP) install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python

test-python: python-env
	$(VENV)/bin/python -m pytest -q python/tests

# The explorer (`dtype-lattice serve` and the `site` export) in headless
# Chromium, driven by Playwright (web-tests/package-lock.json pins it). The
# release binary is what the timings are measured on.
CARGO_TARGET_DIR ?= target
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
