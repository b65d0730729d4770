"""The twin's two profiles on CPU: eager (dynamic KV cache, codes chosen on the host) and graph (static KV
buffers, codes chosen on the device, the decode step run directly because there is no CUDA graph to
capture on CPU) are two different code paths that must give the same codes."""

import numpy as np

from tts_parity.demo import synthesize
from tts_parity.safetensors_io import read_safetensors

from demo_twin_support import compare_trace, read_trace, run_twin

# Both paths run the same float32 ops; the static path attends over all 256 buffer rows (the masked ones
# contribute exact zeros), so only reduction order differs: measured ≤ 1e-6 on the logits.
LOGIT_TOL = 1e-5


def test_eager_and_static_path_give_the_same_codes(twin):
    for text in ("hello world", "The quick brown fox jumps over the lazy dog."):
        eager = synthesize(twin, text, "eager")
        graph = synthesize(twin, text, "graph")
        assert not graph.captured
        np.testing.assert_array_equal(graph.codes, eager.codes)
        for e, g in zip(eager.steps, graph.steps):
            assert np.max(np.abs(e.talker_logits - g.talker_logits)) <= LOGIT_TOL
            assert np.max(np.abs(e.code_predictor_logits - g.code_predictor_logits)) <= LOGIT_TOL


def test_graph_profile_on_cpu_says_no_graph_was_captured(tmp_path, capsys):
    # --device cpu: by default the twin takes CUDA when it is visible, and captures the graph there
    status, out, err = run_twin(capsys, "--profile", "graph", "--device", "cpu", "--text", "hello", "--out", tmp_path)
    assert status == 0, err
    assert "note: profile graph: no CUDA graph captured: CPU" in err
    header, steps = read_trace(tmp_path / "trace.jsonl")
    assert header["profile"] == "graph (no CUDA graph captured: CPU)"
    # 5 characters × framesPerChar 0.9 = 4.5 frames, rounded half up as JavaScript's Math.round (not Python's round)
    assert "cpu" in header["engine"] and len(steps) == 5
    # the graph step is one unit: no per-stage times; eager steps have them
    assert all("timesMs" not in s for s in steps[1:])
    assert "static buffers, no capture" in out


def test_eager_trace_has_stage_times_and_hidden_stats(tmp_path, capsys):
    assert run_twin(capsys, "--text", "hello", "--out", tmp_path)[0] == 0
    header, steps = read_trace(tmp_path / "trace.jsonl")
    assert header["profile"] == "eager" and header["seed"] == 0 and header["text"] == "hello"
    assert all(set(s["timesMs"]) == {"talker", "codePredictor"} and "hidden" in s for s in steps)
    assert all(len(s["codePredictorLogits"]) == header["q"] - 1 for s in steps)


def test_module_outputs_recorded_eagerly_and_through_static_buffers_agree(tmp_path, capsys):
    """Hooks (eager) and the static step's buffer copies (graph path) record the same modules in the same
    order with the same values, so a cross-profile comparison has no module to name."""
    modules = r"^(feedback|talker\.layers\.\d+\.(self_attn|mlp)|code_predictor\.lm_heads\.\d+)$"
    for profile in ("eager", "graph"):
        status, _, err = run_twin(
            capsys,
            "--profile",
            profile,
            "--text",
            "hello world",
            "--out",
            tmp_path / profile,
            "--record-modules",
            modules,
        )
        assert status == 0, err
    eager = read_safetensors(tmp_path / "eager" / "trace.modules.safetensors")[0]
    graph = read_safetensors(tmp_path / "graph" / "trace.modules.safetensors")[0]
    # 10 steps × (4 layers × 2 talker modules + 7 heads), and feedback at the 9 decode steps (the prefill has none)
    assert list(eager) == list(graph) and len(eager) == 10 * (8 + 7) + 9
    for key in eager:
        assert eager[key].shape == graph[key].shape, key
        assert np.max(np.abs(eager[key] - graph[key])) <= LOGIT_TOL, key
    assert (
        compare_trace(tmp_path / "eager" / "trace.jsonl", tmp_path / "graph" / "trace.jsonl")["divergence"]["firstStep"]
        is None
    )
