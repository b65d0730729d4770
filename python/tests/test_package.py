"""The package imports without torch: only the torch helpers may import it."""

import subprocess
import sys

from conftest import PYTHON_DIR


def test_import_does_not_load_torch():
    code = "import sys, tts_parity; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DIR, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
