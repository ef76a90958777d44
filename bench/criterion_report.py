#!/usr/bin/env python3
"""Turns the results of benches/promotion/main.rs into markdown tables.

Each benchmark times a batch of calls (its throughput says how many); this
divides criterion's median by the batch size to get nanoseconds per call.
Beside each function it prints the paired ratio to the floor: the median,
over the benchmark's chunks, of the function's time over the floor's time in
the adjacent chunk (the benchmark writes it to target/paired/, see
benches/promotion/paired.rs). Nanoseconds move with the host's speed; the
paired ratios do not.

    cargo bench -p dtype-lattice --bench promotion -- --warm-up-time 0.5 --measurement-time 1
    python3 bench/criterion_report.py [target]

Standard library only, so it runs without a venv.
"""

import json
import statistics
import sys
from pathlib import Path


def load(target):
    """{(group, value): {function: (ns per call, paired ratio or None)}}."""
    paired = {}
    for path in (Path(target) / "paired").glob("*.json"):
        record = json.loads(path.read_text())
        paired[record["id"]] = record
    results = {}
    for meta_path in (Path(target) / "criterion").glob("**/new/benchmark.json"):
        meta = json.loads(meta_path.read_text())
        estimates = json.loads((meta_path.parent / "estimates.json").read_text())
        calls = meta["throughput"]["Elements"]
        ns = estimates["median"]["point_estimate"] / calls
        group, function, value = meta["group_id"], meta["function_id"], meta["value_str"]
        record = paired.get(f"{group}/{function}/{value}")
        results.setdefault((group, value), {})[function] = (ns, record)
    return results


def cell(entry):
    """'ns | ratio' for a function's entry."""
    ns, record = entry
    ratio = f"{record['median']:.2f}x" if record else "-"
    return f"{ns:.2f} | {ratio}"


def spread(results):
    """The widest interquartile range of the paired ratios, relative to the median."""
    widths = [
        (record["q3"] - record["q1"]) / record["median"]
        for row in results.values()
        for _, record in row.values()
        if record
    ]
    return max(widths, default=0.0)


def binary_table(results):
    lines = [
        "| configuration | pairs | floor ns | `Lattice::join` ns | x floor | `promote_types` ns | x floor |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for (group, value), row in sorted(results.items()):
        if not group.startswith("binary/") or "floor" not in row:
            continue
        lines.append(
            f"| {group.split('/', 1)[1]} | {value} | {row['floor'][0]:.2f} | "
            f"{cell(row['lattice_join'])} | {cell(row['promote_types'])} |"
        )
    return "\n".join(lines)


def nary_table(results):
    lines = [
        "| configuration | operands | k | floor ns | `result_type` ns | x floor | per operand"
        " | `typed_result_type` ns | x floor | per operand | `lattice_result_type` ns | x floor |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    rows = [
        (group.split("/")[1:], int(value), row)
        for (group, value), row in results.items()
        if group.startswith("nary/") and "floor" in row
    ]
    for (config, mix), k, row in sorted(rows):
        result_type, typed = row["result_type"], row["typed_result_type"]
        lines.append(
            f"| {config} | {mix} | {k} | {row['floor'][0]:.2f} | {cell(result_type)} | "
            f"{result_type[0] / k:.2f} | {cell(typed)} | {typed[0] / k:.2f} | "
            f"{cell(row['lattice_result_type'])} |"
        )
    return "\n".join(lines)


def usual_speed(results):
    """Nanoseconds per operand at the run's median speed: each paired ratio
    times the median, over the n-ary groups, of the floor's own time for
    that many operands, divided by the number of operands. Raw nanoseconds
    carry the host's drift; this does not. One line per function: the
    highest value, and every list at 2 ns or more (the target)."""
    rows = [
        (group.split("/", 1)[1], int(value), row)
        for (group, value), row in results.items()
        if group.startswith("nary/") and "floor" in row
    ]
    floors = {}
    for _, k, row in rows:
        floors.setdefault(k, []).append(row["floor"][0])
    median = {k: statistics.median(times) for k, times in floors.items()}
    lines = []
    for function in ("result_type", "typed_result_type"):
        costs = sorted(
            (
                (row[function][1]["median"] * median[k] / k, group, k)
                for group, k, row in rows
                if row.get(function, (0, None))[1]
            ),
            reverse=True,
        )
        if not costs:
            continue
        over = ", ".join(f"{group} k={k} {ns:.2f}" for ns, group, k in costs if ns >= 2.0)
        lines.append(
            f"{function}: at most {costs[0][0]:.2f} ns per operand at the run's median speed;"
            f" 2 ns or more: {over or 'none'}"
        )
    return "\n".join(lines)


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else "target"
    results = load(target)
    if not results:
        sys.exit(f"no criterion results under {target}/criterion: run the benchmark first")
    print(binary_table(results))
    print()
    print(nary_table(results))
    print()
    print(f"widest interquartile range of a paired ratio: {spread(results):.1%} of its median")
    print(usual_speed(results))


if __name__ == "__main__":
    main()
