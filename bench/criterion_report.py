#!/usr/bin/env python3
"""Turns criterion's estimates for benches/promotion.rs into markdown tables.

Each benchmark times a batch of calls (its throughput says how many); this
divides criterion's median by the batch size to get nanoseconds per call and
sets every function beside the floor measured in the same group and run:

    cargo bench -p dtype-lattice --bench promotion -- --warm-up-time 0.5 --measurement-time 1
    python3 bench/criterion_report.py [target/criterion]

Standard library only, so it runs without a venv.
"""

import json
import sys
from pathlib import Path


def load(root):
    """{(group, value): {function: ns per call}} from every benchmark."""
    results = {}
    for meta_path in Path(root).glob("**/new/benchmark.json"):
        meta = json.loads(meta_path.read_text())
        estimates = json.loads((meta_path.parent / "estimates.json").read_text())
        calls = meta["throughput"]["Elements"]
        ns = estimates["median"]["point_estimate"] / calls
        key = (meta["group_id"], meta["value_str"])
        results.setdefault(key, {})[meta["function_id"]] = ns
    return results


def ratio(ns, floor):
    return f"{ns:.2f} ({ns / floor:.2f}x)"


def binary_table(results):
    lines = [
        "| configuration | pairs | floor ns | `Lattice::join` ns (x floor) | `promote_types` ns (x floor) |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for (group, value), row in sorted(results.items()):
        if not group.startswith("binary/") or "floor" not in row:
            continue
        floor = row["floor"]
        lines.append(
            f"| {group.split('/', 1)[1]} | {value} | {floor:.2f} | "
            f"{ratio(row['lattice_join'], floor)} | {ratio(row['promote_types'], floor)} |"
        )
    return "\n".join(lines)


def nary_table(results):
    lines = [
        "| configuration | operands | k | floor ns | `result_type` ns (x floor) | per operand"
        " | `typed_result_type` ns (x floor) | per operand | `lattice_result_type` ns (x floor) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    rows = [
        (group.split("/")[1:], int(value), row)
        for (group, value), row in results.items()
        if group.startswith("nary/") and "floor" in row
    ]
    for (config, mix), k, row in sorted(rows):
        floor = row["floor"]
        result_type = row["result_type"]
        typed = row["typed_result_type"]
        lines.append(
            f"| {config} | {mix} | {k} | {floor:.2f} | {ratio(result_type, floor)} | "
            f"{result_type / k:.2f} | {ratio(typed, floor)} | {typed / k:.2f} | "
            f"{ratio(row['lattice_result_type'], floor)} |"
        )
    return "\n".join(lines)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
    results = load(root)
    if not results:
        sys.exit(f"no criterion results under {root}: run the benchmark first")
    print(binary_table(results))
    print()
    print(nary_table(results))


if __name__ == "__main__":
    main()
