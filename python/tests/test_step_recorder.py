"""StepRecorder: eager and graph-safe recording of a decode loop. On CPU the graph-safe path is tested
semantically (a "replay" re-runs the same callable, whose capture() writes the same static buffers, as
the captured copy kernels do); the real CUDA-graph test runs only where CUDA is available."""

import json

import numpy as np
import pytest
import torch

from tiny_decoder import TinyDecoder
from tts_parity import TraceWriter
from tts_parity.step_recorder import StepRecorder

STEPS = 5


def trace_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def new_writer(path, q=4):
    return TraceWriter(path, engine="tiny", q=q, frame_rate=12.5, sample_rate=24000)


def eager_trace(path, model, device="cpu"):
    recorder = StepRecorder(new_writer(path))
    feedback, state = model.initial_state(device)
    for _ in range(STEPS):
        logits, codes, rows, hidden = model.step(feedback, state)
        recorder.record(logits, codes, code_predictor_logits=rows, hidden=hidden)
    recorder.writer.close()
    return trace_lines(path)


def test_graph_safe_records_each_replays_buffers_equal_to_eager(tmp_path):
    model = TinyDecoder()
    eager = eager_trace(tmp_path / "eager.jsonl", model)

    recorder = StepRecorder(new_writer(tmp_path / "graph.jsonl"), graph_safe=True)
    feedback, state = model.initial_state()

    def captured_step():  # what would be captured once and replayed
        logits, codes, rows, hidden = model.step(feedback, state)
        recorder.capture(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)

    for _ in range(STEPS):
        captured_step()  # "replay"
        recorder.flush_step()
    recorder.writer.close()
    graph = trace_lines(tmp_path / "graph.jsonl")
    assert graph == eager
    # The steps differ from one another: each line is its own replay's values, not the first capture's.
    assert len({json.dumps(s["logits"]) for s in graph[1:]}) == STEPS
    assert len(graph[1]["codePredictorLogits"]) == 3 and "hidden" in graph[1]


def test_without_a_graph_a_flush_with_no_capture_since_the_last_is_refused(tmp_path):
    """On CPU nothing but capture() writes the buffers: a second flush_step() would write the same step
    twice under two step numbers, so it is refused; the next capture() makes flushing possible again."""
    model = TinyDecoder()
    recorder = StepRecorder(new_writer(tmp_path / "g.jsonl"), graph_safe=True)
    feedback, state = model.initial_state()

    def step():
        logits, codes, rows, hidden = model.step(feedback, state)
        recorder.capture(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)

    step()
    recorder.flush_step()
    with pytest.raises(ValueError, match=r"^step 2: flush_step\(\) with no capture\(\) since the last flush_step\(\): the buffers still hold the previous step"):
        recorder.flush_step()
    step()
    recorder.flush_step()
    recorder.writer.close()
    steps = trace_lines(tmp_path / "g.jsonl")[1:]
    assert [s["step"] for s in steps] == [1, 2] and steps[0]["logits"] != steps[1]["logits"]


@pytest.mark.filterwarnings("ignore:TraceWriter.*was never closed")  # refusals leave the writer open on purpose
def test_mode_misuse_and_flush_before_capture_are_refused(tmp_path):
    graph = StepRecorder(new_writer(tmp_path / "g.jsonl"), graph_safe=True)
    with pytest.raises(ValueError, match=r"^step 1: flush_step\(\) before any capture\(\)"):
        graph.flush_step()
    with pytest.raises(ValueError, match=r"graph_safe=True\): call capture\(\)"):
        graph.record(torch.zeros(3), torch.zeros(4, dtype=torch.long))
    with pytest.raises(TypeError, match=r'record\("codes"\): expected a torch.Tensor, found list'):
        graph.capture(talker_logits=torch.zeros(3), codes=[1, 2, 3, 4])
    eager = StepRecorder(new_writer(tmp_path / "e.jsonl"))
    with pytest.raises(ValueError, match="graph_safe=False"):
        eager.capture(talker_logits=torch.zeros(3), codes=torch.zeros(4, dtype=torch.long))
    with pytest.raises(TypeError, match="expected a TraceWriter, found str"):
        StepRecorder("t.jsonl")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA: captures a real torch.cuda.CUDAGraph")
def test_a_captured_cuda_graph_step_is_recorded_per_replay(tmp_path):
    model = TinyDecoder().cuda()
    eager = eager_trace(tmp_path / "eager.jsonl", model, "cuda")
    recorder = StepRecorder(new_writer(tmp_path / "graph.jsonl"), graph_safe=True)
    feedback, state = model.initial_state("cuda")

    def step():
        logits, codes, rows, hidden = model.step(feedback, state)
        recorder.capture(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        step()  # warm-up, as torch.cuda.graphs requires; allocates the buffers
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    feedback.zero_()
    state.zero_()
    for _ in range(STEPS):
        graph.replay()
        recorder.flush_step()
    recorder.writer.close()
    lines = trace_lines(tmp_path / "graph.jsonl")
    assert [s["codes"] for s in lines[1:]] == [s["codes"] for s in eager[1:]]
    # Same kernels on the same inputs; 1e-5 leaves room for a different GEMM algorithm under capture.
    for g, e in zip(lines[1:], eager[1:]):
        np.testing.assert_allclose([g["logits"][k] for k in ("mean", "std", "min", "max")],
                                   [e["logits"][k] for k in ("mean", "std", "min", "max")], rtol=0, atol=1e-5)
