# `make test` runs every suite: the Rust workspace, then the Python package
# built from ./python into a virtual environment of pinned requirements.
# Needs only the Rust toolchain and Python 3.11 with pip.

PYTHON ?= python3
VENV := .venv-test
PIP := $(VENV)/bin/pip

.PHONY: test test-rust test-python python-env

test: test-rust test-python

test-rust:
	cargo test --workspace

# The environment is rebuilt when the pinned requirements change.
$(VENV)/.requirements: python/requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r python/requirements-test.txt
	cp python/requirements-test.txt $@

python-env: $(VENV)/.requirements
	$(PIP) install --quiet --disable-pip-version-check ./python

test-python: python-env
	$(VENV)/bin/python -m pytest -q python/tests
