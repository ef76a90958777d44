"""``finfo`` and ``iinfo`` results: NumPy's field names, read-only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FInfo:
    """Floating-point facts of a dtype, under NumPy's field names."""
    bits: int
    eps: float
    epsneg: float
    max: float
    min: float
    tiny: float
    smallest_normal: float
    smallest_subnormal: float
    resolution: float
    nmant: int
    nexp: int
    iexp: int
    maxexp: int
    minexp: int
    precision: int
    dtype: Any


@dataclass(frozen=True)
class IInfo:
    """Integer facts of a dtype: its width and range."""
    bits: int
    min: int
    max: int
    dtype: Any
