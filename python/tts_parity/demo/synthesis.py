"""One synthesis by the twin: text -> steps (eager or graph profile) -> vocoder -> audio."""

import time
from dataclasses import dataclass, field

import numpy as np
import torch

from .eager_decode import eager_frames
from .faults import MLP_SCALE_LAYER, Faults
from .graph_decode import graph_frames
from .model import DemoTwin
from .noise import noise_range
from .selection import GreedySelector
from .text import tokenize

PROFILES = ("eager", "graph")


@dataclass
class Synthesis:
    profile: str
    captured: bool  # a CUDA graph was captured and replayed for the decode steps
    steps: list = field(default_factory=list)  # StepOutput per step
    codes: np.ndarray = None  # [frames, Q] int64
    audio: np.ndarray = None  # float32 [frames · hop]
    vocoder_ms: float = 0.0


def plant_faults(twin: DemoTwin, faults: Faults) -> None:
    """Puts the mlp-scale buffer into the module when asked for (before any capture, so the multiply is
    captured too), and takes out one a previous synthesis planted."""
    twin.talker.layers[MLP_SCALE_LAYER].mlp.plant_scale_fault(faults.mlp_scale is not None)


def synthesize(
    twin: DemoTwin, text: str, profile: str, faults: Faults = Faults(), selector=None, recorder=None, on_step=None
) -> Synthesis:
    """`selector` (eager only; default greedy); `recorder`: a ModuleRecorder over `twin`; `on_step(StepOutput)`
    is called as each step completes."""
    if profile not in PROFILES:
        raise ValueError(f"profile {profile!r}: expected one of {', '.join(PROFILES)}")
    if profile == "graph" and selector is not None:
        raise ValueError("profile graph chooses codes on the device (greedy): no selector")
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
