#!/usr/bin/env bash
# The explorer's API under load: `dtype-lattice serve` on a free loopback
# port, and oha with 50 concurrent clients on POST /api/batch and on the
# table endpoint (and a few others), each run bounded by a request count and
# a time limit. GET /api/info, a constant answer, is the floor: what HTTP,
# routing and the guards cost on this machine in the same round. Rounds
# alternate the endpoints, so a burst of load from elsewhere on the shared
# host hits all of them; the summary gives each endpoint's median over the
# rounds. Fails if any request failed. BENCHMARKS.md has results
# ("What does the explorer answer, and what does it hold?").
#
#   bash bench/http_load.sh                      # builds the release binary first
#   ROUNDS=5 REQUESTS=50000 bash bench/http_load.sh
#
# Needs oha (`cargo install oha --locked`).
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-20000}   # per endpoint and round
CLIENTS=${CLIENTS:-50}
ROUNDS=${ROUNDS:-3}
LIMIT=${LIMIT:-60s}           # the most one run may take
TARGET=${CARGO_TARGET_DIR:-target}
BIN=${DTYPE_LATTICE_BIN:-$TARGET/release/dtype-lattice}

command -v oha >/dev/null || { echo "oha is not installed: cargo install oha --locked" >&2; exit 2; }
if [ -z "${DTYPE_LATTICE_BIN:-}" ]; then
    cargo build --release -q -p dtype-lattice-cli
fi

work=$(mktemp -d)
trap 'kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$BIN" serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 100); do
    grep -q http:// "$work/serve.out" 2>/dev/null && break
    sleep 0.05
done
url=$(grep -o 'http://[^ ]*' "$work/serve.out")
url=${url%/}

# One request line, as a library asking for one answer sends it, and a
# batch of 100 lines of the golden data.
echo '{"fn": "promote_types", "args": ["int8", "uint8"]}' >"$work/one.jsonl"
sed -n '2,101p' conformance/golden/promote_types.jsonl \
    | sed 's/,"answer":.*}$/}/' >"$work/hundred.jsonl"

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$BIN" --version)"
echo "oha $(oha --version | awk '{print $2}'), $CLIENTS clients, $REQUESTS requests per endpoint and round, $ROUNDS rounds"
run() {
    local name=$1
    shift
    # oha bounds the count, timeout the time.
    timeout "$LIMIT" oha --no-tui --output-format json -n "$REQUESTS" -c "$CLIENTS" "$@" >"$work/result.json"
    python3 - "$name" "$work/result.json" >>"$work/rounds.jsonl" <<'EOF'
import json, sys
name, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
codes = r.get("statusCodeDistribution", {})
errors = sum(r.get("errorDistribution", {}).values()) + sum(n for c, n in codes.items() if c != "200")
pct = r["latencyPercentiles"]
print(json.dumps({"name": name, "rps": r["summary"]["requestsPerSec"], "p50": pct["p50"] * 1000,
                  "p90": pct["p90"] * 1000, "p99": pct["p99"] * 1000,
                  "max": r["summary"]["slowest"] * 1000, "errors": errors}))
EOF
}
for round in $(seq "$ROUNDS"); do
    echo "round $round: load average $(cut -d' ' -f1-3 /proc/loadavg)"
    run "GET /api/info (the floor)" "$url/api/info"
    run "POST /api/batch (1 line)" -m POST -D "$work/one.jsonl" "$url/api/batch"
    run "GET /api/table (the docs' 18 types)" "$url/api/table?policy=jax"
    run "POST /api/batch (100 lines)" -m POST -D "$work/hundred.jsonl" "$url/api/batch"
    run "GET /api/table (all 35, x64, strict)" "$url/api/table?policy=jax&types=all&x64=true&strict=true"
    run "GET /api/explain (int8, uint32)" "$url/api/explain?a=int8&b=uint32"
done
python3 - "$work/rounds.jsonl" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
names = list(dict.fromkeys(r["name"] for r in rows))
print(f"{'endpoint (median of rounds)':<40} {'req/s':>8} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} {'errors':>6}  p99 by round")
failed = False
for name in names:
    runs = [r for r in rows if r["name"] == name]
    med = lambda key: statistics.median(r[key] for r in runs)
    errors = sum(r["errors"] for r in runs)
    failed |= errors > 0
    by_round = ", ".join(f"{r['p99']:.2f}" for r in runs)
    print(f"{name:<40} {med('rps'):8.0f} {med('p50'):7.2f} {med('p90'):7.2f} {med('p99'):7.2f} {med('max'):7.2f} {errors:6d}  {by_round}")
sys.exit(1 if failed else 0)
EOF
