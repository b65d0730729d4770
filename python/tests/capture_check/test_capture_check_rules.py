"""Each rule's example is reported at exactly its marked lines (file, line, rule) and its capture-safe rewrite
is not; seed 001's two quoted lines are host-sync and data-dependent-shape, its own fix is clean; the check
does not change what the step returns."""

import contextlib
import io
from pathlib import Path

import pytest
import torch

from tts_parity.capture_check import RULES, capture_check
from tts_parity.examples import (
    data_dependent_shape,
    host_sync,
    python_scalar_varies,
    seed_001_talker,
    shape_varies,
    state_tensor_varies,
    tensor_from_python,
)
from tts_parity.examples.markers import marked_findings

RULE_EXAMPLES = [
    host_sync,
    data_dependent_shape,
    tensor_from_python,
    shape_varies,
    python_scalar_varies,
    state_tensor_varies,
]


def quiet_check(fn, steps, **kwargs):
    """capture_check with the step's own prints (host_sync prints a tensor on purpose) kept off the test log."""
    with contextlib.redirect_stdout(io.StringIO()):
        return capture_check(fn, steps, **kwargs)


def test_the_examples_cover_every_rule():
    assert sorted(example.RULE for example in RULE_EXAMPLES) == sorted(RULES)


@pytest.mark.parametrize("example", RULE_EXAMPLES, ids=lambda m: m.RULE)
def test_unsafe_example_is_reported_at_its_marked_lines(example):
    report = quiet_check(example.unsafe_step, example.step_inputs())
    expected = marked_findings(example.__file__)
    assert {rule for rule, _ in expected} == {example.RULE}
    assert {(f.rule, f.lineno) for f in report.findings} == expected
    assert not report.ok
    for finding in report.findings:
        assert finding.filename == example.__file__
        assert finding.code.endswith(f"# capture-check: {finding.rule}")  # the user's own line, not torch's
        assert finding.hint and "\n" not in finding.hint


@pytest.mark.parametrize("example", RULE_EXAMPLES, ids=lambda m: m.RULE)
def test_capture_safe_rewrite_is_clean(example):
    inputs = getattr(example, "safe_step_inputs", example.step_inputs)()
    report = capture_check(example.safe_step, inputs)
    assert report.ok, str(report)
    assert report.findings == []


def test_seed_001_lines_are_host_sync_and_data_dependent_shape():
    report = capture_check(seed_001_talker.decode_request_token_positions, seed_001_talker.step_inputs())
    found = {(f.rule, f.lineno, f.code.split("  #")[0]) for f in report.findings}
    assert found == {
        (
            "host-sync",
            _line_of("starts < int(num_tokens)"),
            "decode_mask = (spans == 1) & (starts >= 0) & (starts < int(num_tokens))",
        ),
        (
            "data-dependent-shape",
            _line_of("req_rows[decode_mask]"),
            "return req_rows[decode_mask], starts[decode_mask]",
        ),
    }


def test_seed_001_fix_is_clean_and_returns_what_the_mask_kept():
    steps = seed_001_talker.step_inputs()
    report = capture_check(seed_001_talker.decode_request_token_positions_fixed, steps)
    assert report.ok, str(report)
    for args, (rows, starts) in zip(steps, report.outputs):
        filtered_rows, filtered_starts = seed_001_talker.decode_request_token_positions(*args)
        assert torch.equal(rows, filtered_rows) and torch.equal(starts, filtered_starts)


def test_seed_001_eager_path_of_the_fix_is_still_flagged():
    steps = [(*args, False) for args in seed_001_talker.step_inputs()]
    report = capture_check(seed_001_talker.decode_request_token_positions_fixed, steps)
    assert {f.rule for f in report.findings} == {"host-sync", "data-dependent-shape"}


@pytest.mark.parametrize("example", RULE_EXAMPLES, ids=lambda m: m.RULE)
@pytest.mark.parametrize("variant", ["unsafe", "safe"])
def test_the_check_does_not_change_the_outputs(example, variant):
    fn = getattr(example, f"{variant}_step")
    make_inputs = (
        example.step_inputs if variant == "unsafe" else getattr(example, "safe_step_inputs", example.step_inputs)
    )
    with contextlib.redirect_stdout(io.StringIO()):
        plain = [fn(*args) for args in make_inputs()]  # fresh inputs each time: some steps write their caches
    checked = quiet_check(fn, make_inputs()).outputs
    assert _same(plain, checked)


def _line_of(text):
    lines = Path(seed_001_talker.__file__).read_text(encoding="utf-8").splitlines()
    matches = [n for n, line in enumerate(lines, 1) if text in line and not line.lstrip().startswith(('"', "#"))]
    assert len(matches) == 1, matches
    return matches[0]


def _same(a, b):
    """Exact equality through tuples/lists; tensors bit for bit (same dtype, shape and values, NaN-free here)."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b
