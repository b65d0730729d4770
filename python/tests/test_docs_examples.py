"""The examples of docs/python.md that say "# Runs as is" do: each is run as a script in an empty folder
(on CPU here; the CUDA-graph one takes its eager path) and must leave a complete 8-step trace and a WAV."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR, REPO_ROOT

DOC = REPO_ROOT / "docs" / "python.md"
BLOCKS = [
    b for b in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S) if b.startswith("# Runs as is")
]


def test_the_doc_has_its_two_complete_examples():
    assert len(BLOCKS) == 2


@pytest.mark.parametrize("block", BLOCKS, ids=["manual-loop", "cuda-graph-step"])
def test_a_runnable_example_writes_its_trace_and_wav(tmp_path, block):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PYTHON_DIR), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    traces = [f for f in os.listdir(tmp_path) if f.endswith(".jsonl")]
    assert len(traces) == 1
    with open(tmp_path / traces[0], encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    assert lines[0]["q"] == 16 and [s["step"] for s in lines[1:]] == list(range(1, 9))
    assert all(len(s["codePredictorLogits"]) == 15 and "hidden" in s for s in lines[1:])
    assert (tmp_path / traces[0].replace(".jsonl", ".wav")).stat().st_size == 58 + 4 * 8 * 1920
