#!/usr/bin/env python3
"""What recording a PyTorch program costs (``dl.record()``'s
``TorchFunctionMode``), interleaved in one process.

Usage (from the repository root, after ``make python-env``, which installs
PyTorch into ``.venv-test``):

    .venv-test/bin/python bench/torch_record_overhead.py [--rounds 15]

The program: forward passes of ``torch.nn.TransformerEncoderLayer`` on CPU
(d_model 64, 4 heads, feed-forward 128, batch 8, sequence 32, float32,
eval mode, no gradients), 20 passes per timing, run per round once plain
and once inside ``with dl.record():`` (the order alternating), the
recording's report built as the block ends, as a user's is. The figures
are the medians over rounds and the median of the rounds' ratios. Checked
first: the output has the same dtype with and without recording, and
values within rounding (PyTorch runs the layer's unfused path while any
torch function mode is active, so the recorded side also loses the fused
kernel: part of what recording costs). One intra-op
thread, so that the machine's other load moves both sides alike.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import torch

import dtype_lattice as dl


def passes(layer: torch.nn.Module, x: torch.Tensor, count: int = 20) -> torch.Tensor:
    out = x
    for _ in range(count):
        out = layer(x)
    return out


def timed(layer: torch.nn.Module, x: torch.Tensor, recorded: bool) -> tuple[float, int]:
    start = time.perf_counter()
    if recorded:
        with dl.record() as report:
            passes(layer, x)
        calls = report.filter(noops=True).calls
    else:
        passes(layer, x)
        calls = 0
    return time.perf_counter() - start, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    torch.set_num_threads(1)
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                             batch_first=True).eval()
    x = torch.randn(8, 32, 64)
    with torch.no_grad():
        plain = passes(layer, x)
        with dl.record():
            recorded = passes(layer, x)
        # The same dtype; values within rounding: PyTorch leaves the
        # layer's fused fast path while any torch function mode is active
        # (a mode that only passes calls on does the same).
        assert plain.dtype == recorded.dtype and torch.allclose(plain, recorded, atol=1e-5)
        times: dict[bool, list[float]] = {False: [], True: []}
        ratios = []
        calls = 0
        for r in range(rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            got = {}
            for recorded_side in order:
                got[recorded_side], seen = timed(layer, x, recorded_side)
                calls = max(calls, seen)
            for side, t in got.items():
                times[side].append(t)
            ratios.append(got[True] / got[False])
    print(f"Python {platform.python_version()}, PyTorch {torch.__version__}, {rounds} rounds")
    without, with_ = statistics.median(times[False]), statistics.median(times[True])
    print(f"encoder layer x20: {calls} calls recorded; without {without * 1e3:.1f} ms, "
          f"with {with_ * 1e3:.1f} ms, ratio {statistics.median(ratios):.2f}x "
          f"(rounds {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
