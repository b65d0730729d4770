"""Capture readiness: find, on a CPU machine, the lines of a PyTorch decode step that would break or silently
corrupt a CUDA graph (docs/capture-check.md). Torch helper: imports torch (1.13 through 2.x)."""

from __future__ import annotations

from .check import capture_check
from .report import CaptureReport, Finding
from .rules import RULES

__all__ = ["RULES", "CaptureReport", "Finding", "capture_check"]
