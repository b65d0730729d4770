"""The MLX port of the demo (demo_mlx.py), traced through tts_parity's writer with MLX arrays as they are (and its
talker layers' outputs through write_module_sidecar): full (recompute) vs incremental (KV cache) agree, seed 002's
class planted into the cached path (history off by one from step N on) is localised to step N and to layer 0's
attention by `parity compare-trace`, and the port decodes the engine's own codes."""

from __future__ import annotations

import numpy as np
import pytest

from demo_twin_support import compare_trace, engine_synth
from optional_modules import mlx_core

mlx_core()  # the port imports MLX: under gpu-check, where MLX is missing, this skips the module saying so

from demo_mlx import DemoMlx  # noqa: E402

PROMPTS = ("Hello from MLX.", "Cached, then in full.")  # 14 and 19 frames
# Full and incremental compute the same float32 dot products, over a longer sequence in `full`: they may differ by
# float32 rounding where a matrix library blocks the longer product differently. Measured here (mlx 0.32.4, CPU):
# 0.0, bit for bit, on both prompts; 1e-5 is some hundred ulps of logits of magnitude ~4.
ROW_TOL = 1e-5


@pytest.fixture(scope="module")
def port(demo_bundle):
    return DemoMlx(demo_bundle)


@pytest.fixture(scope="module")
def decoded(port):
    """(text, mode, planted step) -> the decoded steps, each decode done once for the module."""
    done = {}

    def get(text, mode, planted=None):
        if (text, mode, planted) not in done:
            done[text, mode, planted] = list(port.decode(text, mode, planted))
        return done[text, mode, planted]

    return get


def _max_abs(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))))


def _trace(port, decoded, folder, text, mode, planted=None):
    name = f"{mode}-{planted}.jsonl" if planted else f"{mode}.jsonl"
    return port.write_trace(folder / name, text, mode, planted, steps=decoded(text, mode, planted), modules=True)


@pytest.mark.parametrize("text", PROMPTS)
def test_full_and_incremental_agree_unplanted(port, decoded, text, tmp_path, parity_dist):
    full, incremental = decoded(text, "full"), decoded(text, "incremental")
    assert [s.codes for s in full] == [s.codes for s in incremental]
    rows = [(a.talker_logits, b.talker_logits) for a, b in zip(full, incremental)]
    rows += [(a.hidden, b.hidden) for a, b in zip(full, incremental)]
    rows += [pair for a, b in zip(full, incremental) for pair in zip(a.code_predictor_logits, b.code_predictor_logits)]
    worst = max(_max_abs(a, b) for a, b in rows)
    assert worst <= ROW_TOL, worst
    report = compare_trace(
        _trace(port, decoded, tmp_path, text, "full"), _trace(port, decoded, tmp_path, text, "incremental")
    )
    assert report["divergence"]["firstStep"] is None
    assert report["verdict"] == "within-tolerance"  # traces alone, without audio, are never "identical"
    assert report["moduleDrill"]["status"] == "no-divergence"


@pytest.mark.parametrize("planted", [2, 9])
def test_history_off_by_one_is_localised_to_its_step(port, decoded, planted, tmp_path, parity_dist):
    text = PROMPTS[0]
    report = compare_trace(
        _trace(port, decoded, tmp_path, text, "full"),
        _trace(port, decoded, tmp_path, text, "incremental", planted),
    )
    divergence = report["divergence"]
    assert (divergence["firstStep"], divergence["stage"]) == (planted, "talker-logits")
    assert all(s["maxStatDiff"] <= ROW_TOL for s in divergence["steps"][: planted - 1])
    assert report["verdict"] == "diverged"
    # The sidecars' drill-down names the planted layer, as seed 002 found it by hand: layer 0, history present.
    drill = report["moduleDrill"]
    assert (drill["status"], drill["step"], drill["module"]["name"]) == ("found", planted, "talker.layers.0.self_attn")


def test_the_port_decodes_the_engine_codes(port, decoded, tmp_path, parity_dist):
    # The engine (`parity synth`, ONNX Runtime, eager) and the MLX port read the same weights: greedy codes equal,
    # logit statistics within compare-trace's default 0.001 (two runtimes' float32 kernels).
    text = PROMPTS[1]
    engine, _ = engine_synth(tmp_path / "engine", text)
    report = compare_trace(engine, _trace(port, decoded, tmp_path, text, "incremental"))
    assert report["divergence"]["firstStep"] is None, report["divergence"]
