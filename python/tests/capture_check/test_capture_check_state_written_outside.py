"""State read inside the step and written in place outside it, between steps (what seed 000 suspects of
Higgs-Audio-v3's audio feedback: sample() writes the codes the next captured step reads): listed with the line
of the read, the state's name and the steps that saw the write; not listed when nothing outside wrote it, when
the step wrote it itself, or when it was rebound (then it is a state-tensor-varies finding)."""

import inspect

import torch

from tts_parity.capture_check import capture_check


class Feedback(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("last_codes", torch.zeros(3))
        self.proj = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.proj(x) + self.last_codes

    def forward_writing_itself(self, x):
        self.last_codes.add_(1.0)
        return self.proj(x) + self.last_codes


def read_line():
    source, first = inspect.getsourcelines(Feedback.forward)
    return first + next(i for i, line in enumerate(source) if "self.last_codes" in line)


def steps(model, between):
    for _ in range(3):
        yield (torch.ones(3),)
        between(model)


def test_an_in_place_write_between_steps_is_listed_at_the_read_with_the_steps_that_saw_it():
    model = Feedback()

    def sample(m):
        m.last_codes.copy_(m.last_codes + 1)

    report = capture_check(model.forward, steps(model, sample))
    assert report.ok
    [state] = report.state_written_outside
    assert (state.label, state.lineno, state.before_steps) == (
        "argument self.last_codes",
        read_line(),
        ("steps[1]", "steps[2]"),
    )
    assert state.filename == __file__
    assert "self.last_codes" in state.code
    assert report.to_dict()["stateWrittenOutside"][0]["before_steps"] == ["steps[1]", "steps[2]"]
    assert "argument self.last_codes at" in str(report)


def test_state_nobody_writes_is_not_listed():
    model = Feedback()
    report = capture_check(model.forward, steps(model, lambda m: None))
    assert report.state_written_outside == []
    assert "written in place outside" not in str(report)


def test_a_write_by_the_step_itself_is_not_a_write_outside():
    model = Feedback()
    report = capture_check(model.forward_writing_itself, steps(model, lambda m: None))
    assert report.state_written_outside == []


def test_rebound_state_is_a_state_tensor_finding_not_a_write_outside():
    model = Feedback()

    def rebind(m):
        m.last_codes = m.last_codes + 1

    report = capture_check(model.forward, steps(model, rebind))
    assert report.state_written_outside == []
    assert {(f.rule, f.lineno) for f in report.findings} == {("state-tensor-varies-across-steps", read_line())}
