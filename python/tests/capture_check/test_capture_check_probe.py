"""How the probe reads single ops and the report: one finding per user line (not torch's inner ops), the
Python values a step reads, where a finding points when torch is between the op and the user, the report's
table and JSON, and refusals of bad arguments."""

import contextlib
import inspect
import io
import json

import numpy as np
import pytest
import torch

from tts_parity.capture_check import CaptureReport, Finding, capture_check
from tts_parity.errors import ParityTypeError, ParityValueError

HERE = __file__


def line_of(fn, text):
    """The line number, in this file, of the line of `fn` holding `text`."""
    source, first = inspect.getsourcelines(fn)
    matches = [first + i for i, line in enumerate(source) if text in line]
    assert len(matches) == 1, (text, matches)
    return matches[0]


def findings(fn, steps):
    with contextlib.redirect_stdout(io.StringIO()):
        report = capture_check(fn, steps)
    return {(f.rule, f.lineno, f.op) for f in report.findings}


def test_printing_a_tensor_is_one_host_sync_not_its_inner_ops():
    def step(x):
        print("x is", x)
        return x + 1

    x = torch.arange(6.0)
    assert findings(step, [(x,), (x * 2,)]) == {("host-sync", line_of(step, "print("), "Tensor.__repr__")}


def test_a_python_number_written_by_setitem_is_a_value_not_a_tensor_from_python():
    def step(buffer, value):
        buffer[0] = value
        return buffer

    same = findings(step, [(torch.zeros(3), 5.0), (torch.zeros(3), 5.0)])
    varying = findings(step, [(torch.zeros(3), 5.0), (torch.zeros(3), 6.0)])
    assert same == set()
    assert {rule for rule, _, _ in varying} == {"python-scalar-varies-across-steps"}


def test_static_index_forms_are_not_data_dependent():
    def step(x, rows):
        return x[rows], x.repeat_interleave(2), x.to(torch.float16), x[1:], x[None]

    x = torch.arange(6.0)
    assert findings(step, [(x, torch.tensor([0, 2])), (x + 1, torch.tensor([1, 3]))]) == set()


def test_a_python_list_index_and_a_varying_python_tensor():
    def step(x, position):
        picked = x[[0, 1]]
        where = torch.tensor([position])
        return picked, x.index_select(0, where)

    found = findings(step, [(torch.arange(6.0), 2), (torch.arange(6.0), 3)])
    assert ("tensor-from-python", line_of(step, "x[[0, 1]]"), "aten.lift_fresh.default") in found
    assert ("tensor-from-python", line_of(step, "torch.tensor([position])"), "aten.lift_fresh.default") in found
    assert (
        "python-scalar-varies-across-steps",
        line_of(step, "torch.tensor([position])"),
        "aten.lift_fresh.default",
    ) in found
    assert len(found) == 3


def test_a_branch_on_a_python_value_is_reported_once_at_the_branch_body():
    def step(x, number):
        y = x + 1
        if number > 2:
            y = y * 2
        return y

    found = findings(step, [(torch.ones(2), 2), (torch.ones(2), 3)])
    assert found == {("python-scalar-varies-across-steps", line_of(step, "y = y * 2"), "aten.mul.Tensor")}


def test_state_grown_inside_the_step_is_reported_where_it_enters_the_step():
    class Decoder:
        def __init__(self):
            self.cache = torch.zeros(1, 4)

        def step(self, x):
            self.cache = torch.cat([self.cache, x], dim=0)
            scores = self.cache @ x.T
            return torch.softmax(scores, dim=0)

    decoder = Decoder()
    with contextlib.redirect_stdout(io.StringIO()):
        report = capture_check(decoder.step, [(torch.ones(1, 4),), (torch.ones(1, 4),)])
    assert [(f.rule, f.lineno) for f in report.findings] == [
        ("shape-varies-across-steps", line_of(Decoder.step, "torch.cat"))
    ]
    assert "argument self.cache has shape [1, 4] in steps[0], [2, 4] in steps[1]" in report.findings[0].hint


def test_the_line_is_the_users_even_when_torch_syncs_inside():
    class Head(torch.nn.Module):
        def forward(self, labels):
            return torch.nn.functional.one_hot(labels)  # no num_classes: torch reads labels.max() on the host

    head = Head()
    labels = torch.tensor([0, 2])
    report = capture_check(head, [(labels,), (labels,)])
    assert [(f.rule, f.filename, f.lineno) for f in report.findings] == [
        ("host-sync", HERE, line_of(Head.forward, "one_hot"))
    ]


def test_report_table_and_json():
    finding = Finding("host-sync", "Tensor.tolist", "/x/step.py", 12, "ids = t.tolist()", "move it out")
    report = CaptureReport(["step 2", "step 3"], [finding])
    table = str(report).splitlines()
    assert table[0] == "capture check: 1 finding over 2 steps (step 2, step 3)"
    assert table[1].split() == ["RULE", "WHERE", "OP", "CODE"]
    assert table[2].split() == ["host-sync", "/x/step.py:12", "Tensor.tolist", "ids", "=", "t.tolist()"]
    assert table[3].strip() == "fix: move it out"
    assert json.loads(report.to_json()) == {
        "ok": False,
        "steps": ["step 2", "step 3"],
        "findings": [
            {
                "rule": "host-sync",
                "op": "Tensor.tolist",
                "filename": "/x/step.py",
                "lineno": 12,
                "code": "ids = t.tolist()",
                "hint": "move it out",
            }
        ],
        "stateWrittenOutside": [],
    }
    clean = CaptureReport(["a", "b"], [])
    assert clean.ok and str(clean) == "capture check: no findings over 2 steps (a, b)"


def test_names_label_the_steps_in_hints():
    def step(x, k):
        return x * k

    report = capture_check(step, [(torch.ones(1), 2), (torch.ones(1), 3)], names=["step 2", "step 3"])
    assert "is 2 in step 2, 3 in step 3" in report.findings[0].hint


def test_bad_arguments_are_refused_with_what_was_wrong():
    def step(x):
        return x

    cases = [
        (
            lambda: capture_check(step, [(torch.ones(1),)]),
            ParityValueError,
            r"^capture_check: step_inputs: expected two or more consecutive steps, found 1 step\(s\)$",
        ),
        (
            lambda: capture_check(step, [(torch.ones(1),), torch.ones(1)]),
            ParityTypeError,
            r"^capture_check: step_inputs\[1\]: expected a tuple of fn's positional arguments, found Tensor$",
        ),
        (
            lambda: capture_check(step, [(torch.ones(1),), (torch.ones(1),)], names=["only one"]),
            ParityValueError,
            r"^capture_check: names: expected 2 names \(one per step\), found 1$",
        ),
        (
            lambda: capture_check("step", [(torch.ones(1),), (torch.ones(1),)]),
            ParityTypeError,
            r"^capture_check: fn: expected the decode step \(a callable\), found str$",
        ),
        (
            lambda: capture_check(step, [(torch.ones(1),), (torch.ones(1),)], names="ab"),
            ParityTypeError,
            r"^capture_check: names: expected a list of step labels, found str$",
        ),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()
    with pytest.raises(ValueError, match='unknown rule "sync"'):
        Finding("sync", "op", "f.py", 1, "", "")


def test_each_documented_form_is_found_under_its_rule():
    def step(x, mask):
        filled = x.clone()
        filled[mask] = 0
        rows = torch.where(mask)
        host = np.asarray(x)
        same = torch.equal(x, x)
        from_numpy = torch.from_numpy(np.ones(2))
        new = x.new_tensor([1.0, 2.0])
        runs = torch.unique_consecutive(x)
        counts = torch.bincount(mask.long())
        flag = float(x[0])
        return filled, rows, host, same, from_numpy, new, runs, counts, flag

    x = torch.arange(4.0)
    found = {(rule, line) for rule, line, _ in findings(step, [(x, x > 1), (x, x > 1)])}
    assert found == {
        ("data-dependent-shape", line_of(step, "filled[mask] = 0")),
        ("data-dependent-shape", line_of(step, "torch.where(mask)")),
        ("host-sync", line_of(step, "np.asarray(x)")),
        ("host-sync", line_of(step, "torch.equal")),
        ("tensor-from-python", line_of(step, "torch.from_numpy")),
        ("tensor-from-python", line_of(step, "new_tensor")),
        ("data-dependent-shape", line_of(step, "unique_consecutive")),
        ("data-dependent-shape", line_of(step, "bincount")),
        ("host-sync", line_of(step, "float(x[0])")),
    }
