"""Shared by the test_demo_twin_* files: one demo bundle per test process, built by the TypeScript builder
(`parity bundle build-demo`, the bytes `parity synth` uses), the twin loaded from it once, the twin's CLI
run in-process, and `parity` runs on the same bundle."""

import atexit
import json
import shutil
import tempfile
from pathlib import Path

from tts_parity.demo import demo_bundle_dir, load_twin
from tts_parity.demo.cli import main

from parity_cli import run_parity

_cache = {}


def demo_bundle() -> Path:
    """A demo bundle built for this session by `parity bundle build-demo`; where there is no Node (a GPU
    machine), the one scripts/gpu-pack carried (PARITY_CACHE_DIR), built by the same command."""
    if "bundle" not in _cache and shutil.which("node") is None:
        _cache["bundle"] = demo_bundle_dir()
    if "bundle" not in _cache:
        root = Path(tempfile.mkdtemp(prefix="twin-bundle-"))
        atexit.register(shutil.rmtree, root, True)
        built = run_parity("bundle", "build-demo", "--out", root / "demo")
        assert built.returncode == 0, built.stderr
        _cache["bundle"] = root / "demo"
    return _cache["bundle"]


def twin():
    if "twin" not in _cache:
        _cache["twin"] = load_twin(demo_bundle())
    return _cache["twin"]


def run_twin(capsys, *args):
    """The twin's CLI in-process on the test bundle: (exit status, stdout, stderr)."""
    status = main(["--bundle", str(demo_bundle()), *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


def engine_synth(folder: Path, text: str, profile: str = "eager"):
    """`parity synth` on the test bundle: (trace path, wav path)."""
    trace, wav = folder / "engine.jsonl", folder / "engine.wav"
    done = run_parity(
        "synth",
        "--bundle",
        demo_bundle(),
        "--text",
        text,
        "--profile",
        profile,
        "--trace",
        trace,
        "--out",
        wav,
        "--force",
    )
    assert done.returncode == 0, done.stderr
    return trace, wav


def read_trace(path: Path):
    """(header, step records) of a tts-parity-trace/1 file."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[0], lines[1:]


def compare_trace(a: Path, b: Path, *extra):
    """`parity compare-trace A B --json ...` -> the report."""
    done = run_parity("compare-trace", a, b, "--json", *extra)
    assert done.returncode == 0 and done.stdout.strip(), (
        f"compare-trace exited {done.returncode}: {done.stderr.strip()}"
    )
    return json.loads(done.stdout)
