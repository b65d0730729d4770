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
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from .arrays import as_numpy, as_row

if TYPE_CHECKING:
    from .arrays import ArrayLike

__all__ = ["HiddenStats", "LogitStats", "TopEntry", "count_non_finite", "hidden_stats", "logit_stats"]

TOP = 5


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
    row = as_row(logits, "logit_stats: logits").astype(np.float64)
    n = row.size
    if n == 0:
        return {"mean": math.nan, "std": math.nan, "min": math.nan, "max": math.nan, "argmax": -1, "top5": []}
    with np.errstate(invalid="ignore", over="ignore"):  # Inf − Inf = NaN is the rule, not a surprise
        mean = float(row.sum() / n)
        std = math.sqrt(float(np.square(row - mean).sum()) / n) if not math.isnan(mean) else math.nan
    if not math.isnan(mean):  # no NaN in the row (a NaN makes the sum NaN): skip the NaN bookkeeping
        values, ids, first_nan = row, None, -1
    else:
        nan_mask = np.isnan(row)
        ids = np.flatnonzero(~nan_mask)
        if ids.size == 0:
            return {"mean": mean, "std": std, "min": math.nan, "max": math.nan, "argmax": 0, "top5": []}
        values, first_nan = row[ids], int(np.argmax(nan_mask)) if nan_mask.any() else -1
    top = _top_ids(values, ids)
    return {
        "mean": mean,
        "std": std,
        "min": float(values.min()),
        "max": float(values.max()),
        "argmax": first_nan if first_nan >= 0 else int(top[0]),
        "top5": [{"id": int(i), "logit": float(row[i])} for i in top],
    }


def _top_ids(values: np.ndarray, ids: np.ndarray | None) -> np.ndarray:
    """Ids of the TOP largest values, best first, lowest id first on ties (values has no NaN; ids: the
    row index of each value, None when values is the whole row)."""
    if ids is None:
        ids = np.arange(values.size)
    if values.size > TOP:
        # Everything tied with the TOP-th largest value is a candidate, so the tie rule sees all of them.
        threshold = np.partition(values, values.size - TOP)[values.size - TOP]
        keep = values >= threshold
        values, ids = values[keep], ids[keep]
    order = np.lexsort((ids, -values))  # last key first: by value descending, then by id ascending
    return ids[order[:TOP]]


def count_non_finite(values: ArrayLike) -> tuple[int, int]:
    """(NaN count, +-Infinity count).

    Args:
        values: an array or tensor of any shape and dtype (integers have none), numpy or torch on any device.
    """
    array = as_numpy(values, "count_non_finite: values")
    if not np.issubdtype(array.dtype, np.floating) or np.isfinite(array.sum(dtype=np.float64)):
        return 0, 0  # a finite float64 sum has no NaN or Inf among its terms
    return int(np.isnan(array).sum()), int(np.isinf(array).sum())


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
