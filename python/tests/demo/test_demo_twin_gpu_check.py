"""python/gpu/twin_check.py, the twin's GPU acceptance: every part runs here on CPU (no capture), and its
checks hold; on a CUDA machine the last test runs the real thing (captured graph, refused bool-mask)."""

import json
import sys

import pytest
import torch

from conftest import PYTHON_DIR
from demo_twin_support import demo_bundle

sys.path.insert(0, str(PYTHON_DIR / "gpu"))
import twin_check


def run_check(tmp_path, capsys, device):
    out = tmp_path / "check.json"
    status = twin_check.main(
        [
            "--bundle",
            str(demo_bundle()),
            "--device",
            device,
            "--text",
            "hello world",
            "--warmup",
            "1",
            "--repeats",
            "3",
            "--rounds",
            "1",
            "--stale-step",
            "3",
            "--out",
            str(out),
        ]
    )
    capsys.readouterr()
    return status, json.loads(out.read_text())


def test_cpu_parts_run_and_pass(tmp_path, capsys):
    status, report = run_check(tmp_path, capsys, "cpu")
    assert status == 0 and report["passed"]
    assert report["eager_vs_graph"]["captured"] is False and report["eager_vs_graph"]["codes_identical"]
    stale = report["stale_feedback"]
    assert (
        stale["first_divergent_step"] == 3
        and stale["steps_before_bit_identical"]
        and stale["first_module"] == "feedback"
    )
    step = report["decode_step"]
    assert step["eager_ms"] > 0 and step["static_no_graph_ms"] > 0 and "graph_replay_ms" not in step
    assert report["bool_mask"]["exit_code"] == 0 and not report["bool_mask"]["capture_refused"]
    assert set(report["recording_overhead"]) == {"modules", "eager", "graph"}


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA-graph capture needs a CUDA GPU: did not run")
def test_cuda_graph_acceptance(tmp_path, capsys):
    status, report = run_check(tmp_path, capsys, "cuda")
    assert report["eager_vs_graph"]["captured"] and report["stale_feedback"]["captured"]
    assert report["stale_feedback"]["localised_exactly"]
    assert report["bool_mask"]["capture_refused"], report["bool_mask"]["stderr"]
    assert report["eager_vs_graph"]["codes_identical"] and status == 0
