"""The twin's graph decode step (tts_parity.demo) is capture-ready by the check, and running it under the check
leaves its outputs unchanged; the twin's own seed-001 fault and the three unsafe variants shipped in
tts_parity.examples.twin_unsafe_variants are reported at their lines, each under its rule."""

from pathlib import Path

import numpy as np
import pytest
import torch

from tts_parity.capture_check import capture_check
from tts_parity.demo import Faults
from tts_parity.demo import faults as twin_faults
from tts_parity.demo.static_step import StaticStep
from tts_parity.demo.text import tokenize
from tts_parity.examples import twin_unsafe_variants as variants
from tts_parity.examples.markers import marked_findings

from demo_twin_support import twin

TEXT = "hello world"
DECODE_STEPS = (2, 3, 4)


def prompt_ids():
    return tokenize(TEXT, twin().manifest)[0]


def run_graph_steps(step, checked):
    """Decode steps 2-4 of the twin's graph loop, plain or under the check: (report or None, outputs per step)."""
    outputs = []

    def steps():
        for args in variants.graph_steps(step, prompt_ids(), DECODE_STEPS):
            yield args
            outputs.append(step.out.read())

    with torch.no_grad():
        if checked:
            return capture_check(step.decode, steps(), names=[f"step {n}" for n in DECODE_STEPS]), outputs
        for args in steps():
            step.decode(*args)
    return None, outputs


def test_twin_graph_step_has_no_findings():
    report, _ = run_graph_steps(StaticStep(twin(), Faults()), checked=True)
    assert report.ok, str(report)


def test_the_check_leaves_the_twin_steps_outputs_unchanged():
    _, plain = run_graph_steps(StaticStep(twin(), Faults()), checked=False)
    _, checked = run_graph_steps(StaticStep(twin(), Faults()), checked=True)
    assert len(plain) == len(checked) == len(DECODE_STEPS)
    for a, b in zip(plain, checked):
        assert a.keys() == b.keys() and all(np.array_equal(a[name], b[name]) for name in a)  # bit for bit


def test_twin_bool_mask_fault_is_data_dependent_shape_at_its_line():
    report, _ = run_graph_steps(StaticStep(twin(), Faults(bool_mask=True)), checked=True)
    source = Path(twin_faults.__file__).read_text(encoding="utf-8").splitlines()
    mask_lines = [
        n for n, line in enumerate(source, 1) if line.strip().startswith("return") and "[decode_mask]" in line
    ]
    assert len(mask_lines) == 1, mask_lines
    assert [(f.rule, f.filename, f.lineno) for f in report.findings] == [
        ("data-dependent-shape", twin_faults.__file__, mask_lines[0])
    ]


def _expected(rule):
    return {(r, line) for r, line in marked_findings(variants.__file__) if r == rule}


@pytest.mark.parametrize(
    "rule, build",
    [
        (
            "data-dependent-shape",
            lambda: _checked(variants.BoolMaskStep(twin(), Faults()), "decode", variants.graph_steps),
        ),
        (
            "python-scalar-varies-across-steps",
            lambda: _checked(variants.StepCounterStep(twin(), Faults()), "decode_at", variants.step_counter_steps),
        ),
        (
            "shape-varies-across-steps",
            lambda: _checked(variants.GrowingCacheTalker(twin()), "decode", variants.growing_cache_steps),
        ),
    ],
    ids=["bool-mask-positions", "python-step-counter", "growing-concat-kv"],
)
def test_unsafe_twin_variant_is_reported_at_its_lines(rule, build):
    report = build()
    assert _expected(rule), "the variants file marks this rule"
    assert {(f.rule, f.lineno) for f in report.findings} == _expected(rule)
    assert {f.filename for f in report.findings} == {variants.__file__}


def _checked(step, method, steps):
    with torch.no_grad():
        return capture_check(getattr(step, method), steps(step, prompt_ids(), DECODE_STEPS))
