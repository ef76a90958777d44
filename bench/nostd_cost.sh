#!/usr/bin/env bash
# What the no-std core costs (BENCHMARKS.md "What does the no-std core
# cost?"): the release compile time of dtype-lattice from a clean target
# directory without and with its default features, and the bytes a minimal
# binary that promotes two dtypes adds to an empty one (release, stripped).
# Prints a Markdown table; takes a few minutes.
#
#   bash bench/nostd_cost.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${TMPDIR:-/tmp}/dtype-lattice-nostd-cost
rm -rf "$work"
mkdir -p "$work"

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| build | wall time (s) |"
echo "| --- | ---: |"
for features in "--no-default-features" ""; do
    t=$(seconds cargo build --quiet --release --manifest-path "$root/Cargo.toml" \
        -p dtype-lattice $features --target-dir "$work/clean")
    echo "| \`cargo build --release -p dtype-lattice ${features:-(default features)}\` | $t |"
    rm -rf "$work/clean"
done

# One program, four builds: nothing, JAX's promotion alone, any policy by
# name (the registry: every framework), and the same with std. The dtypes
# come from the arguments, so nothing is folded away; the answer is the
# exit code, so no formatting is added.
mkdir -p "$work/size/src"
cat > "$work/size/Cargo.toml" <<TOML
[package]
name = "size"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
dtype-lattice = { path = "$root/crates/dtype-lattice", default-features = false, optional = true }

[features]
jax = ["dep:dtype-lattice"]
registry = ["dep:dtype-lattice"]
std = ["dtype-lattice?/std"]

[profile.release]
strip = true
TOML
cat > "$work/size/src/main.rs" <<'RUST'
fn main() {
    #[cfg(any(feature = "jax", feature = "registry"))]
    {
        use dtype_lattice::{DType, TypeSpec};
        let pick = |i: usize| DType::ALL[std::env::args().nth(i).map_or(0, |a| a.len()) % DType::ALL.len()];
        #[cfg(feature = "registry")]
        let policy = dtype_lattice::registry::by_name("jax", Default::default()).unwrap();
        #[cfg(not(feature = "registry"))]
        let policy = dtype_lattice::frameworks::jax::Jax::new(Default::default());
        let answer = policy.promote_types(TypeSpec::from(pick(1)), TypeSpec::from(pick(2)));
        std::process::exit(answer.map_or(-1, |d| d as i32));
    }
}
RUST
echo
echo "| binary (release, stripped) | bytes | added to the empty one |"
echo "| --- | ---: | ---: |"
empty=
for features in "" "jax" "registry" "registry,std"; do
    cargo build --quiet --release --manifest-path "$work/size/Cargo.toml" \
        --target-dir "$work/size-target" ${features:+--features "$features"}
    bytes=$(stat -c %s "$work/size-target/release/size")
    empty=${empty:-$bytes}
    echo "| ${features:-empty} | $bytes | $((bytes - empty)) |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
