"""The Higgs recorder on the real talker (outside the engine, as the AR runner drives it): eight codebooks with
their delays in the header, and seed 000's signature planted (a stale audio-feedback read at the first decode
step) reported by `parity compare-trace` at step 2, in the talker stage, with the module that first differs."""

from __future__ import annotations

import json

from parity_cli import run_parity


def read(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    return lines[0], [line for line in lines[1:] if "step" in line]


def test_the_trace_has_eight_codebooks_and_the_delay_pattern(higgs_traces):
    header, steps = read(higgs_traces["clean"])
    assert header["q"] == 8 and header["codebookDelays"] == list(range(8))
    assert len(steps) == 12
    for n, step in enumerate(steps, start=1):
        # codebook k emits BOC (1024) until its delay has passed: step n carries frame n - k of codebook k
        assert [code == 1024 for code in step["codes"]] == [k >= n for k in range(8)], (n, step["codes"])


def test_the_stale_feedback_plant_is_reported_at_step_2_with_its_module(higgs_traces, tmp_path):
    clean, stale = higgs_traces["clean"], higgs_traces["stale"]
    done = run_parity(
        "compare-trace", clean, stale, "--out", tmp_path / "report",
        "--modules-a", clean.replace(".jsonl", ".modules.safetensors"),
        "--modules-b", stale.replace(".jsonl", ".modules.safetensors"),
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    divergence = report["divergence"]
    print(done.stdout)  # the summary, shown with -s (docs/vllm-omni.md quotes it)
    assert divergence["firstStep"] == 2
    assert divergence["stage"] == "talker-logits"
    assert divergence["frame"]["step"] == 2
    assert report["moduleDrill"]["status"] == "found"
    assert report["moduleDrill"]["module"]["name"] == "multimodal_embedding", report["moduleDrill"]
    # step 1 (the prefill, before any feedback) is the same in both
    _, clean_steps = read(clean)
    _, stale_steps = read(stale)
    assert clean_steps[0] == stale_steps[0]
