"""The twin's faults (docs/python-twin.md), named as the engine names its own where one exists (docs/faults.md):

- `stale-feedback@N` (N >= 2): at step N the audio-feedback buffer is not refreshed before the step, so
  the talker reads frame N-2's codes (the BOS seed when N = 2); under a CUDA graph that is the buffer
  the captured step reads, not refreshed before replay N (seed 000).
- `bool-mask`: the decode step picks its request rows with a boolean mask, `req_rows[decode_mask]`
  (seed 001): a data-dependent shape, fine eagerly, refused by CUDA stream capture.
- `mlp-scale@N` (N >= 1): a planted bug, the talker's layer 0 MLP output scaled by MLP_SCALE from step N
  on, inside the module (SwiGLU.fault_scale) so that module hooks and capture buffers see it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import torch

from ..errors import ParityValueError

__all__ = ["KNOWN", "MLP_SCALE", "MLP_SCALE_LAYER", "Faults", "decode_request_rows", "not_applied", "parse_faults"]


MLP_SCALE = 1.5
MLP_SCALE_LAYER = 0
KNOWN = "stale-feedback@N (N >= 2), mlp-scale@N (N >= 1), bool-mask"


@dataclass(frozen=True)
class Faults:
    stale_feedback: int | None = None
    mlp_scale: int | None = None
    bool_mask: bool = False

    def texts(self) -> list:
        out = []
        if self.stale_feedback is not None:
            out.append(f"stale-feedback@{self.stale_feedback}")
        if self.mlp_scale is not None:
            out.append(f"mlp-scale@{self.mlp_scale}")
        if self.bool_mask:
            out.append("bool-mask")
        return out


def parse_faults(texts) -> Faults:
    """--fault values -> Faults, or a ParityValueError naming the bad one."""
    fields: dict[str, Any] = {}
    for text in texts:
        m = re.fullmatch(r"(stale-feedback|mlp-scale)@(\d+)|(bool-mask)", text)
        if not m:
            raise ParityValueError(f'--fault "{text}": unknown fault (known: {KNOWN})')
        kind = m.group(1) or m.group(3)
        key = kind.replace("-", "_")
        if key in fields:
            raise ParityValueError(f'--fault "{text}": {kind} given twice')
        if kind == "bool-mask":
            fields[key] = True
            continue
        step = int(m.group(2))
        least = 2 if kind == "stale-feedback" else 1
        if step < least:
            why = "step 1 is the prefill, it has no feedback" if kind == "stale-feedback" else "steps start at 1"
            raise ParityValueError(f'--fault "{text}": N must be >= {least} ({why})')
        fields[key] = step
    return Faults(**fields)


def not_applied(faults: Faults, frames: int) -> list:
    """(fault, reason) for each fault whose step never runs."""
    out = []
    for text, step in (
        (f"stale-feedback@{faults.stale_feedback}", faults.stale_feedback),
        (f"mlp-scale@{faults.mlp_scale}", faults.mlp_scale),
    ):
        if step is not None and step > frames:
            out.append((text, f"step {step} never ran: the synthesis ended after {frames} steps"))
    return out


def decode_request_rows(position: torch.Tensor, max_positions: int, bool_mask: bool) -> torch.Tensor:
    """The batch rows that take a single-token decode step (one request here: row 0).

    With `bool_mask` this is seed 001's `_decode_request_token_positions`: the rows are filtered by a
    boolean mask, whose result has a data-dependent shape (a host sync, illegal while a CUDA stream is
    capturing). Without it the decode batch is known to be uniform, so every row is returned as is."""
    rows = torch.zeros(1, dtype=torch.long, device=position.device)
    if not bool_mask:
        return rows
    spans = torch.ones_like(position)
    decode_mask = (spans == 1) & (position >= 0) & (position < max_positions)
    return rows[decode_mask]
