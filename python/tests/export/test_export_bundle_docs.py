"""docs/python-export.md's complete example runs as it stands: a script in an empty folder, with the
package from this checkout and `parity` found the way the page says (here: this checkout's bin/parity.js)."""

import json
import os
import re
import subprocess
import sys

from conftest import PYTHON_DIR, REPO_ROOT
from parity_cli import ensure_dist

DOC = REPO_ROOT / "docs" / "python-export.md"


def test_the_complete_example_exports_a_bundle_that_passes_the_smoke_check(tmp_path):
    block = re.search(
        r"<!-- example: export-bundle -->\n```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S
    ).group(1)
    ensure_dist()
    path = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep) if not os.path.exists(os.path.join(p, "parity"))
    )
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR), "PATH": path}  # no `parity` on PATH: the checkout's is found
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"my-bundle: exported in \d+\.\d s; smoke OK\n", done.stdout), done.stdout
    manifest = json.loads((tmp_path / "my-bundle" / "bundle.json").read_text())
    assert set(manifest["talker"]["exports"]) == {"eager-fp32", "graph-fp32"} and manifest["hopLength"] == 600
