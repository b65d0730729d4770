"""What one decode step yields, whichever path produced it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


__all__ = ["StepOutput"]


@dataclass
class StepOutput:
    step: int
    talker_logits: np.ndarray  # raw talker logits [vocab] (EOS included, before the EOS mask)
    hidden: np.ndarray  # final-normed talker hidden state [hidden]
    codes: list  # Q codes: talker's code 0, then the code predictor's
    code_predictor_logits: np.ndarray  # [Q-1, codebookSize]
    step_ms: float  # wall time of the whole step (talker + code predictor), device work included
    times_ms: dict | None = None  # {talker, codePredictor} where the stages ran apart (eager)
