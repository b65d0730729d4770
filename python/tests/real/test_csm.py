"""transformers' CSM (backbone + depth decoder + Mimi), tiny and seeded (docs/real-models.md)."""

import os

import torch
from csm_capture import backbone_decode_steps, backbone_step, depth_decoder_decode_steps, depth_decoder_step
from real_support import compare_trace, read_trace, wav_of

from tts_parity.capture_check import capture_check


def test_trace_pairs_backbone_and_depth_decoder_rows_with_frames(csm_traces):
    run = csm_traces["eager"]
    _header, steps = read_trace(run.path)
    assert [s["codes"] for s in steps] == run.codes.tolist()
    assert all(len(s["codePredictorLogits"]) == 3 for s in steps)  # depth_decoder.codebooks_head, q-1 per frame
    assert run.audio.numel() == len(steps) * csm_traces["eager"].audio.numel() // len(steps)
    assert os.path.getsize(wav_of(run.path)) > 58


def test_eager_vs_static_cache_is_within_tolerance(csm_traces, real_dir):
    a, b = csm_traces["eager"].path, csm_traces["static"].path
    report, _ = compare_trace(a, b, str(real_dir / "csm-eager-vs-static"), "--wav-a", wav_of(a), "--wav-b", wav_of(b))
    assert report["verdict"] == "within-tolerance"
    assert report["divergence"]["firstStep"] is None
    assert 0 < report["divergence"]["largestLogitDiff"]["value"] < 1e-6


def test_planted_depth_decoder_bug_is_localised(csm, csm_traces, real_dir):
    """B scales the depth decoder's MLP by 20 from frame 3 on: the backbone's rows still match at step 3, so the
    first divergence is step 3, code predictor (depth decoder), codebook 1."""
    from hf_tracing import trace_csm

    weight = csm.model.depth_decoder.model.layers[0].mlp.down_proj.weight
    original = weight.detach().clone()
    calls = {"n": 0}

    def plant(module, args, kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            with torch.no_grad():
                weight.mul_(20.0)

    handle = csm.model.register_forward_pre_hook(plant, with_kwargs=True)
    try:
        bug = trace_csm(csm, str(real_dir / "csm-bug.jsonl"), profile="eager, depth decoder MLP x20 from frame 3")
    finally:
        handle.remove()
        with torch.no_grad():
            weight.copy_(original)
    report, _ = compare_trace(csm_traces["eager"].path, bug.path, str(real_dir / "csm-bug-report"))
    d = report["divergence"]
    assert (d["firstStep"], d["stage"], d["codebook"]) == (3, "code-predictor", 1), d.get("detail")


# docs/real-models.md "Capture findings", transformers 4.57.3.
DEPTH_DECODER_FINDINGS = [("host-sync", "modeling_csm.py", 458)]


def test_capture_check_findings(csm):
    with torch.no_grad():
        backbone = capture_check(backbone_step(csm), backbone_decode_steps(csm), names=["step 2", "step 3"])
        depth = capture_check(
            depth_decoder_step(csm), depth_decoder_decode_steps(csm), names=["codebook 2", "codebook 3"]
        )
    assert backbone.ok, "\n" + str(backbone)
    assert [(f.rule, os.path.basename(f.filename), f.lineno) for f in depth.findings] == DEPTH_DECODER_FINDINGS, (
        "\n" + str(depth)
    )
