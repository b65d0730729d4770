"""Profile graph's loop: prefill eager on the static buffers, then every decode step through GraphRunner
(captured once and replayed on CUDA; called directly on CPU). The host only sets the step's inputs
(position, feedback refresh, the mlp-scale fault's scale) and reads the outputs after each step."""

from __future__ import annotations

import time
from contextlib import nullcontext
from typing import TYPE_CHECKING

import torch

from .faults import MLP_SCALE, MLP_SCALE_LAYER, Faults
from .graph_runner import GraphRunner
from .static_step import StaticStep
from .step_output import StepOutput

if TYPE_CHECKING:
    from .model import DemoTwin


__all__ = ["graph_frames"]


def graph_frames(twin: DemoTwin, ids: list, frames: int, faults: Faults, recorder=None):
    """Yields one StepOutput per step 1..frames (greedy: codes are chosen on the device)."""
    step = StaticStep(twin, faults)
    runner = GraphRunner(step, recorder)
    device = step.position.device
    scale = twin.talker.layers[MLP_SCALE_LAYER].mlp.fault_scale
    for s in range(1, frames + 1):
        if scale is not None and s == faults.mlp_scale:
            scale.fill_(MLP_SCALE)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        with torch.no_grad(), recorder.step(s) if recorder else nullcontext():
            if s == 1:
                step.prefill(ids)
            else:
                if faults.stale_feedback != s:
                    step.refresh_feedback()
                step.position.fill_(len(ids) + s - 2)
                runner.decode()
        out = step.out.read()  # reading the buffers waits for the step's device work
        elapsed = (time.perf_counter() - t0) * 1e3
        yield StepOutput(
            step=s,
            talker_logits=out["talker_logits"],
            hidden=out["hidden"],
            codes=[int(c) for c in out["codes"]],
            code_predictor_logits=out["code_predictor_logits"],
            step_ms=elapsed,
        )
