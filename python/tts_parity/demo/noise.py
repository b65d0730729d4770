"""The vocoder's noise, the same function of the absolute sample index as electron/engine/run/noise.ts
(a 32-bit integer hash to uniform [-1, 1)), vectorised with numpy uint32 arithmetic (wraps mod 2^32 as Math.imul)."""

from __future__ import annotations

import numpy as np

__all__ = ["noise_range"]


def noise_range(start: int, count: int) -> np.ndarray:
    """noise[start .. start + count) as float32"""
    with np.errstate(over="ignore"):
        x = np.arange(start, start + count, dtype=np.uint64).astype(np.uint32) ^ np.uint32(0x5BD1E995)
        x = (x ^ (x >> np.uint32(16))) * np.uint32(0x7FEB352D)
        x = (x ^ (x >> np.uint32(15))) * np.uint32(0x846CA68B)
        x = x ^ (x >> np.uint32(16))
    return (x.astype(np.float64) / 2147483648.0 - 1.0).astype(np.float32)
