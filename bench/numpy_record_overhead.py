#!/usr/bin/env python3
"""What recording a NumPy program costs (its source rewritten, each
operator and NumPy call noted), interleaved in one process.

Usage (from the repository root, after ``make python-env``):

    .venv-test/bin/python bench/numpy_record_overhead.py [--rounds 15]

Two programs, each a module written to a temporary directory and run
twice per round, once as Python compiles it and once rewritten by
``dtype_lattice._record_numpy`` with a recording active (the order of the
two alternating by round); the figures are the medians over rounds and
the median of the rounds' ratios:

* *block*: the forward pass of a transformer block in NumPy, float32
  activations (batch 4, sequence 64, width 128, 4 heads, MLP 512): layer
  norm, attention with a causal mask and softmax, a GELU MLP, about 60
  operators and NumPy calls per pass on arrays of thousands of elements:
  a program's usual shape.
* *scalars*: a loop of 2,000 operations on 0-d and 8-element arrays, where
  NumPy itself costs least per operation: the worst case for the
  recorder's per-call cost.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# One BLAS thread: on a shared machine several threads make the block's
# matrix products, which both sides run alike, vary by 3x between rounds.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from dtype_lattice import _record_numpy as recording  # noqa: E402

BLOCK = """\
import numpy as np

def layer_norm(x, scale, bias):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * scale + bias

def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

def softmax(x):
    x = x - x.max(-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(-1, keepdims=True)

def block(x, p, heads):
    batch, seq, width = x.shape
    h = layer_norm(x, p["ln1_s"], p["ln1_b"])
    q, k, v = h @ p["wq"], h @ p["wk"], h @ p["wv"]
    def split(t):
        return t.reshape(batch, seq, heads, width // heads).transpose(0, 2, 1, 3)
    q, k, v = split(q), split(k), split(v)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(width // heads)
    mask = np.tril(np.ones((seq, seq), dtype=bool))
    scores = np.where(mask, scores, np.float32(-1e9))
    attention = softmax(scores) @ v
    attention = attention.transpose(0, 2, 1, 3).reshape(batch, seq, width)
    x = x + attention @ p["wo"]
    h = layer_norm(x, p["ln2_s"], p["ln2_b"])
    x = x + gelu(h @ p["w1"] + p["b1"]) @ p["w2"]
    return x

def run(x, p):
    for _ in range(3):
        out = block(x, p, 4)
    return out
"""

SCALARS = """\
import numpy as np

def run(x, p):
    total = np.float32(0)
    small = np.arange(8, dtype=np.float32)
    for i in range(500):
        total = total + small.sum() * 0.5
        small = small * 1.0001 + 1
        total -= np.float32(i % 3)
    return total
"""


def parameters(rng: np.random.Generator, width: int = 128, hidden: int = 512) -> dict:
    def w(*shape: int) -> Any:
        return (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
    return {"wq": w(width, width), "wk": w(width, width), "wv": w(width, width),
            "wo": w(width, width), "w1": w(width, hidden), "w2": w(hidden, width),
            "b1": np.zeros(hidden, np.float32), "ln1_s": np.ones(width, np.float32),
            "ln1_b": np.zeros(width, np.float32), "ln2_s": np.ones(width, np.float32),
            "ln2_b": np.zeros(width, np.float32)}


def load(directory: Path, name: str, source: str, rewritten: bool) -> Any:
    path = directory / f"{name}.py"
    path.write_text(source)
    namespace: dict[str, Any] = {"__name__": name}
    code = recording.rewrite(source, str(path)) if rewritten \
        else compile(source, str(path), "exec")
    exec(code, namespace)
    return namespace["run"]


def timed(run: Any, x: Any, p: Any, recorded: bool, directory: Path) -> tuple[float, Any]:
    recorder = recording.start([str(directory)]) if recorded else None
    try:
        start = time.perf_counter()
        out = run(x, p)
        elapsed = time.perf_counter() - start
    finally:
        if recorder is not None:
            recorder.stop()
    return elapsed, (out, recorder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 64, 128)).astype(np.float32)
    p = parameters(rng)
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, {rounds} rounds")
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        for name, source in (("block", BLOCK), ("scalars", SCALARS)):
            plain = load(directory, name, source, rewritten=False)
            rewritten = load(directory, name, source, rewritten=True)
            # Checked first: the same result, and calls recorded.
            want, _ = plain(x, p), None
            _, (got, recorder) = timed(rewritten, x, p, True, directory)
            assert np.array_equal(want, got) and want.dtype == got.dtype, name
            calls = sum(recorder.calls.values())
            timed(plain, x, p, False, directory)
            times: dict[bool, list[float]] = {False: [], True: []}
            ratios = []
            for r in range(rounds):
                order = (False, True) if r % 2 == 0 else (True, False)
                got_times = {}
                for recorded in order:
                    run = rewritten if recorded else plain
                    got_times[recorded], _ = timed(run, x, p, recorded, directory)
                for recorded, t in got_times.items():
                    times[recorded].append(t)
                ratios.append(got_times[True] / got_times[False])
            without, with_ = statistics.median(times[False]), statistics.median(times[True])
            print(f"{name}: {calls} calls recorded per run; without {without * 1e3:.2f} ms, "
                  f"with {with_ * 1e3:.2f} ms, ratio {statistics.median(ratios):.2f}x "
                  f"(rounds {min(ratios):.2f}-{max(ratios):.2f})")
    sys.exit(0)


if __name__ == "__main__":
    main()
