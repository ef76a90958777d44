#!/usr/bin/env python3
"""What ``dl.record()`` costs on tracing a real model, interleaved in one
process.

Usage (from the repository root, after ``make python-env``; or with the
JAX 0.12 environment ``check_patch_jax.py`` describes):

    .venv-test/bin/python bench/promotions_overhead.py [--rounds 15] [--layers 4]

The model is a stack of transformer blocks in bfloat16 with float32
accumulation: layer norm computed in float32, attention (query, key and
value projections, scaled dot products, a mask, softmax in float32, the
output projection) and a GELU MLP, every matmul accumulating in float32
(``preferred_element_type``) and cast back to bfloat16; its parameters are
bfloat16, so the layer norm's scale and the MLP's first bias meet float32
activations (the silent upcasts the report finds). Its arguments are
``jax.ShapeDtypeStruct``s: tracing allocates no arrays.

Two comparisons, each timed in rounds that alternate the two sides (the
order rotating), the figure being the median over rounds and the median of
the rounds' ratios:

* first trace: ``jax.make_jaxpr(model)`` after ``jax.clear_caches()``,
  against the same inside ``with dl.record():`` (which clears JAX's caches
  as it starts and ends, and builds the report as it ends). This is tracing
  a model once, the work the goal is about.
* cached trace: ``jax.make_jaxpr(model)`` a second time, answered from JAX's
  cache, against the same inside a recording that traced it once already
  (the recorder replays the promotions remembered with the trace).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import dtype_lattice as dl

BF16, F32 = jnp.bfloat16, jnp.float32
BATCH, SEQ, WIDTH, HEADS, HIDDEN = 8, 128, 512, 8, 2048


def dense(x: Any, w: Any) -> Any:
    """bfloat16 inputs, float32 accumulation, bfloat16 out."""
    return jnp.matmul(x, w, preferred_element_type=F32).astype(BF16)


def layer_norm(x: Any, scale: Any, bias: Any) -> Any:
    x32 = x.astype(F32)
    mean = x32.mean(-1, keepdims=True)
    var = ((x32 - mean) ** 2).mean(-1, keepdims=True)
    y = (x32 - mean) * lax.rsqrt(var + 1e-6)
    return (y * scale + bias).astype(BF16)


def attention(x: Any, p: dict, mask: Any) -> Any:
    head = WIDTH // HEADS
    split = lambda t: t.reshape(BATCH, SEQ, HEADS, head)  # noqa: E731
    q, k, v = (split(dense(x, p[name])) for name in ("wq", "wk", "wv"))
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k, preferred_element_type=F32)
    logits = jnp.where(mask, logits / np.sqrt(head), -1e9)
    weights = jax.nn.softmax(logits, axis=-1).astype(BF16)
    out = jnp.einsum("bhqk,bkhd->bqhd", weights, v, preferred_element_type=F32)
    return dense(out.astype(BF16).reshape(BATCH, SEQ, WIDTH), p["wo"])


def mlp(x: Any, p: dict) -> Any:
    h = jnp.matmul(x, p["w1"], preferred_element_type=F32) + p["b1"]
    return dense(jax.nn.gelu(h).astype(BF16), p["w2"]) + p["b2"]


def block(x: Any, p: dict, mask: Any) -> Any:
    h = x + attention(layer_norm(x, p["ln1_scale"], p["ln1_bias"]), p, mask)
    return h + mlp(layer_norm(h, p["ln2_scale"], p["ln2_bias"]), p)


def model(x: Any, params: list, mask: Any) -> Any:
    for p in params:
        x = block(x, p, mask)
    return x


def arguments(layers: int) -> tuple:
    spec = jax.ShapeDtypeStruct
    layer = {
        "wq": spec((WIDTH, WIDTH), BF16), "wk": spec((WIDTH, WIDTH), BF16),
        "wv": spec((WIDTH, WIDTH), BF16), "wo": spec((WIDTH, WIDTH), BF16),
        "w1": spec((WIDTH, HIDDEN), BF16), "b1": spec((HIDDEN,), BF16),
        "w2": spec((HIDDEN, WIDTH), BF16), "b2": spec((WIDTH,), BF16),
        # Parameters stored in bfloat16, met by float32 activations.
        "ln1_scale": spec((WIDTH,), BF16), "ln1_bias": spec((WIDTH,), BF16),
        "ln2_scale": spec((WIDTH,), BF16), "ln2_bias": spec((WIDTH,), BF16),
    }
    return (spec((BATCH, SEQ, WIDTH), BF16), [layer] * layers,
            spec((1, 1, SEQ, SEQ), jnp.bool_))


def interleaved(sides: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Seconds per run of each side, rounds alternating them."""
    names = list(sides)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for name in names:  # warm up: imports, first-call caches
        sides[name]()
    for r in range(rounds):
        for name in names[r % 2:] + names[:r % 2]:
            samples[name].append(sides[name]())
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--layers", type=int, default=4)
    options = parser.parse_args()
    args = arguments(options.layers)
    expected = str(jax.make_jaxpr(model)(*args))

    def first_trace() -> float:
        jax.clear_caches()
        start = time.perf_counter()
        jax.make_jaxpr(model)(*args)
        return time.perf_counter() - start

    def first_trace_recorded() -> float:
        start = time.perf_counter()
        with dl.record():
            jax.make_jaxpr(model)(*args)
        return time.perf_counter() - start

    def cached_trace() -> float:
        jax.make_jaxpr(model)(*args)
        start = time.perf_counter()
        jax.make_jaxpr(model)(*args)
        return time.perf_counter() - start

    def cached_trace_recorded() -> float:
        with dl.record():
            jax.make_jaxpr(model)(*args)
            start = time.perf_counter()
            jax.make_jaxpr(model)(*args)
            return time.perf_counter() - start

    with dl.record() as report:
        assert str(jax.make_jaxpr(model)(*args)) == expected  # the same jaxpr
    equations = expected.count("\n")
    every = report.filter(noops=True)
    print(f"# Python {platform.python_version()}, JAX {jax.__version__}, NumPy "
          f"{np.__version__}, dtype_lattice {dl.__version__}; {options.layers} blocks "
          f"({equations} jaxpr lines); {every.calls} calls recorded in {len(every)} "
          f"entries, {len(report)} of them promotions; {options.rounds} interleaved "
          "rounds, medians")
    print("\n| trace | without recording | with recording | ratio (median of rounds) |")
    print("| --- | ---: | ---: | ---: |")
    for title, plain, recorded in [("first", first_trace, first_trace_recorded),
                                   ("cached", cached_trace, cached_trace_recorded)]:
        samples = interleaved({"plain": plain, "recorded": recorded}, options.rounds)
        ratios = [r / p for p, r in zip(samples["plain"], samples["recorded"])]
        print(f"| {title} | {statistics.median(samples['plain']) * 1e3:.1f} ms | "
              f"{statistics.median(samples['recorded']) * 1e3:.1f} ms | "
              f"{statistics.median(ratios):.2f}x |")


if __name__ == "__main__":
    main()
