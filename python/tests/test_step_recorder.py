"""StepRecorder: one loop for eager steps and CUDA-graph replays. On CPU the replay path is tested semantically:
a run of the step inside graph_capture() copies into the static buffers what the captured copy kernels copy at a
replay, `_capturing` is made to say the stream captured, and `with recorder.step(n): pass` is the replay (no
Python runs). The real CUDA-graph test runs only where CUDA is available."""

import json

import numpy as np
import pytest
import torch

from tts_parity import StepRecorder, TraceWriter
from tts_parity.errors import ParityError, ParityStateError, ParityTypeError

from tiny_decoder import TinyDecoder

STEPS = 5


def trace_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def new_writer(path, q=4):
    return TraceWriter(path, engine="tiny", q=q, frame_rate=12.5, sample_rate=24000)


def eager_trace(path, model, device="cpu"):
    feedback, state = model.initial_state(device)
    with new_writer(path) as tw, StepRecorder(tw) as recorder:
        for n in range(1, STEPS + 1):
            with recorder.step(n):
                logits, codes, rows, hidden = model.step(feedback, state)
                recorder.log(logits, codes, code_predictor_logits=rows, hidden=hidden)
    return trace_lines(path)


@pytest.fixture
def pretend_capturing(monkeypatch):
    """graph_capture() runs as if the CUDA stream captured them (CPU has no capture)."""
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: True)
    monkeypatch.setattr(torch.Tensor, "is_cuda", property(lambda self: True))
    yield


def test_an_eager_loop_writes_one_line_per_step(tmp_path):
    lines = eager_trace(tmp_path / "e.jsonl", TinyDecoder())
    assert [s["step"] for s in lines[1:]] == list(range(1, STEPS + 1))
    assert len(lines[1]["codePredictorLogits"]) == 3 and "hidden" in lines[1]


def test_replays_write_the_buffers_their_captured_copies_refreshed(tmp_path, pretend_capturing):
    model = TinyDecoder()
    eager = eager_trace(tmp_path / "eager.jsonl", TinyDecoder())
    feedback, state = model.initial_state()

    def decode_step():  # what would be captured once and replayed
        logits, codes, rows, hidden = model.step(feedback, state)
        recorder.log(logits, codes, code_predictor_logits=rows, hidden=hidden)

    with new_writer(tmp_path / "graph.jsonl") as tw, StepRecorder(tw) as recorder:
        for n in range(1, STEPS + 1):
            with recorder.graph_capture():
                decode_step()  # the replay's captured copies
            with recorder.step(n):
                recorder.log(times_ms={"talker": 1.0, "codePredictor": 2.0})  # host values, after the replay
    graph = trace_lines(tmp_path / "graph.jsonl")
    assert [{k: v for k, v in s.items() if k != "timesMs"} for s in graph] == eager
    assert graph[1]["timesMs"] == {"talker": 1.0, "codePredictor": 2.0}
    # Each line is its own replay's values, not the first capture's.
    assert len({json.dumps(s["logits"]) for s in graph[1:]}) == STEPS


def test_one_loop_serves_eager_and_graph(tmp_path):
    """On CPU the docs' loop (log() inside the step function, the step called inside step(n)) is the eager trace."""
    model = TinyDecoder()
    feedback, state = model.initial_state()
    with new_writer(tmp_path / "cpu.jsonl") as tw, StepRecorder(tw) as recorder:

        def decode_step():
            logits, codes, rows, hidden = model.step(feedback, state)
            recorder.log(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)

        for n in range(1, STEPS + 1):
            with recorder.step(n):
                decode_step()
    assert trace_lines(tmp_path / "cpu.jsonl") == eager_trace(tmp_path / "e.jsonl", TinyDecoder())


# One test per misuse (issue 30 item 1): the same error type (ParityStateError, a RuntimeError) and a message
# naming the step, for the step recorder and the module recorder alike (tests/test_module_recorder.py).


@pytest.fixture
def recorder(tmp_path):
    tw = new_writer(tmp_path / "m.jsonl")
    yield StepRecorder(tw)
    if tw.steps_written:
        tw.close()
    else:
        with pytest.raises(ParityStateError, match="close\\(\\) with no steps written"):
            tw.close()


def one_step(rec, n):
    with rec.step(n):
        rec.log(torch.zeros(3), [0, 1, 2, 3])


def test_a_step_entered_twice_is_refused_naming_it(recorder):
    one_step(recorder, 1)
    with pytest.raises(ParityStateError, match=r"^step 1: StepRecorder\(.*m.jsonl\): step 1 entered twice"):
        one_step(recorder, 1)
    one_step(recorder, 2)  # the refusal left the recorder usable


def test_a_step_out_of_order_is_refused_naming_it(recorder):
    one_step(recorder, 1)
    with pytest.raises(ParityStateError, match=r"^step 3: StepRecorder\(.*\): entered after step 1, skipping step 2"):
        one_step(recorder, 3)
    one_step(recorder, 2)
    one_step(recorder, 3)
    with pytest.raises(
        ParityStateError, match=r"^step 2: .*entered after step 3; steps are entered 1, 2, 3\.\.\. in order"
    ):
        one_step(recorder, 2)


def test_a_step_inside_a_step_is_refused_naming_both(recorder):
    with pytest.raises(ParityStateError, match=r"^step 2: .*entered inside step 1"):
        with recorder.step(1):
            with recorder.step(2):
                pass


def test_a_replay_step_before_any_capture_is_refused_naming_it(recorder):
    """The old "flush before capture": a step that logged nothing, with no graph feeding the buffers."""
    with pytest.raises(ParityStateError, match=r'^step 1: StepRecorder: "talker_logits" was not logged in the step'):
        with recorder.step(1):
            pass


def test_buffers_filled_without_a_capture_are_not_read_as_a_replay(recorder):
    with recorder.graph_capture():
        recorder.log(torch.zeros(3), torch.zeros(4, dtype=torch.long))  # CPU: no stream captured it
    with pytest.raises(
        ParityStateError, match=r"^step 1: nothing was logged, and no CUDA graph captured inside graph_capture\(\)"
    ):
        with recorder.step(1):
            pass


def test_a_closed_writer_is_refused_naming_the_step(tmp_path):
    tw = new_writer(tmp_path / "c.jsonl")
    rec = StepRecorder(tw)
    one_step(rec, 1)
    tw.close()
    with pytest.raises(ParityStateError, match=r"^step 2: the trace .*c.jsonl is closed"):
        one_step(rec, 2)
    with pytest.raises(ParityStateError, match=r"^step 2: TraceWriter\(.*\): write_step\(\) after close\(\)"):
        tw.write_step(torch.zeros(3), [0, 1, 2, 3])


def test_a_closed_recorder_is_refused_naming_the_step(recorder):
    one_step(recorder, 1)
    recorder.close()
    with pytest.raises(ParityStateError, match=r"^step 2: StepRecorder\(.*\): step\(\) after close\(\)"):
        one_step(recorder, 2)


def test_log_outside_a_step_and_host_values_in_a_capture_are_refused(recorder):
    with pytest.raises(ParityStateError, match=r"^step 1: StepRecorder.log\(\) outside `with recorder.step\(n\):`"):
        recorder.log(torch.zeros(3), [0, 1, 2, 3])
    with pytest.raises(
        ParityStateError, match=r'"times_ms" inside graph_capture\(\): counts and times are host values'
    ):
        with recorder.graph_capture():
            recorder.log(times_ms={"talker": 1.0, "codePredictor": 1.0})
    with pytest.raises(ParityStateError, match=r'^step 1: StepRecorder.log\(\): "codes" given twice in one step'):
        with recorder.step(1):
            recorder.log(torch.zeros(3), [0, 1, 2, 3])
            recorder.log(codes=[0, 1, 2, 3])


def test_bad_arguments_are_refused_naming_them(tmp_path):
    with pytest.raises(ParityTypeError, match=r"^StepRecorder: writer: expected a TraceWriter, found str$"):
        StepRecorder("t.jsonl")
    with new_writer(tmp_path / "a.jsonl") as tw, StepRecorder(tw) as rec:
        with pytest.raises(ParityTypeError, match=r"^step: expected an integer >= 1 \(1 = the prefill\), found '1'"):
            rec.step("1").__enter__()
        with pytest.raises(ParityTypeError, match=r"^codes: expected a torch.Tensor, found list"):
            with rec.graph_capture():
                rec.log(talker_logits=torch.zeros(3), codes=[1, 2, 3, 4])
        one_step(rec, 1)


def test_old_names_are_plain_attribute_errors(recorder):
    # The 0.2 rename shims are gone (python/CHANGELOG.md): no __getattr__ answers for a missing name.
    assert "__getattr__" not in vars(StepRecorder)
    with pytest.raises(AttributeError, match=r"^'StepRecorder' object has no attribute 'flush_step'"):
        recorder.flush_step()
    with pytest.raises(TypeError, match="graph_safe"):
        StepRecorder(recorder.writer, graph_safe=True)
    assert issubclass(ParityStateError, (ParityError, RuntimeError))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA: captures a real torch.cuda.CUDAGraph")
def test_a_captured_cuda_graph_step_is_recorded_per_replay(tmp_path):
    model = TinyDecoder().cuda()
    eager = eager_trace(tmp_path / "eager.jsonl", model, "cuda")
    feedback, state = model.initial_state("cuda")
    with new_writer(tmp_path / "graph.jsonl") as tw, StepRecorder(tw) as recorder:

        def step():
            logits, codes, rows, hidden = model.step(feedback, state)
            recorder.log(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)

        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side), recorder.graph_capture():
            step()  # warm-up, as torch.cuda.graphs requires; allocates the buffers
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with recorder.graph_capture(), torch.cuda.graph(graph):
            step()
        feedback.zero_()
        state.zero_()
        for n in range(1, STEPS + 1):
            with recorder.step(n):
                graph.replay()
    lines = trace_lines(tmp_path / "graph.jsonl")
    assert [s["codes"] for s in lines[1:]] == [s["codes"] for s in eager[1:]]
    # Same kernels on the same inputs; 1e-5 leaves room for a different GEMM algorithm under capture.
    for g, e in zip(lines[1:], eager[1:]):
        np.testing.assert_allclose(
            [g["logits"][k] for k in ("mean", "std", "min", "max")],
            [e["logits"][k] for k in ("mean", "std", "min", "max")],
            rtol=0,
            atol=1e-5,
        )
