#!/usr/bin/env bash
# Time and peak memory of every analysis on the adversarial lattice files
# (crates/dtype-lattice-testkit/src/adversarial.rs), against the bounds
# the docs promise: each within 2 s and 256 MB, whatever the flags say. The
# release binary runs every command at its default flags and at the largest
# --max-examples; the Python package (when PYTHON has it: `make
# python-env` builds .venv-test) runs each Lattice method the same way.
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
python=${PYTHON:-.venv-test/bin/python}
if ! "$python" -c 'import dtype_lattice' 2>/dev/null; then
  echo "note: $python cannot import dtype_lattice (make python-env); timing the command line only" >&2
  python=
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
target/release/examples/adversarial "$dir" >/dev/null
max_seconds=2
max_kb=$((256 * 1024))
broken=0

# measure FILE LABEL COMMAND...: one row of the table.
measure() {
  local name=$1 label=$2 code seconds kb bytes
  shift 2
  set +e
  /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err"
  code=$?
  set -e
  read -r seconds kb < <(tail -n 1 "$dir/time")
  bytes=$(stat -c %s "$dir/out")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$label" "$seconds" "$((kb / 1024))" "$bytes" "$code"
  # Exit 2 is a clear refusal (a drawing too large to lay out); a crash or
  # a broken bound is a failure.
  if [ "$code" -gt 2 ] || awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s > m) }' || [ "$kb" -gt "$max_kb" ]; then
    echo "BOUND BROKEN: $name $label: ${seconds}s ${kb}KB exit $code: $(head -c 200 "$dir/err")" >&2
    broken=1
  fi
}

printf '| file | command | seconds | peak MB | output bytes | exit |\n| --- | --- | ---: | ---: | ---: | ---: |\n'
for file in "$dir"/*.toml; do
  name=$(basename "$file" .toml)
  for command in "check" "check --format json" \
                 "check --max-examples 1000" "check --max-examples 1000 --format json" \
                 "audit" "audit --format json" "explain n0 n1" "explain n1 n2" \
                 "explain --format json n0 n1" "graph --format dot" "graph" \
                 "graph --highlight n0,n1"; do
    read -r -a words <<<"$command"
    measure "$name" "$command" "$bin" "${words[@]}" "$file"
  done
  [ -n "$python" ] || continue
  for call in "check(max_examples=1000)" "audit()" "explain('n0', 'n1')" "to_svg()" \
              "to_svg(highlight=('n0', 'n1'))" "to_dot()"; do
    # A refusal is a Python exception, printed and exit 2, like the CLI's.
    measure "$name" "Python Lattice.$call" "$python" -c "
import sys, dtype_lattice as dl
lattice = dl.Lattice.from_toml(sys.argv[1])
try:
    out = lattice.$call
except (ValueError, TypeError) as err:
    print(err, file=sys.stderr); sys.exit(2)
print(out)" "$file"
  done
done
exit $broken
