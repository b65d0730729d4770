"""Logit statistics of a whole batch of rows at once, in torch, by tts_parity.logit_stats's rules (float64 mean and
population std, min/max, argmax and top-5 best first with the lowest id first on ties): one pass per runner step
instead of one numpy call per row, which costs more than the decode step itself at Qwen3-TTS's 16 rows per frame.
Everything but the mean and std is logit_stats's to the bit; those two are float64 sums in torch's order, not numpy's
pairwise one, and can differ from logit_stats's in the last bit (seen: one ulp of a std over 3,072 values).
A row holding a NaN goes to logit_stats itself (its NaN-skipping rules are per row). Returns what a trace line
holds: `(json stats, nan count, inf count)` per row."""

from __future__ import annotations

import math
from typing import Any

import torch

from ...logit_stats import TOP, TopEntry, logit_stats
from ...trace_schema import json_stats


def batch_logit_stats(rows: torch.Tensor) -> list[tuple[dict[str, Any], int, int]]:
    """rows: `[N, vocab]`, any float dtype, any device."""
    x = rows.detach().to(torch.float64)
    n, vocab = x.shape
    total = x.sum(dim=1)
    mean = total / vocab
    std = ((x - mean[:, None]).square().sum(dim=1) / vocab).sqrt()
    values, ids = _best_first(x, min(TOP, vocab))
    host = torch.stack([mean, std, x.amin(dim=1), values[:, 0]], dim=1).cpu().tolist()
    top_values, top_ids = values.cpu().tolist(), ids.cpu().tolist()
    nan_list, inf_list = _non_finite_counts(x, total)
    out = []
    for r in range(n):
        if nan_list[r]:
            stats: dict[str, Any] = json_stats(logit_stats(rows[r]))
        else:
            m, s, lo, hi = host[r]
            top: list[TopEntry] = [{"id": int(i), "logit": float(v)} for i, v in zip(top_ids[r], top_values[r])]
            argmax = top[0]["id"] if top else -1
            stats = {"mean": m, "std": s, "min": lo, "max": hi, "argmax": argmax, "top5": top}
            if inf_list[r]:  # a row of finite values has finite statistics: nothing to write as a string
                stats = json_stats(stats)
        out.append((stats, nan_list[r], inf_list[r]))
    return out


def _non_finite_counts(x: torch.Tensor, total: torch.Tensor) -> tuple[list[int], list[int]]:
    """NaN and Inf counts per row, counted only in the rows whose float64 sum is not finite: a finite sum means
    every value is finite (a sum that overflows only costs the counting)."""
    nan, inf = [0] * x.shape[0], [0] * x.shape[0]
    suspect = (~torch.isfinite(total)).nonzero().flatten().tolist()
    if suspect:
        rows = x[suspect]
        counts = torch.stack([torch.isnan(rows).sum(dim=1), torch.isinf(rows).sum(dim=1)], dim=1).cpu().tolist()
        for r, (nan_count, inf_count) in zip(suspect, counts):
            nan[r], inf[r] = nan_count, inf_count
    return nan, inf


def _best_first(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row's k best values and ids, best first, lowest id first among equal values, without sorting whole rows
    (a stable sort of 60 rows of 2,048 costs more than the rest of the statistics): top-k gives the k-th best value;
    every element at least as large is a candidate (k of them, more where the k-th value is tied); the candidates
    are taken in id order and only they are stably sorted by value."""
    vocab = x.shape[1]
    kth = torch.topk(x, k, dim=1).values[:, -1:]
    candidate = x >= kth
    width = max(k, int(candidate.sum(dim=1).max()))
    # the candidates' ids in ascending order: the largest scores of (vocab - id), 0 marking a non-candidate
    score = torch.where(candidate, vocab - torch.arange(vocab, device=x.device), 0)
    picked, ids = torch.topk(score, width, dim=1)
    values = torch.where(picked > 0, x.gather(1, ids), -math.inf)  # padding sorts after any real -inf (stable)
    order = torch.sort(values, dim=1, descending=True, stable=True).indices[:, :k]
    return values.gather(1, order), ids.gather(1, order)
