"""The package imports without torch: only the torch helpers may import it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import PYTHON_DIR
from optional_modules import need


def test_import_does_not_load_torch():
    code = "import sys, tts_parity; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DIR, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_pip_installs_the_package_with_its_schemas_and_declared_torch_range(tmp_path):
    # The package as users get it (`pip install ./python`), built offline with the environment's setuptools,
    # imported from the install folder only (not this checkout). Built from a copy: setuptools writes build/
    # and *.egg-info beside the sources it builds.
    need("pip", "pip (installs the package)")
    source = tmp_path / "src"
    shutil.copytree(
        PYTHON_DIR, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__", ".*")
    )
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        cwd=tmp_path,
    )
    code = (
        "import importlib.metadata as m, tts_parity; print(tts_parity.__file__); "
        "print(m.metadata('tts-parity').get_all('Requires-Dist'))"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *paths_without_a_tts_parity()])},
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0].startswith(str(target))
    requires = out[1]
    assert "numpy>=1.21" in requires and "jsonschema>=4" in requires
    assert 'torch>=2.2; extra == "torch"' in requires
    schemas = sorted(p.name for p in (target / "tts_parity" / "schema").iterdir())
    assert schemas and all(name.endswith(".json") for name in schemas)


def paths_without_a_tts_parity():
    """PYTHONPATH's folders less any holding a tts_parity (this checkout): where the package's dependencies may
    be found (gpu-check's pack puts jsonschema and fastjsonschema there, which the GPU image lacks)."""
    entries = [Path(entry).resolve() for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    return [str(entry) for entry in entries if not (entry / "tts_parity").exists()]


def test_the_torch_running_the_tests_is_inside_the_declared_range():
    import tomllib
    import torch

    declared = tomllib.loads((PYTHON_DIR / "pyproject.toml").read_text())["project"]["optional-dependencies"]["torch"]
    assert declared == ["torch>=2.2"]
    major, minor = (int(part) for part in torch.__version__.split(".")[:2])
    assert (major, minor) >= (2, 2), f"torch {torch.__version__} is older than the declared minimum 2.2"


def test_the_writer_and_the_step_recorder_document_the_step_fields_once():
    from tts_parity import StepRecorder, TraceWriter
    from tts_parity._step_fields import STEP_FIELDS_ARGS

    for method in (TraceWriter.write_step, StepRecorder.log):
        assert method.__doc__ is not None and method.__doc__.endswith(STEP_FIELDS_ARGS), method.__qualname__
        assert method.__doc__.count("Args:") == 1, method.__qualname__


def test_import_star_does_not_import_torch():
    probe = "from tts_parity import *; import sys; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=PYTHON_DIR)
    assert out.stdout.strip() == "False"
