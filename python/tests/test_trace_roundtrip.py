"""Cross-language: traces and WAVs written by TraceWriter are read back by the studio's TypeScript side —
its trace reader (every field) and `parity compare-trace` (localisation of planted differences)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tts_parity import TraceWriter

from parity_cli import run_node_module, run_parity

HERE = Path(__file__).resolve().parent
Q, VOCAB, STEPS, RATE, FRAME_RATE = 4, 64, 6, 24000, 12.5
HOP = int(RATE / FRAME_RATE)  # 1920 samples per frame


def decode_run(seed=3):
    """Raw rows and codes of a made-up 6-step run, with an Inf (step 2 talker) and a NaN (step 5, codebook 1)."""
    rng = np.random.default_rng(seed)
    talker = rng.normal(0, 3, (STEPS, VOCAB)).astype(np.float32)
    talker[1, 5] = np.inf
    cp = rng.normal(0, 2, (STEPS, Q - 1, VOCAB)).astype(np.float32)
    cp[4, 0, 9] = np.nan
    codes = rng.integers(0, VOCAB, (STEPS, Q))
    hidden = rng.normal(0, 1, (STEPS, 1, 1, 16)).astype(np.float32)
    audio = (0.3 * np.sin(2 * np.pi * 200 * np.arange(STEPS * HOP) / RATE)).astype(np.float32)
    return talker, cp, codes, hidden, audio


def write(path, run, **header):
    talker, cp, codes, hidden, audio = run
    with TraceWriter(path, engine="pytest roundtrip", q=Q, frame_rate=FRAME_RATE, sample_rate=RATE, **header) as tw:
        for s in range(STEPS):
            tw.write_step(
                talker[s],
                codes[s],
                code_predictor_logits=list(cp[s]),
                hidden=hidden[s],
                times_ms={"talker": 1.0 + s, "codePredictor": 0.5, "vocoder": 0.25},
            )
        tw.set_audio(audio)
    return path


def numbers(x):
    return float(x) if not isinstance(x, str) else float(x.replace("Infinity", "inf"))


def test_the_studio_reader_reads_every_field_and_the_stats_are_the_engines(tmp_path):
    run = decode_run()
    talker, cp, codes, hidden, _audio = run
    trace = write(tmp_path / "a.jsonl", run, profile="eager", seed=11, text="héllo", modules="a.modules.safetensors")
    rows = np.concatenate([talker[:, None, :], cp], axis=1).reshape(-1, VOCAB)  # per step: talker, cp 1..3
    rows.astype("<f4").tofile(tmp_path / "rows.f32")
    out = json.loads(run_node_module(HERE / "read_trace_ts.mjs", trace, tmp_path / "rows.f32", VOCAB))
    header, steps, ts_stats = out["trace"]["header"], out["trace"]["steps"], out["stats"]
    assert header == {
        "schema": "tts-parity-trace/1",
        "engine": "pytest roundtrip",
        "q": Q,
        "frameRate": FRAME_RATE,
        "sampleRate": RATE,
        "profile": "eager",
        "seed": 11,
        "text": "héllo",
        "modules": "a.modules.safetensors",
    }
    assert [s["step"] for s in steps] == list(range(1, STEPS + 1))
    for s, step in enumerate(steps):
        expected = ts_stats[s * Q : (s + 1) * Q]  # the engine's logitStats of the same raw rows
        for ours, theirs in zip([step["logits"], *step["codePredictorLogits"]], expected, strict=True):
            assert ours["argmax"] == theirs["argmax"] and [t["id"] for t in ours["top5"]] == [
                t["id"] for t in theirs["top5"]
            ]
            # Logits and min/max are the same float32 values: equal. mean/std: numpy sums pairwise, the
            # engine in order; both in float64 over <= 64 values, so they agree to ~1e-15 relative.
            assert [numbers(t["logit"]) for t in ours["top5"]] == [numbers(t["logit"]) for t in theirs["top5"]]
            for key in ("min", "max", "mean", "std"):
                a, b = numbers(ours[key]), numbers(theirs[key])
                assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=0), key
        assert step["codes"] == codes[s].tolist()
        assert step["timesMs"] == {"talker": 1.0 + s, "codePredictor": 0.5, "vocoder": 0.25}
        assert step["hidden"]["mean"] == pytest.approx(float(hidden[s].astype(np.float64).mean()), rel=1e-12)
        assert step["hidden"]["max"] == float(hidden[s].max()) and step["hidden"]["nan"] == 0
    assert steps[1]["logits"]["max"] == "Infinity" and steps[1]["inf"] == {
        "talker": 1,
        "codePredictor": 0,
        "vocoder": 0,
    }
    assert steps[4]["codePredictorLogits"][0]["mean"] == "NaN" and steps[4]["nan"]["codePredictor"] == 1


@pytest.mark.parametrize(
    "plant, expected",
    [
        ("talker", {"firstStep": 4, "stage": "talker-logits", "codebook": 0}),
        ("code-predictor", {"firstStep": 3, "stage": "code-predictor", "codebook": 2}),
        ("audio-nan", {"firstStep": 5, "stage": "vocoder"}),
    ],
)
def test_compare_trace_localises_a_planted_difference(tmp_path, plant, expected):
    run_a, run_b = decode_run(), decode_run()
    if plant == "talker":
        run_b[0][3] *= 1.01  # B's talker logits 1% larger at step 4 only
    elif plant == "code-predictor":
        run_b[1][2, 1] += 0.5  # B's code-predictor logits for codebook 2 at step 3
    else:
        run_b[4][4 * HOP + 100] = np.nan  # a NaN in B's audio, frame 5 -> vocoder counts of step 5
    a, b = write(tmp_path / "a.jsonl", run_a), write(tmp_path / "b.jsonl", run_b)
    done = run_parity(
        "compare-trace", a, b, "--wav-a", tmp_path / "a.wav", "--wav-b", tmp_path / "b.wav", "--out", tmp_path / "out"
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["kind"] == "traces" and report["verdict"] == "diverged"
    assert {k: report["divergence"][k] for k in expected} == expected
    assert report["traces"]["b"]["header"] == {
        "schema": "tts-parity-trace/1",
        "engine": "pytest roundtrip",
        "q": Q,
        "frameRate": FRAME_RATE,
        "sampleRate": RATE,
    }
    # The NaN/Inf counts both sides share: the first non-finite value is the Inf in step 2's talker logits.
    assert report["divergence"]["firstNonFinite"]["a"] == {"step": 2, "stage": "talker", "nan": 0, "inf": 1}
    assert {k: report["sources"]["a"][k] for k in ("sampleRate", "channels", "format")} == {
        "sampleRate": RATE,
        "channels": 1,
        "format": "float32",
    }
    if plant == "audio-nan":  # found by the vocoder counts TraceWriter took from the WAV's frame 5
        assert report["divergence"]["detail"] == "vocoder non-finite values: NaN 0 vs 1, Inf 0 vs 0"
    assert report["metrics"]["bitIdentical"] is (plant != "audio-nan")
