#!/usr/bin/env python3
"""What recording a PyTorch program costs (``dl.record()``'s
``TorchFunctionMode``), interleaved in one process.

Usage (from the repository root, after ``make python-env``, which installs
PyTorch into ``.venv-test``):

    .venv-test/bin/python bench/torch_record_overhead.py [--rounds 15]

The program: forward passes of ``torch.nn.TransformerEncoderLayer`` on CPU
(d_model 64, 4 heads, feed-forward 128, batch 8, sequence 32, float32, no
dropout, no gradients), in eval mode (where PyTorch runs a fused kernel)
and in training mode (its ordinary modules), 20 passes per timing, run per round plain,
under a torch function mode that only passes calls on, and inside ``with
dl.record():`` (the order rotating), the
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


class PassThrough(torch.overrides.TorchFunctionMode):
    """A torch function mode that only passes each call on: what PyTorch
    charges for any mode, recording's floor."""

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        return func(*args, **(kwargs or {}))


def timed(layer: torch.nn.Module, x: torch.Tensor, side: str) -> tuple[float, int]:
    start = time.perf_counter()
    calls = 0
    if side == "recorded":
        with dl.record() as report:
            passes(layer, x)
        calls = report.filter(noops=True).calls
    elif side == "mode":
        with PassThrough():
            passes(layer, x)
    else:
        passes(layer, x)
    return time.perf_counter() - start, calls


SIDES = ("plain", "mode", "recorded")


def measure(layer: torch.nn.Module, x: torch.Tensor, rounds: int, name: str) -> None:
    """Times the three sides on ``layer`` and prints the figures."""
    with torch.no_grad():
        torch.manual_seed(1)
        plain = passes(layer, x)
        torch.manual_seed(1)
        with dl.record():
            recorded = passes(layer, x)
        # The same dtype; values within rounding: PyTorch leaves the
        # layer's fused fast path while any torch function mode is active
        # (a mode that only passes calls on does the same).
        assert plain.dtype == recorded.dtype and torch.allclose(plain, recorded, atol=1e-5)
        times: dict[str, list[float]] = {side: [] for side in SIDES}
        over_plain, over_mode = [], []
        calls = 0
        for r in range(rounds):
            got = {}
            for side in SIDES[r % 3:] + SIDES[:r % 3]:
                got[side], seen = timed(layer, x, side)
                calls = max(calls, seen)
            for side, t in got.items():
                times[side].append(t)
            over_plain.append(got["recorded"] / got["plain"])
            over_mode.append(got["recorded"] / got["mode"])
    median = {side: statistics.median(t) * 1e3 for side, t in times.items()}
    print(f"{name}, x20: {calls} calls recorded; plain {median['plain']:.1f} ms, "
          f"pass-through mode {median['mode']:.1f} ms, recorded {median['recorded']:.1f} ms; "
          f"recorded / plain {statistics.median(over_plain):.2f}x "
          f"(rounds {min(over_plain):.2f}-{max(over_plain):.2f}), recorded / mode "
          f"{statistics.median(over_mode):.2f}x "
          f"(rounds {min(over_mode):.2f}-{max(over_mode):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    torch.set_num_threads(1)
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                             batch_first=True, dropout=0.0)
    x = torch.randn(8, 32, 64)
    print(f"Python {platform.python_version()}, PyTorch {torch.__version__}, {rounds} rounds")
    measure(layer.eval(), x, rounds, "eval mode (the fused fast path)")
    measure(layer.train(), x, rounds, "training mode (no fused path)")


if __name__ == "__main__":
    main()
