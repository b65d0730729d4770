"""The twin's faults, localised by `parity compare-trace` (twin without the fault = A, with it = B):
stale-feedback@N parts at step N exactly, in both profiles; the planted mlp-scale@N is named at step N
and in module talker.layers.0.mlp through the module sidecars, eager and on the graph profile's static
buffers; bool-mask runs on CPU and says that no capture happened."""

import json

import pytest

from tts_parity._errors_text import first_line
from tts_parity.demo.graph_runner import GraphRunner
from tts_parity.errors import CaptureRefused

from demo_twin_support import compare_trace, read_trace, run_twin
from parity_cli import run_parity

TEXT = "hello world"  # 10 frames
MODULES = r"^(feedback|talker\.layers\.\d+\.(self_attn|mlp))$"


def traced(capsys, folder, profile, *extra):
    status, _, err = run_twin(capsys, "--profile", profile, "--text", TEXT, "--out", folder, *extra)
    assert status == 0, err
    return folder / "trace.jsonl"


@pytest.mark.parametrize("profile", ["eager", "graph"])
@pytest.mark.parametrize("step", [2, 4])
def test_stale_feedback_diverges_first_at_its_step(tmp_path, capsys, profile, step):
    a = traced(capsys, tmp_path / "a", profile)
    b = traced(capsys, tmp_path / "b", profile, "--fault", f"stale-feedback@{step}")
    done = run_parity("compare-trace", a, b, "--out", tmp_path / "fixture")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "fixture" / "report.json").read_text(encoding="utf-8"))
    assert report["divergence"]["firstStep"] == step
    assert report["divergence"]["stage"] == "talker-logits"
    assert all(s["maxStatDiff"] == 0 for s in report["divergence"]["steps"][: step - 1])


@pytest.mark.parametrize("profile", ["eager", "graph"])
def test_planted_mlp_scale_is_localised_to_step_and_module(tmp_path, capsys, profile):
    record = ("--record-modules", MODULES)
    a = traced(capsys, tmp_path / "a", profile, *record)
    b = traced(capsys, tmp_path / "b", profile, "--fault", "mlp-scale@5", *record)
    assert read_trace(b)[0]["modules"] == "trace.modules.safetensors"
    report = compare_trace(a, b)
    assert report["divergence"]["firstStep"] == 5
    drill = report["moduleDrill"]
    assert drill["status"] == "found" and drill["step"] == 5
    assert drill["module"]["name"] == "talker.layers.0.mlp"
    assert drill["compared"] == 3  # feedback and talker.layers.0.self_attn matched before it


def test_stale_feedback_is_localised_to_the_feedback_module(tmp_path, capsys):
    record = ("--record-modules", MODULES)
    a = traced(capsys, tmp_path / "a", "graph", *record)
    b = traced(capsys, tmp_path / "b", "graph", "--fault", "stale-feedback@3", *record)
    drill = compare_trace(a, b)["moduleDrill"]
    assert drill["step"] == 3 and drill["module"]["name"] == "feedback" and drill["compared"] == 1


def test_bool_mask_runs_on_cpu_and_says_no_capture_happened(tmp_path, capsys):
    # --device cpu: by default the twin takes CUDA when it is visible, where capture refuses the fault (twin_check)
    a = traced(capsys, tmp_path / "a", "graph", "--device", "cpu")
    status, _, err = run_twin(
        capsys, "--profile", "graph", "--device", "cpu", "--fault", "bool-mask", "--text", TEXT, "--out", tmp_path / "b"
    )
    assert status == 0, err
    assert "fault bool-mask: the boolean-mask index ran (cpu: no capture happened, so nothing refused it)" in err
    assert compare_trace(a, tmp_path / "b" / "trace.jsonl")["divergence"]["firstStep"] is None


def test_a_fault_past_the_last_step_is_not_applied_and_exits_2(tmp_path, capsys):
    status, _, err = run_twin(capsys, "--fault", "stale-feedback@50", "--text", TEXT, "--out", tmp_path)
    assert status == 2
    assert (
        "warning: fault stale-feedback@50 was not applied: step 50 never ran: the synthesis ended after 10 steps" in err
    )
    assert (
        err.strip().splitlines()[-1]
        == "tts_parity.demo: none of the requested faults was applied (stale-feedback@50); exit 2"
    )
    assert (tmp_path / "trace.jsonl").exists()


def test_cuda_s_refusal_is_reported_by_its_original_error():
    """torch.cuda.graph's exit raises its own error over the body's; the line names the body's (CUDA's refusal)."""
    try:
        try:
            raise RuntimeError(
                "CUDA error: operation not permitted when stream is capturing\nCompile with `TORCH_USE_CUDA_DSA`"
            )
        finally:
            raise RuntimeError("CUDA error: operation failed due to a previous error during capture")
    except RuntimeError as error:
        assert (
            first_line(error, original=True)
            == "RuntimeError: CUDA error: operation not permitted when stream is capturing"
        )


def test_a_refused_capture_is_one_line_exit_2_and_keeps_the_partial_trace(tmp_path, capsys, monkeypatch):
    """CPU stand-in for CUDA (which this machine lacks): the runner believes it captures, and the capture raises
    as torch does; what the user sees is checked, not CUDA itself (python/gpu/twin_check.py does that)."""
    original_init = GraphRunner.__init__

    def capturing(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self.captures = True

    def refuse(self):
        try:
            raise RuntimeError("CUDA error: operation not permitted when stream is capturing")
        except RuntimeError as error:
            raise CaptureRefused(
                f"CUDA graph capture of the decode step failed: {first_line(error, original=True)}"
            ) from None

    monkeypatch.setattr(GraphRunner, "__init__", capturing)
    monkeypatch.setattr(GraphRunner, "_capture", refuse)
    args = ("--profile", "graph", "--fault", "bool-mask", "--text", TEXT, "--out", tmp_path)
    status, _out, err = run_twin(capsys, *args)
    assert status == 2
    assert (
        err.splitlines()[-1]
        == "tts_parity.demo: CUDA graph capture of the decode step failed: RuntimeError: CUDA error: operation not "
        "permitted when stream is capturing"
    )
    assert not (tmp_path / "trace.jsonl").exists() and len(read_trace(tmp_path / "trace.jsonl.partial")[1]) == 1
