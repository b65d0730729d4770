"""A synthesis written as a trace (TraceWriter) and WAV, optionally with a module-output sidecar."""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING

import torch

from ..module_recorder import ModuleRecorder, sidecar_path_for
from ..trace_writer import TraceWriter
from .synthesis import Synthesis, synthesize

if TYPE_CHECKING:
    from .faults import Faults


__all__ = ["engine_text", "profile_text", "run_traced"]


def profile_text(profile: str, faults: Faults, device: torch.device) -> str:
    """`graph,fault=stale-feedback@2 (no CUDA graph captured: CPU)`: the profile string as the engine writes
    it, then how the decode step ran."""
    text = ",".join([profile] + [f"fault={f}" for f in faults.texts()])
    if profile == "eager":
        return text
    return text + (
        " (CUDA graph captured once, replayed)" if device.type == "cuda" else " (no CUDA graph captured: CPU)"
    )


def engine_text(device: torch.device) -> str:
    return f"tts_parity.demo PyTorch twin (torch {torch.__version__}, {device.type})"


def run_traced(
    twin,
    text,
    profile,
    faults,
    trace_path,
    wav_path,
    *,
    seed=0,
    selector=None,
    modules=None,
    module_steps=None,
    force=False,
) -> Synthesis:
    """One synthesis written as a trace and WAV (and a module sidecar with `modules`); `force` replaces existing
    files."""
    device = twin.talker.lm_head.weight.device
    m = twin.manifest
    sidecar = sidecar_path_for(trace_path) if modules else None
    with ExitStack() as stack:
        writer = stack.enter_context(
            TraceWriter(
                trace_path,
                engine=engine_text(device),
                q=m.codebooks,
                frame_rate=m.frame_rate,
                sample_rate=m.sample_rate,
                profile=profile_text(profile, faults, device),
                seed=seed,
                text=text,
                modules=None if sidecar is None else sidecar.rsplit("/", 1)[-1],
                force=force,
            )
        )
        recorder = (
            stack.enter_context(ModuleRecorder(twin, sidecar, modules=modules, steps=module_steps, force=force))
            if modules
            else None
        )

        def write(out):
            writer.write_step(
                out.talker_logits,
                out.codes,
                code_predictor_logits=out.code_predictor_logits,
                times_ms=out.times_ms,
                hidden=out.hidden,
            )

        result = synthesize(twin, text, profile, faults, selector=selector, recorder=recorder, on_step=write)
        writer.set_audio(result.audio, wav_path=wav_path)
    return result
