"""Issue 30's PyTorch-user flow with the 0.2 API: tests/user_flow_two_paths.py instruments a two-path decode loop
(eager, and the static-buffer step a CUDA graph captures) with TraceWriter, StepRecorder and ModuleRecorder, plants a
bug in one path, and `parity compare-trace` names its step and module. The instrumentation is 8 lines."""

import os
import subprocess
import sys

from conftest import PYTHON_DIR
from parity_cli import run_parity

FLOW = PYTHON_DIR / "tests" / "user_flow_two_paths.py"


def test_the_planted_bug_is_localised_to_its_step_and_module(tmp_path):
    done = subprocess.run(
        [sys.executable, str(FLOW)],
        cwd=tmp_path,
        env={"PYTHONPATH": os.pathsep.join(filter(None, [str(PYTHON_DIR), os.environ.get("PYTHONPATH")]))},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    cli = run_parity("compare-trace", tmp_path / "eager.jsonl", tmp_path / "graph.jsonl")
    assert cli.returncode == 0, cli.stderr
    assert "First divergence: step 5, stage talker-logits, codebook 0" in cli.stdout
    assert "Module drill-down: step 5: first module whose output differs: mlp," in cli.stdout


def test_the_instrumentation_is_8_lines():
    lines = FLOW.read_text(encoding="utf-8").splitlines()
    assert sum(line.rstrip().endswith("# +") for line in lines) == 8
