"""Logit statistics exactly as the studio's engine computes them (electron/common/trace/logit-stats.ts;
rules in docs/trace-format.md), so a trace written here compares with one written by `parity synth`.

- mean and std over all entries in float64; std is the population std (divide by N, numpy's default, not
  torch.std's N−1). Any NaN makes both NaN; ±Inf propagate by IEEE arithmetic (so std is NaN then).
- min, max and top5 skip NaNs (a partly-NaN row still charts); NaN / empty when every entry is NaN.
- argmax is the first NaN's index when there is one (as torch.argmax, and as the sampler picks), else the
  largest logit, lowest index on ties; top5 is best first, same tie rule. An empty row: argmax −1.

Sums use numpy's pairwise float64 summation where the TypeScript engine adds in order: the two agree to
a few ulps of float64, far below any comparison tolerance (the values themselves are float32 or coarser).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, TypedDict

import numpy as np

from .arrays import as_numpy, as_row

if TYPE_CHECKING:
    from .arrays import ArrayLike

__all__ = ["PIECE", "HiddenStats", "LogitStats", "TopEntry", "count_non_finite", "hidden_stats", "logit_stats"]

TOP = 5


#: Entries of one piece (8 MB as float64): the statistics of a longer row are computed a piece at a time, so
#: their memory is the row plus a few pieces, whatever its length (a row this long or shorter is one piece).
PIECE = 1 << 20

#: numpy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src, pairwise_sum): a run of at most
#: PW_BLOCKSIZE entries is summed by its unrolled loop, a longer one is split at n/2 rounded down to a
#: multiple of 8 and the halves summed alike. _pairwise_sum repeats that split above PIECE and lets numpy
#: sum each part, so the sum is numpy's own to the bit.
_PW_BLOCKSIZE = 128


class TopEntry(TypedDict):
    id: int
    logit: float


class LogitStats(TypedDict):
    """A trace line's `logits` statistic (docs/trace-format.md)."""

    mean: float
    std: float
    min: float
    max: float
    argmax: int
    top5: list[TopEntry]


class HiddenStats(TypedDict):
    """A trace line's hidden-state statistic: the logit rules over every entry, with NaN and +-Inf counts."""

    mean: float
    std: float
    min: float
    max: float
    nan: int
    inf: int


def logit_stats(logits: ArrayLike) -> LogitStats:
    """`{mean, std, min, max, argmax, top5: [{id, logit}]}` of one raw logit row.

    Args:
        logits: `[vocab]` (or `[1, ..., 1, vocab]`), any float or integer dtype, numpy or torch on any device.
    """
    row = as_row(logits, "logit_stats: logits")
    n = row.size
    if n == 0:
        return {"mean": math.nan, "std": math.nan, "min": math.nan, "max": math.nan, "argmax": -1, "top5": []}
    with np.errstate(invalid="ignore", over="ignore"):  # Inf − Inf = NaN is the rule, not a surprise
        mean = float(_pairwise_sum(row, 0, n, lambda part: part) / n)
        std = (
            math.sqrt(float(_pairwise_sum(row, 0, n, lambda part: np.square(part - mean))) / n)
            if not math.isnan(mean)
            else math.nan
        )
    # min, max and the top ids a piece at a time (each piece's top five hold the row's: the same order
    # decides both), NaNs skipped; the first NaN is the argmax when there is one.
    lows, highs, candidates, first_nan = [], [], [], -1
    for begin in range(0, n, PIECE):
        piece = _float64(row[begin : begin + PIECE])
        ids = None
        if math.isnan(mean):  # no NaN in the row (a NaN makes the sum NaN) skips the NaN bookkeeping
            nan_mask = np.isnan(piece)
            if nan_mask.any():
                if first_nan < 0:
                    first_nan = begin + int(np.argmax(nan_mask))
                ids = np.flatnonzero(~nan_mask)
                piece = piece[ids]
                ids = ids + begin
                if piece.size == 0:
                    continue
        if ids is None:
            ids = np.arange(begin, begin + piece.size)
        lows.append(piece.min())
        highs.append(piece.max())
        top = _top_order(piece, ids)
        candidates.append((piece[top], ids[top]))
    if not candidates:
        return {"mean": mean, "std": std, "min": math.nan, "max": math.nan, "argmax": 0, "top5": []}
    values = np.concatenate([v for v, _ in candidates])
    ids = np.concatenate([i for _, i in candidates])
    top_ids = ids[_top_order(values, ids)]
    return {
        "mean": mean,
        "std": std,
        "min": float(min(lows)) if len(lows) > 1 else float(lows[0]),
        "max": float(max(highs)) if len(highs) > 1 else float(highs[0]),
        "argmax": first_nan if first_nan >= 0 else int(top_ids[0]),
        "top5": [{"id": int(i), "logit": float(_float64(row[i : i + 1])[0])} for i in top_ids],
    }


def _float64(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float64, copy=False)


def _pairwise_sum(row: np.ndarray, begin: int, n: int, term: Callable[[np.ndarray], np.ndarray]) -> float:
    """numpy's float64 pairwise sum of `term(row[begin:begin + n] as float64)`, a part of at most PIECE at a time."""
    if n <= PIECE or n <= _PW_BLOCKSIZE:
        return _float64(term(_float64(row[begin : begin + n]))).sum()
    half = n // 2
    half -= half % 8
    return _pairwise_sum(row, begin, half, term) + _pairwise_sum(row, begin + half, n - half, term)


def _top_order(values: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Places in `values` of the TOP largest, best first, lowest id first on ties (values has no NaN; ids: the
    row index of each value)."""
    places = np.arange(values.size)
    if values.size > TOP:
        # Everything tied with the TOP-th largest value is a candidate, so the tie rule sees all of them.
        threshold = np.partition(values, values.size - TOP)[values.size - TOP]
        places = np.flatnonzero(values >= threshold)
    order = np.lexsort((ids[places], -values[places]))  # last key first: by value descending, then by id ascending
    return places[order[:TOP]]


def count_non_finite(values: ArrayLike) -> tuple[int, int]:
    """(NaN count, +-Infinity count).

    Args:
        values: an array or tensor of any shape and dtype (integers have none), numpy or torch on any device.
    """
    array = as_numpy(values, "count_non_finite: values").reshape(-1)
    if not np.issubdtype(array.dtype, np.floating) or np.isfinite(array.sum(dtype=np.float64)):
        return 0, 0  # a finite float64 sum has no NaN or Inf among its terms
    pieces = [array[begin : begin + PIECE] for begin in range(0, array.size, PIECE)]
    return sum(int(np.isnan(p).sum()) for p in pieces), sum(int(np.isinf(p).sum()) for p in pieces)


def hidden_stats(values: ArrayLike) -> HiddenStats:
    """`{mean, std, min, max, nan, inf}` of a hidden-state tensor of any shape and float dtype: the logit rules over
    all of its entries (float64, population std, NaN-skipping min/max), plus its NaN and +-Inf counts.

    Args:
        values: e.g. the talker's last hidden state `[hidden]` or `[1, S, hidden]`, any float dtype (bfloat16
            included), numpy or torch on any device.
    """
    flat = as_row(as_numpy(values, "hidden_stats: values").reshape(-1), "hidden_stats: values")
    stats = logit_stats(flat)
    nan, inf = count_non_finite(flat)
    return {
        "mean": stats["mean"],
        "std": stats["std"],
        "min": stats["min"],
        "max": stats["max"],
        "nan": nan,
        "inf": inf,
    }
