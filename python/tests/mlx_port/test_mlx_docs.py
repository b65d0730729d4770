"""The MLX example of docs/other-runtimes.md that says "# Runs as is (MLX)" does: run as a script in an empty folder,
it leaves a complete 8-step trace (bfloat16 talker rows included) and its WAV, and `parity compare-trace` reads it."""

import json
import os
import re
import subprocess
import sys

from conftest import PYTHON_DIR, REPO_ROOT
from optional_modules import mlx_core
from parity_cli import run_parity

mlx_core()  # the example imports MLX

DOC = REPO_ROOT / "docs" / "other-runtimes.md"
BLOCKS = [
    b
    for b in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    if b.startswith("# Runs as is (MLX)")
]


def test_the_mlx_example_writes_its_trace_and_wav(tmp_path, parity_dist):
    assert len(BLOCKS) == 1
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PYTHON_DIR), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-c", BLOCKS[0]], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (tmp_path / "mlx.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0]["q"] == 16 and [s["step"] for s in lines[1:]] == list(range(1, 9))
    assert all(len(s["codePredictorLogits"]) == 15 and "hidden" in s for s in lines[1:])
    assert all(s["nan"]["talker"] == 0 and s["codes"][0] == s["logits"]["argmax"] for s in lines[1:])
    assert (tmp_path / "mlx.wav").stat().st_size == 58 + 4 * 8 * 1920
    compared = run_parity("compare-trace", tmp_path / "mlx.jsonl", tmp_path / "mlx.jsonl", "--json")
    assert compared.returncode == 0, compared.stderr
    assert json.loads(compared.stdout)["divergence"]["firstStep"] is None
