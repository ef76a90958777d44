#!/usr/bin/env bash
# The Python package as users get it, built and checked (see
# docs/releasing.md):
#
#   python-package.sh build VENV OUT
#       The sdist, made by VENV's maturin (pinned in
#       python/requirements-test.txt), then the wheel pip builds from it with
#       cargo present: one compile proves the sdist builds on its own, and
#       that wheel is what `make python-env` installs, so `make test`
#       compiles the package once. Both land in OUT/dist. An sdist identical
#       to the last one keeps the last wheel.
#
#   python-package.sh check PYTHON OUT
#       OUT/dist's wheel installed into a fresh virtual environment of
#       PYTHON whose PATH has no cargo, rustc or rustup, where
#       python/tests/test_package.py runs: the wheel works where no Rust
#       toolchain could have built it, at the workspace's version, as an
#       abi3 wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
constraints=$root/python/requirements-test.txt

die() { echo "python-package: $*" >&2; exit 1; }

# The one file matching a glob (passed unquoted), or a stop saying what
# was found instead.
only() {
    local what=$1; shift
    [[ $# -eq 1 && -f $1 ]] || die "expected one $what, found: $*"
    echo "$1"
}

build() {
    local venv=$1 out=$2
    mkdir -p "$out/dist"
    local fresh=$out/sdist-new
    rm -rf "$fresh"
    local log
    log=$(cd python && "$venv/bin/maturin" sdist --out "$fresh" 2>&1) || { echo "$log" >&2; die "maturin sdist failed"; }
    local sdist name
    sdist=$(only sdist "$fresh"/dtype_lattice-*.tar.gz)
    name=$(basename "$sdist")
    # maturin writes the same bytes for the same sources (fixed timestamps),
    # so an identical sdist would build an identical wheel.
    if cmp -s "$sdist" "$out/dist/$name" && compgen -G "$out/dist/*.whl" >/dev/null; then
        rm -rf "$fresh"
        echo "python-package: sdist unchanged, keeping $(basename "$out"/dist/*.whl)"
        return
    fi
    rm -f "$out"/dist/*
    mv "$sdist" "$out/dist/"
    rm -rf "$fresh"
    echo "python-package: built $name; building its wheel"

    # The sdist's files carry maturin's fixed timestamps (years old), and
    # cargo judges freshness by timestamps: unpacked as they are into a
    # folder whose target/ holds the last build, new sources would look
    # older than old artefacts. --touch dates them now, so cargo recompiles
    # the package's crates and reuses only the registry's.
    local tree=$out/sdist-tree
    rm -rf "$tree"
    mkdir -p "$tree"
    tar -xzf "$out/dist/$name" --touch -C "$tree"

    # pip's own isolated build environment, as a user's `pip install` of the
    # sdist gets, with its maturin held to the pinned one.
    env -u MATURIN_PEP517_ARGS \
        PIP_CONSTRAINT="$constraints" CARGO_TARGET_DIR="$out/target" \
        "$venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps \
        --wheel-dir "$out/dist" "$tree/${name%.tar.gz}"
    only "cp310-abi3 wheel" "$out"/dist/dtype_lattice-*-cp310-abi3-*.whl >/dev/null
    echo "python-package: built $(basename "$out"/dist/*.whl)"
}

check() {
    local python=$1 out=$2
    local wheel
    wheel=$(only "cp310-abi3 wheel (make python-dist)" "$out"/dist/dtype_lattice-*-cp310-abi3-*.whl)
    # The interpreter itself, not a shim that may need the PATH below.
    python=$("$python" -c 'import sys; print(sys.executable)')

    # This PATH without its directories holding a Rust toolchain.
    local dir clean=
    local -a dirs
    IFS=: read -ra dirs <<<"$PATH"
    for dir in "${dirs[@]}"; do
        [[ -n $dir && ! -e $dir/cargo && ! -e $dir/rustc && ! -e $dir/rustup ]] || continue
        clean+=${clean:+:}$dir
    done
    local -a bare=(env -u CARGO_HOME -u RUSTUP_HOME -u RUSTUP_TOOLCHAIN -u CARGO_TARGET_DIR
                   -u PYTHONPATH -u VIRTUAL_ENV "PATH=$clean")
    if "${bare[@]}" sh -c 'command -v cargo || command -v rustc'; then
        die "a Rust toolchain is still on PATH ($clean)"
    fi

    local venv=$out/venv-nocargo
    rm -rf "$venv"
    "${bare[@]}" "$python" -m venv "$venv"
    # Binaries only: installing must build nothing. The constraints hold
    # NumPy, ml_dtypes and pytest to the tested versions.
    "${bare[@]}" PIP_CONSTRAINT="$constraints" "$venv/bin/python" -m pip install \
        --quiet --disable-pip-version-check --only-binary :all: "$wheel" pytest
    # From OUT, so that no source tree is in the import path.
    (cd "$out" && "${bare[@]}" DTYPE_LATTICE_NO_TOOLCHAIN=1 \
        "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests/test_package.py")
}

case ${1-} in
    build) [[ $# -eq 3 ]] || die "usage: $0 build VENV OUT"; build "$(realpath "$2")" "$(realpath -m "$3")" ;;
    check) [[ $# -eq 3 ]] || die "usage: $0 check PYTHON OUT"; check "$2" "$(realpath -m "$3")" ;;
    *) die "usage: $0 build VENV OUT | check PYTHON OUT" ;;
esac
