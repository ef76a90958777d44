#!/usr/bin/env python3
"""What recording a PyTorch program costs (``dl.record()``), interleaved in
one process.

Usage (from the repository root, after ``make python-env``, which installs
PyTorch into ``.venv-test``):

    .venv-test/bin/python bench/torch_record_overhead.py [--rounds 15]

Two programs, 20 forward passes per timing, on CPU, float32, no gradients,
one intra-op thread (so that the machine's other load moves both sides
alike):

* *layer*: ``torch.nn.TransformerEncoderLayer`` (d_model 64, 4 heads,
  feed-forward 128, batch 8, sequence 32, no dropout), in eval mode (where
  PyTorch runs a fused kernel) and in training mode (its ordinary modules);
* *block*: a transformer block written with PyTorch's operators and
  functions (layer norm by ``mean``/``var``, causal attention by ``@``,
  ``where`` and ``softmax``, a GELU MLP; width 64, batch 8, sequence 32),
  where most calls are ones recording notes: its worst usual case.

Each is run per round plain, inside ``with dl.record():`` (its report built
as the block ends, as a user's is), and under a ``TorchFunctionMode`` that
only passes each call on (what PyTorch charges for any mode: the way
recording did not take, see ``dtype_lattice._record_torch``), the order
rotating. The figures are the medians over rounds and the median of the
rounds' ratios. Checked first: the output is the same, to the bit, with and
without recording.
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import time
from collections.abc import Callable

import torch

import dtype_lattice as dl


class PassThrough(torch.overrides.TorchFunctionMode):
    """A torch function mode that only passes each call on."""

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        return func(*args, **(kwargs or {}))


class Block(torch.nn.Module):
    """A pre-norm transformer block in PyTorch's operators."""

    def __init__(self, width: int = 64, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        scale = 1 / math.sqrt(width)
        self.qkv = torch.nn.Parameter(torch.randn(width, 3 * width) * scale)
        self.out = torch.nn.Parameter(torch.randn(width, width) * scale)
        self.up = torch.nn.Parameter(torch.randn(width, 4 * width) * scale)
        self.down = torch.nn.Parameter(torch.randn(4 * width, width) * scale)

    @staticmethod
    def norm(x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True, unbiased=False)
        return (x - mean) / torch.sqrt(var + 1e-5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        q, k, v = (self.norm(x) @ self.qkv).split(width, dim=-1)
        shape = (batch, length, self.heads, width // self.heads)
        q, k, v = (t.reshape(shape).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(width // self.heads)
        causal = torch.ones(length, length, dtype=torch.bool).tril()
        scores = torch.where(causal, scores, -1e9)
        weights = torch.softmax(scores - scores.amax(-1, keepdim=True), dim=-1)
        attended = (weights @ v).transpose(1, 2).reshape(batch, length, width)
        x = x + attended @ self.out
        hidden = self.norm(x) @ self.up
        hidden = 0.5 * hidden * (1 + torch.tanh(0.7978845608 * (hidden + 0.044715 * hidden ** 3)))
        return x + hidden @ self.down


def passes(model: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor,
           count: int = 20) -> torch.Tensor:
    out = x
    for _ in range(count):
        out = model(x)
    return out


def timed(model: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor,
          side: str) -> tuple[float, int]:
    start = time.perf_counter()
    calls = 0
    if side == "recorded":
        with dl.record() as report:
            passes(model, x)
        calls = report.filter(noops=True).calls
    elif side == "mode":
        with PassThrough():
            passes(model, x)
    else:
        passes(model, x)
    return time.perf_counter() - start, calls


SIDES = ("plain", "recorded", "mode")


def measure(model: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor, rounds: int,
            name: str) -> None:
    """Times the three sides on ``model`` and prints the figures."""
    with torch.no_grad():
        plain = passes(model, x)
        with dl.record():
            recorded = passes(model, x)
        assert plain.dtype == recorded.dtype and torch.equal(plain, recorded)
        times: dict[str, list[float]] = {side: [] for side in SIDES}
        over_plain, mode_over_plain = [], []
        calls = 0
        for r in range(rounds):
            got = {}
            for side in SIDES[r % 3:] + SIDES[:r % 3]:
                got[side], seen = timed(model, x, side)
                calls = max(calls, seen)
            for side, t in got.items():
                times[side].append(t)
            over_plain.append(got["recorded"] / got["plain"])
            mode_over_plain.append(got["mode"] / got["plain"])
    median = {side: statistics.median(t) * 1e3 for side, t in times.items()}
    print(f"{name}, x20: {calls} calls recorded; plain {median['plain']:.1f} ms, "
          f"recorded {median['recorded']:.1f} ms, pass-through mode {median['mode']:.1f} ms; "
          f"recorded / plain {statistics.median(over_plain):.2f}x "
          f"(rounds {min(over_plain):.2f}-{max(over_plain):.2f}), mode / plain "
          f"{statistics.median(mode_over_plain):.2f}x "
          f"(rounds {min(mode_over_plain):.2f}-{max(mode_over_plain):.2f})")


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
    measure(layer.eval(), x, rounds, "layer, eval mode (the fused fast path)")
    measure(layer.train(), x, rounds, "layer, training mode (no fused path)")
    measure(Block(), x, rounds, "block (PyTorch's operators)")


if __name__ == "__main__":
    main()
