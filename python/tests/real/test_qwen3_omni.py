"""transformers' Qwen3-Omni MoE talker + code predictor + code2wav, tiny and seeded (docs/real-models.md)."""

import os

import torch
from hf_recipes import OMNI_CODEBOOK, OMNI_EOS
from hf_tracing import trace_omni
from omni_capture import (
    OmniTalkerGraphStep,
    code_predictor_decode_steps,
    code_predictor_step,
    dense_moe,
    talker_decode_steps,
    talker_step,
)
from real_support import compare_trace, read_trace, wav_of

from tts_parity.capture_check import capture_check


def test_trace_holds_raw_rows_and_the_frames_codes(omni_traces):
    run = omni_traces["eager"]
    header, steps = read_trace(run.path)
    assert header["q"] == 4 and header["modules"] == "omni-eager.modules.safetensors"
    assert [s["codes"] for s in steps] == run.codes.tolist()  # one step per frame, generate()'s codes
    assert all(len(s["codePredictorLogits"]) == 3 for s in steps)  # q-1 rows from code_predictor.lm_head[0..2]
    # Raw rows, before the suppression appended after the recorder: the talker's raw argmax is a special id
    # (>= 64, not EOS) at some step, while the code it sampled is a codec id.
    raw_special = [
        s["step"] for s in steps if s["logits"]["argmax"] >= OMNI_CODEBOOK and s["logits"]["argmax"] != OMNI_EOS
    ]
    assert raw_special, "no step's raw row had a special id on top: the recorder may see processed scores"
    assert all(s["codes"][0] < OMNI_CODEBOOK for s in steps)
    assert os.path.getsize(wav_of(run.path)) > 58


def test_eager_vs_static_cache_is_within_tolerance(omni_traces, real_dir):
    a, b = omni_traces["eager"].path, omni_traces["static"].path
    report, _ = compare_trace(a, b, str(real_dir / "omni-eager-vs-static"), "--wav-a", wav_of(a), "--wav-b", wav_of(b))
    # The two attention paths round alike on some CPUs (identical, seen 2026-12-02) and differ by float32 rounding on
    # others (within-tolerance, largest |Δ| 6.0e-8 seen): both are right; anything over 1e-6 is not.
    assert report["divergence"]["firstStep"] is None
    largest = report["divergence"]["largestLogitDiff"]
    if report["verdict"] == "identical":
        assert largest is None
    else:
        assert report["verdict"] == "within-tolerance" and 0 < largest["value"] < 1e-6, report["divergence"]
    assert report["metrics"]["bitIdentical"] is True


def test_planted_bug_is_localised_to_step_and_module(omni, omni_traces, real_dir):
    """B scales layer 1's shared expert by 20 from talker step 4 on: compare-trace names step 4 and the
    module sidecars name model.layers.1.mlp (layer 0's MoE output still matches at that step)."""
    weight = omni.talker.model.layers[1].mlp.shared_expert.down_proj.weight
    original = weight.detach().clone()
    calls = {"n": 0}

    def plant(module, args, kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            with torch.no_grad():
                weight.mul_(20.0)

    handle = omni.talker.register_forward_pre_hook(plant, with_kwargs=True)
    try:
        bug = trace_omni(omni, str(real_dir / "omni-bug.jsonl"), profile="eager, layer 1 shared expert x20 from step 4")
    finally:
        handle.remove()
        with torch.no_grad():
            weight.copy_(original)
    report, stdout = compare_trace(omni_traces["eager"].path, bug.path, str(real_dir / "omni-bug-report"))
    d = report["divergence"]
    assert (d["firstStep"], d["stage"]) == (4, "talker-logits"), d.get("detail")
    drill = report["moduleDrill"]
    assert drill["status"] == "found" and drill["step"] == 4
    assert drill["module"]["name"] == "model.layers.1.mlp", stdout


# The documented list (docs/real-models.md "Capture findings"): the talker's decode forward over a StaticCache,
# transformers 4.57.3, modeling_qwen3_omni_moe.py. A new transformers version moves these lines: update both.
TALKER_FINDINGS = [
    ("state-tensor-varies-across-steps", 2671),
    ("host-sync", 2716),
    ("data-dependent-shape", 2719),
    ("host-sync", 2721),
    ("data-dependent-shape", 2722),
    ("host-sync", 3049),
]


def test_capture_check_findings_of_the_talker_step(omni):
    with torch.no_grad():
        report = capture_check(
            talker_step(omni.talker),
            talker_decode_steps(omni.talker, omni.generate_kwargs["inputs_embeds"]),
            names=["step 2", "step 3"],
        )
    found = [(f.rule, f.lineno) for f in report.findings]
    assert found == TALKER_FINDINGS, "\n" + str(report)
    assert {os.path.basename(f.filename) for f in report.findings} == {"modeling_qwen3_omni_moe.py"}


def test_capture_check_code_predictor_step_reports_the_table_and_head_picked_by_a_python_index(omni):
    """No op-level hazard, yet one graph cannot serve every step: `generation_steps`, a Python int, picks
    embedding k-1 and lm_head[k] (docs/real-models.md): the same ops read other weights in each step."""
    with torch.no_grad():
        report = capture_check(
            code_predictor_step(omni.talker),
            code_predictor_decode_steps(omni.talker),
            names=["codebook 2", "codebook 3"],
        )
    found = [(f.rule, f.lineno, f.code.strip()) for f in report.findings]
    assert found == [
        (
            "state-tensor-varies-across-steps",
            2603,
            "inputs_embeds = self.model.get_input_embeddings()[generation_steps - 1](input_ids)",
        ),
        ("state-tensor-varies-across-steps", 2618, "logits = self.lm_head[generation_steps](hidden_states)"),
    ], "\n" + str(report)


def test_capture_safe_talker_step_has_no_findings_and_the_same_rows(omni):
    talker, embeds = omni.talker, omni.generate_kwargs["inputs_embeds"]
    with torch.no_grad():
        reference = capture_check(talker_step(talker), talker_decode_steps(talker, embeds), names=["a", "b"]).outputs
        graph_step = OmniTalkerGraphStep(talker)
        graph_step.prefill(embeds)

        def steps():  # what the host does before each replay: fill the static buffers
            generator = torch.Generator().manual_seed(7)  # the same embeddings as talker_decode_steps
            for _ in range(2):
                graph_step.embeds.copy_(torch.randn(1, 1, embeds.shape[-1], generator=generator))
                yield ()
                graph_step.position.add_(1)

        with dense_moe(talker):
            report = capture_check(graph_step.decode, steps(), names=["step 2", "step 3"])
    assert report.ok, "\n" + str(report)
    for ours, theirs in zip(report.outputs, reference):
        assert torch.equal(ours[0, -1], theirs[0, -1])  # bit for bit: the same codes whatever the sampler
