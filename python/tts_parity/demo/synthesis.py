"""One synthesis by the twin: text -> steps (eager or graph profile) -> vocoder -> audio."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Union

import numpy as np
import torch

from ..errors import ParityValueError
from .eager_decode import eager_frames
from .faults import MLP_SCALE_LAYER, Faults
from .graph_decode import graph_frames
from .noise import noise_range
from .selection import GreedySelector, SamplingSelector
from .text import tokenize

if TYPE_CHECKING:
    from ..module_recorder import ModuleRecorder
    from .model import DemoTwin
    from .step_output import StepOutput

__all__ = ["PROFILES", "Synthesis", "plant_faults", "synthesize"]

PROFILES = ("eager", "graph")
Selector = Union[GreedySelector, SamplingSelector]


@dataclass
class Synthesis:
    """One synthesis: `steps` (a StepOutput per step, 1 = the prefill), `codes` [frames, Q] int64, `audio`
    float32 [frames * hop], and whether a CUDA graph was captured and replayed for the decode steps."""

    profile: str
    captured: bool
    steps: list[StepOutput] = field(default_factory=list)
    codes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int64))
    audio: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    vocoder_ms: float = 0.0


def plant_faults(twin: DemoTwin, faults: Faults) -> None:
    """Puts the mlp-scale buffer into the module when asked for (before any capture, so the multiply is
    captured too), and takes out one a previous synthesis planted."""
    twin.talker.layers[MLP_SCALE_LAYER].mlp.plant_scale_fault(faults.mlp_scale is not None)


def synthesize(
    twin: DemoTwin,
    text: str,
    profile: str,
    faults: Faults | None = None,
    selector: Selector | None = None,
    recorder: ModuleRecorder | None = None,
    on_step: Callable[[StepOutput], None] | None = None,
) -> Synthesis:
    """`selector` (eager only; default greedy); `recorder`: a ModuleRecorder over `twin`; `on_step(StepOutput)`
    is called as each step completes."""
    faults = Faults() if faults is None else faults
    if profile not in PROFILES:
        raise ParityValueError(f"synthesize: profile: expected one of {', '.join(PROFILES)}, found {profile!r}")
    if profile == "graph" and selector is not None:
        raise ParityValueError("synthesize: selector: profile graph chooses codes on the device (greedy): no selector")
    m = twin.manifest
    ids, frames = tokenize(text, m)
    plant_faults(twin, faults)
    device = twin.talker.lm_head.weight.device
    if profile == "eager":
        steps = eager_frames(twin, ids, frames, faults, selector or GreedySelector(), recorder)
    else:
        steps = graph_frames(twin, ids, frames, faults, recorder)
    result = Synthesis(profile=profile, captured=profile == "graph" and device.type == "cuda")
    for out in steps:
        result.steps.append(out)
        if on_step:
            on_step(out)
    result.codes = np.array([s.codes for s in result.steps], dtype=np.int64)
    t0 = time.perf_counter()
    with torch.no_grad():
        noise = torch.from_numpy(noise_range(0, frames * m.hop_length)).to(device)
        audio, _ = twin.vocoder(torch.from_numpy(result.codes).to(device), noise)
    result.audio = audio.float().cpu().numpy()
    result.vocoder_ms = (time.perf_counter() - t0) * 1e3
    return result
