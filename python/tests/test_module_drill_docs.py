"""docs/python-modules.md's example runs as is, and compare-trace prints the line the doc shows for it."""

import os
import re
import subprocess
import sys

from conftest import PYTHON_DIR, REPO_ROOT
from parity_cli import run_parity

DOC = (REPO_ROOT / "docs" / "python-modules.md").read_text(encoding="utf-8")
BLOCKS = [b for b in re.findall(r"```python\n(.*?)```", DOC, re.S) if b.startswith("# Runs as is")]


def test_the_example_localises_the_planted_bug_as_the_doc_says(tmp_path):
    assert len(BLOCKS) == 1
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PYTHON_DIR), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-c", BLOCKS[0]], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    cli = run_parity("compare-trace", tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert cli.returncode == 0, cli.stderr
    shown = re.search(r"^Module drill-down: .*$", DOC, re.M).group(0)
    assert shown in cli.stdout
