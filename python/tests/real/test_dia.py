"""transformers' Dia (encoder-decoder, delay pattern), tiny and seeded (docs/real-models.md)."""

import torch
from hf_recipes import DIA_BOS, DIA_DELAYS
from hf_tracing import trace_dia
from real_support import compare_trace, read_trace


def test_trace_keeps_the_raw_emission_and_its_delays(dia_traces):
    header, steps = read_trace(dia_traces["eager"].path)
    assert header["codebookDelays"] == list(DIA_DELAYS)
    # The lead-in: codebook k emits BOS for its first delays[k] steps (step 1 is frame 1 of codebook 0 only).
    for k, delay in enumerate(DIA_DELAYS):
        assert [s["codes"][k] for s in steps[:delay]] == [DIA_BOS] * delay
        assert steps[delay]["codes"][k] != DIA_BOS


def test_eager_vs_static_cache_is_within_tolerance(dia_traces, real_dir):
    report, _ = compare_trace(
        dia_traces["eager"].path, dia_traces["static"].path, str(real_dir / "dia-eager-vs-static")
    )
    assert report["verdict"] == "within-tolerance"
    assert report["divergence"]["codebookDelays"] == list(DIA_DELAYS)


def test_divergence_is_reported_at_its_frame(dia, dia_traces, real_dir):
    """B's codebook 3 row is pushed to code 5 at step 6: step 6 emits codebook 3 of frame 6 - 4 = 2, so the
    audio first differs at frame 2 (t = 1 / 86.13 s), not at step 6's 5 / 86.13 s."""
    vocab = dia.model.config.decoder_config.vocab_size
    calls = {"n": 0}

    def plant(module, inputs, output):
        calls["n"] += 1
        if calls["n"] == 6:
            output[0, -1, 3 * vocab + 5] += 100.0

    handle = dia.model.logits_dense.register_forward_hook(plant)
    try:
        bug = trace_dia(dia, str(real_dir / "dia-bug.jsonl"), profile="eager, codebook 3 forced at step 6")
    finally:
        handle.remove()
    report, stdout = compare_trace(dia_traces["eager"].path, bug.path, str(real_dir / "dia-bug-report"))
    d = report["divergence"]
    assert (d["firstStep"], d["stage"], d["codebook"]) == (6, "code-predictor", 3)
    assert d["frame"] == {"frame": 2, "step": 6, "codebook": 3}
    assert abs(d["timeSec"] - 1 / dia.frame_rate) < 1e-9
    assert "frame 2 (codebook 3 at step 6, emitted 4 steps late)" in stdout
    assert torch.equal(bug.codes[:5], dia_traces["eager"].codes[:5])


def test_trace_writer_refuses_a_delay_per_codebook_missing(real_dir):
    import pytest

    from tts_parity import TraceWriter
    from tts_parity.errors import ParityValueError

    with pytest.raises(ParityValueError, match=r'"codebookDelays": expected 4 delays \(q\), found 3'):
        TraceWriter(
            str(real_dir / "bad-delays.jsonl"),
            engine="dia",
            q=4,
            frame_rate=86.1328125,
            sample_rate=44100,
            codebook_delays=[0, 2, 3],
        )


def test_capture_check_decode_step_has_no_findings(dia):
    """Dia's whole decode forward (encoder outputs, self- and cross-attention StaticCache, q heads) at steps 2
    and 3, with the arguments generate(cache_implementation="static") passed: no finding."""
    from generate_steps import recorded_decode_steps

    from tts_parity.capture_check import capture_check

    def run():
        dia.model.generate(
            input_ids=dia.input_ids,
            decoder_input_ids=dia.decoder_input_ids,
            decoder_attention_mask=dia.decoder_attention_mask,
            max_new_tokens=4,
            do_sample=False,
            cache_implementation="static",
        )

    with torch.no_grad():
        report = capture_check(
            lambda kwargs: dia.model(**kwargs).logits, recorded_decode_steps(dia.model, run), names=["step 2", "step 3"]
        )
    assert report.ok, "\n" + str(report)
    # logits [batch * q, 1 step, vocab]: one row per codebook
    assert [tuple(out.shape) for out in report.outputs] == [(dia.q, 1, dia.model.config.decoder_config.vocab_size)] * 2
