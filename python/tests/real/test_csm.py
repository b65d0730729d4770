"""transformers' CSM (backbone + depth decoder + Mimi), tiny and seeded (docs/real-models.md)."""

import os

import torch

from real_support import compare_trace, read_trace, wav_of

from csm_capture import backbone_decode_steps, backbone_step, depth_decoder_decode_steps, depth_decoder_step
from tts_parity.capture_check import capture_check


def test_trace_pairs_backbone_and_depth_decoder_rows_with_frames(csm_traces):
    run = csm_traces["eager"]
    header, steps = read_trace(run.path)
    assert [s["codes"] for s in steps] == run.codes.tolist()
    assert all(len(s["codePredictorLogits"]) == 3 for s in steps)     # depth_decoder.codebooks_head, q-1 per frame
    assert run.audio.numel() == len(steps) * csm_traces["eager"].audio.numel() // len(steps)
    assert os.path.getsize(wav_of(run.path)) > 58


def test_eager_vs_static_cache_is_within_tolerance(csm_traces, real_dir):
    a, b = csm_traces["eager"].path, csm_traces["static"].path
    report, _ = compare_trace(a, b, str(real_dir / "csm-eager-vs-static"), "--wav-a", wav_of(a), "--wav-b", wav_of(b))
    assert report["verdict"] == "within-tolerance"
    assert report["divergence"]["firstStep"] is None
    assert 0 < report["divergence"]["largestLogitDiff"]["value"] < 1e-6


# docs/real-models.md "Capture findings", transformers 4.57.3.
DEPTH_DECODER_FINDINGS = [("host-sync", "modeling_csm.py", 458)]


def test_capture_check_findings(csm):
    with torch.no_grad():
        backbone = capture_check(backbone_step(csm), backbone_decode_steps(csm), names=["step 2", "step 3"])
        depth = capture_check(depth_decoder_step(csm), depth_decoder_decode_steps(csm), names=["codebook 2", "codebook 3"])
    assert backbone.ok, "\n" + str(backbone)
    assert [(f.rule, os.path.basename(f.filename), f.lineno) for f in depth.findings] == DEPTH_DECODER_FINDINGS, "\n" + str(depth)
