#!/usr/bin/env bash
# Time and peak memory of the release binary on the adversarial lattice
# files (crates/dtype-lattice/tests/support/adversarial.rs), against the
# bounds the README promises: every command within 2 s and 256 MB.
#
#   bash bench/bounds.sh            # writes the files to a temporary folder
#
# Needs GNU time (`apt-get install -y time`). Exits 1 if a bound is broken.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install -y time)" >&2; exit 2; }
cargo build --release -q -p dtype-lattice-cli
cargo build --release -q -p dtype-lattice --example adversarial
bin=target/release/dtype-lattice
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
target/release/examples/adversarial "$dir" >/dev/null
max_seconds=2
max_kb=$((256 * 1024))
broken=0
printf '| file | command | seconds | peak MB | output bytes | exit |\n| --- | --- | ---: | ---: | ---: | ---: |\n'
for file in "$dir"/*.toml; do
  name=$(basename "$file" .toml)
  for command in "check" "check --format json" "audit" "audit --format json" \
                 "explain n0 n1" "explain n1 n2" "graph --format dot" "graph"; do
    read -r -a words <<<"$command"
    args=("${words[@]}" "$file")
    set +e
    /usr/bin/time -f '%e %M' -o "$dir/time" "$bin" "${args[@]}" >"$dir/out" 2>"$dir/err"
    code=$?
    set -e
    read -r seconds kb < <(tail -n 1 "$dir/time")
    bytes=$(stat -c %s "$dir/out")
    printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$command" "$seconds" "$((kb / 1024))" "$bytes" "$code"
    # Exit 2 is a clear refusal (a drawing too large to lay out); a crash
    # or a broken bound is a failure.
    if [ "$code" -gt 2 ] || awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s > m) }' || [ "$kb" -gt "$max_kb" ]; then
      echo "BOUND BROKEN: $name $command: ${seconds}s ${kb}KB exit $code: $(head -c 200 "$dir/err")" >&2
      broken=1
    fi
  done
done
exit $broken
