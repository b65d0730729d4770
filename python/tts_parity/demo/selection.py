"""Code selection from one logit row, as electron/common/sampling/sample-token.ts defines it: repetition
penalty, then greedy argmax (the first maximum, or the first NaN, as torch.argmax) or temperature ->
top-k -> top-p -> one inverse-CDF draw from the engine's Philox stream keyed by (seed, step, codebook).

Ranks break ties by the lower id. Sums of probabilities are taken in numpy's order, not the engine's heap
order: a draw can differ from the engine's only when it lies within float64 rounding of a boundary
(the twin's logits differ from ORT's by ~1e-6 anyway, which matters far more).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from .philox import uniform

__all__ = ["GreedySelector", "SamplingParams", "SamplingSelector"]


class GreedySelector:
    def pick(self, row: torch.Tensor, step: int, codebook: int, suppress=None) -> int:
        """row [vocab]; `suppress`: an id masked to -inf first (the talker's EOS, forced only by the frame count)."""
        if suppress is not None:
            row = row.clone()
            row[suppress] = float("-inf")
        return int(torch.argmax(row))


@dataclass(frozen=True)
class SamplingParams:
    temperature: float = 1.0
    top_k: int = 0  # 0: no top-k filter
    top_p: float = 1.0  # 1: no nucleus filter
    repetition_penalty: float = 1.0  # 1: none


class SamplingSelector:
    """Seeded sampling on the host (profile eager); keeps each codebook's history for the penalty."""

    def __init__(self, seed: int, params: SamplingParams, codebooks: int):
        self.seed, self.params = seed, params
        self.history: list[list[int]] = [[] for _ in range(codebooks)]

    def pick(self, row: torch.Tensor, step: int, codebook: int, suppress=None) -> int:
        v = row.detach().cpu().numpy().astype(np.float64)
        if suppress is not None:
            v[suppress] = -np.inf
        code = self._sample(v, uniform(self.seed, step, codebook), self.history[codebook])
        self.history[codebook].append(code)
        return code

    def _sample(self, v: np.ndarray, draw: float, history: list) -> int:
        p = self.params
        n = v.size
        if p.repetition_penalty != 1 and history:
            seen = np.unique([c for c in history if 0 <= c < n]).astype(np.int64)
            v[seen] = np.where(v[seen] > 0, v[seen] / p.repetition_penalty, v[seen] * p.repetition_penalty)
        nan = np.flatnonzero(np.isnan(v))
        if nan.size:
            return int(nan[0])
        v = v * (1 / p.temperature)
        best_first = np.lexsort((np.arange(n), -v))  # value descending, then id ascending
        kept = best_first[: p.top_k] if 0 < p.top_k < n else best_first
        weights = np.exp(v[kept] - v[best_first[0]])
        if p.top_p < 1:
            cumulative = np.cumsum(weights)
            reach = np.flatnonzero(cumulative >= p.top_p * weights.sum())
            kept = kept[: (reach[0] + 1) if reach.size else kept.size]
        ids = np.sort(kept)
        weights = np.exp(v[ids] - v[best_first[0]])
        above = np.flatnonzero(np.cumsum(weights) > draw * weights.sum())
        return int(ids[above[0]] if above.size else ids[-1])
