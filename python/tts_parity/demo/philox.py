"""The engine's counter-based random numbers (electron/common/sampling/philox.ts, uniform.ts): Philox4x32-10
(Salmon et al., SC 2011) keyed by the seed, counter (step, codebook, draw, 0), so a draw depends only on
where it is made. Python integers, masked to 32 bits."""

from __future__ import annotations

__all__ = ["M0", "M1", "MASK", "W0", "W1", "philox4x32", "uniform"]


MASK = 0xFFFFFFFF
M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85


def philox4x32(c0: int, c1: int, c2: int, c3: int, k0: int, k1: int):
    x0, x1, x2, x3 = c0 & MASK, c1 & MASK, c2 & MASK, c3 & MASK
    key0, key1 = k0 & MASK, k1 & MASK
    for round_ in range(10):
        if round_ > 0:
            key0, key1 = (key0 + W0) & MASK, (key1 + W1) & MASK
        p0, p1 = M0 * x0, M1 * x2
        x0, x1, x2, x3 = (p1 >> 32) ^ x1 ^ key0, p1 & MASK, (p0 >> 32) ^ x3 ^ key1, p0 & MASK
    return x0, x1, x2, x3


def uniform(seed: int, step: int, codebook: int, draw: int = 0) -> float:
    """[0, 1) from the top 27 + 26 bits of the first two words (genrand_res53), as uniform.ts."""
    w0, w1, _, _ = philox4x32(step, codebook, draw, 0, seed % 2**32, seed // 2**32)
    return ((w0 >> 5) * 67108864 + (w1 >> 6)) / 9007199254740992
