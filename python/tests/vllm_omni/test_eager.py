"""vLLM-Omni's Qwen3-TTS pipeline recorded in its own workers (one eager Omni start, conftest.eager_runs): the trace
per request, batch invariance while rows change, prefix caching without cache_salt, three planted bugs, and a
planted failure inside the recorder."""

from __future__ import annotations

import json

import numpy as np
import pytest
import soundfile

from compare import BF16_NEAR_TIE_GAP, compare_trace
from omni_harness import TEXTS

pytestmark = pytest.mark.timeout(2400)  # the first test pays for the Omni start (~80 s idle, minutes when loaded)


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _localised(eager_runs, planted: str, *, step: int, stage: str, codebook: int | None = None) -> str:
    """compare-trace of clean-long vs a planted request: diverged first at `step` in `stage` (at `codebook`, or
    any codebook past 0), the module drill-down finding a module at that step; returns the module's name."""
    report = compare_trace(eager_runs.trace("clean-long"), eager_runs.trace(planted), modules=True)
    divergence, drill = report["divergence"], report["moduleDrill"]
    assert report["verdict"] == "diverged", divergence
    assert divergence["firstStep"] == step and divergence["stage"] == stage, divergence
    assert divergence["codebook"] == codebook if codebook is not None else divergence["codebook"] >= 1, divergence
    assert drill["status"] == "found" and drill["step"] == step, drill
    return drill["module"]["name"]


def test_one_trace_per_request_named_by_id_with_the_setting_and_the_final_stage_audio(eager_runs):
    for name in [f"alone-{k}" for k in TEXTS] + [f"batch-{k}" for k in TEXTS]:
        run = eager_runs.requests[name]
        header, *steps = _lines(eager_runs.trace(name))
        assert header["requestId"] == run["request_id"]
        setting = header["vllm"]
        assert setting["enforceEager"] is True and setting["cudagraphMode"] == "NONE"
        assert setting["dtype"] == "bfloat16" and setting["prefixCaching"] is True and setting["stage"] == 0
        assert setting["vllmVersion"].startswith("0.30.0") and setting["vllmOmniVersion"].startswith("0.30.0")
        assert setting["modelRunner"] == "CPUARModelRunner (v1)" and setting["attentionBackends"]
        assert header["q"] == 16 and header["frameRate"] == 12.5 and header["sampleRate"] == 24000
        frames = [s for s in steps if "codes" in s]
        assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
        assert frames and all(len(s["codePredictorLogits"]) == 15 for s in frames)
        # The WAV beside the trace is the final stage's audio, as Omni returned it to the caller.
        audio, rate = soundfile.read(eager_runs.wav(name), dtype="float32")
        assert rate == 24000 and run["audio"] is not None
        np.testing.assert_array_equal(audio, run["audio"])
        assert len(audio) == 1920 * len(frames)  # one frame of codes -> 1920 samples at 12.5 Hz


def test_the_fixture_s_argmaxes_are_decided(eager_runs):
    # tiny_model.decide: every row of every request, talker and code predictor, has its top-1 logit more than the
    # bf16 near-tie gap (compare.BF16_NEAR_TIE_GAP) above its top-2, so bf16 rounding cannot flip a code.
    gaps = []
    for name in [f"alone-{k}" for k in TEXTS]:
        for step in _lines(eager_runs.trace(name))[1:]:
            for row in [step["logits"], *step.get("codePredictorLogits", [])]:
                gaps.append(row["top5"][0]["logit"] - row["top5"][1]["logit"])
    assert len(gaps) >= 4 * 11 * 16 and min(gaps) > float(BF16_NEAR_TIE_GAP), (len(gaps), min(gaps))


@pytest.mark.parametrize("key", list(TEXTS))
def test_each_request_in_a_batch_of_4_equals_it_alone(eager_runs, key):
    a, b = f"alone-{key}", f"batch-{key}"
    report = compare_trace(eager_runs.trace(a), eager_runs.trace(b), wav_a=eager_runs.wav(a), wav_b=eager_runs.wav(b))
    assert report["verdict"] == "identical", report["summary"]


def test_the_batch_of_4_changed_its_row_order_while_it_ran(eager_runs):
    # The swap-rows plant trades the first and last rows at every decode step (conftest.PLANTS); its log is the
    # talker runner's own input_batch.req_ids after each step's reorder.
    orders = [tuple(json.loads(line)) for line in (eager_runs.folder.parent / "rows.jsonl").read_text().splitlines()]
    batch = [o for o in orders if len(o) == 4 and all("_batch-" in r for r in o)]
    assert len(batch) >= 4 and len(set(batch)) >= 2, batch


def test_prefix_caching_without_salt_is_found_at_the_prefill_of_the_colliding_request_only(eager_runs):
    collided = compare_trace(eager_runs.trace("alone-longest"), eager_runs.trace("nosalt-longest"))
    assert collided["verdict"] == "diverged"
    assert collided["divergence"]["firstStep"] == 1 and collided["divergence"]["stage"] == "talker-logits"
    for key in ("mid", "short"):  # the request whose KV was reused, and one too short for a full block
        clean = compare_trace(eager_runs.trace(f"alone-{key}"), eager_runs.trace(f"nosalt-{key}"))
        assert clean["verdict"] in ("identical", "within-tolerance") and clean["divergence"]["firstStep"] is None


def test_stale_code_predictor_feedback_is_localised_to_step_2_code_predictor_codebook_and_module(eager_runs):
    module = _localised(eager_runs, "stale-long", step=2, stage="code-predictor")
    assert module.startswith("code_predictor."), module


def test_a_shifted_code_predictor_position_is_localised_to_step_1_code_predictor_codebook_2_and_module(eager_runs):
    # Positions one too far after the predictor's first two (plants.py): group 1 reads position 1, untouched; group
    # 2 is the first to read a shifted one.
    module = _localised(eager_runs, "cppos-long", step=1, stage="code-predictor", codebook=2)
    assert module.startswith("code_predictor.model.layers.0.") and module.endswith("@g2"), module


def test_the_clean_request_beside_the_planted_ones_equals_it_alone(eager_runs):
    report = compare_trace(
        eager_runs.trace("alone-long"),
        eager_runs.trace("clean-long"),
        wav_a=eager_runs.wav("alone-long"),
        wav_b=eager_runs.wav("clean-long"),
    )
    assert report["verdict"] == "identical", report["summary"]


def test_a_row_buffer_not_reset_between_requests_is_localised_to_step_1_code_predictor_codebook_1_and_module(
    eager_runs,
):
    log = [json.loads(line) for line in (eager_runs.folder.parent / "rows.jsonl").read_text().splitlines()]
    planted = [e for e in log if isinstance(e, dict) and e.get("noReset") == "0_noreset-long"]
    assert len(planted) == 1 and planted[0]["from"] != "0_noreset-long", planted  # another request's state was read
    module = _localised(eager_runs, "noreset-long", step=1, stage="code-predictor", codebook=1)
    assert module.startswith("code_predictor.model.layers.0.") and module.endswith("@g1"), module


def test_a_failure_inside_the_recorder_stops_that_request_s_recording_not_the_engine(eager_runs):
    run = eager_runs.requests["recfail-long"]
    # The engine went on: the request's audio came back, equal to the same text's alone.
    assert run["audio"] is not None and run["audio"].size > 0
    np.testing.assert_array_equal(run["audio"], eager_runs.requests["alone-long"]["audio"])
    # One line, naming the request and what failed; its two good lines kept as .partial, no trace under its name.
    lines = [line for line in eager_runs.stderr_log.read_text().splitlines() if "tts_parity vLLM recorder:" in line]
    assert len(lines) == 1, lines
    assert "request 3_recfail-long: writing a " in lines[0] and "No space left on device (planted)" in lines[0]
    trace = eager_runs.trace("recfail-long")
    assert not trace.exists()
    assert len(_lines(trace.with_name(trace.name + ".partial"))) == 1 + 2  # header and steps 1, 2
    # The batch beside it was recorded.
    assert eager_runs.trace("clean-long").exists() and eager_runs.trace("cppos-long").exists()
