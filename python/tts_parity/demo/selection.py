"""Code selection from one logit row. Greedy is the argmax (torch.argmax: the first maximum, or the
first NaN, the engine's rule in electron/common/sampling/sample-token.ts)."""

import torch


class GreedySelector:
    def pick(self, row: torch.Tensor, step: int, codebook: int, suppress=None) -> int:
        """row [vocab]; `suppress`: an id masked to -inf first (the talker's EOS, forced only by the frame count)."""
        if suppress is not None:
            row = row.clone()
            row[suppress] = float("-inf")
        return int(torch.argmax(row))
