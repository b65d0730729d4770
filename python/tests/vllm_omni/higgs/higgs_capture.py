"""capture_check on HiggsAudioV3Talker's decode forward as FULL_DECODE_ONLY would capture it (docs/vllm-omni.md,
Higgs-Audio-v3): the talker built with the external decode graph on, prefill run and sample()'d first (so the
audio-feedback state sample() sets is present), then two one-token decode steps of a uniform batch under the
probe, the runner's update_decode_step_metadata before each and compute_logits + sample() after each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from higgs_talker_step import DecodeForward, run_steps, runner_steps

from tts_parity.capture_check import capture_check

if TYPE_CHECKING:
    from higgs_talker_step import TalkerSession

    from tts_parity.capture_check import CaptureReport


def capture_decode(session: TalkerSession, *, query_start_loc: bool, first_step: int) -> CaptureReport:
    """Two decode steps (named "step N", counting the prefill as step 1) checked; the session continues."""
    if all(done == 0 for done in session.computed):
        run_steps(session, 1, query_start_loc=query_start_loc)  # the prefill, and its sample()
    step = DecodeForward(session)
    return capture_check(
        step.forward,
        runner_steps(session, 2, query_start_loc=query_start_loc),
        names=[f"step {first_step}", f"step {first_step + 1}"],
    )
